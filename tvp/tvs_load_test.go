package tvp

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// bigListTVS is a TVS of one list of n nodes: x points to the first, nxt
// links each to the next.
func bigListTVS(n int) string {
	var b strings.Builder
	b.WriteString("%n = {")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("u" + strconv.Itoa(i))
	}
	b.WriteString("}\n%p = {\n  x = {u0}\n  nxt = {")
	for i := 0; i+1 < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("u" + strconv.Itoa(i) + "->u" + strconv.Itoa(i+1))
	}
	b.WriteString("}\n}\n")
	return b.String()
}

func bigListVocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	v.MustAdd("x", 1)
	v.MustAdd("nxt", 2)
	return v
}

func benchmarkLoadBigTVS(b *testing.B, n int) {
	text := bigListTVS(n)
	voc := bigListVocabulary()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParseTVS(NewPlainSource("big.tvs", text), voc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadTVS1k(b *testing.B)  { benchmarkLoadBigTVS(b, 1000) }
func BenchmarkLoadTVS10k(b *testing.B) { benchmarkLoadBigTVS(b, 10000) }
func BenchmarkLoadTVS30k(b *testing.B) { benchmarkLoadBigTVS(b, 30000) }

// TestParseTVSLargeUniverseAllocates bounds the memory loading a TVS of
// many individuals allocates: the structure's binary tables (n² bits
// each, twice) and a few KiB per individual (8 KiB allowed) for the text, the tokens and
// the names. Adding the individuals one at a time copied every binary
// table per individual, cubic in words: 10,000 individuals allocated
// 83 GB and took most of a minute.
func TestParseTVSLargeUniverseAllocates(t *testing.T) {
	const n = 2000
	text := bigListTVS(n)
	voc := bigListVocabulary()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	locs, err := ParseTVS(NewPlainSource("big.tvs", text), voc)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	s := locs[0].Structures[0].Structure
	if s.Size() != n {
		t.Fatalf("%d individuals, want %d", s.Size(), n)
	}
	if got := s.Get(voc.Lookup("nxt"), n-2, n-1); got != logic.True {
		t.Errorf("nxt(u%d, u%d) = %v, want 1", n-2, n-1, got)
	}
	tables := uint64(2 * n * ((n + 63) / 64) * 8) // nxt's two planes
	limit := 2*tables + 8192*n
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d individuals: %d bytes allocated (limit %d)", n, got, limit)
	if got > limit {
		t.Errorf("loading %d individuals allocated %d bytes, want at most %d", n, got, limit)
	}
}
