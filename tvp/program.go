package tvp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
)

// A TVP program has three sections separated by %%, and an optional
// fourth:
//
//	declarations %% action definitions %% CFG edges [%% locations to print]
//
// Declarations are read as they come (sets must precede their use). Action
// definitions are remembered as token ranges and parsed once per distinct
// use in the CFG, with the formal parameters bound to the arguments: TVP's
// actions are macros over predicate names.

// ErrorList is every error found in a program, in order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// actionDef is an action definition waiting for its uses.
type actionDef struct {
	name      string
	params    []string
	bodyStart int // token index after '{'
	bodyEnd   int // token index of the closing '}'
	pos       Pos
	broken    bool // its body has a syntax error, already reported
}

// pendingRule is a %r rule read in section one, checked once every
// predicate is declared.
type pendingRule struct {
	rule predicates.Rule
	pos  Pos
}

type progParser struct {
	parser
	voc       *predicates.Vocabulary
	prog      *model.Program
	defs      map[string]*actionDef
	instances map[string][]*model.Action
	rules     []pendingRule
	globalF   []logic.Formula
	globalFAt []Pos // where each of globalF was written
	globalM   []model.Message
	errs      ErrorList
	errSeen   map[string]bool // errors already reported, by position and text
	warned    map[string]bool
}

// ParseProgram reads a whole TVP program from src (already preprocessed)
// and loads it. file names the program in the model. On failure the error
// is an ErrorList of every problem found.
func ParseProgram(file string, src Source) (*model.Program, error) {
	toks, err := Lex(src)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, ErrorList{e}
		}
		return nil, err
	}
	pp := &progParser{
		parser:    parser{toks: toks, sets: map[string][]string{}, posOf: map[logic.Formula]Pos{}},
		voc:       predicates.New(),
		defs:      map[string]*actionDef{},
		instances: map[string][]*model.Action{},
		warned:    map[string]bool{},
		errSeen:   map[string]bool{},
	}
	pp.prog = &model.Program{File: file, Vocabulary: pp.voc}
	if err := pp.program(); err != nil {
		pp.fail(err)
	}
	if len(pp.errs) > 0 {
		pp.sortErrors()
		return nil, pp.errs
	}
	return pp.prog, nil
}

// fail records an error; syntax errors end the parse, type errors do not.
func (pp *progParser) fail(err error) {
	if e, ok := err.(*Error); ok {
		pp.addError(e)
		return
	}
	if l, ok := err.(ErrorList); ok {
		for _, e := range l {
			pp.addError(e)
		}
		return
	}
	pp.addError(&Error{Pos: pp.peek().Pos, Msg: err.Error()})
}

func (pp *progParser) typeError(pos Pos, format string, args ...any) {
	pp.addError(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// addError records e unless the same error was recorded before: a body
// read once per foreach member or per action instance finds the same
// problem each time.
func (pp *progParser) addError(e *Error) {
	key := e.Pos.String() + "\x00" + e.Msg
	if pp.errSeen[key] {
		return
	}
	pp.errSeen[key] = true
	pp.errs = append(pp.errs, e)
}

// sortErrors puts the errors in the order of the text they point at
// (errors are found out of order: definitions are checked at the end of
// section one, action bodies when the CFG uses them). Errors at the same
// place keep the order they were found in.
func (pp *progParser) sortErrors() {
	first := map[Pos]int{}
	for i, t := range pp.toks {
		if _, ok := first[t.Pos]; !ok {
			first[t.Pos] = i
		}
	}
	keys := map[*Error]int{}
	last := 0
	for _, e := range pp.errs {
		if k, ok := first[e.Pos]; ok {
			last = k
		}
		keys[e] = last
	}
	sort.SliceStable(pp.errs, func(i, j int) bool { return keys[pp.errs[i]] < keys[pp.errs[j]] })
}

func (pp *progParser) warnOnce(t Token, what string) {
	if pp.warned[what] {
		return
	}
	pp.warned[what] = true
	pp.prog.Warnings = append(pp.prog.Warnings, fmt.Sprintf("%s: %s is not supported by this engine and is ignored", t.Pos, what))
}

// atSectionEnd reports whether the next tokens are %%.
func (pp *progParser) atSectionEnd() bool {
	return pp.peekKind() == PERCENT && pp.peekAt(1) == PERCENT
}

func (pp *progParser) expectSection(what string) error {
	if !pp.atSectionEnd() {
		t := pp.peek()
		return pp.errorf(t, "expected %%%% before %s, found %s", what, t)
	}
	pp.next()
	pp.next()
	return nil
}

func (pp *progParser) program() error {
	if err := pp.decls(false); err != nil {
		return err
	}
	if err := pp.expectSection("the actions section"); err != nil {
		return err
	}
	pp.checkDeclarations()
	if err := pp.actionDefs(); err != nil {
		return err
	}
	if err := pp.expectSection("the control-flow graph"); err != nil {
		return err
	}
	if err := pp.cfg(); err != nil {
		return err
	}
	if pp.atSectionEnd() {
		pp.next()
		pp.next()
		if err := pp.printList(); err != nil {
			return err
		}
	}
	if t := pp.peek(); t.Kind != EOF {
		return pp.errorf(t, "unexpected %s after the control-flow graph", t)
	}
	return nil
}

// decls reads declarations up to %% (or, inside a foreach body, up to the
// closing brace).
func (pp *progParser) decls(inForeach bool) error {
	for {
		t := pp.peek()
		switch t.Kind {
		case SET, PSET:
			pp.next()
			name, err := pp.expect(ID, "a set name")
			if err != nil {
				return err
			}
			members, err := pp.setExpr()
			if err != nil {
				return err
			}
			// Declaring a set again adds to it, as in TVLA.
			pp.sets[name.Text] = union(pp.sets[name.Text], members)
		case PRED:
			if err := pp.predicateDecl(predicates.Core); err != nil {
				return err
			}
		case INS_PRED:
			if err := pp.predicateDecl(predicates.Instrumentation); err != nil {
				return err
			}
		case CONS_RULE:
			pp.next()
			body, err := pp.formula()
			if err != nil {
				return err
			}
			if _, err := pp.expect(IMPLIES_T, "'==>' of a consistency rule"); err != nil {
				return err
			}
			headTok := pp.peek()
			head, err := pp.formula()
			if err != nil {
				return err
			}
			if err := predicates.CheckHead(head); err != nil {
				pp.typeError(headTok.Pos, "%v", err)
			}
			pp.rules = append(pp.rules, pendingRule{predicates.Rule{Body: body, Head: head, Origin: t.Pos.String()}, t.Pos})
		case FOREACH:
			if err := pp.foreach(func() error { return pp.decls(true) }); err != nil {
				return err
			}
		case FOCUS:
			fs, err := pp.focusClause()
			if err != nil {
				return err
			}
			pp.globalF = append(pp.globalF, fs...)
			for range fs {
				pp.globalFAt = append(pp.globalFAt, t.Pos)
			}
		case MESSAGE:
			m, err := pp.messageClause()
			if err != nil {
				return err
			}
			pp.globalM = append(pp.globalM, m)
		case CLOSECYCLE:
			pp.next()
			pp.warnOnce(t, "%closecycle")
			if _, _, err := pp.predName(); err != nil {
				return err
			}
			if _, err := pp.expect(IMPLIES, "'->'"); err != nil {
				return err
			}
			if _, err := pp.formula(); err != nil {
				return err
			}
		case DNAME:
			pp.next()
			pp.warnOnce(t, "%dname (graph decomposition)")
			if _, err := pp.formula(); err != nil {
				return err
			}
			if k := pp.peekKind(); k == STRING || k == ID {
				if _, err := pp.messageText(); err != nil {
					return err
				}
			}
		case RCBR:
			if inForeach {
				return nil
			}
			return pp.errorf(t, "unbalanced '}' among the declarations")
		case PERCENT:
			if !inForeach && pp.atSectionEnd() {
				return nil
			}
			if inForeach {
				return pp.errorf(t, "missing '}': foreach body not closed before %%%%")
			}
			return pp.errorf(t, "expected %%%% (a lone %% is not a declaration)")
		case EOF:
			if inForeach {
				return pp.errorf(t, "missing '}': foreach body not closed at end of input")
			}
			return pp.errorf(t, "missing %%%%: the program ends inside the declarations section")
		case ACTION:
			if !inForeach {
				return pp.errorf(t, "expected %%%% before the actions section, found %s", t)
			}
			fallthrough
		default:
			return pp.errorf(t, "expected a declaration (%%s, %%p, %%i, %%r, foreach, %%f, %%message) or %%%%, found %s", t)
		}
	}
}

// foreach reads foreach (x in S) { body } and parses body once per member
// of S with x bound to it.
func (pp *progParser) foreach(body func() error) error {
	pp.next()
	if _, err := pp.expect(LP, "'(' after foreach"); err != nil {
		return err
	}
	iter, err := pp.expect(ID, "the iterator of foreach")
	if err != nil {
		return err
	}
	if err := pp.expectIn(); err != nil {
		return err
	}
	over, err := pp.setExpr()
	if err != nil {
		return err
	}
	if _, err := pp.expect(RP, "')'"); err != nil {
		return err
	}
	open, err := pp.expect(LCBR, "'{' of the foreach body")
	if err != nil {
		return err
	}
	start := pp.at
	end := pp.matching(start - 1)
	if end < 0 {
		return pp.errorf(open, "missing '}': foreach body opened here is never closed")
	}
	for _, m := range over {
		err := pp.replay(start, map[string]string{iter.Text: m}, func() error {
			if err := body(); err != nil {
				return err
			}
			if pp.at != end {
				return pp.errorf(pp.peek(), "unexpected %s in foreach body", pp.peek())
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	pp.at = end + 1
	return nil
}

// predicateDecl reads %p name(vars) properties {display} or
// %i name(vars) = formula properties {display}.
func (pp *progParser) predicateDecl(kind predicates.Kind) error {
	pp.next()
	name, nameTok, err := pp.predName()
	if err != nil {
		return err
	}
	params, err := pp.varList()
	if err != nil {
		return err
	}
	var def logic.Formula
	if kind == predicates.Instrumentation {
		if _, err := pp.expect(ASSIGN, "'=' and the defining formula"); err != nil {
			return err
		}
		if def, err = pp.formula(); err != nil {
			return err
		}
	}
	props, err := pp.properties(len(params))
	if err != nil {
		return err
	}
	if _, err := pp.voc.Declare(name, kind, params, props, def, nameTok.Pos.String()); err != nil {
		pp.typeError(nameTok.Pos, "%v", err)
	}
	return nil
}

// properties reads the property words after a declaration, functional
// dependencies [a, b] --> c, and the display hint {1, 1/2}.
func (pp *progParser) properties(arity int) (predicates.Properties, error) {
	var props predicates.Properties
	for {
		t := pp.peek()
		switch t.Kind {
		case ID:
			pp.next()
			if pp.peekKind() == LP {
				// A property with arguments: uniquePerCC(p).
				pp.next()
				var args []string
				for {
					a, err := pp.expect(ID, "an argument of the property")
					if err != nil {
						return props, err
					}
					args = append(args, pp.bound(a.Text))
					if pp.accept(RP) {
						break
					}
					if _, err := pp.expect(COMMA, "',' or ')'"); err != nil {
						return props, err
					}
				}
				if t.Text != "uniquePerCC" {
					pp.typeError(t.Pos, "unknown property %s(...) (known: %s)", t.Text, strings.Join(predicates.PropertyNames, ", "))
					continue
				}
				props.UniquePerCC = append(props.UniquePerCC, args...)
				continue
			}
			if err := props.Set(t.Text, arity); err != nil {
				pp.typeError(t.Pos, "%v", err)
			}
		case LBR:
			pp.next()
			var from []string
			if !pp.accept(RBR) {
				for {
					a, err := pp.expect(ID, "a variable of the dependency")
					if err != nil {
						return props, err
					}
					from = append(from, a.Text)
					if pp.accept(RBR) {
						break
					}
					if _, err := pp.expect(COMMA, "',' or ']'"); err != nil {
						return props, err
					}
				}
			}
			if _, err := pp.expect(ARROW, "'-->' of a functional dependency"); err != nil {
				return props, err
			}
			to, err := pp.expect(ID, "the dependent variable")
			if err != nil {
				return props, err
			}
			props.Dependencies = append(props.Dependencies, predicates.Dependency{From: from, To: to.Text})
		case LCBR:
			pp.next()
			if !pp.accept(RCBR) {
				for {
					v := pp.next()
					switch v.Kind {
					case TRUE:
						props.Show = append(props.Show, logic.True)
					case FALSE:
						props.Show = append(props.Show, logic.False)
					case UNKNOWN:
						props.Show = append(props.Show, logic.Unknown)
					default:
						return props, pp.errorf(v, "expected 0, 1 or 1/2 in a display hint, found %s", v)
					}
					if pp.accept(RCBR) {
						break
					}
					if _, err := pp.expect(COMMA, "',' or '}'"); err != nil {
						return props, err
					}
				}
			}
			return props, nil
		default:
			return props, nil
		}
	}
}

// focusClause reads %f { f1, f2, foreach (x in S) { ... } }.
func (pp *progParser) focusClause() ([]logic.Formula, error) {
	pp.next()
	if _, err := pp.expect(LCBR, "'{' after %f"); err != nil {
		return nil, err
	}
	var out []logic.Formula
	if err := pp.focusFormulas(&out); err != nil {
		return nil, err
	}
	if _, err := pp.expect(RCBR, "',' or '}' closing %f"); err != nil {
		return nil, err
	}
	return out, nil
}

func (pp *progParser) focusFormulas(out *[]logic.Formula) error {
	for {
		if pp.peekKind() == FOREACH {
			err := pp.foreach(func() error { return pp.focusFormulas(out) })
			if err != nil {
				return err
			}
		} else {
			f, err := pp.formula()
			if err != nil {
				return err
			}
			*out = append(*out, f)
		}
		if !pp.accept(COMMA) {
			return nil
		}
	}
}

// messageText reads a message: strings and predicate names joined by +.
// Predicate names go through the bindings, so action arguments show.
func (pp *progParser) messageText() (string, error) {
	var b strings.Builder
	for {
		t := pp.peek()
		switch t.Kind {
		case STRING:
			pp.next()
			b.WriteString(t.Text)
		case ID:
			name, _, err := pp.predName()
			if err != nil {
				return "", err
			}
			b.WriteString(name)
		default:
			return "", pp.errorf(t, "expected a message (a string or a predicate name), found %s", t)
		}
		if pp.peekKind() != PLUS {
			return b.String(), nil
		}
		pp.next()
	}
}

// looksLikeMessage reports whether the tokens from index i form a message
// (strings and names joined by +) that ends a %message clause, rather
// than the rest of a formula.
func (pp *progParser) looksLikeMessage(i int) bool {
	for {
		switch pp.toks[i].Kind {
		case STRING:
			i++
		case ID:
			i++
			if pp.toks[i].Kind == LBR {
				j := pp.matching(i)
				if j < 0 {
					return false
				}
				i = j + 1
			}
		default:
			return false
		}
		if pp.toks[i].Kind != PLUS {
			break
		}
		i++
	}
	switch pp.toks[i].Kind {
	case LP, AND, OR, IMPLIES, IFF, EQ, NEQ, STAR, QMARK, COLON, RP, ASSIGN, PLUS:
		return false
	}
	return true
}

// messageClause reads %message [focus] formula -> message. The formula
// ends at the top-level -> that a message follows.
func (pp *progParser) messageClause() (model.Message, error) {
	kw := pp.next()
	m := model.Message{Origin: kw.Pos.String()}
	if pp.peekKind() == LBR {
		pp.next()
		f, err := pp.formula()
		if err != nil {
			return m, err
		}
		if _, err := pp.expect(RBR, "']'"); err != nil {
			return m, err
		}
		m.Focus = f
	}
	// When no -> is followed by something that reads as a message, the
	// last top-level -> is taken, and reading the message says what is
	// wrong; when there is none, the formula is read as far as it goes
	// and the error says what should follow it.
	arrow := pp.messageArrow()
	if arrow < 0 {
		f, err := pp.formula()
		if err != nil {
			return m, err
		}
		m.Formula = f
		if _, err := pp.expect(IMPLIES, "'->' and the text of %message"); err != nil {
			return m, err
		}
		if m.Text, err = pp.messageText(); err != nil {
			return m, err
		}
		return m, nil
	}
	saved := pp.toks[arrow]
	// Parse the formula with the arrow hidden, so it ends there.
	pp.toks[arrow] = Token{Kind: EOF, Text: "->", Pos: saved.Pos}
	f, err := pp.formula()
	pp.toks[arrow] = saved
	if err != nil {
		return m, err
	}
	if pp.at != arrow {
		return m, pp.errorf(pp.peek(), "unexpected %s in the formula of %%message", pp.peek())
	}
	pp.next()
	m.Formula = f
	if m.Text, err = pp.messageText(); err != nil {
		return m, err
	}
	return m, nil
}

// messageArrow finds the -> that separates a %message's formula from its
// text: the first top-level -> followed by something that reads as a
// message, else the last top-level ->, else -1.
func (pp *progParser) messageArrow() int {
	depth, last := 0, -1
	for i := pp.at; i < len(pp.toks); i++ {
		switch pp.toks[i].Kind {
		case LP, LBR, LCBR:
			depth++
		case RP, RBR, RCBR:
			if depth == 0 {
				return last
			}
			depth--
		case IMPLIES:
			if depth == 0 {
				if pp.looksLikeMessage(i + 1) {
					return i
				}
				last = i
			}
		case EOF, PERCENT, MESSAGE, ACTION:
			return last
		}
	}
	return last
}

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
	var walk func(g logic.Formula, bound []logic.Var)
	inScope := func(v logic.Var, bound []logic.Var) bool {
		if free == nil {
			return true
		}
		for _, b := range bound {
			if b == v {
				return true
			}
		}
		for _, b := range free {
			if b == v {
				return true
			}
		}
		return false
	}
	useVars := func(node logic.Formula, bound []logic.Var, vs ...logic.Var) {
		for _, v := range vs {
			if !inScope(v, bound) {
				if where != "" {
					pp.typeError(pos(node), "unbound variable %s in %s", v, where)
				} else {
					pp.typeError(pos(node), "unbound variable %s", v)
				}
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
	walk = func(g logic.Formula, bound []logic.Var) {
		switch h := g.(type) {
		case *logic.Atom:
			usePred(h, h.Pred, len(h.Args))
			useVars(h, bound, h.Args...)
		case *logic.Closure:
			usePred(h, h.Pred, 2)
			useVars(h, bound, h.From, h.To)
		case *logic.Equal:
			useVars(h, bound, h.Left, h.Right)
		case *logic.Not:
			walk(h.Sub, bound)
		case *logic.Binary:
			walk(h.Left, bound)
			walk(h.Right, bound)
		case *logic.If:
			walk(h.Cond, bound)
			walk(h.Then, bound)
			walk(h.Else, bound)
		case *logic.Quant:
			walk(h.Body, append(bound[:len(bound):len(bound)], h.Vars...))
		case *logic.TC:
			useVars(h, bound, h.From, h.To)
			walk(h.Body, append(bound[:len(bound):len(bound)], h.Sub1, h.Sub2))
		}
	}
	walk(f, nil)
}

func (pp *progParser) checkMessage(m model.Message) {
	at := pp.originPos(m.Origin)
	pp.checkFormula(m.Focus, nil, at, "")
	pp.checkFormula(m.Formula, nil, at, "")
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

// actionParam is a %param x in S clause: the action stands for one action
// per member of S.
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
			}
			out = append(out, a)
			return nil
		}
		for _, m := range params[i].members {
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
		}{{FRAMEPRE, "%frame_pre"}, {COMPOSE, "%compose"}, {FRAME, "%frame"}} {
			if pp.peekKind() == c.kind {
				t := pp.next()
				pp.warnOnce(t, c.name+" (graph decomposition)")
				a.Unsupported = append(a.Unsupported, c.name)
				if _, err := pp.formula(); err != nil {
					return err
				}
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
			if startsFormula(pp.peekKind()) {
				if _, err := pp.formula(); err != nil {
					return err
				}
			}
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

// cfg reads the edges of section three: label Action(args) label.
func (pp *progParser) cfg() error {
	seen := map[string]bool{}
	addLoc := func(l string) {
		if !seen[l] {
			seen[l] = true
			pp.prog.Locations = append(pp.prog.Locations, l)
		}
	}
	for {
		t := pp.peek()
		if t.Kind == EOF || pp.atSectionEnd() {
			return nil
		}
		if t.Kind == RCBR {
			return pp.errorf(t, "unbalanced '}' in the control-flow graph")
		}
		from, err := pp.cfgNode("a location")
		if err != nil {
			return err
		}
		switch pp.peekKind() {
		case LP:
			// "Act(args) L2": the source location is missing here, or
			// the previous edge's target is (it took this one's source).
			return pp.errorf(t, "expected a location before the action %s (an edge is written FROM Action(args) TO)", t.Text)
		case COMMA:
			return pp.errorf(pp.peek(), "expected an action name, found ',' (locations to print go after a %%%% line)")
		}
		actTok, err := pp.expect(ID, "an action name")
		if err != nil {
			return err
		}
		vars, err := pp.varList()
		if err != nil {
			return err
		}
		to, err := pp.cfgNode("the target location of the edge")
		if err != nil {
			return err
		}
		addLoc(from)
		addLoc(to)
		args := make([]string, len(vars))
		for i, v := range vars {
			args[i] = string(v)
		}
		def, ok := pp.defs[actTok.Text]
		switch {
		case !ok:
			pp.typeError(actTok.Pos, "unknown action %s", actTok.Text)
			continue
		case len(args) != len(def.params):
			pp.typeError(actTok.Pos, "action %s takes %s, given %d", def.name, plural(len(def.params), "argument"), len(args))
			continue
		case def.broken:
			continue
		}
		before := len(pp.errs)
		acts, err := pp.instantiate(def, args)
		if err != nil {
			if pp.exhausted {
				return err
			}
			pp.fail(err)
			def.broken = true
		}
		if len(args) > 0 {
			// Errors in the body may come from the arguments: say
			// which use of the action they belong to.
			for _, e := range pp.errs[before:] {
				e.Msg += fmt.Sprintf(" (in %s(%s), used at %s)", def.name, strings.Join(args, ", "), actTok.Pos)
			}
		}
		if err != nil {
			continue
		}
		for _, act := range acts {
			pp.prog.Edges = append(pp.prog.Edges, &model.Edge{From: from, To: to, Action: act, Origin: t.Pos.String()})
		}
	}
}

// cfgNode reads a location; what names it in the error.
func (pp *progParser) cfgNode(what string) (string, error) {
	t := pp.next()
	switch t.Kind {
	case ID, STRING:
		return t.Text, nil
	}
	return "", pp.errorf(t, "expected %s (a name or a quoted string), found %s", what, t)
}

// printList reads the optional fourth section: locations to print.
func (pp *progParser) printList() error {
	for pp.peekKind() != EOF {
		t := pp.peek()
		l, err := pp.cfgNode("a location to print")
		if err != nil {
			return err
		}
		if !containsString(pp.prog.Locations, l) {
			pp.typeError(t.Pos, "location %s to print is not in the control-flow graph", l)
		}
		pp.prog.Print = append(pp.prog.Print, l)
		pp.accept(COMMA)
	}
	return nil
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// plural spells a count of things for a message: "1 argument", "2 arguments".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
