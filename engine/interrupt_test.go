package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// A Focus that splits for long stops when the run's context ends: the run
// comes back interrupted, not after the Focus's 20,000 splits with its
// error. Eight distinct individuals related by two binary predicates at
// 1/2 everywhere: focusing n(v1, v2) & m(v2, v1) would take 2^128 splits,
// and the cap's 20,000 take about half a second.
//
// The interrupt comes from inside the Focus, deterministically: the
// context ends at its 50th check, and the refinement of every split
// checks it (a timer of 20 ms raced the cap on a loaded machine, issue
// 19). The 50th check is within the Focus's first 50 splits: the run
// checks the context only once before the Focus begins.
func TestInterruptStopsALongFocus(t *testing.T) {
	const k = 8
	var prog, pairs, unary strings.Builder
	for i := range k {
		fmt.Fprintf(&prog, "%%p a%d(v) unique\n", i)
		fmt.Fprintf(&unary, "  a%d = {u%d}\n", i, i)
		for j := range k {
			if pairs.Len() > 0 {
				pairs.WriteString(", ")
			}
			fmt.Fprintf(&pairs, "u%d->u%d:1/2", i, j)
		}
	}
	prog.WriteString("%p n(v1, v2)\n%p m(v1, v2)\n%%\n%action Look() {\n  %f { n(v1, v2) & m(v2, v1) }\n  %p E(v1, v2) n(v1, v2)\n}\n%%\nL1 Look() L2\n")
	p := testload.Text(t, prog.String())
	var names []string
	for i := range k {
		names = append(names, fmt.Sprintf("u%d", i))
	}
	input := fmt.Sprintf("%%n = {%s}\n%%p = {\n%s  n = {%s}\n  m = {%s}\n}\n", strings.Join(names, ", "), unary.String(), pairs.String(), pairs.String())
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", input), p.Vocabulary.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		e, err := New(p, Options{Workers: workers, Differencing: true})
		if err != nil {
			t.Fatal(err)
		}
		// Uninterrupted, the Focus gives up with an error.
		if _, err := e.Run(context.Background(), []*tvl.Structure{locs[0].Structures[0].Structure.Clone()}); err == nil ||
			!strings.Contains(err.Error(), "no result after 20000 splits") {
			t.Fatalf("%d workers: the uninterrupted run gave %v, want the Focus's error", workers, err)
		}
		ctx := newTrippingContext(50)
		res, err := e.Run(ctx, []*tvl.Structure{locs[0].Structures[0].Structure.Clone()})
		if err != nil {
			t.Fatalf("%d workers: the interrupted run gave the error %v", workers, err)
		}
		if !res.Incomplete || res.StopReason != "interrupted" || res.StopReason != StopReason(ctx) {
			t.Errorf("%d workers: incomplete %v, stop reason %q", workers, res.Incomplete, res.StopReason)
		}
		if n := ctx.checks.Load(); n <= 50 {
			t.Errorf("%d workers: the context was checked %d times: the Focus did not see the interrupt", workers, n)
		}
	}
}

// trippingContext is a context that ends (canceled) at its nth Err call:
// an interrupt at a point of the run's own making, not of a timer's.
type trippingContext struct {
	context.Context
	n      int64
	checks atomic.Int64
	once   sync.Once
	done   chan struct{}
}

func newTrippingContext(n int64) *trippingContext {
	return &trippingContext{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *trippingContext) Err() error {
	if c.checks.Add(1) < c.n {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

func (c *trippingContext) Done() <-chan struct{} { return c.done }
