package predicates

import (
	"github.com/tvla-go/tvla/logic"
)

// PropertyRules returns the consistency rules p's properties imply, as the
// TVLA manual's table of properties gives them: for each property a rule,
// and for the ones that force an equality also the rule that forbids the
// second tuple.
func PropertyRules(p *Predicate) []Rule {
	var rules []Rule
	add := func(prop string, body, head logic.Formula) {
		rules = append(rules, Rule{Body: body, Head: head, Origin: p.Name + " " + prop})
	}
	at := func(args ...logic.Var) logic.Formula { return logic.NewAtom(p.Name, args...) }
	not := logic.NewNot
	and := func(fs ...logic.Formula) logic.Formula { return logic.NewAnd(fs...) }
	ex := func(f logic.Formula, vs ...logic.Var) logic.Formula { return logic.NewExists(f, vs...) }
	const v, v1, v2, v3 logic.Var = "v", "v1", "v2", "v3"
	pr := p.Props
	if pr.Unique && p.Arity == 1 {
		add("unique", and(at(v1), at(v2)), logic.Eq(v1, v2))
		add("unique", ex(and(at(v1), logic.Neq(v1, v)), v1), not(at(v)))
	}
	if p.Arity != 2 {
		return rules
	}
	if pr.Function {
		add("function", ex(and(at(v, v1), at(v, v2)), v), logic.Eq(v1, v2))
		add("function", ex(and(at(v1, v), logic.Neq(v2, v)), v), not(at(v1, v2)))
	}
	if pr.InvFunction {
		add("invfunction", ex(and(at(v1, v), at(v2, v)), v), logic.Eq(v1, v2))
		add("invfunction", ex(and(at(v, v2), logic.Neq(v1, v)), v), not(at(v1, v2)))
	}
	if pr.Symmetric {
		add("symmetric", at(v1, v2), at(v2, v1))
	}
	if pr.AntiSymmetric {
		add("antisymmetric", and(at(v1, v2), at(v2, v1)), logic.Eq(v1, v2))
		add("antisymmetric", and(at(v1, v2), logic.Neq(v1, v2)), not(at(v2, v1)))
	}
	if pr.Reflexive {
		add("reflexive", logic.Eq(v1, v2), at(v1, v2))
	}
	if pr.AntiReflexive {
		add("antireflexive", logic.Eq(v1, v2), not(at(v1, v2)))
	}
	if pr.Transitive {
		add("transitive", ex(and(at(v1, v2), at(v2, v3)), v2), at(v1, v3))
	}
	if pr.Acyclic {
		// TVLA discards any structure with a definite cycle (not only a
		// self loop) of an acyclic predicate.
		add("acyclic", &logic.Closure{Pred: p.Name, From: v, To: v}, logic.False0)
	}
	return rules
}

// ClosureOfAcyclicRules returns the rules TVLA adds for p when p is
// defined as the closure (n* or n+, over p's own two parameters in
// order) of a binary predicate n declared acyclic: p is then
// antisymmetric, so that p(v1, v2) = 1 between distinct individuals
// makes p(v2, v1) 0. Observed on the reference (TVLA 3) with a program
// of ours (TestClosureOfAcyclicIsAntisymmetric): it sharpens p so even
// when p declares no property, and not when n is not acyclic. acyclic
// is n's declaration; nil when p is not such a closure.
func ClosureOfAcyclicRules(p *Predicate, acyclic func(name string) bool) []Rule {
	c, ok := p.Def.(*logic.Closure)
	if !ok || p.Arity != 2 || len(p.Params) != 2 || c.From != p.Params[0] || c.To != p.Params[1] || !acyclic(c.Pred) {
		return nil
	}
	const v1, v2 logic.Var = "v1", "v2"
	at := func(a, b logic.Var) logic.Formula { return logic.NewAtom(p.Name, a, b) }
	origin := p.Name + " antisymmetric (the closure of the acyclic " + c.Pred + ")"
	return []Rule{
		{Body: logic.NewAnd(at(v1, v2), at(v2, v1)), Head: logic.Eq(v1, v2), Origin: origin},
		{Body: logic.NewAnd(at(v1, v2), logic.Neq(v1, v2)), Head: logic.NewNot(at(v2, v1)), Origin: origin},
	}
}

// UniquePerCCRules returns the rules of uniquePerCC(q) on a unary p: two
// individuals with p, one reaching the other along q, are the same. (The
// name says "per connected component"; TVLA's behaviour, checked on
// inputs, follows q's direction.)
func UniquePerCCRules(p *Predicate, q string) []Rule {
	const v1, v2 logic.Var = "v1", "v2"
	body := logic.NewAnd(logic.NewAtom(p.Name, v1), logic.NewAtom(p.Name, v2),
		&logic.Closure{Pred: q, From: v1, To: v2, Reflexive: true})
	return []Rule{{Body: body, Head: logic.Eq(v1, v2), Origin: p.Name + " uniquePerCC(" + q + ")"}}
}
