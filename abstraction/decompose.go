package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Component is a compiled %dname of graph decomposition
// (docs/decomposition.md): the individuals where In is 1 make the
// component Name, and its structures carry Marker, a nullary predicate
// (TVLA's dname[Name]), at 1.
type Component struct {
	Name   string
	Marker *tvl.Pred
	// In is the membership formula, compiled over its one variable: the
	// %dname formula with the atoms of Hidden read as 0.
	In *tvl.Compiled
	// Hidden are the predicates the %dname formula uses only under a
	// negation: the component does not record them (they are 0 in it,
	// and read as 1/2 when it is composed). Observed on the reference:
	// linearization_stack's rest, "... & !r_by[x_i,g1](v)", holds the
	// node Top and x_i point to, without r_by[x_i,g1].
	Hidden []*tvl.Pred
}

// NewComponent compiles a %dname: formula f of the free variable v,
// named name, marked by marker.
func NewComponent(name string, marker *tvl.Pred, f logic.Formula, v logic.Var, voc *tvl.Vocabulary) (Component, error) {
	pos, neg := map[string]bool{}, map[string]bool{}
	polarity(f, true, pos, neg)
	hidden := map[string]bool{}
	c := Component{Name: name, Marker: marker}
	for _, p := range voc.Preds() {
		if neg[p.Name] && !pos[p.Name] && p.Arity >= 1 && p.Arity <= 2 {
			hidden[p.Name] = true
			c.Hidden = append(c.Hidden, p)
		}
	}
	in, err := tvl.Compile(hideAtoms(f, hidden), voc, []logic.Var{v})
	if err != nil {
		return c, err
	}
	c.In = in
	return c, nil
}

// polarity records the predicates f uses in a positive and in a
// negative position.
func polarity(f logic.Formula, positive bool, pos, neg map[string]bool) {
	switch g := f.(type) {
	case *logic.Atom:
		if positive {
			pos[g.Pred] = true
		} else {
			neg[g.Pred] = true
		}
	case *logic.Not:
		polarity(g.Sub, !positive, pos, neg)
	case *logic.Binary:
		switch g.Op {
		case logic.And, logic.Or:
			polarity(g.Left, positive, pos, neg)
			polarity(g.Right, positive, pos, neg)
		case logic.Implies:
			polarity(g.Left, !positive, pos, neg)
			polarity(g.Right, positive, pos, neg)
		default:
			for _, p := range []bool{true, false} {
				polarity(g.Left, p, pos, neg)
				polarity(g.Right, p, pos, neg)
			}
		}
	case *logic.Quant:
		polarity(g.Body, positive, pos, neg)
	default:
		// Anything else (closures, if-then-else): both polarities, so
		// that nothing it uses is hidden.
		for _, a := range logic.Preds(f) {
			pos[a] = true
			neg[a] = true
		}
	}
}

// hideAtoms is f with the atoms of the hidden predicates replaced by 0.
func hideAtoms(f logic.Formula, hidden map[string]bool) logic.Formula {
	switch g := f.(type) {
	case *logic.Atom:
		if hidden[g.Pred] {
			return &logic.Const{Value: logic.False}
		}
	case *logic.Not:
		return &logic.Not{Sub: hideAtoms(g.Sub, hidden)}
	case *logic.Binary:
		return &logic.Binary{Op: g.Op, Left: hideAtoms(g.Left, hidden), Right: hideAtoms(g.Right, hidden)}
	case *logic.Quant:
		h := *g
		h.Body = hideAtoms(g.Body, hidden)
		return &h
	}
	return f
}

// DecomposeOptions are TVLA's tvla.decompose.outside properties.
type DecomposeOptions struct {
	// KeepBinary keeps, on the outside individual, the join of the binary
	// values of the individuals it stands for (TVLA's outside.keepBinary
	// with outside.merge; without merge TVLA keeps none).
	KeepBinary bool
}

// Decompose cuts s into one structure per component of names, in order,
// as TVLA 3's decomposing engine does before it abstracts and stores them
// (observed on the reference; abstraction/testdata/decompose): the
// component of a name holds the individuals of s where its formula is 1
// (where it is 1/2 they are outside), with every value s gives them, and
// the nullary values of s; the markers of the other names are 0 and its
// own 1. When s has individuals outside the component, one more
// individual stands for all of them: outside is 1 on it and every other
// unary predicate 0 (sm included: it is not a summary node), and its
// binary values are 0, or with KeepBinary the join of those of the
// individuals it stands for. Values of predicates of arity 3 or more that
// involve it are 0. The results are not blurred.
func Decompose(s *tvl.Structure, names []Component, outside *tvl.Pred, opts DecomposeOptions) []*tvl.Structure {
	out := make([]*tvl.Structure, 0, len(names))
	for _, d := range names {
		c := component(s, d, outside, opts)
		for _, o := range names {
			c.Set(o.Marker, logic.False)
		}
		c.Set(d.Marker, logic.True)
		out = append(out, c)
	}
	return out
}

// component is the component of s for d, without its markers set.
func component(s *tvl.Structure, d Component, outside *tvl.Pred, opts DecomposeOptions) *tvl.Structure {
	bound := d.In.Bind(s)
	var in, rest []int
	for u := range s.Size() {
		if bound.Eval(u) == logic.True {
			in = append(in, u)
		} else {
			rest = append(rest, u)
		}
	}
	c := s.Project(in)
	defer hide(c, d.Hidden)
	if len(rest) == 0 {
		return c
	}
	o := c.AddIndividual()
	c.Set(outside, logic.True, o)
	if !opts.KeepBinary {
		return c
	}
	for _, p := range s.Vocabulary().OfArity(2) {
		for i, u := range in {
			c.Set(p, joinOver(rest, func(w int) logic.Kleene { return s.Get(p, u, w) }), i, o)
			c.Set(p, joinOver(rest, func(w int) logic.Kleene { return s.Get(p, w, u) }), o, i)
		}
		c.Set(p, joinOver(rest, func(w int) logic.Kleene {
			return joinOver(rest, func(x int) logic.Kleene { return s.Get(p, w, x) })
		}), o, o)
	}
	return c
}

// joinOver is the join (1/2 unless all agree) of f over us, which is not
// empty.
func joinOver(us []int, f func(int) logic.Kleene) logic.Kleene {
	v := f(us[0])
	for _, u := range us[1:] {
		if f(u) != v {
			return logic.Unknown
		}
	}
	return v
}

// hide sets the hidden predicates to 0 on every tuple of c, the outside
// individual's included (the reference's linearization_tlq locks
// component, whose formula has !rv[n](v1,v2), holds no rv[n] value at
// all, not even the outside individual's join).
func hide(c *tvl.Structure, hidden []*tvl.Pred) {
	for _, p := range hidden {
		for t := range tvl.Tuples(c.Size(), p.Arity) {
			c.Set(p, logic.False, t...)
		}
	}
}
