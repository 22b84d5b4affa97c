package tvp

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/logic"
)

// parser reads tokens. Predicate names go through the current bindings
// (foreach iterators, action parameters), which is how TVP's macro-like
// constructs are expanded: a body is parsed once per binding.
type parser struct {
	toks     []Token
	at       int
	bindings []map[string]string
	// sets are the %s sets declared so far, by name; members are
	// predicate names.
	sets map[string][]string
	// posOf remembers where atoms, equalities and closures were written,
	// so that type errors found later can point at them.
	posOf map[logic.Formula]Pos
	// syntaxOnly is set while an action body is read only to check its
	// syntax: names are not resolved then, and an undeclared set reads as
	// empty (TVLA only resolves the actions the CFG uses).
	syntaxOnly bool
	// work counts tokens read, bytes of predicate names built and set
	// members handled, against maxWork; exhausted is set once it is
	// exceeded.
	work      int
	exhausted bool
	// depth counts the formulas being parsed, one inside the other.
	depth int
}

// maxNesting bounds how deeply formulas nest, counting quantifiers,
// negations, TC and parentheses (E(v) (...) is two levels): the parser and
// every pass over a formula recurse once per level. Loading is linear in
// the depth (ten thousand quantifiers load in about a second), and no
// sensible program comes near.
const maxNesting = 20000

// maxWork bounds the expansion of foreach bodies, set comprehensions,
// composite formulas and actions, which can grow exponentially with
// nesting. TVLA's examples need a few hundred thousand at most.
const maxWork = 1 << 22

// spend adds n to the work done and returns an error at t once the
// budget is spent.
func (p *parser) spend(n int, t Token) error {
	p.work += n
	if p.work > maxWork {
		p.exhausted = true
		return p.errorf(t, "the program is too large once foreach, set comprehensions, composite formulas and actions are expanded (more than %d tokens, name bytes and set members)", maxWork)
	}
	return nil
}

// mark records where node was written.
func (p *parser) mark(node logic.Formula, t Token) logic.Formula {
	if p.posOf != nil {
		p.posOf[node] = t.Pos
	}
	return node
}

func (p *parser) peek() Token    { return p.toks[p.at] }
func (p *parser) peekKind() Kind { return p.toks[p.at].Kind }
func (p *parser) peekAt(k int) Kind {
	if p.at+k < len(p.toks) {
		return p.toks[p.at+k].Kind
	}
	return EOF
}

func (p *parser) next() Token {
	t := p.toks[p.at]
	if t.Kind != EOF {
		p.at++
	}
	p.work++
	return t
}

func (p *parser) accept(k Kind) bool {
	if p.peekKind() == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) errorf(t Token, format string, args ...any) error {
	return &Error{Pos: t.Pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) expect(k Kind, what string) (Token, error) {
	t := p.peek()
	if t.Kind != k {
		if what == "" {
			what = "'" + k.String() + "'"
		}
		if p.at > 0 {
			// What was expected belongs to the construct the previous
			// token is in: when that is in another file (an #include'd
			// one that ends too soon), the fault is at its end.
			if prev := p.toks[p.at-1]; prev.Pos.File != t.Pos.File {
				return t, p.errorf(prev, "expected %s before the end of %s, found %s at %s", what, prev.Pos.File, t, t.Pos)
			}
		}
		return t, p.errorf(t, "expected %s, found %s", what, t)
	}
	return p.next(), nil
}

// bound returns what an identifier in a predicate position stands for.
func (p *parser) bound(id string) string {
	for i := len(p.bindings) - 1; i >= 0; i-- {
		if v, ok := p.bindings[i][id]; ok {
			return v
		}
	}
	return id
}

// predName parses ID or ID[name, ...] and returns the full name with
// bindings applied, e.g. "r[n,x]".
func (p *parser) predName() (string, Token, error) {
	t, err := p.expect(ID, "a predicate name")
	if err != nil {
		return "", t, err
	}
	name := p.bound(t.Text)
	if p.peekKind() != LBR {
		return name, t, nil
	}
	p.next()
	var params []string
	if p.peekKind() != RBR {
		for {
			sub, _, err := p.predName()
			if err != nil {
				return "", t, err
			}
			if err := p.spend(len(sub), t); err != nil {
				return "", t, err
			}
			params = append(params, sub)
			if !p.accept(COMMA) {
				break
			}
		}
	}
	if _, err := p.expect(RBR, "',' or ']'"); err != nil {
		return "", t, err
	}
	return name + "[" + strings.Join(params, ",") + "]", t, nil
}

// Binary operators and their binding strength (loosest first), all
// left-associative, as in TVP's grammar.
var binaryOps = map[Kind]struct {
	op   logic.BinOp
	prec int
}{
	IFF:     {logic.Iff, 1},
	IMPLIES: {logic.Implies, 2},
	OR:      {logic.Or, 3},
	AND:     {logic.And, 4},
}

// formula parses a whole formula.
func (p *parser) formula() (logic.Formula, error) { return p.binaryFrom(1) }

func (p *parser) binaryFrom(min int) (logic.Formula, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op, ok := binaryOps[p.peekKind()]
		if !ok || op.prec < min {
			return left, nil
		}
		// | and & followed by / start a composite formula, not an operator.
		if p.peekAt(1) == COMBINE {
			return left, nil
		}
		opTok := p.next()
		right, err := p.binaryFrom(op.prec + 1)
		if err != nil {
			return nil, err
		}
		left = &logic.Binary{Op: op.op, Left: left, Right: right}
		if op.op == logic.Iff && logic.NNFSize(left, maxNormalForm) > maxNormalForm {
			return nil, p.errorf(opTok, "formula too large: written without <->, as Coerce and finite differencing need it, it would have more than %d nodes (each nested <-> doubles both sides)", maxNormalForm)
		}
	}
}

// maxNormalForm bounds the size of a formula's negation normal form,
// which the loader builds for definitions and rules: nested <-> double
// it at every level, and a few dozen levels would never finish loading.
const maxNormalForm = 100000

func (p *parser) unary() (logic.Formula, error) {
	t := p.peek()
	switch t.Kind {
	case NOT, EXISTS, FORALL, TCKW, LP:
		p.depth++
		defer func() { p.depth-- }()
	}
	if p.depth > maxNesting {
		return nil, p.errorf(t, "formula nested too deeply: more than %d levels of quantifiers, negations and parentheses", maxNesting)
	}
	switch t.Kind {
	case NOT:
		p.next()
		sub, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &logic.Not{Sub: sub}, nil
	case EXISTS, FORALL:
		p.next()
		vars, err := p.varList()
		if err != nil {
			return nil, err
		}
		// A quantifier's body reaches as far right as it can.
		body, err := p.formula()
		if err != nil {
			return nil, err
		}
		kind := logic.Exists
		if t.Kind == FORALL {
			kind = logic.Forall
		}
		return &logic.Quant{Kind: kind, Vars: vars, Body: body}, nil
	case TCKW:
		p.next()
		ends, err := p.varPair()
		if err != nil {
			return nil, err
		}
		subs, err := p.varPair()
		if err != nil {
			return nil, err
		}
		body, err := p.formula()
		if err != nil {
			return nil, err
		}
		return p.mark(&logic.TC{From: ends[0], To: ends[1], Sub1: subs[0], Sub2: subs[1], Body: body}, t), nil
	}
	return p.primary()
}

// varList parses ( v1, ..., vn ), possibly empty.
func (p *parser) varList() ([]logic.Var, error) {
	if _, err := p.expect(LP, ""); err != nil {
		return nil, err
	}
	var vars []logic.Var
	if p.accept(RP) {
		return vars, nil
	}
	for {
		t, err := p.expect(ID, "a variable")
		if err != nil {
			return nil, err
		}
		vars = append(vars, logic.Var(t.Text))
		if p.accept(RP) {
			return vars, nil
		}
		if _, err := p.expect(COMMA, "',' or ')'"); err != nil {
			return nil, err
		}
	}
}

func (p *parser) varPair() ([2]logic.Var, error) {
	open := p.peek()
	vs, err := p.varList()
	if err != nil {
		return [2]logic.Var{}, err
	}
	if len(vs) != 2 {
		return [2]logic.Var{}, p.errorf(open, "expected two variables, found %d", len(vs))
	}
	return [2]logic.Var{vs[0], vs[1]}, nil
}

func (p *parser) primary() (logic.Formula, error) {
	t := p.peek()
	switch t.Kind {
	case TRUE:
		p.next()
		return logic.True1, nil
	case FALSE:
		p.next()
		return logic.False0, nil
	case UNKNOWN:
		p.next()
		return logic.Half, nil
	case LP:
		p.next()
		f, err := p.formula()
		if err != nil {
			return nil, err
		}
		if p.accept(QMARK) {
			then, err := p.formula()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(COLON, "':' of an if-then-else"); err != nil {
				return nil, err
			}
			els, err := p.formula()
			if err != nil {
				return nil, err
			}
			f = &logic.If{Cond: f, Then: then, Else: els}
		}
		if _, err := p.expect(RP, "')'"); err != nil {
			return nil, err
		}
		return f, nil
	case OR, AND:
		if p.peekAt(1) == COMBINE {
			return p.combine()
		}
	case ID:
		if k := p.peekAt(1); k == EQ || k == NEQ {
			p.next()
			p.next()
			r, err := p.expect(ID, "a variable")
			if err != nil {
				return nil, err
			}
			eq := p.mark(&logic.Equal{Left: logic.Var(t.Text), Right: logic.Var(r.Text)}, t)
			if k == NEQ {
				return &logic.Not{Sub: eq}, nil
			}
			return eq, nil
		}
		return p.atom()
	}
	return nil, p.errorf(t, "expected a formula, found %s", t)
}

// atom parses p(args), p+(a, b) or p*(a, b).
func (p *parser) atom() (logic.Formula, error) {
	name, t, err := p.predName()
	if err != nil {
		return nil, err
	}
	if k := p.peekKind(); k == PLUS || k == STAR {
		p.next()
		ends, err := p.varPair()
		if err != nil {
			return nil, err
		}
		return p.mark(&logic.Closure{Pred: name, From: ends[0], To: ends[1], Reflexive: k == STAR}, t), nil
	}
	args, err := p.varList()
	if err != nil {
		return nil, err
	}
	return p.mark(&logic.Atom{Pred: name, Args: args}, t), nil
}

// ParseFormula parses a single formula written in TVP syntax, as in a
// test or on the command line; file names the source in error positions.
func ParseFormula(file, text string) (logic.Formula, error) {
	toks, err := Lex(NewPlainSource(file, text))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f, err := p.formula()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.Kind != EOF {
		return nil, p.errorf(t, "unexpected %s after the formula", t)
	}
	return f, nil
}
