package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// manyInstrumentation is a program of k pointer variables, each with a
// generated family of instrumentation predicates (as generated soft
// invariants give: thousands of them), and one action per variable that
// moves it along nxt, so that finite differencing derives an update of
// every predicate for every action.
func manyInstrumentation(k, perVar int) (prog string, derivations int) {
	var b strings.Builder
	b.WriteString("%p nxt(v1, v2) function acyclic\n")
	for i := range k {
		fmt.Fprintf(&b, "%%p x%d(v) unique pointer\n", i)
	}
	for i := range k {
		for j := range perVar {
			fmt.Fprintf(&b, "%%i r%d_%d(v) = E(a) x%d(a) & x%d(v) & nxt*(a, v)\n", i, j, i, (i+j+1)%k)
		}
	}
	b.WriteString("%%\n")
	for i := range k {
		fmt.Fprintf(&b, "%%action Move%d() {\n  %%f { E(a) x%d(a) & nxt(a, v) }\n  {\n    x%d(v) = E(a) x%d(a) & nxt(a, v)\n  }\n}\n", i, i, i, i)
	}
	b.WriteString("%%\n")
	for i := range k {
		fmt.Fprintf(&b, "L%d Move%d() L%d\n", i, i, i+1)
	}
	return b.String(), k * k * perVar
}

// An engine build of a program with many instrumentation predicates stops
// at the first check after its context ends, inside finite differencing:
// the build checks the context before every predicate it derives an
// update for (a soft-invariant round of 6,000 predicates took a minute
// there, deaf to Ctrl-C). The context ends at its 100th check, well
// within the build's derivations (k·k·perVar), deterministically; the
// uninterrupted build of the same program succeeds.
func TestInterruptStopsTheEngineBuild(t *testing.T) {
	src, derivations := manyInstrumentation(4, 12)
	prog := testload.Text(t, src)
	if _, err := New(prog, Options{Differencing: true}); err != nil {
		t.Fatal(err)
	}
	counter := newTrippingContext(1 << 40) // never ends: counts the checks
	if _, err := NewContext(counter, prog, Options{Differencing: true}); err != nil {
		t.Fatal(err)
	}
	if n := counter.checks.Load(); n < int64(derivations) {
		t.Fatalf("the build checked its context %d times, fewer than its %d derivations", n, derivations)
	}
	ctx := newTrippingContext(100)
	e, err := NewContext(ctx, prog, Options{Differencing: true})
	if e != nil || !errors.Is(err, ErrBuildStopped) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("the interrupted build gave %v, %v; want ErrBuildStopped", e, err)
	}
	// It stopped at the check that saw the end (StopReason's reading of
	// the context is one more).
	if n := ctx.checks.Load(); n > 102 {
		t.Errorf("the context was checked %d times: the build went on after it ended at the 100th", n)
	}
	// A context already ended: nothing is built.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewContext(done, prog, Options{Differencing: true}); !errors.Is(err, ErrBuildStopped) {
		t.Errorf("a build under an ended context gave %v", err)
	}
}
