package engine

import (
	"context"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// ConcretizeOptions bound the concrete structures made from abstract
// ones.
type ConcretizeOptions struct {
	// Copies is the most individuals a summary individual stands for: it
	// becomes 1, 2, ..., Copies individuals. 0 means 3.
	Copies int
	// Threads is the same for a summary individual that is a thread
	// (isthread is 1 on it); 0 means Copies.
	Threads int
	// Max stops after this many structures; 0 means no bound.
	Max int
}

// ConcretizeReport says what Concretize made.
type ConcretizeReport struct {
	// PerInput counts, for each input structure, the concrete structures
	// it gave that no earlier input gave.
	PerInput []int
	// Truncated is set when Max stopped the enumeration.
	Truncated bool
}

// Concretize returns the concrete (two-valued) structures that embed into
// the inputs, up to the bounds, each once up to isomorphism, in a fixed
// order. A two-valued input gives itself (if its instrumentation values
// agree with the definitions and it satisfies the constraints).
//
// For each input, each summary individual becomes 1 to Copies (Threads for
// threads) non-summary individuals that carry its values; then every
// value 1/2 of a core predicate is tried as 0 and as 1, with Coerce after
// each choice to sharpen the rest and cut inconsistent branches early.
// Each complete choice gets its instrumentation values from the
// definitions; it is kept when they are ⊑ the input's (so that it embeds
// into the input) and it satisfies every constraint. A list of two or
// more nodes with Copies 3 thus gives the lists of 2, 3 and 4 nodes.
//
// Like the abstract run's Coerce of its inputs, this takes the
// consistency rules as true of inputs; the concrete run then checks them
// on every state it reaches.
func (e *Engine) Concretize(ctx context.Context, inputs []*tvl.Structure, o ConcretizeOptions) ([]*tvl.Structure, ConcretizeReport, error) {
	defs, err := e.definitions()
	if err != nil {
		return nil, ConcretizeReport{}, err
	}
	if o.Copies <= 0 {
		o.Copies = 3
	}
	if o.Threads <= 0 {
		o.Threads = o.Copies
	}
	c := &concretizer{e: e, defs: defs, opts: o, coerce: e.coerce.Fork(), seen: map[uint64][]int{},
		core: corePreds(e.voc), isthread: e.voc.Tvl().Lookup(predicates.IsThreadName)}
	var rep ConcretizeReport
	for _, in := range inputs {
		before := len(c.out)
		if !c.stopped(ctx) {
			c.input(ctx, in)
		}
		rep.PerInput = append(rep.PerInput, len(c.out)-before)
	}
	rep.Truncated = c.full()
	if ctx.Err() != nil {
		return c.out, rep, ctx.Err()
	}
	return c.out, rep, nil
}

type concretizer struct {
	e        *Engine
	defs     *definitions
	opts     ConcretizeOptions
	coerce   *abstraction.Coercer
	core     []*tvl.Pred
	isthread *tvl.Pred
	out      []*tvl.Structure
	seen     map[uint64][]int // Hash -> indexes into out
}

func (c *concretizer) full() bool { return c.opts.Max > 0 && len(c.out) >= c.opts.Max }

func (c *concretizer) stopped(ctx context.Context) bool { return c.full() || ctx.Err() != nil }

// input enumerates the concretizations of one input structure: every
// choice of sizes for its summary individuals, then every completion.
func (c *concretizer) input(ctx context.Context, in *tvl.Structure) {
	var summaries, bounds []int
	for u := 0; u < in.Size(); u++ {
		if in.IsSummary(u) {
			summaries = append(summaries, u)
			b := c.opts.Copies
			if c.isthread != nil && in.Get(c.isthread, u) == logic.True {
				b = c.opts.Threads
			}
			bounds = append(bounds, b)
		}
	}
	sizes := make([]int, len(summaries))
	for i := range sizes {
		sizes[i] = 1
	}
	for {
		x := in.Clone()
		for i, u := range summaries {
			for k := 1; k < sizes[i]; k++ {
				x.Duplicate(u)
			}
		}
		for u := 0; u < x.Size(); u++ {
			x.SetSummary(u, false)
		}
		if r := c.coerce.Coerce(x, nil); r.Consistent {
			complete(x, c.coerce, c.core, func(s *tvl.Structure) bool {
				c.leaf(s)
				return !c.stopped(ctx)
			})
		}
		if c.stopped(ctx) {
			return
		}
		// Next size vector, the last summary individual fastest.
		i := len(sizes) - 1
		for ; i >= 0; i-- {
			if sizes[i] < bounds[i] {
				sizes[i]++
				break
			}
			sizes[i] = 1
		}
		if i < 0 {
			return
		}
	}
}

// corePreds lists the predicates whose values a concrete structure
// chooses: all but sm and the instrumentation predicates.
func corePreds(voc *predicates.Vocabulary) []*tvl.Pred {
	var out []*tvl.Pred
	for _, p := range voc.All() {
		if p.Kind != predicates.Instrumentation && p.Pred != voc.Tvl().Summary() {
			out = append(out, p.Pred)
		}
	}
	return out
}

// complete calls leaf with every completion of x's core values 1/2 that
// Coerce does not rule out, choosing the first value 1/2 as 0, then as 1,
// with Coerce after each choice, until leaf returns false. x must have no
// summary individual and satisfy the constraints as far as Coerce can
// tell. It reports whether leaf asked to stop.
func complete(x *tvl.Structure, coerce *abstraction.Coercer, core []*tvl.Pred, leaf func(*tvl.Structure) bool) bool {
	p, tuple := firstUnknown(x, core)
	if p == nil {
		return !leaf(x)
	}
	for _, v := range []logic.Kleene{logic.False, logic.True} {
		y := x.Clone()
		y.Set(p, v, tuple...)
		if r := coerce.Coerce(y, []*tvl.Pred{p}); r.Consistent {
			if complete(y, coerce, core, leaf) {
				return true
			}
		}
	}
	return false
}

// firstUnknown finds the first tuple of a core predicate at 1/2: by
// predicate in declaration order, tuples in lexicographic order.
func firstUnknown(x *tvl.Structure, core []*tvl.Pred) (*tvl.Pred, []int) {
	for _, p := range core {
		for t := range tvl.Tuples(x.Size(), p.Arity) {
			if x.Get(p, t...) == logic.Unknown {
				return p, append([]int(nil), t...)
			}
		}
	}
	return nil, nil
}

// leaf keeps a complete choice whose instrumentation values, from the
// definitions, fit x's and which satisfies the constraints.
func (c *concretizer) leaf(x *tvl.Structure) {
	s := x.Clone()
	c.defs.apply(s)
	for _, p := range c.defs.preds {
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			if v, bound := s.Get(p, t...), x.Get(p, t...); v != bound && bound != logic.Unknown {
				return
			}
		}
	}
	if r := c.coerce.Coerce(s.Clone(), nil); !r.Consistent {
		return
	}
	s.Freeze()
	h := s.Hash()
	for _, i := range c.seen[h] {
		if _, iso := tvl.Isomorphic(c.out[i], s); iso {
			return
		}
	}
	c.seen[h] = append(c.seen[h], len(c.out))
	c.out = append(c.out, s)
}
