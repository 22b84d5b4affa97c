package abstraction

import (
	"fmt"

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
	// where are the tuples the formula can change (frame.go); elsewhere
	// it gives back the predicate's value.
	where cover
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
	// changes are the predicates an application may change, for the
	// semi-naive Coerce after the update.
	changes         []*tvl.Pred
	isNew, instance *tvl.Pred
	// active is inac under the single-structure join (nil otherwise):
	// the individuals %new and %clone make exist.
	active *tvl.Pred
	// initNew evaluates instrumentation definitions on the tuples of new
	// individuals (and, for definitions new individuals can affect, on all
	// tuples) before the update formulas run.
	initNew []newInit
	// derivedFormulas are the formulas finite differencing produced.
	derivedFormulas []predicates.Update
}

// newInit is one instrumentation predicate to set up after %new.
type newInit struct {
	pred    *tvl.Pred
	def     *tvl.Compiled
	neutral bool
}

// Source returns the model action.
func (a *Action) Source() *model.Action { return a.src }

// ActionOptions choose how actions are compiled.
type ActionOptions struct {
	// Differencing derives update formulas for instrumentation predicates
	// that an action does not update by hand (TVLA's default); without it
	// they keep their values.
	Differencing bool
	// Active, when set, is the predicate that tells individuals that
	// certainly exist from those that may not (inac, for the
	// single-structure join): every formula is relativized to it
	// (logic.Relativize), focus formulas also on their free variables,
	// and new individuals get it at 1.
	Active *tvl.Pred
}

// relativize is f relativized to active (nil: f itself).
func relativize(f logic.Formula, active *tvl.Pred) logic.Formula {
	if f == nil || active == nil {
		return f
	}
	return logic.Relativize(f, active.Name)
}

// CompileAction prepares a model action for voc.
func CompileAction(voc *predicates.Vocabulary, act *model.Action, opts ActionOptions) (*Action, error) {
	tv := voc.Tvl()
	a := &Action{src: act, isNew: tv.Lookup(predicates.IsNewName), instance: tv.Lookup(predicates.InstanceName), active: opts.Active}
	rel := func(f logic.Formula) logic.Formula { return relativize(f, opts.Active) }
	wrap := func(what string, err error) error {
		return fmt.Errorf("action %s: %s: %w", act.Title, what, err)
	}
	for _, f := range act.Focus {
		fo, err := NewFocuser(tv, f)
		if err != nil {
			return nil, wrap("focus formula "+logic.String(f), err)
		}
		fo.active = opts.Active
		a.focus = append(a.focus, fo)
	}
	if act.Precondition != nil {
		a.preVars = logic.FreeVars(act.Precondition)
		c, err := tvl.Compile(rel(act.Precondition), tv, a.preVars)
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
			c, err := tvl.Compile(rel(m.Formula), tv, vars)
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
		c, err := tvl.Compile(rel(f), tv, vars)
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
	var explicit []predicates.Update
	addUpdate := func(p *predicates.Predicate, args []logic.Var, f logic.Formula) error {
		vars := append([]logic.Var(nil), args...)
		var from []int
		for i, v := range a.preVars {
			if !containsVar(vars, v) {
				vars = append(vars, v)
				from = append(from, i)
			}
		}
		f = rel(f)
		c, err := tvl.Compile(f, tv, vars)
		if err != nil {
			return wrap("update of "+p.Name, err)
		}
		where := (&coverAnalysis{voc: tv, pred: p.Pred, args: args}).changes(f)
		a.updates = append(a.updates, compiledUpdate{pred: p.Pred, eval: c, fromBinding: from, where: where})
		updated[p.Name] = true
		a.changes = append(a.changes, p.Pred)
		return nil
	}
	for _, u := range act.Updates {
		if u.Auto && opts.Differencing {
			// auto: the tool derives this predicate's formula.
			continue
		}
		if err := addUpdate(u.Pred, u.Args, u.Formula); err != nil {
			return nil, err
		}
		explicit = append(explicit, predicates.Update{Pred: u.Pred, Args: u.Args, Formula: u.Formula})
	}
	universeChanges := act.New || act.Clone || act.Retain != nil
	if universeChanges {
		a.changes = append(a.changes, tv.Summary(), a.isNew, a.instance)
	}
	if !opts.Differencing {
		// As in TVLA without differencing: a predicate without an update
		// formula keeps its value.
		return a, nil
	}
	// Finite differencing gives every instrumentation predicate the action
	// may change an update formula over the state before it. With %new,
	// that state includes the new individuals, whose instrumentation values
	// come from the definitions first. Like TVLA, it treats %retain and
	// %clone as if the individuals they remove or copy did not change the
	// instrumentation values of the others (TVLA warns about such
	// actions; so does the loader's user, through Warnings).
	d := predicates.NewDifferencer(voc, explicit)
	for _, p := range dependencyOrder(voc) {
		if act.New {
			c, err := tvl.Compile(rel(p.Def), tv, p.Params)
			if err != nil {
				return nil, wrap("definition of "+p.Name, err)
			}
			a.initNew = append(a.initNew, newInit{pred: p.Pred, def: c, neutral: predicates.NeutralToNewIndividuals(p.Def)})
		}
		if updated[p.Name] {
			continue
		}
		if f := d.Derive(p); f != nil {
			if err := addUpdate(p, p.Params, f); err != nil {
				return nil, err
			}
			a.derivedFormulas = append(a.derivedFormulas, predicates.Update{Pred: p, Args: p.Params, Formula: f})
		}
	}
	return a, nil
}

// DerivedUpdates lists the update formulas finite differencing gave the
// action's instrumentation predicates.
func (a *Action) DerivedUpdates() []predicates.Update { return a.derivedFormulas }

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
func (a *Action) preconditionBindings(s *tvl.Structure, bs bindings) []binding {
	if a.pre == nil {
		return []binding{nil}
	}
	var out []binding
	bs.bind(a.pre, s).ForEach(func(asg []int, v logic.Kleene) bool {
		if v != logic.False {
			out = append(out, append(binding(nil), asg...))
		}
		return true
	})
	return out
}

// applicable reports whether the precondition is potentially satisfied
// (not 0) under some assignment.
func (a *Action) applicable(s *tvl.Structure, bs bindings) bool {
	if a.pre == nil {
		return true
	}
	found := false
	bs.bind(a.pre, s).ForEach(func(_ []int, v logic.Kleene) bool {
		found = v != logic.False
		return !found
	})
	return found
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
// structure and the predicates whose values may differ from s's (for the
// semi-naive Coerce after it). s is not changed.
func (a *Action) update(s *tvl.Structure, b binding, bs bindings) (*tvl.Structure, []*tvl.Pred) {
	post, changed, _ := a.updateFrom(s, b, bs)
	return post, changed
}

// updateFrom is update, also returning the pre-state the update formulas
// read (s, with the individuals of %new and %clone).
func (a *Action) updateFrom(s *tvl.Structure, b binding, bs bindings) (*tvl.Structure, []*tvl.Pred, *tvl.Structure) {
	// The update formulas read the pre-state, which only %new and %clone
	// change: otherwise s itself is read, and only post is a copy.
	pre := s
	if a.src.New || a.src.Clone {
		pre = s.Clone()
	}
	// New individuals join the pre-state: update formulas see them, with
	// every predicate 0 except isNew (and instance for copies), and the
	// instrumentation predicates as their definitions say.
	if a.src.New {
		old := pre.Size()
		a.create(pre, a.newF, b, false)
		for _, in := range a.initNew {
			bound := bs.bind(in.def, pre)
			eachTuple(pre.Size(), in.pred.Arity, func(t []int) bool {
				touchesNew := false
				for _, u := range t {
					if u >= old {
						touchesNew = true
					}
				}
				if touchesNew || !in.neutral {
					pre.Set(in.pred, bound.Eval(t...), t...)
				}
				return true
			})
		}
	}
	if a.src.Clone {
		a.create(pre, a.cloneF, b, true)
	}
	post := pre.Clone()
	var changed []*tvl.Pred
	for _, u := range a.updates {
		bound := bs.bind(u.eval, pre)
		k := u.pred.Arity
		asg := make([]int, k+len(u.fromBinding))
		for i, j := range u.fromBinding {
			asg[k+i] = b[j]
		}
		differs := false
		u.where.tuples(pre, k, func(t []int) {
			copy(asg, t)
			if v := bound.Eval(asg...); v != pre.Get(u.pred, t...) {
				post.Set(u.pred, v, t...)
				differs = true
			}
		})
		if differs {
			changed = append(changed, u.pred)
		}
	}
	if a.src.New || a.src.Clone || a.retain != nil {
		// The universe changed: every constraint the action can affect
		// is checked.
		changed = a.changes
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
		bound := bs.bind(a.retain, post)
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
	return post, changed, pre
}

// bindings keeps one tvl.Bound per compiled formula, rebound to each
// structure in turn, for one goroutine: an application evaluates dozens of
// update formulas, and binding each afresh was a tenth of a run's
// allocation. A nil bindings binds afresh.
type bindings map[*tvl.Compiled]*tvl.Bound

func (bs bindings) bind(c *tvl.Compiled, s *tvl.Structure) *tvl.Bound {
	if bs == nil {
		return c.Bind(s)
	}
	if b := bs[c]; b != nil {
		b.Rebind(s)
		return b
	}
	b := c.Bind(s)
	bs[c] = b
	return b
}

// create adds the individuals of %new or %clone: one, or with a formula
// a copy of each individual that potentially satisfies it, related to it
// by instance. Copies made by %clone carry the original's values.
func (a *Action) create(s *tvl.Structure, f *tvl.Compiled, b binding, clone bool) {
	if f == nil {
		u := s.AddIndividual()
		s.Set(a.isNew, logic.True, u)
		if a.active != nil {
			s.Set(a.active, logic.True, u)
		}
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
		if a.active != nil {
			s.Set(a.active, logic.True, c)
		}
	}
}
