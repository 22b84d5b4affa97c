package engine

import (
	"encoding/binary"
	"sync"
)

// arrival records that an action applied to a stored structure produced
// a structure that went into another slot (from.slot < 0 for an input).
type arrival struct {
	from   slotRef
	action string
}

// arrivalLog keeps every arrival of a run, for the traces of messages. A
// large run records tens of millions, a few times its stored
// structures: they are kept as a log of varint-coded groups, one per
// application's results (which share their source, action and target
// location), a few bytes an arrival, and indexed by target only when a
// trace asks for one.
type arrivalLog struct {
	locs    map[string]int32
	names   []string
	actions map[string]int32
	titles  []string
	// chunks hold the log, so that it never copies itself whole as it
	// grows. A group is: the target location, the source location + 1
	// (0: an input), the source slot, the action, the number of arrivals
	// and their target slots, each a uvarint.
	chunks  [][]byte
	scratch []byte
	// index maps a target (key) to its arrivals, in order: built from
	// the log when a trace asks (under mu: traces may be asked for from
	// several goroutines), dropped when the log grows.
	mu    sync.Mutex
	index map[uint64][]packedArrival
}

// packedArrival is an arrival with its location and action as indices
// (loc < 0 for an input).
type packedArrival struct {
	loc, slot, action int32
}

// logChunk is the largest size of the log's chunks; the first are
// smaller, so that a small run's log is small.
const logChunk = 1 << 20

func newArrivalLog() *arrivalLog {
	return &arrivalLog{locs: map[string]int32{}, actions: map[string]int32{}}
}

func (l *arrivalLog) locIndex(loc string) int32 {
	i, ok := l.locs[loc]
	if !ok {
		i = int32(len(l.names))
		l.locs[loc] = i
		l.names = append(l.names, loc)
	}
	return i
}

func (l *arrivalLog) actionIndex(action string) int32 {
	i, ok := l.actions[action]
	if !ok {
		i = int32(len(l.titles))
		l.actions[action] = i
		l.titles = append(l.titles, action)
	}
	return i
}

// add records that the action took the structure at from (slot < 0: an
// input) into each of the slots of location to, in order.
func (l *arrivalLog) add(to string, from slotRef, action string, slots []int) {
	if len(slots) == 0 {
		return
	}
	l.index = nil
	fromLoc, fromSlot := int32(-1), 0
	if from.slot >= 0 {
		fromLoc, fromSlot = l.locIndex(from.loc), from.slot
	}
	g := l.scratch[:0]
	for _, x := range []int{int(l.locIndex(to)), int(fromLoc + 1), fromSlot, int(l.actionIndex(action)), len(slots)} {
		g = binary.AppendUvarint(g, uint64(x))
	}
	for _, s := range slots {
		g = binary.AppendUvarint(g, uint64(s))
	}
	l.scratch = g
	n := len(l.chunks)
	if n == 0 || len(l.chunks[n-1])+len(g) > cap(l.chunks[n-1]) {
		size := 4 << 10
		if n > 0 {
			size = min(2*cap(l.chunks[n-1]), logChunk)
		}
		l.chunks = append(l.chunks, make([]byte, 0, max(size, len(g))))
		n++
	}
	l.chunks[n-1] = append(l.chunks[n-1], g...)
}

// key is a target's key in the index.
func arrivalKey(loc int32, slot int) uint64 { return uint64(loc)<<32 | uint64(uint32(slot)) }

// buildIndex reads the log into the index.
func (l *arrivalLog) buildIndex() {
	l.index = map[uint64][]packedArrival{}
	for _, c := range l.chunks {
		for len(c) > 0 {
			var h [5]uint64
			for i := range h {
				v, k := binary.Uvarint(c)
				h[i], c = v, c[k:]
			}
			a := packedArrival{loc: int32(h[1]) - 1, slot: int32(h[2]), action: int32(h[3])}
			if a.loc < 0 {
				a.slot = -1
			}
			for range h[4] {
				s, k := binary.Uvarint(c)
				c = c[k:]
				key := arrivalKey(int32(h[0]), int(s))
				l.index[key] = append(l.index[key], a)
			}
		}
	}
}

// arrivalsInto returns the arrivals into the slot at, in the order they
// happened.
func (l *arrivalLog) arrivalsInto(at slotRef) []arrival {
	i, ok := l.locs[at.loc]
	if !ok {
		return nil
	}
	l.mu.Lock()
	if l.index == nil {
		l.buildIndex()
	}
	packed := l.index[arrivalKey(i, at.slot)]
	l.mu.Unlock()
	out := make([]arrival, len(packed))
	for j, a := range packed {
		out[j].action = l.titles[a.action]
		out[j].from = slotRef{slot: -1}
		if a.loc >= 0 {
			out[j].from = slotRef{loc: l.names[a.loc], slot: int(a.slot)}
		}
	}
	return out
}
