package abstraction

import (
	"slices"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// Two definitions, one with a body of one literal and one with two.
const closureProgram = `
%p n(v1, v2)
%p m(v1, v2)
%p d(v)
%p x(v) unique pointer
%i h(v) = E(u) n(u, v)
%i w(v) = E(u) m(u, v) & !d(u)
%%
%action skip() {
  %t "skip"
}
%%
L1 skip() L2
`

// h(q) and w(s) are 0 while the edges that would make them 1 are 1/2.
// TVLA 3 on this structure (run as an oracle) keeps n(p, q) at 1/2 and
// sets m(r, s) to 0: it derives !w(v) & !d(u) ==> !m(u, v) but not
// !h(v) ==> !n(u, v). The full closure derives both.
const closureInput = `
%n = {p, q, r, s}
%p = {
  x = {p}
  n = {p->q:1/2}
  m = {r->s:1/2}
}
`

func TestClosureModes(t *testing.T) {
	prog := testload.Text(t, closureProgram)
	voc := prog.Vocabulary
	n, m := voc.Lookup("n").Pred, voc.Lookup("m").Pred
	for _, c := range []struct {
		closure predicates.Closure
		n, m    logic.Kleene // n(p, q) and m(r, s) after Coerce
	}{
		{predicates.ClosureTVLA, logic.Unknown, logic.False},
		{predicates.ClosureFull, logic.False, logic.False},
	} {
		t.Run(c.closure.String(), func(t *testing.T) {
			locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", closureInput), voc.Tvl())
			if err != nil {
				t.Fatal(err)
			}
			in := locs[0].Structures[0]
			at := func(name string) int { return slices.Index(in.Names, name) }
			s := in.Structure
			coercer, err := NewCoercer(voc.Tvl(), predicates.ConstraintsWith(voc, c.closure))
			if err != nil {
				t.Fatal(err)
			}
			if r := coercer.Coerce(s, nil); !r.Consistent {
				t.Fatal("Coerce discarded the structure")
			}
			if got := s.Get(n, at("p"), at("q")); got != c.n {
				t.Errorf("n(p, q) = %v, want %v", got, c.n)
			}
			if got := s.Get(m, at("r"), at("s")); got != c.m {
				t.Errorf("m(r, s) = %v, want %v", got, c.m)
			}
		})
	}
}

func TestParseClosure(t *testing.T) {
	for _, name := range []string{"full", "tvla"} {
		c, err := predicates.ParseClosure(name)
		if err != nil || c.String() != name {
			t.Errorf("ParseClosure(%q) = %v, %v", name, c, err)
		}
	}
	if _, err := predicates.ParseClosure("some"); err == nil {
		t.Error("ParseClosure accepted an unknown name")
	}
}

// A rule whose head names a variable that an outermost E of its body
// binds reads as TVLA 3 reads it (checked with it on this input): the
// head's m is the body's, so from d(a, c) and !d(a, b) Coerce concludes
// !d(c, b), and keeps the structure.
func TestRuleHeadSharesBodyVariable(t *testing.T) {
	prog := testload.Text(t, `
%p d(v1, v2)
%r E(m) (d(v1, m) & !d(v1, v2)) ==> !d(m, v2)
%%
%action skip() {
  %t "skip"
}
%%
L1 skip() L2
`)
	voc := prog.Vocabulary
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", `
%n = {a, b, c}
%p = {
  d = {a->a, b->b, c->c, a->c, c->b:1/2}
}
`), voc.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	in := locs[0].Structures[0]
	at := func(name string) int { return slices.Index(in.Names, name) }
	coercer, err := NewCoercer(voc.Tvl(), predicates.Constraints(voc))
	if err != nil {
		t.Fatal(err)
	}
	if r := coercer.Coerce(in.Structure, nil); !r.Consistent {
		t.Fatalf("Coerce discarded the structure (%s)", r.Violated)
	}
	if got := in.Structure.Get(voc.Lookup("d").Pred, at("c"), at("b")); got != logic.False {
		t.Errorf("d(c, b) = %v, want 0", got)
	}
}
