package abstraction

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// compiledMessage is a %message ready to evaluate: Formula with the
// precondition's variables first, then its own (existentially read).
type compiledMessage struct {
	src  model.Message
	eval *tvl.Compiled
	own  int // how many variables beyond the precondition's
}

// compiledUpdate is an update formula over Args then the precondition's
// variables.
type compiledUpdate struct {
	pred *tvl.Pred
	eval *tvl.Compiled
	// fromBinding lists, for the variables after Args, which precondition
	// variable each is (an update variable named like a precondition
	// variable shadows it).
	fromBinding []int
}

// Action is a model action compiled for the engine.
type Action struct {
	src      *model.Action
	focus    []*Focuser
	pre      *tvl.Compiled // nil: always applies
	preVars  []logic.Var
	preMsgs  []compiledMessage
	postMsgs []compiledMessage
	newF     *tvl.Compiled // over preVars then one own variable; nil: one new individual
	cloneF   *tvl.Compiled
	retain   *tvl.Compiled
	updates  []compiledUpdate
	// derived are the instrumentation predicates without an update formula
	// that the action may change: they are re-evaluated from their
	// definitions afterwards, dependencies first.
	derived      []*tvl.Compiled
	derivedPreds []*tvl.Pred
	// changes are the predicates an application may change, for the
	// semi-naive Coerce after the update.
	changes         []*tvl.Pred
	isNew, instance *tvl.Pred
}

// Source returns the model action.
func (a *Action) Source() *model.Action { return a.src }

// CompileAction prepares a model action for voc.
func CompileAction(voc *predicates.Vocabulary, act *model.Action) (*Action, error) {
	tv := voc.Tvl()
	a := &Action{src: act, isNew: tv.Lookup(predicates.IsNewName), instance: tv.Lookup(predicates.InstanceName)}
	wrap := func(what string, err error) error {
		return fmt.Errorf("action %s: %s: %w", act.Title, what, err)
	}
	for _, f := range act.Focus {
		fo, err := NewFocuser(tv, f)
		if err != nil {
			return nil, wrap("focus formula "+logic.String(f), err)
		}
		a.focus = append(a.focus, fo)
	}
	if act.Precondition != nil {
		a.preVars = logic.FreeVars(act.Precondition)
		c, err := tvl.Compile(act.Precondition, tv, a.preVars)
		if err != nil {
			return nil, wrap("precondition", err)
		}
		a.pre = c
	}
	withPre := func(f logic.Formula) ([]logic.Var, int) {
		vars := append([]logic.Var(nil), a.preVars...)
		own := 0
		for _, v := range logic.FreeVars(f) {
			if !containsVar(vars, v) {
				vars = append(vars, v)
				own++
			}
		}
		return vars, own
	}
	msgs := func(ms []model.Message) ([]compiledMessage, error) {
		var out []compiledMessage
		for _, m := range ms {
			vars, own := withPre(m.Formula)
			c, err := tvl.Compile(m.Formula, tv, vars)
			if err != nil {
				return nil, wrap("message "+m.Text, err)
			}
			out = append(out, compiledMessage{src: m, eval: c, own: own})
		}
		return out, nil
	}
	var err error
	if a.preMsgs, err = msgs(act.PreMessages); err != nil {
		return nil, err
	}
	if a.postMsgs, err = msgs(act.PostMessages); err != nil {
		return nil, err
	}
	unary := func(f logic.Formula, what string) (*tvl.Compiled, error) {
		if f == nil {
			return nil, nil
		}
		vars, own := withPre(f)
		if own == 0 {
			// A closed formula: give it a dummy variable so that it is
			// read per individual like the others.
			vars = append(vars, "$individual")
		}
		c, err := tvl.Compile(f, tv, vars)
		if err != nil {
			return nil, wrap(what, err)
		}
		return c, nil
	}
	if a.newF, err = unary(act.NewFormula, "%new formula"); err != nil {
		return nil, err
	}
	if a.cloneF, err = unary(act.CloneFormula, "%clone formula"); err != nil {
		return nil, err
	}
	if a.retain, err = unary(act.Retain, "%retain formula"); err != nil {
		return nil, err
	}
	updated := map[string]bool{}
	for _, u := range act.Updates {
		vars := append([]logic.Var(nil), u.Args...)
		var from []int
		for i, v := range a.preVars {
			if !containsVar(vars, v) {
				vars = append(vars, v)
				from = append(from, i)
			}
		}
		c, err := tvl.Compile(u.Formula, tv, vars)
		if err != nil {
			return nil, wrap("update of "+u.Pred.Name, err)
		}
		a.updates = append(a.updates, compiledUpdate{pred: u.Pred.Pred, eval: c, fromBinding: from})
		updated[u.Pred.Name] = true
		a.changes = append(a.changes, u.Pred.Pred)
	}
	universeChanges := act.New || act.Clone || act.Retain != nil
	if universeChanges {
		a.changes = append(a.changes, tv.Summary(), a.isNew, a.instance)
	}
	// An instrumentation predicate nobody updates keeps its value (new
	// individuals get 0, as for every predicate), unless a predicate its
	// definition reads is updated: then it is re-derived from its
	// definition on the updated structure. This stands in for finite
	// differencing until the tool derives update formulas. Definitions are
	// visited in dependency order, so a re-derived predicate sees its
	// dependencies' new values.
	for _, p := range dependencyOrder(voc) {
		if updated[p.Name] {
			continue
		}
		affected := false
		for _, q := range logic.Preds(p.Def) {
			if updated[q] {
				affected = true
			}
		}
		if !affected {
			continue
		}
		c, err := tvl.Compile(p.Def, tv, p.Params)
		if err != nil {
			return nil, wrap("definition of "+p.Name, err)
		}
		a.derived = append(a.derived, c)
		a.derivedPreds = append(a.derivedPreds, p.Pred)
		a.changes = append(a.changes, p.Pred)
		updated[p.Name] = true
	}
	return a, nil
}

// dependencyOrder lists the instrumentation predicates so that each comes
// after the instrumentation predicates its definition uses.
func dependencyOrder(voc *predicates.Vocabulary) []*predicates.Predicate {
	var out []*predicates.Predicate
	done := map[string]bool{}
	var visit func(p *predicates.Predicate)
	visit = func(p *predicates.Predicate) {
		if done[p.Name] {
			return
		}
		done[p.Name] = true
		for _, q := range logic.Preds(p.Def) {
			if qp := voc.Lookup(q); qp != nil && qp.Kind == predicates.Instrumentation {
				visit(qp)
			}
		}
		out = append(out, p)
	}
	for _, p := range voc.Declared() {
		if p.Kind == predicates.Instrumentation {
			visit(p)
		}
	}
	return out
}

func containsVar(vs []logic.Var, v logic.Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// binding is one assignment of the precondition's free variables.
type binding []int

// preconditionBindings returns the assignments under which the
// precondition is potentially satisfied (one empty binding for a closed
// precondition that is not 0, or when there is none).
func (a *Action) preconditionBindings(s *tvl.Structure) []binding {
	if a.pre == nil {
		return []binding{nil}
	}
	var out []binding
	a.pre.Bind(s).ForEach(func(asg []int, v logic.Kleene) bool {
		if v != logic.False {
			out = append(out, append(binding(nil), asg...))
		}
		return true
	})
	return out
}

// messages returns the texts of the messages potentially satisfied on s
// under b.
func messages(ms []compiledMessage, s *tvl.Structure, b binding) []string {
	var out []string
	for _, m := range ms {
		if satisfiable(m.eval, s, b, m.own) {
			out = append(out, m.src.Text)
		}
	}
	return out
}

// satisfiable reports whether c is 1 or 1/2 for some values of its last
// own variables, the first ones fixed to b.
func satisfiable(c *tvl.Compiled, s *tvl.Structure, b binding, own int) bool {
	bound := c.Bind(s)
	asg := make([]int, len(b)+own)
	copy(asg, b)
	found := false
	eachTuple(s.Size(), own, func(t []int) bool {
		copy(asg[len(b):], t)
		if bound.Eval(asg...) != logic.False {
			found = true
		}
		return !found
	})
	return found
}

// eachTuple calls f with every k-tuple of individuals 0..n-1 in
// lexicographic order until f returns false.
func eachTuple(n, k int, f func([]int) bool) {
	if k > 0 && n == 0 {
		return
	}
	t := make([]int, k)
	for {
		if !f(t) {
			return
		}
		i := k - 1
		for i >= 0 {
			t[i]++
			if t[i] < n {
				break
			}
			t[i] = 0
			i--
		}
		if i < 0 {
			return
		}
	}
}

// update applies %new/%clone, the update formulas, the re-derivation of
// instrumentation predicates and %retain to s under b, returning the new
// structure. s is not changed.
func (a *Action) update(s *tvl.Structure, b binding) *tvl.Structure {
	pre := s.Clone()
	// New individuals join the pre-state: update formulas see them, with
	// every predicate 0 except isNew (and instance for copies).
	if a.src.New {
		a.create(pre, a.newF, b, false)
	}
	if a.src.Clone {
		a.create(pre, a.cloneF, b, true)
	}
	post := pre.Clone()
	for _, u := range a.updates {
		bound := u.eval.Bind(pre)
		k := u.pred.Arity
		asg := make([]int, k+len(u.fromBinding))
		for i, j := range u.fromBinding {
			asg[k+i] = b[j]
		}
		eachTuple(pre.Size(), k, func(t []int) bool {
			copy(asg, t)
			post.Set(u.pred, bound.Eval(asg...), t...)
			return true
		})
	}
	for i, c := range a.derived {
		p := a.derivedPreds[i]
		bound := c.Bind(post)
		eachTuple(post.Size(), p.Arity, func(t []int) bool {
			post.Set(p, bound.Eval(t...), t...)
			return true
		})
	}
	if a.src.New || a.src.Clone {
		for u := 0; u < post.Size(); u++ {
			post.Set(a.isNew, logic.False, u)
			for w := 0; w < post.Size(); w++ {
				post.Set(a.instance, logic.False, u, w)
			}
		}
	}
	if a.retain != nil {
		bound := a.retain.Bind(post)
		asg := make([]int, len(b)+1)
		copy(asg, b)
		var keep []int
		for u := 0; u < post.Size(); u++ {
			asg[len(b)] = u
			if bound.Eval(asg...) != logic.False {
				keep = append(keep, u)
			}
		}
		if len(keep) < post.Size() {
			post = post.Project(keep)
		}
	}
	return post
}

// create adds the individuals of %new or %clone: one, or with a formula
// a copy of each individual that potentially satisfies it, related to it
// by instance. Copies made by %clone carry the original's values.
func (a *Action) create(s *tvl.Structure, f *tvl.Compiled, b binding, clone bool) {
	if f == nil {
		u := s.AddIndividual()
		s.Set(a.isNew, logic.True, u)
		return
	}
	bound := f.Bind(s)
	asg := make([]int, len(b)+1)
	copy(asg, b)
	n := s.Size()
	var originals []int
	for u := 0; u < n; u++ {
		asg[len(b)] = u
		if bound.Eval(asg...) != logic.False {
			originals = append(originals, u)
		}
	}
	for _, u := range originals {
		var c int
		if clone {
			c = s.Duplicate(u)
			s.Set(a.instance, logic.False, c, c)
		} else {
			c = s.AddIndividual()
		}
		s.Set(a.isNew, logic.True, c)
		s.Set(a.isNew, logic.False, u)
		s.Set(a.instance, logic.True, u, c)
	}
}

// Describe prints the action's compiled parts, for debugging output.
func (a *Action) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", a.src.Title)
	for _, p := range a.derivedPreds {
		fmt.Fprintf(&b, " re-derives %s;", p.Name)
	}
	return b.String()
}
