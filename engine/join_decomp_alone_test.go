package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// lockAndTarget is a program after linearization_tlq's locks component:
// a thread t1 and its target node (f), named T, and another thread
// holding a lock, named L, whose formula hides t1 and f (they occur in
// it only negated). Its one action runs on each component alone (no
// %compose): FOCUS, PRE and UPDATE are its clauses.
const lockAndTarget = `%p t1(v) unique
%p th(v)
%p holds(v)
%p f(v)
%p p(v)
%p p2(v)
%r th(v) ==> !p(v)
%dname t1(v) | f(v) T
%dname holds(v) & (!t1(v) & !f(v)) L
%%
%action act() {
  %t "act"
  %f { FOCUS }
  %p PRE
  { UPDATE }
}
%%
L0 act() L1
`

const lockAndTargetInput = `%n = {a, b, c}
%p = {
  t1 = {a}
  th = {a, c}
  f = {b}
  holds = {c}
}
`

// A component alone is opened before the action (its hidden predicates
// and its outside individual read as 1/2), but Focus does not split what
// opening made unknown: TVLA 3's dtvla engine leaves it at 1/2 (observed
// on these programs; the counts and values are the reference's). Had
// Focus split f on L's lock holder c, the update would set p(c) = 1 on
// a thread, against th(v) ==> !p(v), and the run would stop at the
// breach, as it does for linearization_tlq/unbounded's new_head =
// node.n on a locks component alone (docs/decomposition.md).
func TestFocusLeavesOpenedValuesOfAComponentAlone(t *testing.T) {
	for _, c := range []struct {
		what, focus, pre, update string
		l1                       int
		// name, the individual (where pred at is 1) of its component at
		// L1, and p2's value there.
		name, at string
		p2       logic.Kleene
	}{
		// Before: the run stopped at a breach.
		{"a hidden predicate, where a split breaches", "f(v)", "E(v) holds(v) & f(v)", "p(v) = holds(v) & f(v)", 1, "L", "holds", logic.False},
		// Before: 3 components at L1 (L with p2 at 1 and at 0).
		{"a hidden predicate", "f(v)", "E(v) holds(v)", "p2(v) = holds(v) & f(v)", 2, "L", "holds", logic.Unknown},
		// holds is outside T's name: 1/2 on T's outside individual.
		// Before: p2 at 1.
		{"the outside individual", "holds(v)", "E(v) holds(v)", "p2(v) = t1(v) & E(w) holds(w)", 2, "T", "t1", logic.Unknown},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("FOCUS", c.focus, "PRE", c.pre, "UPDATE", c.update).Replace(lockAndTarget)
			res := runDecomposing(t, testload.Text(t, text), lockAndTargetInput)
			if res.StoppedOnBreach {
				t.Fatalf("stopped at a breach: %s", res.StopReason)
			}
			l1 := res.Location("L1").Structures
			if l1.Len() != c.l1 {
				t.Errorf("L1 holds %d components; the reference: %d", l1.Len(), c.l1)
			}
			if got, ok := valueAt(l1, "dname["+c.name+"]", c.at, "p2"); !ok || got != c.p2 {
				t.Errorf("p2 on %s's %s individual at L1: %v (found: %v); the reference: %v", c.name, c.at, got, ok, c.p2)
			}
		})
	}
}

// With tvla.decompose.outside.keepBinary, a component's binary values
// with its outside individual are joins of the values it stands for
// (here n(a, outside) = 1/2: a points to one of the two nodes outside
// X); Focus does not split those either (the reference: 2 components at
// L1, p2 at 1/2 on x's node; splitting gave 3).
func TestFocusLeavesKeptBinaryValuesOfAComponentAlone(t *testing.T) {
	const text = `%p x(v) unique
%p y(v) unique
%p n(v1, v2) function
%p p2(v)
%dname x(v) X
%dname y(v) Y
%%
%action act() {
  %t "act"
  %f { x(v) & n(v, w) }
  %p E(v) x(v)
  { p2(v) = x(v) & E(w) n(v, w) }
}
%%
L0 act() L1
`
	p := testload.Text(t, text)
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", "%n = {a, b, c}\n%p = {\n  x = {a}\n  y = {c}\n  n = {a->b}\n}\n"), p.Vocabulary.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(p, Options{Join: JoinDecompose, Workers: 1, Differencing: true, BreakIfCoerceAfterUpdateFailed: true, DecomposeKeepBinary: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), []*tvl.Structure{locs[0].Structures[0].Structure})
	if err != nil {
		t.Fatal(err)
	}
	l1 := res.Location("L1").Structures
	if l1.Len() != 2 {
		t.Errorf("L1 holds %d components; the reference: 2", l1.Len())
	}
	if got, ok := valueAt(l1, "dname[X]", "x", "p2"); !ok || got != logic.Unknown {
		t.Errorf("p2 on x's node at L1: %v (found: %v); the reference: 1/2", got, ok)
	}
}

// valueAt is pred's value, in the one structure of ss whose nullary
// marker is 1, on its one individual where at is 1.
func valueAt(ss Structures, marker, at, pred string) (logic.Kleene, bool) {
	found := false
	var v logic.Kleene
	for _, s := range ss.All() {
		voc := s.Vocabulary()
		if s.Get(voc.Lookup(marker)) != logic.True {
			continue
		}
		for u := range s.Size() {
			if s.Get(voc.Lookup(at), u) == logic.True {
				if found {
					return v, false
				}
				found, v = true, s.Get(voc.Lookup(pred), u)
			}
		}
	}
	return v, found
}

// breaching is a program whose action sets p on x's node, which
// breaches p(v) ==> !q(v) in the first input (where q holds there): on
// X's component alone (ALONE), or on its composition with Y's, cut
// again (DECOMP) or stored composed.
const breaching = `%p x(v) unique pointer
%p y(v) unique pointer
%p p(v)
%p q(v)
%r p(v) ==> !q(v)
%dname x(v) X
%dname y(v) Y
%%
%action alone() {
  %t "alone"
  %p E(v) x(v)
  { p(v) = x(v) }
}
%action comp() {
  %t "comp"
  %compose x(v1) & y(v2)
  %p E(v) x(v)
  { p(v) = x(v) }
  DECOMPOSE
}
%action skip() {
  %t "skip"
}
%%
L0 ACTION() L1
L1 skip() L2
L0 skip() L3
`

// A constraint breached after an update stops a decomposing run when
// tvla.engine.breakIfCoerceAfterUpdateFailed is on (the default), for a
// component alone as for a composition, and drops the structure when it
// is off: TVLA 3's dtvla engine, observed (3 components stored at L0
// when it stops; 10 in all without stopping).
func TestDecomposingBreachStops(t *testing.T) {
	const input = "%n = {a, b}\n%p = {\n  x = {a}\n  q = {a}\n  y = {b}\n}\n%n = {a, b}\n%p = {\n  x = {a}\n  y = {b}\n}\n"
	for _, c := range []struct{ action, decompose string }{{"alone", ""}, {"comp", "%decompose"}, {"comp", ""}} {
		for _, stop := range []bool{true, false} {
			text := strings.NewReplacer("ACTION", c.action, "DECOMPOSE", c.decompose).Replace(breaching)
			p := testload.Text(t, text)
			locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", input), p.Vocabulary.Tvl())
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(p, Options{Join: JoinDecompose, Workers: 1, Differencing: true, BreakIfCoerceAfterUpdateFailed: stop})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(context.Background(), []*tvl.Structure{locs[0].Structures[0].Structure, locs[0].Structures[1].Structure})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"L0": 3, "L1": 2, "L2": 2, "L3": 3}
			if stop {
				want = map[string]int{"L0": 3, "L1": 0, "L2": 0, "L3": 0}
			}
			for loc, n := range want {
				if got := res.Location(loc).Structures.Len(); got != n {
					t.Errorf("%s %s, break %v: %s holds %d; the reference: %d", c.action, c.decompose, stop, loc, got, n)
				}
			}
			if res.StoppedOnBreach != stop || res.Stats.Messages != 0 {
				t.Errorf("%s %s, break %v: stopped on a breach %v, %d messages; the reference: %v, 0", c.action, c.decompose, stop, res.StoppedOnBreach, res.Stats.Messages, stop)
			}
		}
	}
}

// Where a focus formula is 1/2 through an opened value anywhere (a
// hidden f on L's lock holder c, in either side of a conjunction or a
// disjunction, negated or not), Focus leaves the whole assignment, the
// recorded p2(c) = 1/2 included, as it is: the reference stores one L
// component at L1, and two (p2 split) when the formula is p2(v) alone.
func TestFocusLeavesAssignmentsThroughOpenedValues(t *testing.T) {
	input := strings.Replace(lockAndTargetInput, "  holds = {c}\n", "  holds = {c}\n  p2 = {c:1/2}\n", 1)
	for _, c := range []struct {
		focus string
		l     int
	}{{"f(v) & p2(v)", 1}, {"p2(v) & f(v)", 1}, {"f(v) | p2(v)", 1}, {"!f(v) & p2(v)", 1}, {"p2(v)", 2}} {
		t.Run(c.focus, func(t *testing.T) {
			text := strings.NewReplacer("FOCUS", c.focus, "PRE", "E(v) holds(v)", "{ UPDATE }", "").Replace(lockAndTarget)
			res := runDecomposing(t, testload.Text(t, text), input)
			l := 0
			for _, s := range res.Location("L1").Structures.All() {
				if s.Get(s.Vocabulary().Lookup("dname[L]")) == logic.True {
					l++
				}
			}
			if l != c.l {
				t.Errorf("L1 holds %d components of L; the reference: %d", l, c.l)
			}
		})
	}
}

// On a composition, Focus leaves the individual outside every part as
// it is, as on a component alone (the composition of X and Y with a
// node outside both: holds at 1/2 there is not split, p2 at 1/2 on x's
// node), but splits the values the parts do not record otherwise (g,
// hidden by L and held by T's outside individual only, on L's lock
// holder: split, 3 structures at L1). Both are the reference's.
func TestFocusOnACompositionLeavesTheIndividualOutsideAll(t *testing.T) {
	const outsideAll = `%p x(v) unique
%p y(v) unique
%p holds(v)
%p p2(v)
%dname x(v) X
%dname y(v) Y
%%
%action act() {
  %t "act"
  %compose x(v1) & y(v2)
  %f { holds(v) }
  %p E(v) holds(v)
  { p2(v) = x(v) & E(w) holds(w) }
  %decompose
}
%%
L0 act() L1
`
	res := runDecomposing(t, testload.Text(t, outsideAll), "%n = {a, b, c}\n%p = {\n  x = {a}\n  y = {b}\n  holds = {c}\n}\n")
	l1 := res.Location("L1").Structures
	if l1.Len() != 2 {
		t.Errorf("L1 holds %d components; the reference: 2", l1.Len())
	}
	if got, ok := valueAt(l1, "dname[X]", "x", "p2"); !ok || got != logic.Unknown {
		t.Errorf("p2 on x's node at L1: %v (found: %v); the reference: 1/2", got, ok)
	}
	hiddenByOne := strings.NewReplacer("%p p2(v)\n", "%p p2(v)\n%p g(v)\n", "!f(v)) L", "!f(v) & !g(v)) L",
		"  %f { FOCUS }\n  %p PRE\n  { UPDATE }\n", "  %compose t1(v1) & holds(v2)\n  %f { g(v) }\n  %p E(v) holds(v)\n  { p2(v) = holds(v) & g(v) }\n  %decompose\n").Replace(lockAndTarget)
	res = runDecomposing(t, testload.Text(t, hiddenByOne), strings.Replace(lockAndTargetInput, "  holds = {c}\n", "  holds = {c}\n  p2 = {c:1/2}\n", 1))
	if got := res.Location("L1").Structures.Len(); got != 3 {
		t.Errorf("g: L1 holds %d components; the reference: 3", got)
	}
}

// When an application breaches after its update and the run stops, the
// decomposing engine stores none of its action's results at that
// location in that iteration, whichever application came first, but
// keeps those of the edges taken before: TVLA 3's dtvla engine. The
// program composes X and Y and runs on Z's component alone; the breach
// is on Z alone (BREACH p(v) = z(v), q on z's node) or on the
// composition (p(v) = x(v), q on x's node), with Z declared first or
// last; a skip edge from L0 comes before or after it. The counts are
// the reference's.
func TestDecomposingBreachDropsTheEdgesResults(t *testing.T) {
	const text = `%p x(v) unique pointer
%p y(v) unique pointer
%p z(v) unique pointer
%p p(v)
%p q(v)
%r p(v) ==> !q(v)
NAMES
%%
%action act() {
  %t "act"
  %compose x(v1) & y(v2)
  { p(v) = BREACH(v) }
  %decompose
}
%action skip() {
  %t "skip"
}
%%
EDGES
L1 skip() L2
`
	zLast := "%dname x(v) X\n%dname y(v) Y\n%dname z(v) Z"
	zFirst := "%dname z(v) Z\n%dname x(v) X\n%dname y(v) Y"
	for _, c := range []struct {
		what, names, breach, edges string
		want                       map[string]int
	}{
		{"Z alone breaches", zLast, "z", "L0 act() L1", map[string]int{"L0": 3, "L1": 0}},
		{"Z alone breaches, skip first", zLast, "z", "L0 skip() L4\nL0 act() L1", map[string]int{"L0": 3, "L1": 0, "L4": 3}},
		{"Z alone breaches, skip last", zLast, "z", "L0 act() L1\nL0 skip() L4", map[string]int{"L0": 3, "L1": 0, "L4": 0}},
		{"the composition breaches", zLast, "x", "L0 act() L1", map[string]int{"L0": 3, "L1": 0}},
		{"the composition breaches, Z first", zFirst, "x", "L0 act() L1", map[string]int{"L0": 3, "L1": 0}},
	} {
		t.Run(c.what, func(t *testing.T) {
			p := testload.Text(t, strings.NewReplacer("NAMES", c.names, "BREACH", c.breach, "EDGES", c.edges).Replace(text))
			q := c.breach
			if q == "z" {
				q = "c"
			} else {
				q = "a"
			}
			res := runDecomposing(t, p, "%n = {a, b, c}\n%p = {\n  x = {a}\n  y = {b}\n  z = {c}\n  q = {"+q+"}\n}\n")
			if !res.StoppedOnBreach {
				t.Errorf("not stopped at a breach")
			}
			for loc, n := range c.want {
				if got := res.Location(loc).Structures.Len(); got != n {
					t.Errorf("%s holds %d; the reference: %d", loc, got, n)
				}
			}
		})
	}
}
