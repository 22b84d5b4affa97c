package programs_test

import (
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/tvl"
)

// queueStructures runs the uncollapsed Michael–Scott queue to max
// stored structures and returns them, unpacked.
func queueStructures(tb testing.TB, max int) []*tvl.Structure {
	res := runWith(tb, "queue/queue.tvp", engine.Options{MaxStructures: max})
	var all []*tvl.Structure
	for _, l := range res.Locations {
		all = append(all, l.Structures.Slice()...)
	}
	return all
}

// BenchmarkPack packs and unpacks the structures the uncollapsed queue
// stores (65 unary and 9 binary predicates, about 13 individuals): what
// each stored structure costs the engine's workers and its join.
func BenchmarkPack(b *testing.B) {
	all := queueStructures(b, 5000)
	packed := make([]tvl.Packed, len(all))
	bytes := 0
	for i, s := range all {
		packed[i] = s.Pack()
		bytes += packed[i].Len()
	}
	voc := all[0].Vocabulary()
	b.Run("pack", func(b *testing.B) {
		i := 0
		for b.Loop() {
			all[i%len(all)].Pack()
			i++
		}
		b.ReportMetric(float64(bytes)/float64(len(all)), "B/structure")
	})
	b.Run("unpack", func(b *testing.B) {
		i := 0
		for b.Loop() {
			packed[i%len(all)].Unpack(voc)
			i++
		}
	})
}
