package abstraction

import (
	"slices"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// The single-structure join's pieces, each checked against what the
// reference TVLA 3 does with -join ind on the same small inputs (run as a
// black box; the expected structures are its output).

// indProgram declares named individuals (nu, nw, nq, nr: nonabs markers,
// so that a test can tell which individual is which after some are
// removed) and a focus action.
const indProgram = `
%p y(v) unique
%p z(v)
%p z2(v) nonabs
%p nu(v) nonabs
%p nw(v) nonabs
%p nq(v) nonabs
%p nr(v) nonabs
%p nxt(v1, v2) function
%%
%action F() {
  %f { E(a) z2(a) & nxt(a, v) }
}
%action G() {
  %f { E(a) z(a) & nxt(a, v) }
}
%%
L1 F() L2
L1 G() L2
`

// describe lists, per named individual left, its existence and the
// values of z2 and of nxt from it, e.g. "u:1 z2=1 nxt(u,w)=1/2 | w:1/2".
func describe(s *tvl.Structure) string {
	voc := s.Vocabulary()
	names := []string{"u", "w", "q", "r"}
	name := func(i int) string {
		for _, n := range names {
			if s.Get(voc.Lookup("n"+n), i) == logic.True {
				return n
			}
		}
		return "?"
	}
	inac, z2, nxt := voc.Lookup(predicates.InacName), voc.Lookup("z2"), voc.Lookup("nxt")
	var parts []string
	for i := 0; i < s.Size(); i++ {
		p := name(i) + ":" + s.Get(inac, i).String()
		if v := s.Get(z2, i); v != logic.False {
			p += " z2=" + v.String()
		}
		for j := 0; j < s.Size(); j++ {
			if v := s.Get(nxt, i, j); v != logic.False {
				p += " nxt(" + name(i) + "," + name(j) + ")=" + v.String()
			}
		}
		parts = append(parts, p)
	}
	slices.Sort(parts)
	return strings.Join(parts, " | ")
}

func walkFocus(t *testing.T, which int, s *tvl.Structure) []string {
	t.Helper()
	prog := testload.Text(t, indProgram)
	act, err := CompileAction(prog.Vocabulary, prog.Edges[which].Action, ActionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exists := prog.Vocabulary.Tvl().Lookup(predicates.InacName)
	out, err := NewWalkingFocuser(act.Focusers()[0], exists).Focus(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range out {
		got = append(got, describe(r))
	}
	slices.Sort(got)
	return got
}

// build makes a structure of the named individuals, all of which may not
// exist, with the given values.
func build(t *testing.T, set func(s *tvl.Structure, ind map[string]int)) *tvl.Structure {
	t.Helper()
	prog := testload.Text(t, indProgram)
	voc := prog.Vocabulary.Tvl()
	s := tvl.New(voc)
	ind := map[string]int{}
	for _, n := range []string{"u", "w", "q", "r"} {
		ind[n] = s.AddIndividual()
		s.Set(voc.Lookup("n"+n), logic.True, ind[n])
		s.Set(voc.Lookup(predicates.InacName), logic.Unknown, ind[n])
	}
	set(s, ind)
	return s
}

// Focus walks the formula: it settles a's existence, then z2(a), then
// v's existence, then nxt(a, v), and leaves w unsettled where z2(u) is 0.
func TestWalkingFocusSettlesExistenceAtomByAtom(t *testing.T) {
	s := build(t, func(s *tvl.Structure, ind map[string]int) {
		voc := s.Vocabulary()
		s.Set(voc.Lookup("z2"), logic.Unknown, ind["u"])
		s.Set(voc.Lookup("nxt"), logic.Unknown, ind["u"], ind["w"])
		// q and r do not exist here.
		s.Set(voc.Lookup(predicates.InacName), logic.False, ind["q"])
		s.Set(voc.Lookup(predicates.InacName), logic.False, ind["r"])
	})
	got := walkFocus(t, 0, RemoveNonexistent(s, s.Vocabulary().Lookup(predicates.InacName)))
	want := []string{
		"u:1 z2=1 nxt(u,w)=1 | w:1",
		"u:1 z2=1 | w:1",
		"u:1 z2=1",
		"u:1 nxt(u,w)=1/2 | w:1/2",
		"w:1/2",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("focused:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A conjunction is focused conjunct by conjunct, the second once per
// assignment of the first's variables that makes it 1, each from the same
// structure: where z(a) holds for two individuals, one of which has no
// successor, the structure also comes out with nxt(u, w) left 1/2.
func TestWalkingFocusConjunctionPerAssignment(t *testing.T) {
	s := build(t, func(s *tvl.Structure, ind map[string]int) {
		voc := s.Vocabulary()
		s.Set(voc.Lookup("z"), logic.True, ind["u"])
		s.Set(voc.Lookup("z"), logic.True, ind["q"])
		s.Set(voc.Lookup("nxt"), logic.Unknown, ind["u"], ind["w"])
		s.Set(voc.Lookup(predicates.InacName), logic.False, ind["r"])
	})
	got := walkFocus(t, 1, RemoveNonexistent(s, s.Vocabulary().Lookup(predicates.InacName)))
	// The reference's nine structures; the one with nxt(u, w) at 1/2
	// comes from q's assignment, under which nxt(q, v) is 0 everywhere.
	want := []string{
		"q:1 | u:1 nxt(u,w)=1 | w:1",
		"q:1 | u:1 nxt(u,w)=1/2 | w:1/2",
		"q:1 | u:1 | w:1",
		"q:1 | u:1",
		"q:1 | w:1/2",
		"u:1 nxt(u,w)=1 | w:1",
		"u:1 | w:1",
		"u:1",
		"w:1/2",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("focused:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Coerce under this join looks only at the assignments that involve a
// changed tuple: a violation elsewhere stays (TVLA 3 keeps it too).
func TestCoerceDeltaLooksOnlyAtChangedTuples(t *testing.T) {
	prog := testload.Text(t, "%p t(v) unique\n%p m(v)\n%%\n%%\n")
	voc := prog.Vocabulary.Tvl()
	tp, m, inac := voc.Lookup("t"), voc.Lookup("m"), voc.Lookup(predicates.InacName)
	c, err := NewCoercer(voc, predicates.Relativize(predicates.Constraints(prog.Vocabulary), predicates.InacName))
	if err != nil {
		t.Fatal(err)
	}
	mk := func() *tvl.Structure {
		s := tvl.New(voc)
		for i := 0; i < 3; i++ {
			u := s.AddIndividual()
			s.Set(inac, logic.True, u)
		}
		s.Set(tp, logic.True, 0)
		s.Set(tp, logic.True, 1) // two t individuals: unique broken
		s.Set(m, logic.True, 2)
		return s
	}
	d := NewDelta()
	d.AddTuple(m, []int{2})
	if r := c.CoerceDelta(mk(), d, false); !r.Consistent {
		t.Error("a change of m(u3) made Coerce look at t's violation")
	}
	d = NewDelta()
	d.AddTuple(tp, []int{1})
	if r := c.CoerceDelta(mk(), d, false); r.Consistent {
		t.Error("a change of t(u2) did not find t's violation")
	}
	if r := c.Coerce(mk(), nil); r.Consistent {
		t.Error("a full Coerce did not find t's violation")
	}
	// An individual that may not exist breaks nothing.
	s := mk()
	s.Set(inac, logic.Unknown, 1)
	if r := c.Coerce(s, nil); !r.Consistent {
		t.Error("an individual at inac 1/2 made the structure inconsistent")
	}
}

func TestRemoveNonexistent(t *testing.T) {
	v := tvl.NewVocabulary()
	x, inac := v.MustAdd("x", 1), v.MustAdd(predicates.InacName, 1)
	s := tvl.New(v)
	for i, val := range []logic.Kleene{logic.True, logic.False, logic.Unknown} {
		u := s.AddIndividual()
		s.Set(inac, val, u)
		if i == 2 {
			s.Set(x, logic.True, u)
		}
	}
	d := RemoveNonexistent(s, inac)
	if d.Size() != 2 || d.Get(x, 1) != logic.True || d.Get(inac, 1) != logic.Unknown {
		t.Errorf("after dropping:\n%s", d)
	}
	if RemoveNonexistent(d, inac) != d {
		t.Error("nothing to drop, yet a copy")
	}
}
