package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// loadSLL loads a bundled list program and its inputs.
func loadSLL(t *testing.T, name string, defines ...string) (*Engine, []*tvl.Structure) {
	t.Helper()
	return loadSLLWith(t, name, Options{Join: JoinConcrete, Differencing: true}, defines...)
}

func loadSLLWith(t *testing.T, name string, opts Options, defines ...string) (*Engine, []*tvl.Structure) {
	t.Helper()
	path := filepath.Join("..", "programs", "sll", name+".tvp")
	prog, inputs := testload.Program(t, path, testload.Defines(defines...))
	e, err := New(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e, inputs
}

// listLength is the number of nodes reachable from x (following nxt), or
// -1 when the structure has a node that is not on x's list or a cycle.
func listLength(s *tvl.Structure) int {
	voc := s.Vocabulary()
	x, nxt := voc.Lookup("x"), voc.Lookup("nxt")
	cur := -1
	for u := 0; u < s.Size(); u++ {
		if s.Get(x, u) == logic.True {
			cur = u
		}
	}
	seen := map[int]bool{}
	for cur >= 0 {
		if seen[cur] {
			return -1
		}
		seen[cur] = true
		next := -1
		for w := 0; w < s.Size(); w++ {
			if s.Get(nxt, cur, w) == logic.True {
				next = w
			}
		}
		cur = next
	}
	if len(seen) != s.Size() {
		return -1
	}
	return len(seen)
}

// The list inputs (a list of two or more nodes, of one node, empty) give
// the lists of 0 to Copies+1 nodes, one each, with path, reach[x] and
// shared as their definitions say.
func TestConcretizeLists(t *testing.T) {
	e, inputs := loadSLL(t, "reverse")
	for copies, want := range map[int][]int{1: {2, 1, 0}, 3: {2, 3, 4, 1, 0}} {
		out, rep, err := e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: copies})
		if err != nil {
			t.Fatal(err)
		}
		var lengths []int
		for _, s := range out {
			lengths = append(lengths, listLength(s))
			if !twoValued(s) {
				t.Errorf("not two-valued:\n%s", s)
			}
			path := s.Vocabulary().Lookup("path")
			for u := 0; u < s.Size(); u++ {
				if s.Get(path, u, u) != logic.True {
					t.Errorf("path(u%d, u%d) is not 1:\n%s", u, u, s)
				}
			}
		}
		if len(lengths) != len(want) {
			t.Fatalf("copies %d: lengths %v, want %v", copies, lengths, want)
		}
		for i := range want {
			if lengths[i] != want[i] {
				t.Errorf("copies %d: lengths %v, want %v", copies, lengths, want)
			}
		}
		if rep.PerInput[0] != copies || rep.PerInput[1] != 1 || rep.PerInput[2] != 1 || rep.Truncated {
			t.Errorf("report %+v", rep)
		}
	}
	// The bound stops the enumeration.
	out, rep, _ := e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: 3, Max: 2})
	if len(out) != 2 || !rep.Truncated {
		t.Errorf("with Max 2: %d structures, truncated %v", len(out), rep.Truncated)
	}
}

// Concrete reversal of lists of 0 to 4 nodes: every run ends at exit with
// the reversed list in y and no message. The program is deterministic, so
// the loop head holds n+1 states for a list of n nodes (15 in all), the
// loop body n (10), and the other locations one per list (5).
func TestConcreteReverse(t *testing.T) {
	e, inputs := loadSLL(t, "reverse")
	conc, _, err := e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), conc)
	if err != nil {
		t.Fatal(err)
	}
	if res.Incomplete || res.Stats.Messages != 0 {
		t.Fatalf("incomplete %v (%s), %d messages", res.Incomplete, res.StopReason, res.Stats.Messages)
	}
	exit := res.Location("exit")
	if exit.Structures.Len() != 5 {
		t.Fatalf("%d structures at exit, want 5", exit.Structures.Len())
	}
	for _, s := range exit.Structures.All() {
		voc := s.Vocabulary()
		x, y := voc.Lookup("x"), voc.Lookup("y")
		for u := 0; u < s.Size(); u++ {
			if s.Get(x, u) != logic.False {
				t.Errorf("x is not NULL at exit:\n%s", s)
			}
		}
		// Read the list from y.
		rev := s.Clone()
		for u := 0; u < s.Size(); u++ {
			rev.Set(x, s.Get(y, u), u)
		}
		if n := listLength(rev); n != s.Size() {
			t.Errorf("y is not a list of all %d nodes:\n%s", s.Size(), s)
		}
	}
	for _, l := range res.Locations {
		want := 5
		switch l.Label {
		case "L2":
			want = 15
		case "L3", "L4", "L5", "L6", "L7":
			want = 10
		}
		if l.Structures.Len() != want {
			t.Errorf("%s: %d structures, want %d", l.Label, l.Structures.Len(), want)
		}
	}
}

// A concrete run reports the null dereference of the faulty search, and a
// shortest concrete trace leads to it.
func TestConcreteSearchFindsTheNullDereference(t *testing.T) {
	e, inputs := loadSLL(t, "search_nullderef")
	conc, _, _ := e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: 2})
	res, err := e.Run(context.Background(), conc)
	if err != nil {
		t.Fatal(err)
	}
	l3 := res.Location("L3")
	if len(l3.Messages) == 0 {
		t.Fatal("no message at L3")
	}
	for _, m := range l3.Messages {
		if m.Text != "null dereference: y->nxt" {
			t.Errorf("message %q", m.Text)
		}
		tr := res.Trace(m)
		if len(tr) < 2 || tr[0].Location != "L1" || tr[len(tr)-1].Location != "L3" {
			t.Errorf("trace %+v", tr)
		}
	}
}

// The depth limit and the structure limit stop a concrete run, which is
// then incomplete; the time limit's cause is its stop reason.
func TestConcreteLimits(t *testing.T) {
	e, inputs := loadSLLWith(t, "reverse", Options{Join: JoinConcrete, Differencing: true, MaxDepth: 3})
	conc, _, _ := e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: 2})
	res, err := e.Run(context.Background(), conc)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Incomplete || res.StopReason != "the depth limit (3) was reached" {
		t.Errorf("incomplete %v, reason %q", res.Incomplete, res.StopReason)
	}
	// Depth 3: L1, L2, then L3 and L8, then L4 and L9; nothing beyond.
	for _, l := range res.Locations {
		switch l.Label {
		case "L1", "L2", "L3", "L8", "L4", "L9":
			if l.Structures.Len() == 0 {
				t.Errorf("%s is empty", l.Label)
			}
		default:
			if l.Structures.Len() != 0 {
				t.Errorf("%s holds %d structures beyond the depth limit", l.Label, l.Structures.Len())
			}
		}
	}
	e, _ = loadSLLWith(t, "reverse", Options{Join: JoinConcrete, Differencing: true, MaxStructures: 10})
	res, _ = e.Run(context.Background(), conc)
	if !res.Incomplete || !strings.Contains(res.StopReason, "structure limit (10)") {
		t.Errorf("incomplete %v, reason %q", res.Incomplete, res.StopReason)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errString("the memory limit (1 MiB) was reached"))
	res, _ = e.Run(ctx, conc)
	if res.StopReason != "the memory limit (1 MiB) was reached" {
		t.Errorf("reason %q", res.StopReason)
	}
	// Abstract runs report the cause too.
	a, ainputs := loadSLLWith(t, "reverse", Options{Differencing: true})
	res, _ = a.Run(ctx, ainputs)
	if !res.Incomplete || res.StopReason != "the memory limit (1 MiB) was reached" {
		t.Errorf("abstract: incomplete %v, reason %q", res.Incomplete, res.StopReason)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Wrong hand-written updates show on concrete states: with reach[x]'s
// update of x = x->nxt made to keep x's old node, the concrete run raises
// a concrete check message at the Load.
func TestConcreteChecksUpdatesAgainstDefinitions(t *testing.T) {
	prog := testload.Text(t, `
%p x(v) unique pointer
%p nxt(v1, v2) function acyclic
%i reach[x](v) = E(a) x(a) & nxt*(a, v)
%%
%action Load() {
  %f { E(a) x(a) & nxt(a, v) }
  {
    x(v) = E(a) x(a) & nxt(a, v)
    reach[x](v) = reach[x](v)
  }
}
%%
L1 Load() L2
`)
	e, err := New(prog, Options{Join: JoinConcrete, Differencing: true})
	if err != nil {
		t.Fatal(err)
	}
	voc := prog.Vocabulary.Tvl()
	s := tvl.New(voc)
	a, b := s.AddIndividual(), s.AddIndividual()
	s.Set(voc.Lookup("x"), logic.True, a)
	s.Set(voc.Lookup("nxt"), logic.True, a, b)
	res, err := e.Run(context.Background(), []*tvl.Structure{s})
	if err != nil {
		t.Fatal(err)
	}
	l1 := res.Location("L1")
	if len(l1.Messages) != 1 || l1.Messages[0].Text != ConcreteCheck+"the update of reach[x] disagrees with its definition" {
		t.Fatalf("messages %+v", l1.Messages)
	}
	// The stored state follows the definition: reach[x] only on b.
	got := res.Location("L2").Structures.At(0)
	r := voc.Lookup("reach[x]")
	for u := 0; u < 2; u++ {
		if got.Get(r, u) != got.Get(voc.Lookup("x"), u) {
			t.Errorf("reach[x](u%d) = %v:\n%s", u, got.Get(r, u), got)
		}
	}
	// A three-valued input is refused.
	s.SetSummary(b, true)
	if _, err := e.Run(context.Background(), []*tvl.Structure{s}); err == nil || !strings.Contains(err.Error(), "not two-valued") {
		t.Errorf("three-valued input: %v", err)
	}
}

// A wrong rule does not hide the states it excludes, even after a step
// that chooses (writes 1/2): the choice is restricted only by the
// constraints the state it starts from satisfies. Here the rule "no node
// is marked" is broken by Mark; Flip's choice of f then gives both
// successors instead of none.
func TestConcreteChoiceIgnoresRulesTheStateBreaks(t *testing.T) {
	prog := testload.Text(t, `
%p m(v)
%p f(v)
%r m(v) ==> 0
%%
%action Mark() {
  {
    m(v) = 1
  }
}
%action Flip() {
  {
    f(v) = 1/2
  }
}
%%
L1 Mark() L2
L2 Flip() L3
`)
	e, err := New(prog, Options{Join: JoinConcrete, Differencing: true})
	if err != nil {
		t.Fatal(err)
	}
	s := tvl.New(prog.Vocabulary.Tvl())
	s.AddIndividual()
	res, err := e.Run(context.Background(), []*tvl.Structure{s})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Location("L3").Structures.Len(); n != 2 {
		t.Errorf("%d structures at L3, want 2 (f chosen both ways)", n)
	}
	if l1 := res.Location("L1"); len(l1.Messages) != 1 || !strings.HasPrefix(l1.Messages[0].Text, BrokenRule) {
		t.Errorf("messages at L1 %+v", l1.Messages)
	}
	if l2 := res.Location("L2"); len(l2.Messages) != 0 {
		t.Errorf("messages at L2 %+v", l2.Messages)
	}
}
