package programs_test

import (
	"context"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// softSample is the collapsed tagged queue with every soft invariant
// the pairs of its saved set generate (a round 2, as the one that ran
// long before the set verified), and structures its engine stored in the
// first part of that run.
type softSample struct {
	prog       *model.Program
	structures []*tvl.Structure
}

var (
	softSampleOnce sync.Once
	softSampleVal  *softSample
	softSampleErr  error
)

func loadSoftSample(n int) (*softSample, error) {
	softSampleOnce.Do(func() {
		softSampleVal, softSampleErr = buildSoftSample(n)
	})
	return softSampleVal, softSampleErr
}

// cachedSample reads the sample's structures from file (packed, one a
// line in hex) when it exists, else builds them and writes it.
func cachedSample(n int, file string) (*softSample, error) {
	if file == "" {
		return loadSoftSample(n)
	}
	if data, err := os.ReadFile(file); err == nil {
		prog, _, err := softProgram()
		if err != nil {
			return nil, err
		}
		smp := &softSample{prog: prog}
		for _, line := range strings.Fields(string(data)) {
			b, err := hex.DecodeString(line)
			if err != nil {
				return nil, err
			}
			smp.structures = append(smp.structures, tvl.PackedFromEncoding(string(b)).Unpack(prog.Vocabulary.Tvl()))
		}
		return smp, nil
	}
	smp, err := loadSoftSample(n)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, s := range smp.structures {
		b.WriteString(hex.EncodeToString([]byte(s.Pack().Encoding())))
		b.WriteByte('\n')
	}
	return smp, os.WriteFile(file, []byte(b.String()), 0o644)
}

func softProgram() (*model.Program, tvp.LoadConfig, error) {
	const path = "queue/msqueue-tagged.alg"
	data, err := os.ReadFile("queue/msqueue-tagged.soft")
	if err != nil {
		return nil, tvp.LoadConfig{}, err
	}
	set, err := driver.ParseSoftSet("queue/msqueue-tagged.soft", data)
	if err != nil {
		return nil, tvp.LoadConfig{}, err
	}
	cfg := tvp.LoadConfig{Defines: map[string]string{"COLLAPSE_THREADS": "1"},
		Soft: &predicates.SoftConfig{Pairs: set.Pairs}}
	prog, _, err := algc.Load(path, cfg)
	return prog, cfg, err
}

func buildSoftSample(n int) (*softSample, error) {
	const path = "queue/msqueue-tagged.alg"
	prog, cfg, err := softProgram()
	if err != nil {
		return nil, err
	}
	in, inner, err := algc.Input(path, cfg)
	if err != nil {
		return nil, err
	}
	locs, err := tvp.LoadTVS(in, prog.Vocabulary.Tvl(), inner)
	if err != nil {
		return nil, err
	}
	var inputs []*tvl.Structure
	for _, l := range locs {
		for _, s := range l.Structures {
			if err := prog.SoftInvariants.Initialize(s.Structure); err != nil {
				return nil, err
			}
			inputs = append(inputs, s.Structure)
		}
	}
	e, err := engine.New(prog, engine.Options{MaxStructures: n, Workers: 1, Differencing: true, BreakIfCoerceAfterUpdateFailed: true})
	if err != nil {
		return nil, err
	}
	res, err := e.Run(context.Background(), inputs)
	if err != nil {
		return nil, err
	}
	smp := &softSample{prog: prog}
	if os.Getenv("TVLA_SOFT_STATS") != "" {
		println("incomplete", res.Incomplete, res.StopReason, res.Stats.Messages, len(prog.SoftInvariants.Invariants))
	}
	for _, l := range res.Locations {
		for _, s := range l.Structures.All() {
			smp.structures = append(smp.structures, s)
		}
	}
	return smp, nil
}

// splits lists, per sample structure, the Focus-like refinements the
// benchmark coerces: a unary predicate that is no soft invariant set
// from 1/2 to 0 or 1 on one individual.
type split struct {
	s  int
	p  *tvl.Pred
	u  int
	to logic.Kleene
}

func sampleSplits(smp *softSample) []split {
	soft := map[string]bool{}
	for _, inv := range smp.prog.SoftInvariants.Invariants {
		soft[inv.Pred.Name] = true
	}
	var out []split
	voc := smp.prog.Vocabulary.Tvl()
	for i, s := range smp.structures {
		for _, p := range voc.Preds() {
			if p.Arity != 1 || soft[p.Name] || p == voc.Summary() {
				continue
			}
			for u := 0; u < s.Size(); u++ {
				if s.Get(p, u) == logic.Unknown {
					out = append(out, split{i, p, u, logic.False}, split{i, p, u, logic.True})
				}
			}
		}
	}
	return out
}

// BenchmarkCoerceSoft coerces structures of the collapsed tagged queue
// under its 12,771 constraints (most of them soft invariants'): "full"
// checks every constraint on each stored structure, "split" coerces
// after one unary value is made definite, as Focus does. Building the
// sample runs the engine (minutes); TVLA_SOFT_SAMPLE=FILE keeps it.
func BenchmarkCoerceSoft(b *testing.B) {
	smp, err := cachedSample(300, os.Getenv("TVLA_SOFT_SAMPLE"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := abstraction.NewCoercer(smp.prog.Vocabulary.Tvl(), predicates.Constraints(smp.prog.Vocabulary))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			for _, s := range smp.structures {
				c.Coerce(s.Clone(), nil)
			}
		}
	})
	splits := sampleSplits(smp)
	b.Run("split", func(b *testing.B) {
		for b.Loop() {
			for _, sp := range splits {
				x := smp.structures[sp.s].Clone()
				x.Set(sp.p, sp.to, sp.u)
				c.Coerce(x, []*tvl.Pred{sp.p})
			}
		}
	})
}
