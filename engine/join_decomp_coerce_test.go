package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// threeThreads is a program of three thread names, each existing
// (A(v) !t3(v) ==> 0 for t3) and excluding the others, whose %dname
// formulas NAMES gives; its one action composes t1 and t2 and raises a
// message on every structure it runs on.
const threeThreads = `%s Threads {t1, t2, t3}
foreach (t in Threads) {
  %p t(v) unique
}
%p th(v)
foreach (t in Threads) {
  %r t(v) ==> th(v)
  foreach (o in Threads-{t}) {
    %r t(v) ==> !o(v)
  }
}
%r A(v) !t3(v) ==> 0
NAMES
%%
%action act() {
  %t "act"
  %compose t1(v1) & t2(v2)
  %message (E(v) t1(v)) -> "m"
}
%%
L0 act() L1
`

const threeThreadsInput = `%n = {a, b, c}
%p = {
  t1 = {a}
  t2 = {b}
  t3 = {c}
  th = {a, b, c}
}
`

// The composition of t1 and t2 without an individual for the nodes
// outside both says that no t3 thread exists, which A(v) !t3(v) ==> 0
// forbids. TVLA 3's dtvla engine (observed) keeps it, and runs the
// action on it, when both names hide t3 (their formulas use it only
// negated): a composition is coerced without the constraints that read
// a predicate all its names hide. When t2's formula does not mention t3
// (t2 records it), the composition is dropped. The counts are the
// reference's: L0's components, the messages, L1's structures (the
// composed ones, without %decompose, and t3's component alone).
func TestComposeCoercesWithoutHiddenConstraints(t *testing.T) {
	for _, c := range []struct {
		what, names      string
		l0, messages, l1 int
	}{
		{"every name hides t3",
			"foreach (t in Threads) {\n  %dname t(v) & &/{ !o(v) : o in Threads-{t} } t\n}", 3, 3, 3},
		{"t2 records t3",
			"%dname t1(v) & (!t2(v) & !t3(v)) t1\n%dname t2(v) & !t1(v) t2\n%dname t3(v) & (!t1(v) & !t2(v)) t3", 3, 2, 2},
		// Without the constraints t(v) ==> !o(v) nothing makes t3 0 on
		// t1's and t2's nodes: the reference keeps the composition
		// without the third individual, and one where t1 and t2 are
		// one node (4 messages, 4 at L1).
	} {
		t.Run(c.what, func(t *testing.T) {
			l0, messages, l1 := runThreeThreads(t, threeThreads, c.names)
			if l0 != c.l0 || messages != c.messages || l1 != c.l1 {
				t.Errorf("L0 %d, %d messages, L1 %d; the reference: %d, %d, %d", l0, messages, l1, c.l0, c.messages, c.l1)
			}
		})
	}
	t.Run("no exclusion", func(t *testing.T) {
		text := strings.Replace(threeThreads, "  foreach (o in Threads-{t}) {\n    %r t(v) ==> !o(v)\n  }\n", "", 1)
		l0, messages, l1 := runThreeThreads(t, text, "foreach (t in Threads) {\n  %dname t(v) & &/{ !o(v) : o in Threads-{t} } t\n}")
		if l0 != 3 || messages != 4 || l1 != 4 {
			t.Errorf("L0 %d, %d messages, L1 %d; the reference: 3, 4, 4", l0, messages, l1)
		}
	})
}

// runThreeThreads runs text with names under the decomposing join from
// threeThreadsInput: the structures stored at L0, the messages, the
// structures stored at L1.
func runThreeThreads(t *testing.T, text, names string) (l0, messages, l1 int) {
	t.Helper()
	p := testload.Text(t, strings.Replace(text, "NAMES", names, 1))
	res := runDecomposing(t, p, threeThreadsInput)
	return res.Location("L0").Structures.Len(), res.Stats.Messages, res.Location("L1").Structures.Len()
}

// runDecomposing runs p under the decomposing join from the structures
// of input (TVS text).
func runDecomposing(t *testing.T, p *model.Program, input string) *Result {
	t.Helper()
	return runDecomposingWith(t, p, input, Options{})
}

// runDecomposingWith is runDecomposing with the decomposition options of
// opts (keepBinary, mustOutside); the rest as runDecomposing sets them.
func runDecomposingWith(t *testing.T, p *model.Program, input string, opts Options) *Result {
	t.Helper()
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", input), p.Vocabulary.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	var inputs []*tvl.Structure
	for _, s := range locs[0].Structures {
		inputs = append(inputs, s.Structure)
	}
	opts.Join, opts.Workers, opts.Differencing, opts.BreakIfCoerceAfterUpdateFailed = JoinDecompose, 1, true, true
	e, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lockHolders is a program after linearization_tlq's succLockField:
// a queue node q (also r, a "rest" node), threads t1 and t2, t2
// holding the lock h2 and, in the first input, a node x of its own;
// names L (the queue and the lock holders, every thread and x hidden),
// R (the rest), T1 and T2 (the threads and what they hold); t1 takes
// the lock h1 on the compositions COMPOSE asks for.
const lockHolders = `%p t1(v) unique
%p t2(v) unique
%p th(v)
%p q(v) unique
%p r(v)
%p x(v) unique
%p h1(v) unique
%p h2(v) unique
%r t1(v) ==> th(v)
%r t2(v) ==> th(v)
%r t1(v) ==> !t2(v)
%dname (q(v) | h1(v) | h2(v)) & (!r(v) & !x(v) & !t1(v) & !t2(v)) L
%dname (r(v) | q(v)) & (!t1(v) & !t2(v)) R
%dname (t1(v) | q(v)) & !x(v) T1
%dname (t2(v) | x(v) | q(v)) T2
%%
%action lock() {
  %t "lock"
  %compose COMPOSE
  %p E(v) t1(v)
  {
    h1(v) = t1(v)
  }
  %decompose
}
%%
L0 lock() L1
`

// The composition of t1, r and h1 without an individual outside all
// three (t1 and t2 holding the locks, the queue node, nothing else) is
// dropped when another disjunct, t1 & t2 & h1, shares two of its names
// and every composition of that one has a node (t2's x) outside them:
// L1 holds the reference's 4 components, not 5 (the L component
// without an outside individual). The counts are TVLA 3's.
func TestComposeSharedNames(t *testing.T) {
	withX := "%n = {N, T, G, X}\n%p = {\n  q = {N}\n  r = {N}\n  t1 = {G}\n  t2 = {T}\n  th = {G, T}\n  h2 = {T}\n  x = {X}\n}\n"
	withoutX := "%n = {N, T, G}\n%p = {\n  q = {N}\n  r = {N}\n  t1 = {G}\n  t2 = {T}\n  th = {G, T}\n  h2 = {T}\n}\n"
	for _, c := range []struct {
		compose, input string
		l1             int
	}{
		{"t1(v1) & t2(v2) & h1(v3) | t1(v1) & r(v2) & h1(v3)", withX, 4},
		{"t1(v1) & r(v2) & h1(v3) | t1(v1) & t2(v2) & h1(v3)", withX, 4},
		// Without x nothing is outside the three names in the heap.
		{"t1(v1) & t2(v2) & h1(v3) | t1(v1) & r(v2) & h1(v3)", withoutX, 5},
		{"t1(v1) & r(v2) & h1(v3)", withX, 5},
		// Sharing t1 only.
		{"t1(v1) & t2(v2) | t1(v1) & r(v2) & h1(v3)", withX, 5},
		{"t1(v1) & t2(v2) & h1(v3) & r(v4)", withX, 4},
	} {
		t.Run(c.compose, func(t *testing.T) {
			p := testload.Text(t, strings.Replace(lockHolders, "COMPOSE", c.compose, 1))
			res := runDecomposing(t, p, c.input)
			if got := res.Location("L1").Structures.Len(); got != c.l1 {
				t.Errorf("L1 holds %d components; the reference: %d", got, c.l1)
			}
		})
	}
}
