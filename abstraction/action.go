package abstraction

import (
	"fmt"
	"slices"

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
	// word is the update's word-parallel form, or nil (update_word.go).
	word wordNodes
	// coverID is where's index in the action's word covers (word only):
	// thousands of derived updates share a few dozen covers, whose masks
	// a structure computes once.
	coverID int
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
	// shared are the quantified subformulas the updates share
	// (shared.go), each over sharedVar.
	shared []*tvl.Compiled
	// covers are the distinct covers of the word-parallel updates, their
	// atoms in coverAtoms.
	covers     []flatCover
	coverAtoms []flatAtom
	// changes are the predicates an application may change, for the
	// semi-naive Coerce after the update.
	changes         []*tvl.Pred
	isNew, instance *tvl.Pred
	// every is the whole vocabulary: what Coerce checks after %retain
	// removed individuals.
	every []*tvl.Pred
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
	// NoCloseCycleMessages leaves out the "Closed cycle for acyclic
	// predicate" messages (closedCycleMessages), as TVLA 3 does with
	// tvla.differencing.messageForCloseCycle = false.
	NoCloseCycleMessages bool
	// Restrict, when set, rewrites every formula before it is compiled
	// (the precondition, messages, %new, %clone and %retain formulas,
	// updates and the definitions new individuals get): a join whose
	// individuals may not exist ranges formulas over those that do
	// (logic.Relativize). Focus formulas are compiled as written.
	Restrict func(logic.Formula) logic.Formula
	// MarkNew are unary predicates set to 1 on every individual %new
	// or %clone makes, as isNew is: existence, for such a join.
	MarkNew []*tvl.Pred
	// Stop, when set, is asked between the predicates finite
	// differencing derives updates for (thousands, each a formula
	// rewritten, with generated soft invariants): an error it returns
	// ends the compilation with that error.
	Stop func() error
	// FocusSequence, when set, replaces each focus formula by the
	// formulas it returns, focused one after the other
	// (ConjunctionFocus: TVLA 3's Focus of a conjunction).
	FocusSequence func(logic.Formula) []logic.Formula
}

// CompileAction prepares a model action for voc.
func CompileAction(voc *predicates.Vocabulary, act *model.Action, opts ActionOptions) (*Action, error) {
	tv := voc.Tvl()
	c := &actionCompiler{voc: voc, opts: opts, updated: map[string]bool{}, sharedText: map[string]int{},
		a: &Action{src: act, isNew: tv.Lookup(predicates.IsNewName), instance: tv.Lookup(predicates.InstanceName), markNew: opts.MarkNew}}
	for _, step := range []func() error{c.focus, c.precondition, c.messages, c.creators, c.writtenUpdates} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if act.New || act.Clone || act.Retain != nil {
		c.a.changes = append(c.a.changes, tv.Summary(), c.a.isNew, c.a.instance)
	}
	if act.Retain != nil {
		c.a.every = tv.Preds()
	}
	if !opts.Differencing {
		// As in TVLA without differencing: a predicate without an update
		// formula keeps its value.
		return c.a, nil
	}
	if err := c.derivedUpdates(); err != nil {
		return nil, err
	}
	return c.a, nil
}

// actionCompiler compiles one action, part by part.
type actionCompiler struct {
	// sharedText indexes the action's shared subformulas by their text.
	sharedText map[string]int
	// coverKey indexes the action's word covers by their key.
	coverKey map[string]int
	voc      *predicates.Vocabulary
	opts     ActionOptions
	a        *Action
	// updated names the predicates with an update formula so far;
	// explicit are the formulas the program wrote.
	updated  map[string]bool
	explicit []predicates.Update
}

// restrict is f as the options rewrite it (nil stays nil).
func (c *actionCompiler) restrict(f logic.Formula) logic.Formula {
	if f == nil || c.opts.Restrict == nil {
		return f
	}
	return c.opts.Restrict(f)
}

func (c *actionCompiler) wrap(what string, err error) error {
	return fmt.Errorf("action %s: %s: %w", c.a.src.Title, what, err)
}

// compile compiles f, rewritten, over vars.
func (c *actionCompiler) compile(f logic.Formula, vars []logic.Var, what string) (*tvl.Compiled, error) {
	k, err := tvl.Compile(c.restrict(f), c.voc.Tvl(), vars)
	if err != nil {
		return nil, c.wrap(what, err)
	}
	return k, nil
}

func (c *actionCompiler) focus() error {
	for _, written := range c.a.src.Focus {
		seq := []logic.Formula{written}
		if c.opts.FocusSequence != nil {
			seq = c.opts.FocusSequence(written)
		}
		for _, f := range seq {
			fo, err := NewFocuser(c.voc.Tvl(), f)
			if err != nil {
				return c.wrap("focus formula "+logic.String(written), err)
			}
			if len(seq) > 1 || seq[0] != written {
				fo = fo.InSequence(written)
			}
			c.a.focus = append(c.a.focus, fo)
		}
	}
	return nil
}

func (c *actionCompiler) precondition() error {
	pre := c.a.src.Precondition
	if pre == nil {
		return nil
	}
	c.a.preVars = logic.FreeVars(pre)
	k, err := c.compile(pre, c.a.preVars, "precondition")
	c.a.pre = k
	return err
}

// withPre lists the precondition's variables, then f's others, and how
// many those are.
func (c *actionCompiler) withPre(f logic.Formula) ([]logic.Var, int) {
	vars := append([]logic.Var(nil), c.a.preVars...)
	own := 0
	for _, v := range logic.FreeVars(f) {
		if !containsVar(vars, v) {
			vars = append(vars, v)
			own++
		}
	}
	return vars, own
}

func (c *actionCompiler) messages() error {
	compile := func(ms []model.Message) ([]compiledMessage, error) {
		var out []compiledMessage
		for _, m := range ms {
			vars, own := c.withPre(m.Formula)
			k, err := c.compile(m.Formula, vars, "message "+m.Text)
			if err != nil {
				return nil, err
			}
			out = append(out, compiledMessage{src: m, eval: k, own: own})
		}
		return out, nil
	}
	var err error
	pre := c.a.src.PreMessages[:len(c.a.src.PreMessages):len(c.a.src.PreMessages)]
	if !c.opts.NoCloseCycleMessages {
		pre = append(pre, closedCycleMessages(c.voc, c.a.src)...)
	}
	if c.a.preMsgs, err = compile(pre); err != nil {
		return err
	}
	c.a.postMsgs, err = compile(c.a.src.PostMessages)
	return err
}

// closedCycleMessages returns, for each update of an acyclic binary
// predicate p, the message TVLA 3 raises when the update may add an edge
// (a1, a2) while a2 already reaches a1: "Closed cycle for acyclic
// predicate p". It is checked on the structure before the update, whatever
// Coerce makes of the result (under action orders without Coerce such a
// cycle otherwise passes silently).
//
// Whether a2 reaches a1 is read from an instrumentation predicate defined
// as p's reflexive transitive closure where there is one (as TVLA does: on
// a structure whose t[n] says 1/2 where n* says 0 it raises the message),
// else from p* itself.
func closedCycleMessages(voc *predicates.Vocabulary, a *model.Action) []model.Message {
	var out []model.Message
	for _, u := range a.Updates {
		p := u.Pred
		if !p.Props.Acyclic || p.Arity != 2 || len(u.Args) != 2 {
			continue
		}
		from, to := u.Args[0], u.Args[1]
		var reaches logic.Formula = &logic.Closure{Pred: p.Name, From: to, To: from, Reflexive: true}
		if tc := reflexiveClosureOf(voc, p.Name); tc != nil {
			reaches = logic.NewAtom(tc.Name, to, from)
		}
		added := logic.NewAnd(withoutOldEdge(u.Formula, p.Name, from, to), reaches)
		out = append(out, model.Message{
			Formula: logic.NewExists(added, from, to),
			Text:    "Closed cycle for acyclic predicate " + p.Name,
			Origin:  u.Origin,
		})
	}
	return out
}

// reflexiveClosureOf returns the first declared instrumentation predicate
// defined as pred*(v1, v2) over its own two parameters, or nil.
func reflexiveClosureOf(voc *predicates.Vocabulary, pred string) *predicates.Predicate {
	for _, q := range voc.Declared() {
		c, ok := q.Def.(*logic.Closure)
		if ok && q.Kind == predicates.Instrumentation && len(q.Params) == 2 && c.Pred == pred &&
			c.Reflexive && c.From == q.Params[0] && c.To == q.Params[1] {
			return q
		}
	}
	return nil
}

// withoutOldEdge is f with the atom pred(from, to) read as 0: what an
// update f of pred(from, to) makes true whatever the old edge (for
// "p(v1, v2) | x(v1) & y(v2)" that is "x(v1) & y(v2)"; for a removal,
// nothing). Below a quantifier that binds from or to, the atom is another
// tuple and stays.
func withoutOldEdge(f logic.Formula, pred string, from, to logic.Var) logic.Formula {
	return logic.Rewrite(f, func(f logic.Formula) (logic.Formula, bool) {
		switch g := f.(type) {
		case *logic.Atom:
			if g.Pred == pred && len(g.Args) == 2 && g.Args[0] == from && g.Args[1] == to {
				return logic.False0, true
			}
		case *logic.Quant:
			if slices.Contains(g.Vars, from) || slices.Contains(g.Vars, to) {
				return g, true
			}
		case *logic.TC:
			return g, true // closures and TC: other tuples
		}
		return nil, false
	})
}

// creators compiles the %new, %clone and %retain formulas: read per
// individual, after the precondition's variables.
func (c *actionCompiler) creators() error {
	unary := func(f logic.Formula, what string) (*tvl.Compiled, error) {
		if f == nil {
			return nil, nil
		}
		vars, own := c.withPre(f)
		if own == 0 {
			// A closed formula: give it a dummy variable so that it is
			// read per individual like the others.
			vars = append(vars, "$individual")
		}
		return c.compile(f, vars, what)
	}
	var err error
	if c.a.newF, err = unary(c.a.src.NewFormula, "%new formula"); err != nil {
		return err
	}
	if c.a.cloneF, err = unary(c.a.src.CloneFormula, "%clone formula"); err != nil {
		return err
	}
	c.a.retain, err = unary(c.a.src.Retain, "%retain formula")
	return err
}

// addUpdate compiles an update formula of p over args, then the
// precondition's variables it does not shadow.
func (c *actionCompiler) addUpdate(p *predicates.Predicate, args []logic.Var, f logic.Formula) error {
	vars := append([]logic.Var(nil), args...)
	var from []int
	for i, v := range c.a.preVars {
		if !containsVar(vars, v) {
			vars = append(vars, v)
			from = append(from, i)
		}
	}
	f = c.restrict(f)
	k, err := tvl.Compile(f, c.voc.Tvl(), vars)
	if err != nil {
		return c.wrap("update of "+p.Name, err)
	}
	where := (&coverAnalysis{voc: c.voc.Tvl(), pred: p.Pred, args: args}).changes(f)
	var word wordNodes
	if !wordParallelOff {
		word = compileWordUpdate(c.voc.Tvl(), p.Pred, args, f, c.a.preVars, where)
	}
	c.a.updates = append(c.a.updates, compiledUpdate{pred: p.Pred, eval: k, fromBinding: from, where: where, word: word, coverID: c.wordCover(word, where)})
	c.updated[p.Name] = true
	c.a.changes = append(c.a.changes, p.Pred)
	return nil
}

// writtenUpdates compiles the update formulas the program wrote (but
// those it leaves to differencing, "auto").
func (c *actionCompiler) writtenUpdates() error {
	for _, u := range c.a.src.Updates {
		if u.Auto && c.opts.Differencing {
			// auto: the tool derives this predicate's formula.
			continue
		}
		if err := c.addUpdate(u.Pred, u.Args, u.Formula); err != nil {
			return err
		}
		c.explicit = append(c.explicit, predicates.Update{Pred: u.Pred, Args: u.Args, Formula: u.Formula})
	}
	return nil
}

// derivedUpdates gives, by finite differencing, every instrumentation
// predicate the action may change an update formula over the state before
// it. With %new, that state includes the new individuals, whose
// instrumentation values come from the definitions first. Like TVLA, it
// treats %retain and %clone as if the individuals they remove or copy did
// not change the instrumentation values of the others (TVLA warns about
// such actions; so does the loader's user, through Warnings).
func (c *actionCompiler) derivedUpdates() error {
	d := predicates.NewDifferencer(c.voc, c.explicit)
	for _, p := range c.voc.DependencyOrder() {
		// A predicate the action updates explicitly reads 0 on the new
		// individuals, as every core predicate does (TVLA 3 does the same:
		// programs/testdata/newinit.tvp); the others start from their
		// definitions, which finite differencing relies on.
		if c.a.src.New && !c.updated[p.Name] {
			k, err := c.compile(p.Def, p.Params, "definition of "+p.Name)
			if err != nil {
				return err
			}
			c.a.initNew = append(c.a.initNew, newInit{pred: p.Pred, def: k, neutral: predicates.NeutralToNewIndividuals(p.Def)})
		}
		if c.updated[p.Name] {
			continue
		}
		if c.opts.Stop != nil {
			if err := c.opts.Stop(); err != nil {
				return err
			}
		}
		if f := d.Derive(p); f != nil {
			if ok, err := c.addSharedUpdate(p, f); err != nil || ok {
				if err != nil {
					return err
				}
				c.a.derivedFormulas = append(c.a.derivedFormulas, predicates.Update{Pred: p, Args: p.Params, Formula: f})
				continue
			}
			if err := c.addUpdate(p, p.Params, f); err != nil {
				return err
			}
			c.a.derivedFormulas = append(c.a.derivedFormulas, predicates.Update{Pred: p, Args: p.Params, Formula: f})
		}
	}
	return nil
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
