package tvp

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
)

// Type checks, done once every predicate is declared: of section one
// as a whole, and of each action as it is instantiated.

// checkDeclarations type-checks what section one declared, once every
// predicate is known: instrumentation definitions, %r rules, global focus
// formulas and messages; and adds the rules properties imply.
func (pp *progParser) checkDeclarations() {
	var defined []*predicates.Predicate
	for _, p := range pp.voc.Declared() {
		if p.Kind != predicates.Instrumentation {
			continue
		}
		pos := pp.originPos(p.Origin)
		pp.checkFormula(p.Def, p.Params, pos, "the definition of "+p.Name)
		defined = append(defined, p)
	}
	pp.checkDefinitionCycles(defined)
	for _, r := range pp.rules {
		pp.checkFormula(r.rule.Body, nil, r.pos, "")
		pp.checkFormula(r.rule.Head, nil, r.pos, "")
		pp.voc.Rules = append(pp.voc.Rules, r.rule)
	}
	for _, p := range pp.voc.Declared() {
		pp.voc.Rules = append(pp.voc.Rules, predicates.PropertyRules(p)...)
		if p.Kind == predicates.Instrumentation && !p.Props.AntiSymmetric {
			pp.voc.Rules = append(pp.voc.Rules, predicates.ClosureOfAcyclicRules(p, func(n string) bool {
				q := pp.voc.Lookup(n)
				return q != nil && q.Props.Acyclic
			})...)
		}
		for _, q := range p.Props.UniquePerCC {
			qp := pp.voc.Lookup(q)
			switch {
			case qp == nil:
				pp.typeError(pp.originPos(p.Origin), "uniquePerCC(%s) of %s names an undeclared predicate", q, p.Name)
			case qp.Arity != 2 || p.Arity != 1:
				pp.typeError(pp.originPos(p.Origin), "uniquePerCC(%s) of %s needs a unary predicate and a binary one", q, p.Name)
			default:
				pp.voc.Rules = append(pp.voc.Rules, predicates.UniquePerCCRules(p, q)...)
			}
		}
	}
	for i, f := range pp.globalF {
		pp.checkFormula(f, nil, pp.globalFAt[i], "")
	}
	for _, m := range pp.globalM {
		pp.checkMessage(m)
	}
	for _, d := range pp.prog.DecompNames {
		pp.checkFormula(d.Formula, nil, pp.originPos(d.Origin), "")
		pp.checkDecompPredicates(d)
	}
}

// checkDecompPredicates reports the unary predicates a %dname formula
// uses positively (not under a negation) that are not abstraction
// predicates, as TVLA 3 does under either engine ("Decomposition
// predicate locked_at[m_1] is not an abstraction predicate",
// concurrent_lists/model1.tvp); negated ones (dcas/g's !dummy(v)) and
// binary ones (linearization_tlq) are allowed. The predicates'
// declarations decide: the --abs/--nonabs overrides come later.
func (pp *progParser) checkDecompPredicates(d model.DecompName) {
	var walk func(f logic.Formula, positive bool)
	walk = func(f logic.Formula, positive bool) {
		switch g := f.(type) {
		case *logic.Atom:
			if p := pp.voc.Lookup(g.Pred); positive && p != nil && p.Arity == 1 && !p.Abstraction() {
				at := pp.originPos(d.Origin)
				if q, ok := pp.posOf[f]; ok {
					at = q
				}
				pp.typeError(at, "decomposition predicate %s is not an abstraction predicate (a unary predicate a %%dname formula uses outside a negation must be one)", g.Pred)
			}
		case *logic.Not:
			walk(g.Sub, !positive)
		case *logic.Binary:
			switch g.Op {
			case logic.And, logic.Or:
				walk(g.Left, positive)
				walk(g.Right, positive)
			case logic.Implies:
				walk(g.Left, !positive)
				walk(g.Right, positive)
			default: // both polarities
				walk(g.Left, positive)
				walk(g.Right, positive)
				walk(g.Left, !positive)
				walk(g.Right, !positive)
			}
		case *logic.If:
			walk(g.Cond, positive)
			walk(g.Cond, !positive)
			walk(g.Then, positive)
			walk(g.Else, positive)
		case *logic.Quant:
			walk(g.Body, positive)
		}
	}
	walk(d.Formula, true)
}

// originPos turns a recorded "file:line:col" back into a Pos.
func (pp *progParser) originPos(origin string) Pos {
	var pos Pos
	i := strings.LastIndexByte(origin, ':')
	if i < 0 {
		return pos
	}
	// Without a file name, Pos.String gives just line:col.
	j := strings.LastIndexByte(origin[:i], ':')
	fmt.Sscanf(origin[j+1:], "%d:%d", &pos.Line, &pos.Col)
	pos.File = origin[:max(j, 0)]
	return pos
}

// checkDefinitionCycles reports instrumentation predicates defined in
// terms of themselves, directly or through others.
func (pp *progParser) checkDefinitionCycles(defs []*predicates.Predicate) {
	state := map[string]int{} // 0 unseen, 1 on the path, 2 done
	var path []string
	var visit func(p *predicates.Predicate) bool
	visit = func(p *predicates.Predicate) bool {
		switch state[p.Name] {
		case 1:
			i := 0
			for path[i] != p.Name {
				i++
			}
			cycle := append(append([]string(nil), path[i:]...), p.Name)
			pp.typeError(pp.originPos(p.Origin), "instrumentation predicates defined in a cycle: %s", strings.Join(cycle, " -> "))
			return false
		case 2:
			return true
		}
		state[p.Name] = 1
		path = append(path, p.Name)
		ok := true
		for _, q := range logic.Preds(p.Def) {
			qp := pp.voc.Lookup(q)
			if qp != nil && qp.Kind == predicates.Instrumentation && !visit(qp) {
				ok = false
				break
			}
		}
		path = path[:len(path)-1]
		state[p.Name] = 2
		return ok
	}
	for _, p := range defs {
		if state[p.Name] == 0 {
			visit(p)
		}
	}
}

// checkFormula reports undeclared predicates, wrong arities and, when
// free is not nil, free variables outside free. where names the formula
// in messages about free variables.
func (pp *progParser) checkFormula(f logic.Formula, free []logic.Var, at Pos, where string) {
	if f == nil {
		return
	}
	pos := func(node logic.Formula) Pos {
		if p, ok := pp.posOf[node]; ok {
			return p
		}
		return at
	}
	// bound counts the enclosing quantifiers binding each variable: a
	// quantifier costs its own variables, whatever the depth.
	bound := map[logic.Var]int{}
	inFree := map[logic.Var]bool{}
	reported := map[logic.Var]bool{} // unbound variables reported
	for _, v := range free {
		inFree[v] = true
	}
	useVars := func(node logic.Formula, vs ...logic.Var) {
		if free == nil {
			return
		}
		for _, v := range vs {
			if bound[v] > 0 || inFree[v] || reported[v] {
				continue
			}
			// One error per unbound variable: at its first use in the
			// formula, and once for a formula read several times (a
			// foreach body, per member).
			reported[v] = true
			key := pos(node).String() + "\x00" + string(v)
			if pp.unboundSeen[key] {
				continue
			}
			pp.unboundSeen[key] = true
			if where != "" {
				pp.typeError(pos(node), "unbound variable %s in %s", v, where)
			} else {
				pp.typeError(pos(node), "unbound variable %s", v)
			}
		}
	}
	usePred := func(node logic.Formula, name string, arity int) {
		p := pp.voc.Lookup(name)
		if p == nil {
			pp.typeError(pos(node), "undeclared predicate %s", name)
			return
		}
		if p.Arity != arity {
			pp.typeError(pos(node), "predicate %s has arity %d but is applied to %s", name, p.Arity, plural(arity, "argument"))
		}
	}
	enter := func(vs ...logic.Var) {
		for _, v := range vs {
			bound[v]++
		}
	}
	leave := func(vs ...logic.Var) {
		for _, v := range vs {
			bound[v]--
		}
	}
	var walk func(g logic.Formula)
	walk = func(g logic.Formula) {
		switch h := g.(type) {
		case *logic.Atom:
			usePred(h, h.Pred, len(h.Args))
			useVars(h, h.Args...)
		case *logic.Closure:
			usePred(h, h.Pred, 2)
			useVars(h, h.From, h.To)
		case *logic.Equal:
			useVars(h, h.Left, h.Right)
		case *logic.Not:
			walk(h.Sub)
		case *logic.Binary:
			walk(h.Left)
			walk(h.Right)
		case *logic.If:
			walk(h.Cond)
			walk(h.Then)
			walk(h.Else)
		case *logic.Quant:
			enter(h.Vars...)
			walk(h.Body)
			leave(h.Vars...)
		case *logic.TC:
			useVars(h, h.From, h.To)
			enter(h.Sub1, h.Sub2)
			walk(h.Body)
			leave(h.Sub1, h.Sub2)
		}
	}
	walk(f)
}

func (pp *progParser) checkMessage(m model.Message) {
	at := pp.originPos(m.Origin)
	pp.checkFormula(m.Compose, nil, at, "")
	pp.checkFormula(m.Formula, nil, at, "")
}

// checkAction type-checks an instantiated action. The precondition's free
// variables are bound in every later formula.
func (pp *progParser) checkAction(a *model.Action) {
	at := pp.originPos(a.Origin)
	// The global focus formulas and messages, last in the lists, were
	// checked with the declarations.
	for _, f := range a.Focus[:len(a.Focus)-len(pp.globalF)] {
		pp.checkFormula(f, nil, at, "")
	}
	pp.checkFormula(a.Precondition, nil, at, "")
	var pre []logic.Var
	if a.Precondition != nil {
		pre = logic.FreeVars(a.Precondition)
	}
	for _, m := range a.PreMessages[:len(a.PreMessages)-len(pp.globalM)] {
		pp.checkMessage(m)
	}
	for _, m := range a.PostMessages {
		pp.checkMessage(m)
	}
	unary := func(f logic.Formula, what string) {
		if f == nil {
			return
		}
		pp.checkFormula(f, nil, at, "")
		var own []logic.Var
		for _, v := range logic.FreeVars(f) {
			if !containsVar(pre, v) {
				own = append(own, v)
			}
		}
		if len(own) > 1 {
			where := at
			if p, ok := pp.posOf[f]; ok {
				where = p
			}
			names := make([]string, len(own))
			for i, v := range own {
				names[i] = string(v)
			}
			pp.typeError(where, "the %s formula of action %s must have one free variable, has %d: %s", what, a.Name, len(own), strings.Join(names, ", "))
		}
	}
	unary(a.NewFormula, "%new")
	unary(a.CloneFormula, "%clone")
	unary(a.Retain, "%retain")
	for _, u := range a.Updates {
		if u.Pred == nil {
			continue
		}
		pp.checkFormula(u.Formula, append(append([]logic.Var(nil), u.Args...), pre...), pp.originPos(u.Origin), "the update of "+u.Pred.Name)
	}
}

func containsVar(vs []logic.Var, v logic.Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}
