package tvp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
)

// Section one: declarations of sets, predicates, rules, focus formulas
// and messages.

// decls reads declarations up to %% (or, inside a foreach body, up to the
// closing brace).
func (pp *progParser) decls(inForeach bool) error {
	for {
		t := pp.peek()
		switch t.Kind {
		case SET, PSET:
			if err := pp.setDecl(); err != nil {
				return err
			}
		case PRED:
			if err := pp.predicateDecl(predicates.Core); err != nil {
				return err
			}
		case INS_PRED:
			if err := pp.predicateDecl(predicates.Instrumentation); err != nil {
				return err
			}
		case CONS_RULE:
			if err := pp.consistencyRule(); err != nil {
				return err
			}
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
			if err := pp.closeCycle(); err != nil {
				return err
			}
		case DNAME:
			if err := pp.dname(); err != nil {
				return err
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

// setDecl reads %s name expr. Declaring a set again adds to it, as in
// TVLA.
func (pp *progParser) setDecl() error {
	kw := pp.next()
	name, err := pp.expect(ID, "a set name")
	if err != nil {
		return err
	}
	members, err := pp.setExpr()
	if err != nil {
		return err
	}
	pp.sets[name.Text] = union(pp.sets[name.Text], members)
	if kw.Kind == PSET {
		pp.psetDecl(name.Text, kw.Pos)
	}
	return nil
}

// psetDecl records a %pset (after its members were added to the set of
// that name) in the program, once per name.
func (pp *progParser) psetDecl(name string, pos Pos) {
	for i := range pp.prog.PSets {
		if pp.prog.PSets[i].Name == name {
			pp.prog.PSets[i].Members = slices.Clone(pp.sets[name])
			return
		}
	}
	pp.prog.PSets = append(pp.prog.PSets, model.PSet{Name: name, Members: slices.Clone(pp.sets[name]), Origin: pos.String()})
}

// psetOf is the %pset whose members are exactly members (in any order),
// or "".
func (pp *progParser) psetOf(members []string) string {
	for _, ps := range pp.prog.PSets {
		if len(ps.Members) == len(members) {
			same := true
			for _, m := range members {
				if !slices.Contains(ps.Members, m) {
					same = false
				}
			}
			if same {
				return ps.Name
			}
		}
	}
	return ""
}

// consistencyRule reads %r body ==> head. The head's form is checked
// now; its predicates once all are declared (checkDeclarations).
func (pp *progParser) consistencyRule() error {
	t := pp.next()
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
	return nil
}

// closeCycle reads %closecycle pred -> formula, which this engine does
// not support, with a warning.
func (pp *progParser) closeCycle() error {
	pp.warnOnce(pp.next(), "%closecycle")
	if _, _, err := pp.predName(); err != nil {
		return err
	}
	if _, err := pp.expect(IMPLIES, "'->'"); err != nil {
		return err
	}
	_, err := pp.formula()
	return err
}

// dname reads %dname formula [name]: a graph decomposition component
// (docs/decomposition.md), recorded in the program with a warning, since
// the classic engine ignores it. The formula has one free variable; the
// name, a message, is the formula's text when absent.
func (pp *progParser) dname() error {
	kw := pp.next()
	pp.warnOnce(kw, "%dname (graph decomposition)")
	at := pp.peek()
	f, err := pp.formula()
	if err != nil {
		return err
	}
	// The component's individual is v, or the one free variable. TVLA
	// accepts formulas with more free variables (linearization_tlq's
	// !rv[fld](v1, v2)); what they mean there is not known.
	free := logic.FreeVars(f)
	d := model.DecompName{Formula: f, Name: logic.String(f), Origin: kw.Pos.String()}
	for _, v := range free {
		if v == "v" || len(free) == 1 {
			d.Var = v
		}
	}
	if d.Var == "" {
		return pp.errorf(at, "the formula of %%dname needs a free variable for the individual in the component (v, or the only one)")
	}
	if k := pp.peekKind(); k == STRING || k == ID {
		if d.Name, err = pp.messageText(); err != nil {
			return err
		}
	}
	for _, o := range pp.prog.DecompNames {
		if o.Name == d.Name {
			return pp.errorf(kw, "%%dname %s declared twice (first at %s)", d.Name, o.Origin)
		}
	}
	// Its marker, the nullary predicate dname[NAME] TVLA's decomposing
	// engine sets on the name's components, is declared here, before the
	// inputs are read: the vocabulary of a structure is fixed.
	m, err := pp.voc.Declare("dname["+d.Name+"]", predicates.Core, nil, predicates.Properties{}, nil, d.Origin)
	if err != nil {
		return pp.errorf(kw, "%%dname %s: %v", d.Name, err)
	}
	d.Marker = m
	pp.prog.DecompNames = append(pp.prog.DecompNames, d)
	return nil
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
	props, err := pp.properties(name, len(params))
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
func (pp *progParser) properties(name string, arity int) (predicates.Properties, error) {
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
			} else if t.Text == "abs" && arity > 1 {
				// TVLA's manual: abstraction is by the unary predicates
				// (and the nullary ones, for the partial join); abs on
				// any other is meaningless there, and here.
				pp.prog.Warnings = append(pp.prog.Warnings, fmt.Sprintf("%s: predicate %s has arity %d and is declared abs: only unary and nullary predicates are abstraction predicates; the property is ignored", t.Pos, name, arity))
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
		m.Compose = f
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
