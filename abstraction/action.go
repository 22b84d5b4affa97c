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
	// markNew are set to 1 on the individuals %new and %clone make.
	markNew []*tvl.Pred
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

// Title is the action's name as the program uses it, e.g. "Copy(x, y)".
func (a *Action) Title() string { return a.src.Title }

// Focusers are the action's focus formulas, compiled, in order.
func (a *Action) Focusers() []*Focuser { return a.focus }

// Changes are the predicates an application may change: what the Coerce
// after the update needs to look at when the universe changed.
func (a *Action) Changes() []*tvl.Pred { return a.changes }

// ActionOptions choose how actions are compiled.
type ActionOptions struct {
	// Differencing derives update formulas for instrumentation predicates
	// that an action does not update by hand (TVLA's default); without it
	// they keep their values.
	Differencing bool
	// Restrict, when set, rewrites every formula before it is compiled
	// (the precondition, messages, %new, %clone and %retain formulas,
	// updates and the definitions new individuals get): a join whose
	// individuals may not exist ranges formulas over those that do
	// (logic.Relativize). Focus formulas are compiled as written.
	Restrict func(logic.Formula) logic.Formula
	// MarkNew are unary predicates set to 1 on every individual %new
	// or %clone makes, as isNew is: existence, for such a join.
	MarkNew []*tvl.Pred
}

// CompileAction prepares a model action for voc.
func CompileAction(voc *predicates.Vocabulary, act *model.Action, opts ActionOptions) (*Action, error) {
	tv := voc.Tvl()
	a := &Action{src: act, isNew: tv.Lookup(predicates.IsNewName), instance: tv.Lookup(predicates.InstanceName), markNew: opts.MarkNew}
	rel := func(f logic.Formula) logic.Formula {
		if f == nil || opts.Restrict == nil {
			return f
		}
		return opts.Restrict(f)
	}
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
	for _, p := range voc.DependencyOrder() {
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

func containsVar(vs []logic.Var, v logic.Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}
