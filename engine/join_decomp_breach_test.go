package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
)

// markLists is a program of two lists, x and y, one component each
// (wcc[z]); markY sets mark where y points (UPDATE), and mark may not
// hold where x points, which the update breaks on the heap where x and
// y point to one node (the last input). L1's components are all pending
// in one iteration; EDGES are L1's edges.
const markLists = `%s PVar {x, y}
foreach (z in PVar) {
  %p z(v_1) unique pointer
}
%p mark(v_1)
%p n(v_1, v_2) function acyclic
%i t[n](v_1, v_2) = n*(v_1, v_2) transitive reflexive
%r !t[n](v_1, v_2) ==> !n(v_1, v_2)
%r !t[n](v_1, v_2) ==> v_1 != v_2
%r E(v_1) (t[n](v_1, v_2) & t[n](v_1, v_3) & !t[n](v_2, v_3)) ==> t[n](v_3, v_2)
%r mark(v) ==> !x(v)
foreach (z in PVar) {
  %i wcc[z](v) = E(v_z, w) (z(v_z) & t[n](w, v_z) & t[n](w, v))
}
foreach (z in PVar) {
  %r wcc[z](v) & !wcc[z](w) ==> !t[n](v, w)
  %r wcc[z](v) & !wcc[z](w) ==> !t[n](w, v)
  %r !wcc[z](v) ==> !z(v)
}
foreach (z in PVar) {
  %dname wcc[z](v) z
}
%%
%action skip() {
  %t "skip"
}
%action markY() {
  %t "markY"
  %message (E(v) y(v)) -> "y is not null"
  {
    mark(v) = UPDATE
  }
}
%%
L0 skip() L1
EDGES
`

const markListsInput = `%n = {a, b, c}
%p = {
  sm = {b:1/2}
  n = {a->b:1/2, b->b:1/2}
  x = {a}
  y = {c}
  t[n] = {a->a, a->b, b->b:1/2, c->c}
  wcc[x] = {a, b}
  wcc[y] = {c}
}
%n = {a, b, c}
%p = {
  sm = {c:1/2}
  n = {a->b, b->c:1/2, c->c:1/2}
  x = {a}
  y = {b}
  t[n] = {a->a, a->b, a->c, b->b, b->c, c->c:1/2}
  wcc[x] = {a, b, c}
  wcc[y] = {a, b, c}
}
%n = {}
%p = {}
%n = {a}
%p = {
  x = {a}
  y = {a}
  t[n] = {a->a}
  wcc[x] = {a}
  wcc[y] = {a}
}
`

// A breach after an update stops a decomposing run with none of the
// breaching edge's results stored: the reference (dtvla) updates and
// blurs x's components of the first inputs before the last one breaches
// (it prints them with their messages), and stores none of them at L2.
// The results of an edge listed before the breaching one are stored
// (L3), of one listed after it not. Components are applied name by
// name: x's four first (three raise the message, the empty list's does
// not, the last breaches), then y's; when only y's component of the
// last input breaches (mark depends on dname[y]), every x component and
// y's first three have raised theirs: 6 messages. The counts are TVLA
// 3's; set_pldi08/dcas/nomember stops so (li_3: 8 components; folding
// each application at once stored 30 there).
func TestDecompBreachStoresNoneOfTheEdge(t *testing.T) {
	for _, c := range []struct {
		what, update, edges string
		l2, l3, messages    int
	}{
		{"one edge", "y(v)", "L1 markY() L2", 0, 0, 3},
		{"an edge after", "y(v)", "L1 markY() L2\nL1 skip() L3", 0, 0, 3},
		{"an edge before", "y(v)", "L1 skip() L3\nL1 markY() L2", 0, 8, 3},
		{"y breaches", "y(v) & dname[y]()", "L1 markY() L2", 0, 0, 6},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.Replace(strings.Replace(markLists, "UPDATE", c.update, 1), "EDGES", c.edges, 1)
			res := runDecomposing(t, testload.Text(t, text), markListsInput)
			if !res.StoppedOnBreach {
				t.Fatalf("the run did not stop at a breach: %q", res.StopReason)
			}
			l0, l1 := res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len()
			var l2, l3 int
			if l := res.Location("L2"); l != nil {
				l2 = l.Structures.Len()
			}
			if l := res.Location("L3"); l != nil {
				l3 = l.Structures.Len()
			}
			if l0 != 8 || l1 != 8 || l2 != c.l2 || l3 != c.l3 || res.Stats.Messages != c.messages {
				t.Errorf("L0 %d, L1 %d, L2 %d, L3 %d, %d messages; the reference: 8, 8, %d, %d, %d",
					l0, l1, l2, l3, res.Stats.Messages, c.l2, c.l3, c.messages)
			}
		})
	}
}

// The decomposing engine does not coerce its inputs, as TVLA 3's dtvla
// engine does not (observed): with markLists, a heap where x and y point
// to one marked node (mark(v) ==> !x(v) broken) is stored at L0 as its
// two components beside the other input's (4), and a marked node x may
// point to keeps x at 1/2 (Coerce would make it 0 and then find wcc[x]
// wrong: the input was discarded). The reference also keeps those
// components through skip (L1: 4 and 2), where our Coerce before the
// action drops the inconsistent ones (2 and 1): not matched
// (docs/decomposition.md).
func TestDecompInputsNotCoerced(t *testing.T) {
	for _, c := range []struct {
		what, input string
		l0          int
		x           logic.Kleene
	}{
		{"a broken constraint", "%n = {a}\n%p = {\n  x = {a}\n  y = {a}\n  mark = {a}\n  t[n] = {a->a}\n  wcc[x] = {a}\n  wcc[y] = {a}\n}\n" +
			"%n = {c}\n%p = {\n  y = {c}\n  t[n] = {c->c}\n  wcc[y] = {c}\n}\n", 4, logic.True},
		{"a value Coerce sharpens", "%n = {a}\n%p = {\n  x = {a:1/2}\n  mark = {a}\n  t[n] = {a->a}\n  wcc[x] = {a}\n}\n", 2, logic.Unknown},
	} {
		t.Run(c.what, func(t *testing.T) {
			p := testload.Text(t, strings.Replace(strings.Replace(markLists, "UPDATE", "y(v)", 1), "EDGES", "", 1))
			res := runDecomposing(t, p, c.input)
			l0 := res.Location("L0").Structures
			if l0.Len() != c.l0 || res.Stats.InputsDiscarded != 0 {
				t.Fatalf("L0 holds %d components, %d inputs discarded; the reference: %d, none", l0.Len(), res.Stats.InputsDiscarded, c.l0)
			}
			x := p.Vocabulary.Tvl().Lookup("x")
			found := false
			for i := range l0.Len() {
				s := l0.At(i)
				for u := range s.Size() {
					found = found || s.Get(x, u) == c.x
				}
			}
			if !found {
				t.Errorf("no component of L0 has x at %v on a node", c.x)
			}
		})
	}
}
