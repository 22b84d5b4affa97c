package abstraction

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// A WalkingFocuser focuses the way TVLA 3 does under its single-structure
// join ("ind"), as observed by running it (black box): it walks the
// formula rather than splitting until the formula is definite, and under
// that join the structures it leaves are part of what the analysis
// reports (each raises its own messages), so the walk is reproduced. Its
// structures' individuals may not exist: the unary predicate exists
// (inac) says which do (1) and which may (1/2).
//
//   - the formula's outer quantifiers are dropped: their variables range
//     like the free ones;
//   - an atom p(args) is made definite on every tuple where it is not 0,
//     splitting first on the existence (inac) of the tuple's individuals
//     that may not exist, in argument order, then on p; variables bound
//     by the context are fixed, the others range over every individual;
//   - !g is g; g | h, g -> h and g <-> h are g then h; a quantifier
//     inside is its body with its variables ranging;
//   - a conjunction is taken conjunct by conjunct, those with fewer
//     variables first (a stable order): the first as it is, then each
//     next one once per assignment of the variables it shares with the
//     ones before under which those are 1, each from the same structure,
//     the results put together (not one after the other: a structure may
//     come out with the next conjunct made definite under one assignment
//     only); with no variable shared, or no such assignment, the
//     structure is left as it is;
//   - last, every assignment of the variables under which the formula is
//     1 gets its individuals' existence settled.
//
// Equalities and transitive closures are not focused. An individual whose
// existence is split to 0 stays (with inac 0, which relativized formulas
// ignore) until the end, so that the assignments being walked keep their
// meaning; then it is removed.
type WalkingFocuser struct {
	fo     *Focuser
	exists *tvl.Pred
}

// NewWalkingFocuser walks fo's formula; it shares fo's subformula cache.
func NewWalkingFocuser(fo *Focuser, exists *tvl.Pred) *WalkingFocuser {
	return &WalkingFocuser{fo: fo, exists: exists}
}

// Focus returns the structures the walk leaves from s, refined by refine
// as it goes (nil: not refined); s itself is not changed.
func (wf *WalkingFocuser) Focus(s *tvl.Structure, refine WalkRefine) ([]*tvl.Structure, error) {
	fo := wf.fo
	matrix, vars := stripQuantifiers(fo.formula, logic.FreeVars(fo.formula))
	f := &walk{fo: fo, exists: wf.exists, refine: refine}
	rs, err := f.rec(matrix, map[logic.Var]int{}, []*tvl.Structure{s})
	if err != nil {
		return nil, err
	}
	var out []*tvl.Structure
	for _, t := range rs {
		settled, err := f.saturate(t, nil, func(u *tvl.Structure) *literal { return f.guardLiteral(u, matrix, vars) })
		if err != nil {
			return nil, err
		}
		out = append(out, settled...)
	}
	for i, t := range out {
		out[i] = RemoveNonexistent(t, wf.exists)
	}
	return distinct(out), nil
}

// stripQuantifiers drops the outer quantifiers of f, adding their
// variables to vars (a variable that would clash with one already there
// stops the stripping).
func stripQuantifiers(f logic.Formula, vars []logic.Var) (logic.Formula, []logic.Var) {
	for {
		q, ok := f.(*logic.Quant)
		if !ok {
			return f, vars
		}
		for _, v := range q.Vars {
			if slices.Contains(vars, v) {
				return f, vars
			}
		}
		vars = append(append([]logic.Var(nil), vars...), q.Vars...)
		f = q.Body
	}
}

// WalkRefine refines a structure a walk split: Coerce incremental on the
// tuples of d (all constraints when d is nil), with only the simple
// constraints when simpleOnly (Coercer.CoerceDelta). It reports whether
// the structure is consistent.
type WalkRefine func(t *tvl.Structure, d *Delta, simpleOnly bool) bool

// walk is one WalkingFocuser.Focus.
type walk struct {
	fo     *Focuser
	exists *tvl.Pred
	refine WalkRefine
	steps  int
}

// env is an assignment of variables to individuals.
type env = map[logic.Var]int

func with(e env, z env) env {
	out := make(env, len(e)+len(z))
	for k, v := range e {
		out[k] = v
	}
	for k, v := range z {
		out[k] = v
	}
	return out
}

// rec focuses g on each of in, with e's variables fixed.
func (f *walk) rec(g logic.Formula, e env, in []*tvl.Structure) ([]*tvl.Structure, error) {
	switch h := g.(type) {
	case *logic.Atom:
		var out []*tvl.Structure
		for _, t := range in {
			rs, err := f.saturate(t, f.fo.voc.Lookup(h.Pred), func(u *tvl.Structure) *literal { return f.atomLiteral(u, h, e) })
			if err != nil {
				return nil, err
			}
			out = append(out, rs...)
		}
		return out, nil
	case *logic.Not:
		return f.rec(h.Sub, e, in)
	case *logic.Binary:
		if h.Op == logic.And {
			return f.conj(conjunctList(h, nil), e, in)
		}
		rs, err := f.rec(h.Left, e, in)
		if err != nil {
			return nil, err
		}
		return f.rec(h.Right, e, rs)
	case *logic.If:
		rs := in
		for _, part := range []logic.Formula{h.Cond, h.Then, h.Else} {
			var err error
			if rs, err = f.rec(part, e, rs); err != nil {
				return nil, err
			}
		}
		return rs, nil
	case *logic.Quant:
		inner := with(e, nil)
		for _, v := range h.Vars {
			delete(inner, v)
		}
		return f.rec(h.Body, inner, in)
	}
	return in, nil
}

// relativize ranges g over the individuals that exist.
func (f *walk) relativize(g logic.Formula) logic.Formula { return logic.Relativize(g, f.exists.Name) }

// conjunctList flattens a conjunction.
func conjunctList(g logic.Formula, out []logic.Formula) []logic.Formula {
	if b, ok := g.(*logic.Binary); ok && b.Op == logic.And {
		return conjunctList(b.Right, conjunctList(b.Left, out))
	}
	return append(out, g)
}

// unbound lists g's free variables that e does not fix, in order.
func unbound(g logic.Formula, e env) []logic.Var {
	var out []logic.Var
	for _, v := range logic.FreeVars(g) {
		if _, ok := e[v]; !ok {
			out = append(out, v)
		}
	}
	return out
}

// conj focuses a conjunction (see WalkingFocuser).
func (f *walk) conj(cs []logic.Formula, e env, in []*tvl.Structure) ([]*tvl.Structure, error) {
	cs = append([]logic.Formula(nil), cs...)
	sort.SliceStable(cs, func(i, j int) bool { return len(unbound(cs[i], e)) < len(unbound(cs[j], e)) })
	rs, err := f.rec(cs[0], e, in)
	if err != nil {
		return nil, err
	}
	prev := cs[0]
	prevVars := unbound(prev, e)
	for _, c := range cs[1:] {
		var shared []logic.Var
		for _, v := range unbound(c, e) {
			if slices.Contains(prevVars, v) {
				shared = append(shared, v)
			}
		}
		var next []*tvl.Structure
		for _, t := range rs {
			if len(shared) == 0 {
				next = append(next, t)
				continue
			}
			zs := f.holding(t, prev, e, prevVars, shared)
			if len(zs) == 0 {
				next = append(next, t)
				continue
			}
			for _, z := range zs {
				r, err := f.rec(c, with(e, z), []*tvl.Structure{t})
				if err != nil {
					return nil, err
				}
				next = append(next, r...)
			}
		}
		rs = distinct(next)
		prev = logic.NewAnd(prev, c)
		for _, v := range unbound(c, e) {
			if !slices.Contains(prevVars, v) {
				prevVars = append(prevVars, v)
			}
		}
	}
	return rs, nil
}

// holding lists, in order, the assignments of shared (a subset of vars)
// under which g is 1 for some values of vars' other variables, e fixed.
func (f *walk) holding(t *tvl.Structure, g logic.Formula, e env, vars, shared []logic.Var) []env {
	var out []env
	seen := map[string]bool{}
	f.each(t, vars, e, func(z env) {
		if f.eval(t, g, z) != logic.True {
			return
		}
		key := ""
		proj := env{}
		for _, v := range shared {
			proj[v] = z[v]
			key += fmt.Sprintf("%d,", z[v])
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, proj)
		}
	})
	// In lexicographic order of the shared variables' individuals.
	sort.SliceStable(out, func(i, j int) bool {
		for _, v := range shared {
			if out[i][v] != out[j][v] {
				return out[i][v] < out[j][v]
			}
		}
		return false
	})
	return out
}

// each calls visit with every assignment of vars to individuals that may
// exist (inac not 0), extending e, in lexicographic order.
func (f *walk) each(t *tvl.Structure, vars []logic.Var, e env, visit func(env)) {
	var live []int
	for u := 0; u < t.Size(); u++ {
		if t.Unary(f.exists.Index, u) != logic.False {
			live = append(live, u)
		}
	}
	z := with(e, nil)
	for idx := range tvl.Tuples(len(live), len(vars)) {
		for i, v := range vars {
			z[v] = live[idx[i]]
		}
		visit(z)
	}
}

// eval is g relativized, on t, under z (which binds g's free variables).
func (f *walk) eval(t *tvl.Structure, g logic.Formula, z env) logic.Kleene {
	free := logic.FreeVars(g)
	c := f.fo.subs.compiledAs(g, free, f.exists.Name, f.relativize)
	asg := make([]int, len(free))
	for i, v := range free {
		asg[i] = z[v]
	}
	return c.Eval(t, asg...)
}

// atomLiteral finds the first tuple of a (its unbound variables in order
// of appearance, over individuals that may exist) where a is not 0 and
// something is 1/2: an individual's existence, in argument order, then a.
func (f *walk) atomLiteral(t *tvl.Structure, a *logic.Atom, e env) *literal {
	p := f.fo.voc.Lookup(a.Pred)
	var found *literal
	args := make([]int, len(a.Args))
	f.each(t, unbound(a, e), e, func(z env) {
		if found != nil {
			return
		}
		for i, v := range a.Args {
			args[i] = z[v]
		}
		val := t.Get(p, args...)
		if val == logic.False {
			return
		}
		for _, u := range args {
			if t.Unary(f.exists.Index, u) == logic.Unknown {
				found = &literal{pred: f.exists, args: []int{u}, atomArgs: append([]int(nil), args...)}
				return
			}
		}
		if val == logic.Unknown {
			found = &literal{pred: p, args: append([]int(nil), args...)}
		}
	})
	return found
}

// guardLiteral finds the first assignment of vars under which g is 1 and
// an individual of it may not exist, and that individual's existence.
func (f *walk) guardLiteral(t *tvl.Structure, g logic.Formula, vars []logic.Var) *literal {
	var found *literal
	f.each(t, vars, env{}, func(z env) {
		if found != nil {
			return
		}
		var maybe []int
		for _, v := range vars {
			if t.Unary(f.exists.Index, z[v]) == logic.Unknown {
				maybe = append(maybe, z[v])
			}
		}
		if len(maybe) > 0 && f.eval(t, g, z) == logic.True {
			found = &literal{pred: f.exists, args: []int{maybe[0]}}
		}
	})
	return found
}

// saturate splits t on the literals next finds until it finds none, and
// returns the structures left (refined, the inconsistent ones dropped).
// atom is the predicate of the atom being focused, nil for the last
// step. Refinement follows what TVLA 3 does (observed): after a split of
// a value, Coerce looks at the assignments that involve the split tuple
// (Coercer.CoerceDelta); after an individual of an atom is found to
// exist, only at the simple constraints' assignments that involve the
// atom's tuple; after one is found not to exist, or in the last step, at
// everything.
func (f *walk) saturate(t *tvl.Structure, atom *tvl.Pred, next func(*tvl.Structure) *literal) ([]*tvl.Structure, error) {
	var out []*tvl.Structure
	work := []*tvl.Structure{t}
	for len(work) > 0 {
		u := work[0]
		work = work[1:]
		lit := next(u)
		if lit == nil {
			out = append(out, u)
			continue
		}
		f.steps++
		if f.steps > maxFocusSteps {
			return nil, &FocusError{Formula: logic.String(f.fo.formula), Reason: fmt.Sprintf("no result after %d splits; the formula does not become definite", maxFocusSteps)}
		}
		var parts []*tvl.Structure
		if lit.pred == f.exists {
			// Whether an individual exists: it does, or it does not (and
			// goes at the end). No third part for a summary individual:
			// one part existing and one not is the first part.
			one, zero := u.Clone(), u.Clone()
			one.Set(lit.pred, logic.True, lit.args...)
			zero.Set(lit.pred, logic.False, lit.args...)
			parts = []*tvl.Structure{one, zero}
		} else {
			var err error
			if parts, err = f.fo.split(u, lit, false); err != nil {
				return nil, err
			}
		}
		for i, p := range parts {
			keep := true
			if f.refine != nil {
				d := NewDelta()
				switch {
				case lit.pred != f.exists:
					d.AddTuple(lit.pred, lit.args)
					if i == 2 {
						d.AddAll(lit.pred)
						d.AddAll(p.Vocabulary().Summary())
					}
					keep = f.refine(p, d, false)
				case atom != nil && i == 0:
					d.AddTuple(atom, lit.atomArgs)
					keep = f.refine(p, d, true)
				default:
					keep = f.refine(p, nil, false)
				}
			}
			if keep {
				work = append(work, p)
			}
		}
	}
	return out, nil
}

// distinct drops repeated structures (equal individual by individual).
func distinct(ss []*tvl.Structure) []*tvl.Structure {
	var out []*tvl.Structure
	seen := map[uint64][]*tvl.Structure{}
	for _, s := range ss {
		h := s.OrderedHash()
		dup := false
		for _, o := range seen[h] {
			if o == s || tvl.Equal(o, s) {
				dup = true
				break
			}
		}
		if !dup {
			seen[h] = append(seen[h], s)
			out = append(out, s)
		}
	}
	return out
}

// RemoveNonexistent returns s without the individuals on which exists is
// 0 (s itself when there are none): an individual exists (1) or may
// (1/2); at 0 it is not there at all.
func RemoveNonexistent(s *tvl.Structure, exists *tvl.Pred) *tvl.Structure {
	var keep []int
	for u := 0; u < s.Size(); u++ {
		if s.Unary(exists.Index, u) != logic.False {
			keep = append(keep, u)
		}
	}
	if len(keep) == s.Size() {
		return s
	}
	return s.Project(keep)
}
