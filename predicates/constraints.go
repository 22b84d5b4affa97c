package predicates

import (
	"fmt"
	"slices"

	"github.com/tvla-go/tvla/logic"
)

// Constraint is a compatibility constraint Body ▷ Head (thesis §4.3.2):
// under every assignment of Vars where Body is 1, Head must be 1. Head is
// a literal: an atom, an equality or the constant 0, possibly negated.
type Constraint struct {
	Body, Head logic.Formula
	// Plain is the body before Relativize (nil when it was not): what
	// the constraint reads, for deciding when to check it again.
	Plain logic.Formula
	// Vars are the free variables of body and head together, in order.
	Vars []logic.Var
	// Origin names what the constraint came from, for debugging output.
	Origin string
	// Definition: the constraint comes from an instrumentation
	// predicate's definition (either direction, or the closure of one).
	Definition bool
}

func (c Constraint) String() string {
	return logic.String(c.Body) + " ==> " + logic.String(c.Head)
}

// Closure chooses which contrapositives Coerce derives from the two
// constraints of an instrumentation definition.
type Closure int

const (
	// ClosureFull derives one for every literal of a conjunctive body
	// (existential quantifiers dropped, their variables free), a body of
	// one literal included: from h(v) = E(u) n(v, u) it derives
	// !h(v) ==> !n(v, u). Every such constraint is valid, so this is
	// sound and sharper than TVLA.
	ClosureFull Closure = iota
	// ClosureTVLA derives them only for bodies of two or more conjuncts,
	// which is what TVLA 3 does (established by running it on small
	// programs: a 1/2 n(p, q) stays 1/2 beside h(p) = 0).
	ClosureTVLA
)

// ParseClosure reads a closure name: full or tvla.
func ParseClosure(s string) (Closure, error) {
	switch s {
	case "full":
		return ClosureFull, nil
	case "tvla":
		return ClosureTVLA, nil
	}
	return 0, fmt.Errorf("unknown closure %q (want full or tvla)", s)
}

func (c Closure) String() string {
	if c == ClosureTVLA {
		return "tvla"
	}
	return "full"
}

// Constraints derives the constraints Coerce enforces with the full
// closure; see ConstraintsWith.
func Constraints(v *Vocabulary) []Constraint { return ConstraintsWith(v, ClosureFull) }

// headScoped reads a rule as TVLA 3 does when its head names a variable
// that an outermost E of the body binds, as in
// `E(m) (d(v1, m) & !d(v1, v2)) ==> !d(m, v2)`: the head's m is the
// body's, so the rule holds for every m that satisfies the body (the
// quantifier is dropped). Read literally, the head's m would be a
// variable of its own, and the rule would demand !d(m, v2) of every m.
func headScoped(body logic.Formula, head []logic.Var) logic.Formula {
	switch g := body.(type) {
	case *logic.Quant:
		if g.Kind != logic.Exists {
			return body
		}
		var keep []logic.Var
		for _, x := range g.Vars {
			if !slices.Contains(head, x) {
				keep = append(keep, x)
			}
		}
		inner := headScoped(g.Body, head)
		if len(keep) == 0 {
			return inner
		}
		return &logic.Quant{Kind: logic.Exists, Vars: keep, Body: inner}
	case *logic.Binary:
		if g.Op == logic.And {
			return &logic.Binary{Op: logic.And, Left: headScoped(g.Left, head), Right: headScoped(g.Right, head)}
		}
	}
	return body
}

// ConstraintsWith derives the constraints Coerce enforces: one per
// consistency rule (written or implied by properties), two per
// instrumentation predicate (its definition implies it, and the negation
// of its definition implies its negation), and, for those two, the
// extended Horn closure when the body is a conjunction of literals (of
// at least two, with ClosureTVLA).
func ConstraintsWith(v *Vocabulary, closure Closure) []Constraint {
	var out []Constraint
	seen := map[string]bool{}
	add := func(c Constraint) {
		// Bodies in negation normal form: negated quantified definitions
		// then become existential conjunctions, which the Horn closure
		// and Coerce's join can take apart.
		c.Body = logic.NNF(c.Body)
		c.Vars = logic.FreeVars(logic.NewAnd(c.Body, c.Head))
		key := c.String()
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, c)
	}
	withClosure := func(body, head logic.Formula, origin string) {
		body = logic.NNF(body)
		add(Constraint{Body: body, Head: head, Origin: origin, Definition: true})
		for _, c := range hornClosure(body, head, v, closure) {
			c.Origin = origin + " (contrapositive)"
			c.Definition = true
			add(c)
		}
	}
	// Consistency rules (written or implied by properties) are taken as
	// they are: TVLA adds no contrapositives for them (the property table
	// already lists the useful ones), and adding them would make Coerce
	// sharper than TVLA's, changing the structures an analysis keeps.
	for _, r := range v.Rules {
		add(Constraint{Body: headScoped(r.Body, logic.FreeVars(r.Head)), Head: r.Head, Origin: r.Origin})
	}
	for _, p := range v.Declared() {
		if p.Kind != Instrumentation {
			continue
		}
		atom := logic.NewAtom(p.Name, p.Params...)
		withClosure(p.Def, atom, p.Name+" definition")
		withClosure(logic.NewNot(p.Def), logic.NewNot(atom), p.Name+" definition")
	}
	return out
}

// hornClosure returns, for body = a1 & ... & an (after dropping outer
// existential quantifiers, whose variables become free) and head a0, the
// constraints !a0 & (the other ai) ▷ !ai, for each ai that can be a head.
func hornClosure(body, head logic.Formula, v *Vocabulary, closure Closure) []Constraint {
	body = stripExists(body, logic.FreeVars(head))
	lits, ok := conjuncts(body)
	if !ok || len(lits) == 0 || (closure == ClosureTVLA && len(lits) < 2) {
		return nil
	}
	if !isLiteral(head) {
		return nil
	}
	if c, isConst := head.(*logic.Const); isConst && c.Value == logic.False {
		// body ▷ 0 says some ai is false: !aj for the last one, given the
		// others.
		head = nil
	}
	var out []Constraint
	for i, ai := range lits {
		if !canBeHead(ai, v) {
			continue
		}
		var rest []logic.Formula
		if head != nil {
			rest = append(rest, negate(head))
		}
		for j, aj := range lits {
			if j != i {
				rest = append(rest, aj)
			}
		}
		out = append(out, Constraint{Body: logic.NewAnd(rest...), Head: negate(ai)})
	}
	return out
}

// stripExists removes existential quantifiers at the top of f and inside
// its top-level conjunctions, renaming their variables away from keep.
func stripExists(f logic.Formula, keep []logic.Var) logic.Formula {
	s := stripper{keep: map[logic.Var]int{}}
	s.push(keep)
	return s.strip(f)
}

// stripper holds what stripExists needs at each level: the variables to
// keep as a counted set (entered and left as the recursion goes, so a
// level costs its own variables only) and the free variables of every
// subformula, each computed once.
type stripper struct {
	keep map[logic.Var]int
	free logic.FreeVarsMemo
}

func (s *stripper) push(vs []logic.Var) {
	for _, v := range vs {
		s.keep[v]++
	}
}

func (s *stripper) pop(vs []logic.Var) {
	for _, v := range vs {
		s.keep[v]--
	}
}

func (s *stripper) strip(f logic.Formula) logic.Formula {
	switch g := f.(type) {
	case *logic.Quant:
		if g.Kind != logic.Exists {
			return f
		}
		// The variables to avoid: those kept, those free in f, and the
		// bound ones placed so far.
		free := map[logic.Var]bool{}
		for _, fv := range s.free.Of(f) {
			free[fv] = true
		}
		placed := map[logic.Var]bool{}
		avoid := func(v logic.Var) bool { return s.keep[v] > 0 || free[v] || placed[v] }
		sub := map[logic.Var]logic.Var{}
		for _, b := range g.Vars {
			if avoid(b) {
				n := b
				for i := 1; avoid(n); i++ {
					n = logic.Var(fmt.Sprintf("%s_%d", b, i))
				}
				sub[b] = n
				placed[n] = true
			} else {
				placed[b] = true
			}
		}
		body := logic.Rename(g.Body, sub)
		fv := s.free.Of(body)
		s.push(fv)
		defer s.pop(fv)
		return s.strip(body)
	case *logic.Binary:
		if g.Op != logic.And {
			return f
		}
		fr := s.free.Of(g.Right)
		s.push(fr)
		l := s.strip(g.Left)
		s.pop(fr)
		fl := s.free.Of(l)
		s.push(fl)
		r := s.strip(g.Right)
		s.pop(fl)
		return &logic.Binary{Op: logic.And, Left: l, Right: r}
	}
	return f
}

// conjuncts flattens a conjunction of literals; ok is false if some
// conjunct is not a literal.
func conjuncts(f logic.Formula) ([]logic.Formula, bool) {
	if b, ok := f.(*logic.Binary); ok && b.Op == logic.And {
		l, ok1 := conjuncts(b.Left)
		r, ok2 := conjuncts(b.Right)
		return append(l, r...), ok1 && ok2
	}
	if isLiteral(f) {
		return []logic.Formula{f}, true
	}
	return nil, false
}

// isLiteral: an atom, an equality, a closure or a constant, or a negated
// one.
func isLiteral(f logic.Formula) bool {
	if n, ok := f.(*logic.Not); ok {
		f = n.Sub
	}
	switch f.(type) {
	case *logic.Atom, *logic.Equal, *logic.Closure, *logic.Const:
		return true
	}
	return false
}

// canBeHead: Coerce can sharpen atoms of non-built-in predicates and
// equalities; closures and constants cannot be sharpened.
func canBeHead(f logic.Formula, v *Vocabulary) bool {
	if n, ok := f.(*logic.Not); ok {
		f = n.Sub
	}
	switch g := f.(type) {
	case *logic.Equal:
		return true
	case *logic.Atom:
		p := v.Lookup(g.Pred)
		return p != nil && p.Kind != Builtin
	}
	return false
}

func negate(f logic.Formula) logic.Formula {
	if n, ok := f.(*logic.Not); ok {
		return n.Sub
	}
	if c, ok := f.(*logic.Const); ok {
		return &logic.Const{Value: c.Value.Not()}
	}
	return logic.NewNot(f)
}

// Relativize restricts constraints to individuals that certainly exist,
// for TVLA's single-structure join, where the unary predicate active is
// 1/2 on individuals that may not: each body gets active(v) for each of
// the constraint's variables, and its quantifiers and closures are
// relativized (logic.Relativize). A body then holds only where every
// individual it names exists, so a constraint never discards a structure
// or sharpens a value on account of an individual that may be absent.
// The guards do not count as reads (Constraint.Plain): as in TVLA 3, a
// change of existence alone does not make Coerce check a constraint
// again.
func Relativize(cons []Constraint, active string) []Constraint {
	out := make([]Constraint, len(cons))
	for i, c := range cons {
		body := logic.Relativize(c.Body, active)
		for _, x := range c.Vars {
			body = logic.NewAnd(body, logic.NewAtom(active, x))
		}
		out[i] = Constraint{Body: body, Plain: c.Body, Head: c.Head, Vars: c.Vars, Origin: c.Origin, Definition: c.Definition}
	}
	return out
}
