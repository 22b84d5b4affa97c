package tvl

import "sync"

// Unpacked structures share their binary tables: the same few thousand
// tables recur across the structures of a run (4,189 distinct among
// 378,703 tables not 0 in 50,000 structures of the uncollapsed queue), so
// Unpack looks a table up by its packed tuples and allocates only the
// tables it has not seen. The tables are never written (their owner is
// sharedTables: a writer copies first), and the map is bounded: a shard
// that fills is emptied (the tables it held stay with their structures).

// sharedTables owns the tables Unpack shares; no structure's token
// equals it.
const sharedTables owner = 2

// internKey is a table's key: the universe's size and its packed tuples.
type internKey struct {
	n      int
	tuples string
}

type internShard struct {
	mu sync.RWMutex
	m  map[internKey]*table
}

// internShards spread the lookups of concurrent unpacks.
var internShards [16]internShard

// internShardMax bounds a shard's tables.
const internShardMax = 4096

func internShardOf(n int, tuples string) *internShard {
	h := uint32(2166136261) ^ uint32(n)
	for i := 0; i < len(tuples); i++ {
		h = (h ^ uint32(tuples[i])) * 16777619
	}
	return &internShards[h&15]
}

// internedTable returns the table of a universe of n individuals whose
// tuples are packed as tuples, if one was kept.
func internedTable(n int, tuples string) *table {
	sh := internShardOf(n, tuples)
	sh.mu.RLock()
	t := sh.m[internKey{n, tuples}]
	sh.mu.RUnlock()
	return t
}

// internTable keeps t as the table packed as tuples (a copy of them is
// kept, not the string they are cut from).
func internTable(n int, tuples string, t *table) {
	sh := internShardOf(n, tuples)
	key := internKey{n, string(append([]byte(nil), tuples...))}
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= internShardMax {
		sh.m = make(map[internKey]*table)
	}
	sh.m[key] = t
	sh.mu.Unlock()
}
