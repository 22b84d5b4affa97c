package tvl_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// manyUnaryVocabulary has more unary predicates than one block of unary
// words holds (a model with soft invariants has thousands), so that
// structures over it have several blocks, the last one partial.
func manyUnaryVocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	v.MustAdd("b0", 0)
	for i := range 150 {
		v.MustAdd(fmt.Sprint("u", i), 1)
	}
	v.MustAdd("r0", 2)
	v.MustAdd("r1", 2)
	return v
}

func identity(n int) []int {
	keep := make([]int, n)
	for u := range keep {
		keep[u] = u
	}
	return keep
}

// Clones share unary blocks until one side writes; every write, growth
// past a word (65 individuals and more) and bifurcation stays private to
// the structure written, in every block, checked against independent
// copies (Project) after each step.
func TestUnaryBlocksStayIndependent(t *testing.T) {
	voc := manyUnaryVocabulary()
	unary := voc.OfArity(1)
	r := rand.New(rand.NewPCG(5, 17))
	for i := range 60 {
		base := sparseStructure(r, voc, 1+r.IntN(5), 0.3)
		live := []*tvl.Structure{base}
		shadow := []*tvl.Structure{base.Project(identity(base.Size()))}
		for step := range 40 {
			k := r.IntN(len(live))
			switch op := r.IntN(8); {
			case op == 0 && len(live) < 6:
				if r.IntN(2) == 0 {
					live[k].Freeze()
					live = append(live, live[k].Clone())
					shadow = append(shadow, shadow[k].Project(identity(shadow[k].Size())))
					live[k] = live[k].Clone() // the frozen one, writable again
				} else {
					live = append(live, live[k].Clone())
					shadow = append(shadow, shadow[k].Project(identity(shadow[k].Size())))
				}
			case op == 1 && live[k].Size() < 70:
				// Past 64 individuals each plane takes two words.
				for range 1 + r.IntN(40) {
					live[k].AddIndividual()
					shadow[k].AddIndividual()
				}
			case op == 2:
				u := r.IntN(live[k].Size())
				live[k].Duplicate(u)
				shadow[k].Duplicate(u)
			default:
				p := unary[r.IntN(len(unary))]
				u := r.IntN(live[k].Size())
				v := logic.Kleene(r.IntN(3))
				live[k].Set(p, v, u)
				shadow[k].Set(p, v, u)
			}
			for j := range live {
				if !tvl.Equal(live[j], shadow[j]) || live[j].OrderedHash() != shadow[j].OrderedHash() {
					t.Fatalf("case %d, step %d: structure %d is\n%s\nbut its independent copy is\n%s", i, step, j, live[j], shadow[j])
				}
				if live[j].Pack() != shadow[j].Pack() {
					t.Fatalf("case %d, step %d: structure %d packs differently from its copy", i, step, j)
				}
			}
		}
	}
}

// Packing round-trips over several blocks of unary predicates, one and
// three words a row.
func TestUnaryBlocksPackRoundTrip(t *testing.T) {
	voc := manyUnaryVocabulary()
	r := rand.New(rand.NewPCG(6, 18))
	for _, n := range []int{0, 1, 9, 64, 65, 130} {
		for _, density := range []float64{0, 0.05, 0.5} {
			checkRoundTrip(t, voc, sparseStructure(r, voc, n, density))
		}
	}
}

// JoinPointwise over several blocks is the join of every value, and
// leaves both arguments as they were.
func TestUnaryBlocksJoinPointwise(t *testing.T) {
	voc := manyUnaryVocabulary()
	r := rand.New(rand.NewPCG(7, 19))
	for range 100 {
		n := 1 + r.IntN(70)
		a := sparseStructure(r, voc, n, 0.1)
		b := a.Clone()
		for range r.IntN(6) {
			p := voc.OfArity(1)[r.IntN(150)]
			b.Set(p, logic.Kleene(r.IntN(3)), r.IntN(n))
		}
		a0, b0 := a.Pack(), b.Pack()
		j, grew := tvl.JoinPointwise(a, b)
		differs := false
		for _, p := range voc.Preds() {
			for args := range tvl.Tuples(n, p.Arity) {
				want := a.Get(p, args...).Join(b.Get(p, args...))
				if got := j.Get(p, args...); got != want {
					t.Fatalf("join of %s%v is %v, want %v", p.Name, args, got, want)
				}
				differs = differs || want != a.Get(p, args...)
			}
		}
		if grew != differs {
			t.Fatalf("JoinPointwise says grew=%v, the values say %v", grew, differs)
		}
		if a.Pack() != a0 || b.Pack() != b0 {
			t.Fatal("JoinPointwise changed an argument")
		}
	}
}
