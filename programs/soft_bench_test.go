package programs_test

import (
	"context"
	"testing"

	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// The collapsed tagged queue with every soft invariant the pairs of its
// saved set generate (2,630; before the set verified, its seed's pairs
// gave the round that ran long, 3,176): "build" compiles its engine
// (finite differencing derives thousands of updates per action), "run"
// explores from its input to 500 stored structures on one worker (Focus,
// Coerce, the updates and Blur on structures whose unary tables are
// large). Each op takes seconds: run with -benchtime 1x.
func BenchmarkSoftRound(b *testing.B) {
	prog, cfg, err := softProgram()
	if err != nil {
		b.Fatal(err)
	}
	opts := engine.Options{MaxStructures: 500, Workers: 1, Differencing: true, BreakIfCoerceAfterUpdateFailed: true}
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := engine.New(prog, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	in, inner, err := algc.Input("queue/msqueue-tagged.alg", cfg)
	if err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(prog, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			locs, err := tvp.LoadTVS(in, prog.Vocabulary.Tvl(), inner)
			if err != nil {
				b.Fatal(err)
			}
			var inputs []*tvl.Structure
			for _, l := range locs {
				for _, s := range l.Structures {
					if err := prog.SoftInvariants.Initialize(s.Structure); err != nil {
						b.Fatal(err)
					}
					inputs = append(inputs, s.Structure)
				}
			}
			res, err := e.Run(context.Background(), inputs)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(res.Stats.Examined), "examined/op")
		}
	})
}
