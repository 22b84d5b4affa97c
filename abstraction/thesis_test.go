package abstraction

import (
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// advance is the transition x := x.next of the thesis' §4.3.4, with its
// focus formula, precondition and update formulas.
const advance = `
%p x(v) unique
%p next(v1, v2) function
%i circ[next](v) = next+(v, v)
%i reach[x,next](v) = E(u) x(u) & next*(u, v)
%%
%action Advance() {
  %f { x(v1) & next(v1, v2) }
  %p x(v1) & next(v1, v2)
  {
    x(v1) = E(v2) x(v2) & next(v2, v1)
    reach[x,next](v1) = reach[x,next](v1) & (!x(v1) | circ[next](v1))
  }
}
%%
L1 Advance() L2
`

type thesisPreds struct {
	x, next, circ, reach *tvl.Pred
}

func lookupThesis(voc *predicates.Vocabulary) thesisPreds {
	return thesisPreds{x: voc.Lookup("x").Pred, next: voc.Lookup("next").Pred,
		circ: voc.Lookup("circ[next]").Pred, reach: voc.Lookup("reach[x,next]").Pred}
}

func expectUnary(t *testing.T, s *tvl.Structure, what string, p *tvl.Pred, want ...logic.Kleene) {
	t.Helper()
	if s.Size() != len(want) {
		t.Fatalf("%s: %d individuals, want %d", what, s.Size(), len(want))
	}
	for u, w := range want {
		if got := s.Get(p, u); got != w {
			t.Errorf("%s: %s(u%d) = %v, want %v", what, p.Name, u+1, got, w)
		}
	}
}

func expectSummary(t *testing.T, s *tvl.Structure, what string, want ...bool) {
	t.Helper()
	for u, w := range want {
		if got := s.IsSummary(u); got != w {
			t.Errorf("%s: u%d summary = %v, want %v", what, u+1, got, w)
		}
	}
}

// The worked example of the thesis, §4.3.4, step by step: Focus yields
// S1, S2 and S3; Coerce makes u2 non-summary in S1 and S3 and discards
// S2; Update gives S4 and S5 with the values in the text; Coerce and Blur
// change neither.
func TestThesisWorkedExample(t *testing.T) {
	prog := testload.Text(t, advance)
	voc := prog.Vocabulary
	p := lookupThesis(voc)
	const U, T, F = logic.Unknown, logic.True, logic.False

	// S0 = S'1 of Fig. 4.6a: x on u1, u2 a summary node, next 1/2 from u1
	// to u2 and on u2, reach 1 on both, circ 0 on both.
	s0 := tvl.New(voc.Tvl())
	s0.AddIndividual()
	s0.AddIndividual()
	s0.SetSummary(1, true)
	s0.Set(p.x, T, 0)
	s0.Set(p.reach, T, 0)
	s0.Set(p.reach, T, 1)
	s0.Set(p.next, U, 0, 1)
	s0.Set(p.next, U, 1, 1)
	s0.Freeze()

	act, err := CompileAction(voc, prog.Actions[0], ActionOptions{Differencing: true})
	if err != nil {
		t.Fatal(err)
	}
	focused, err := act.focus[0].Focus(s0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(focused) != 3 {
		t.Fatalf("Focus gave %d structures, want 3", len(focused))
	}
	// In TVLA 3's order (the thesis numbers them otherwise): the value
	// 0 first, then 1, then the split individual.
	s2, s1, s3 := focused[0], focused[1], focused[2]
	if s1.Size() != 2 || s1.Get(p.next, 0, 1) != T {
		t.Errorf("S1: next(u1,u2) = %v, want 1", s1.Get(p.next, 0, 1))
	}
	if s2.Size() != 2 || s2.Get(p.next, 0, 1) != F {
		t.Errorf("S2: next(u1,u2) = %v, want 0", s2.Get(p.next, 0, 1))
	}
	// S3: the summary node split in two, the table of §4.3.4.
	expectUnary(t, s3, "S3", p.x, T, F, F)
	expectUnary(t, s3, "S3", p.circ, F, F, F)
	expectUnary(t, s3, "S3", p.reach, T, T, T)
	expectSummary(t, s3, "S3", false, true, true)
	wantNext := [3][3]logic.Kleene{{F, T, F}, {F, U, U}, {F, U, U}}
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			if got := s3.Get(p.next, a, b); got != wantNext[a][b] {
				t.Errorf("S3: next(u%d,u%d) = %v, want %v", a+1, b+1, got, wantNext[a][b])
			}
		}
	}

	coercer, err := NewCoercer(voc.Tvl(), predicates.Constraints(voc))
	if err != nil {
		t.Fatal(err)
	}
	r1 := coercer.Coerce(s1, nil)
	r2 := coercer.Coerce(s2, nil)
	r3 := coercer.Coerce(s3, nil)
	if !r1.Consistent || !r3.Consistent {
		t.Fatalf("Coerce discarded S1 or S3: %+v %+v", r1, r3)
	}
	if r2.Consistent {
		t.Fatalf("Coerce kept S2:\n%s", s2)
	}
	// C.3 (function) makes u2 non-summary in S'1 and S'3; nothing else
	// changes.
	expectSummary(t, s1, "S'1", false, false)
	expectSummary(t, s3, "S'3", false, false, true)
	if r1.Breaches != 1 || r3.Breaches != 1 {
		t.Errorf("breaches %d and %d, want one sharpening each", r1.Breaches, r3.Breaches)
	}

	var posts []*tvl.Structure
	for _, s := range []*tvl.Structure{s1, s3} {
		s.Freeze()
		bs := act.PreconditionBindings(s, nil)
		if len(bs) != 1 || bs[0][0] != 0 || bs[0][1] != 1 {
			t.Fatalf("precondition bindings %v, want exactly [v1=u1 v2=u2]", bs)
		}
		post, _ := act.Update(s, bs[0], nil)
		posts = append(posts, post)
	}
	s4, s5 := posts[0], posts[1]
	expectUnary(t, s4, "S4", p.x, F, T)
	expectUnary(t, s4, "S4", p.reach, F, T)
	expectUnary(t, s5, "S5", p.x, F, T, F)
	expectUnary(t, s5, "S5", p.reach, F, T, T)
	for name, s := range map[string]*tvl.Structure{"S4": s4, "S5": s5} {
		before := s.Clone()
		if r := coercer.Coerce(s, act.changes); !r.Consistent || r.Breaches != 0 || !tvl.Equal(before, s) {
			t.Errorf("Coerce changed %s: %+v", name, r)
		}
		b, embed := Blur(s, voc.AbstractionPreds())
		if b.Size() != s.Size() {
			t.Errorf("Blur merged individuals of %s", name)
		}
		for u := 0; u < s.Size(); u++ {
			for _, q := range []*tvl.Pred{p.x, p.reach, p.circ, voc.Tvl().Summary()} {
				if b.Get(q, embed[u]) != s.Get(q, u) {
					t.Errorf("Blur changed %s(u%d) of %s", q.Name, u+1, name)
				}
			}
		}
	}
}
