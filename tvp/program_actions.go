package tvp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
)

// Section two: action definitions, kept as token ranges and parsed per
// use with their parameters bound.

// actionDef is an action definition waiting for its uses.
type actionDef struct {
	name      string
	params    []string
	bodyStart int // token index after '{'
	bodyEnd   int // token index of the closing '}'
	pos       Pos
	broken    bool // its body has a syntax error, already reported
}

// actionDefs reads the action definitions of section two.
func (pp *progParser) actionDefs() error {
	for !pp.atSectionEnd() {
		t := pp.peek()
		if t.Kind == EOF {
			return pp.errorf(t, "missing %%%%: the program ends inside the actions section")
		}
		if t.Kind == RCBR {
			return pp.errorf(t, "unbalanced '}' among the action definitions")
		}
		if (t.Kind == ID || t.Kind == STRING) && pp.peekAt(1) == ID && pp.peekAt(2) == LP {
			return pp.errorf(t, "expected %%%% before the control-flow graph, found %s", t)
		}
		if t.Kind != ACTION {
			return pp.errorf(t, "expected %%action or %%%%, found %s", t)
		}
		pp.next()
		name, err := pp.expect(ID, "the action's name")
		if err != nil {
			return err
		}
		params, err := pp.varList()
		if err != nil {
			return err
		}
		open, err := pp.expect(LCBR, "'{' of the action body")
		if err != nil {
			return err
		}
		end := pp.matching(pp.at - 1)
		// Neither %% nor %action can be in a body: meeting one first
		// means a '}' is missing. Reading goes on from there.
		stop := pp.sectionStart(pp.at, end)
		if stop < 0 && end < 0 {
			return pp.errorf(open, "missing '}': the body of action %s is never closed", name.Text)
		}
		def := &actionDef{name: name.Text, bodyStart: pp.at, bodyEnd: end, pos: name.Pos}
		if stop >= 0 {
			before := "%%"
			if pp.toks[stop].Kind == ACTION {
				before = "the next %action"
			}
			pp.fail(pp.errorf(open, "missing '}': the body of action %s is not closed before %s", name.Text, before))
			def.bodyEnd, def.broken = stop, true
		}
		for _, v := range params {
			def.params = append(def.params, string(v))
		}
		if old, dup := pp.defs[name.Text]; dup {
			// TVLA uses the last definition; say so, since it is
			// usually a slip.
			pp.prog.Warnings = append(pp.prog.Warnings, fmt.Sprintf("%s: action %s redefined (first defined at %s); the later definition is used", name.Pos, name.Text, old.pos))
		} else {
			pp.prog.Definitions = append(pp.prog.Definitions, name.Text)
		}
		pp.defs[name.Text] = def
		if def.broken {
			pp.at = stop
			continue
		}
		// Check the body's syntax now, so that unused actions are
		// checked too; types are checked per use, with the arguments.
		identity := map[string]string{}
		for _, p := range def.params {
			identity[p] = p
		}
		pp.syntaxOnly = true
		_, err = pp.actionBodies(def, identity)
		pp.syntaxOnly = false
		if err != nil {
			if pp.exhausted {
				return err
			}
			def.broken = true
			pp.fail(err)
		}
		pp.at = end + 1
	}
	return nil
}

// sectionStart returns the index of the first %% or %action from token
// index from, before index end (to the end of input when end < 0), or -1.
func (pp *progParser) sectionStart(from, end int) int {
	if end < 0 {
		end = len(pp.toks)
	}
	for i := from; i < end; i++ {
		switch pp.toks[i].Kind {
		case ACTION:
			return i
		case PERCENT:
			if i+1 < len(pp.toks) && pp.toks[i+1].Kind == PERCENT {
				return i
			}
		}
	}
	return -1
}

// instantiate returns the actions def(args), parsing them on first use:
// one action, or one per combination of its %param values.
func (pp *progParser) instantiate(def *actionDef, args []string) ([]*model.Action, error) {
	key := def.name + "(" + strings.Join(args, ",") + ")"
	if a, ok := pp.instances[key]; ok {
		return a, nil
	}
	bind := map[string]string{}
	for i, p := range def.params {
		bind[p] = args[i]
	}
	as, err := pp.actionBodies(def, bind)
	if err != nil {
		return nil, err
	}
	pp.instances[key] = as
	pp.prog.Actions = append(pp.prog.Actions, as...)
	return as, nil
}

// actionParam is a %param x in S clause. TVLA 3's classic engine
// instantiates the action for the first member of S only (in the order
// written: linearization/cons with %pset Threads {t1,t2} schedules only
// t1, with {t2,t1} only t2, and stores 14 structures; one action per
// member stored 82), and so do we; an action parameter named x wins
// (programs/testdata/param.tvp); members keeps S whole for the
// decomposing engine, where a %pset presumably stands for every member
// (docs/decomposition.md).
type actionParam struct {
	name    string
	members []string
}

// actionBodies reads the %param clauses of a body and then the body once
// per combination of parameter values (once when there are none).
func (pp *progParser) actionBodies(def *actionDef, bind map[string]string) ([]*model.Action, error) {
	var params []actionParam
	rest := def.bodyStart
	err := pp.replay(def.bodyStart, bind, func() error {
		for pp.peekKind() == PARAM {
			pp.next()
			name, err := pp.expect(ID, "a parameter name")
			if err != nil {
				return err
			}
			if err := pp.expectIn(); err != nil {
				return err
			}
			members, err := pp.setExpr()
			if err != nil {
				return err
			}
			if pp.syntaxOnly {
				members = []string{name.Text}
			}
			if _, shadowed := bind[name.Text]; shadowed {
				// The action's own parameter of that name was
				// substituted first: the %param names nothing left
				// (TVLA 3 on linearization/cons/bounded, whose
				// unschedule(trnm, to) also says %param trnm in
				// Threads, acts on the thread given).
				continue
			}
			params = append(params, actionParam{name.Text, members})
		}
		rest = pp.at
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*model.Action
	combo := map[string]string{}
	for k, v := range bind {
		combo[k] = v
	}
	var each func(i int) error
	each = func(i int) error {
		if i == len(params) {
			a, err := pp.actionBody(def, combo, rest)
			if err != nil {
				return err
			}
			for _, p := range params {
				a.Args = append(a.Args, combo[p.name])
				if ps := pp.psetOf(p.members); ps != "" && !slices.Contains(a.PSets, ps) {
					a.PSets = append(a.PSets, ps)
				}
			}
			out = append(out, a)
			return nil
		}
		for _, m := range params[i].members[:min(1, len(params[i].members))] {
			combo[params[i].name] = m
			if err := each(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, each(0)
}

// actionBody parses an action body from token index start (after its
// %param clauses) with the parameters bound; its clauses come in TVP's
// fixed order.
func (pp *progParser) actionBody(def *actionDef, bind map[string]string, start int) (*model.Action, error) {
	a := &model.Action{Name: def.name, Origin: def.pos.String()}
	for _, p := range def.params {
		a.Args = append(a.Args, bind[p])
	}
	a.Title = a.String()
	err := pp.replay(start, bind, func() error {
		if err := pp.actionGuard(a); err != nil {
			return err
		}
		if err := pp.actionEffect(a); err != nil {
			return err
		}
		if pp.at != def.bodyEnd {
			t := pp.peek()
			return pp.errorf(t, "unexpected %s in the body of action %s (clauses go in the order %%t %%f %%p %%message %%new %%clone {updates} %%retain %%message)", t, def.name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !pp.syntaxOnly {
		pp.checkAction(a)
	}
	return a, nil
}

// actionGuard reads the clauses of an action body up to its effect: %t,
// the graph decomposition clauses, %f, %p and the %message clauses checked
// before the action. The program's global focus formulas and messages
// are added after the action's own.
func (pp *progParser) actionGuard(a *model.Action) error {
	if pp.peekKind() == TITLE {
		pp.next()
		title, err := pp.messageText()
		if err != nil {
			return err
		}
		a.Title = title
	}
	for _, c := range []struct {
		kind Kind
		name string
		into *logic.Formula
	}{{FRAMEPRE, "%frame_pre", &a.FramePre}, {COMPOSE, "%compose", &a.Compose}, {FRAME, "%frame", &a.Frame}} {
		if pp.peekKind() == c.kind {
			t := pp.next()
			pp.warnOnce(t, c.name+" (graph decomposition)")
			a.Unsupported = append(a.Unsupported, c.name)
			f, err := pp.formula()
			if err != nil {
				return err
			}
			*c.into = f
		}
	}
	if pp.peekKind() == FOCUS {
		fs, err := pp.focusClause()
		if err != nil {
			return err
		}
		a.Focus = fs
	}
	a.Focus = append(a.Focus, pp.globalF...)
	if pp.peekKind() == PRED {
		pp.next()
		f, err := pp.formula()
		if err != nil {
			return err
		}
		a.Precondition = f
	}
	for pp.peekKind() == MESSAGE {
		m, err := pp.messageClause()
		if err != nil {
			return err
		}
		a.PreMessages = append(a.PreMessages, m)
	}
	a.PreMessages = append(a.PreMessages, pp.globalM...)
	return nil
}

// actionEffect reads the rest of an action body: %new, %clone, the
// updates, %retain, the %message clauses checked after the action and
// %decompose.
func (pp *progParser) actionEffect(a *model.Action) error {
	if pp.peekKind() == NEW {
		pp.next()
		a.New = true
		if startsFormula(pp.peekKind()) {
			f, err := pp.markedFormula()
			if err != nil {
				return err
			}
			a.NewFormula = f
		}
	}
	if pp.peekKind() == CLONE {
		pp.next()
		a.Clone = true
		if startsFormula(pp.peekKind()) {
			f, err := pp.markedFormula()
			if err != nil {
				return err
			}
			a.CloneFormula = f
		}
	}
	if pp.peekKind() == LCBR {
		pp.next()
		if err := pp.updates(a); err != nil {
			return err
		}
		if _, err := pp.expect(RCBR, "'}' closing the update formulas"); err != nil {
			return err
		}
	}
	if pp.peekKind() == RETAIN {
		pp.next()
		f, err := pp.markedFormula()
		if err != nil {
			return err
		}
		a.Retain = f
	}
	for pp.peekKind() == MESSAGE {
		m, err := pp.messageClause()
		if err != nil {
			return err
		}
		a.PostMessages = append(a.PostMessages, m)
	}
	if pp.peekKind() == DECOMPOSE {
		t := pp.next()
		pp.warnOnce(t, "%decompose (graph decomposition)")
		a.Unsupported = append(a.Unsupported, "%decompose")
		a.Decompose = &logic.Const{Value: logic.True}
		if startsFormula(pp.peekKind()) {
			f, err := pp.formula()
			if err != nil {
				return err
			}
			a.Decompose = f
		}
	}
	return nil
}

// markedFormula parses a formula and remembers where it starts, for
// messages about the formula as a whole.
func (pp *progParser) markedFormula() (logic.Formula, error) {
	t := pp.peek()
	f, err := pp.formula()
	if _, isConst := f.(*logic.Const); err == nil && !isConst {
		if _, ok := pp.posOf[f]; !ok {
			pp.mark(f, t)
		}
	}
	return f, err
}

func startsFormula(k Kind) bool {
	switch k {
	case NOT, EXISTS, FORALL, TCKW, LP, TRUE, FALSE, UNKNOWN, ID, OR, AND:
		return true
	}
	return false
}

// updates reads update formulas p(v1, ..., vk) = f [auto], also written
// (p(v1, ..., vk)) = f, and foreach groups of them, up to the closing '}'.
func (pp *progParser) updates(a *model.Action) error {
	for {
		switch pp.peekKind() {
		case RCBR:
			return nil
		case FOREACH:
			if err := pp.foreach(func() error { return pp.updates(a) }); err != nil {
				return err
			}
			continue
		}
		paren := pp.accept(LP)
		name, nameTok, err := pp.predName()
		if err != nil {
			return err
		}
		args, err := pp.varList()
		if err != nil {
			return err
		}
		if paren {
			if _, err := pp.expect(RP, "')'"); err != nil {
				return err
			}
		}
		if _, err := pp.expect(ASSIGN, "'=' of an update formula"); err != nil {
			return err
		}
		f, err := pp.formula()
		if err != nil {
			return err
		}
		u := model.Update{Args: args, Formula: f, Auto: pp.accept(AUTO), Origin: nameTok.Pos.String()}
		if !pp.syntaxOnly {
			p := pp.voc.Lookup(name)
			switch {
			case p == nil:
				pp.typeError(nameTok.Pos, "update of undeclared predicate %s", name)
			case p.Arity != len(args):
				pp.typeError(nameTok.Pos, "predicate %s has arity %d but its update has %s", name, p.Arity, plural(len(args), "variable"))
			case p.Name == "sm":
				pp.typeError(nameTok.Pos, "the summary predicate sm cannot be updated")
			default:
				u.Pred = p
			}
			seen := map[logic.Var]bool{}
			for _, v := range args {
				if seen[v] {
					pp.typeError(nameTok.Pos, "variable %s appears twice on the left of an update", v)
				}
				seen[v] = true
			}
			for i, old := range a.Updates {
				if old.Pred != nil && old.Pred == u.Pred {
					// TVLA keeps the last formula given for a predicate.
					pp.prog.Warnings = append(pp.prog.Warnings, fmt.Sprintf("%s: predicate %s is updated twice in action %s (first at %s); the later formula is used", nameTok.Pos, name, a.Title, old.Origin))
					a.Updates = append(a.Updates[:i], a.Updates[i+1:]...)
					break
				}
			}
		}
		a.Updates = append(a.Updates, u)
	}
}
