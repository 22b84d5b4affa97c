package alg

import "fmt"

// MaxDepth bounds the nesting of blocks and expressions.
const MaxDepth = 100

// Parse reads one .alg file: it lexes, parses and checks it. The error,
// if any, is an ErrorList of every error found, sorted by position, each
// as file:line:col: message. The program is returned even with errors
// (as far as it parsed), nil only when the file is too broken to start.
func Parse(file string, src []byte) (*Program, error) {
	e := &errs{}
	toks := lex(file, src, e)
	p := &parser{toks: toks, e: e}
	prog := p.parse()
	if len(e.list) == 0 {
		check(prog, e)
	}
	return prog, e.result()
}

type parser struct {
	toks  []token
	i     int
	e     *errs
	depth int
}

// bailout unwinds to the nearest statement or declaration list after a
// syntax error; abort unwinds the whole parse (nesting too deep, too
// many errors).
type bailout struct{}
type abort struct{}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	p.e.add(pos, format, args...)
	if len(p.e.list) >= maxErrors {
		panic(abort{})
	}
	panic(bailout{})
}

func (p *parser) expect(text string) token {
	if !p.is(text) {
		p.fail(p.tok().pos, "expected `%s`, found %s", text, p.tok())
	}
	return p.next()
}

// ident reads a name that is not a keyword; what says what it names.
func (p *parser) ident(what string) token {
	t := p.tok()
	if t.kind != tIdent {
		p.fail(t.pos, "expected %s, found %s", what, t)
	}
	if keywords[t.text] {
		p.fail(t.pos, "expected %s, found keyword `%s`", what, t.text)
	}
	return p.next()
}

func (p *parser) enter(pos Pos) {
	p.depth++
	if p.depth > MaxDepth {
		p.e.add(pos, "nesting deeper than %d levels", MaxDepth)
		panic(abort{})
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parse() (prog *Program) {
	prog = &Program{Pos: p.tok().pos}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abort); !ok {
				panic(r)
			}
		}
	}()
	p.protect(func() {
		p.expect("algorithm")
		prog.Name = p.ident("the algorithm's name").text
		p.expect(";")
	}, p.syncDecl)
	for p.tok().kind != tEOF {
		start := p.i
		p.protect(func() { p.decl(prog) }, p.syncDecl)
		if p.i == start {
			p.next()
		}
	}
	return prog
}

// protect runs f; after a syntax error in it, sync skips to where
// parsing can go on.
func (p *parser) protect(f func(), sync func()) {
	depth := p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth
			sync()
		}
	}()
	f()
}

var declWords = map[string]bool{"spec": true, "interleaving": true, "garbage": true, "type": true,
	"shared": true, "local": true, "instrument": true, "tvp": true, "op": true, "init": true}

// syncDecl skips to the next declaration keyword at brace depth 0.
func (p *parser) syncDecl() {
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return
		case t.kind == tIdent && depth == 0 && declWords[t.text]:
			return
		case t.kind == tPunct && t.text == "{":
			depth++
		case t.kind == tPunct && t.text == "}":
			depth--
			if depth < 0 {
				depth = 0
			}
		}
		p.next()
	}
}

// syncStmt skips past the next ; of this block, or to its closing }.
func (p *parser) syncStmt() {
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return
		case t.kind == tPunct && t.text == ";" && depth == 0:
			p.next()
			return
		case t.kind == tPunct && t.text == "{":
			depth++
		case t.kind == tPunct && t.text == "}":
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

// mode parses the rest of a declaration `WORD a;` or `WORD b;` (t is
// WORD): its mode, and false when it repeats an earlier one.
func (p *parser) mode(t token, seen bool, a, b string) (string, bool) {
	m := p.ident(fmt.Sprintf("`%s` or `%s`", a, b))
	if m.text != a && m.text != b {
		p.fail(m.pos, "%s is `%s` or `%s`, not %s", t.text, a, b, m.text)
	}
	p.expect(";")
	if seen {
		p.e.add(t.pos, "duplicate %s declaration", t.text)
		return "", false
	}
	return m.text, true
}

func (p *parser) decl(prog *Program) {
	t := p.tok()
	if t.kind != tIdent || !declWords[t.text] {
		p.fail(t.pos, "expected a declaration (spec, interleaving, garbage, type, shared, local, instrument, tvp, init or op), found %s", t)
	}
	p.next()
	switch t.text {
	case "spec":
		d := &SpecDecl{Pos: t.pos, Name: p.ident("a specification name").text}
		p.expect(";")
		if prog.Spec != nil {
			p.e.add(t.pos, "duplicate spec declaration (the first is at %d:%d)", prog.Spec.Pos.Line, prog.Spec.Pos.Col)
			return
		}
		prog.Spec = d
	case "interleaving":
		if m, ok := p.mode(t, prog.Interleaving != nil, "restricted", "full"); ok {
			prog.Interleaving = &InterleavingDecl{Pos: t.pos, Mode: m}
		}
	case "garbage":
		if m, ok := p.mode(t, prog.Garbage != nil, "some", "none"); ok {
			prog.Garbage = &GarbageDecl{Pos: t.pos, Mode: m}
		}
	case "type":
		d := &TypeDecl{Pos: t.pos, Name: p.ident("a type name").text}
		p.expect("{")
		for !p.is("}") && p.tok().kind != tEOF {
			d.Fields = append(d.Fields, p.varList()...)
			p.expect(";")
		}
		p.expect("}")
		prog.Types = append(prog.Types, d)
	case "shared":
		prog.Shared = append(prog.Shared, p.varList()...)
		p.expect(";")
	case "local":
		prog.Locals = append(prog.Locals, p.varList()...)
		p.expect(";")
	case "instrument":
		m := p.ident("`add`, `off` or `nonabs`")
		if m.text != "add" && m.text != "off" && m.text != "nonabs" {
			p.fail(m.pos, "instrument is followed by `add`, `off` or `nonabs`, not %s", m.text)
		}
		d := &InstrumentDecl{Pos: t.pos, Off: m.text == "off", NonAbs: m.text == "nonabs"}
		for {
			d.Names = append(d.Names, p.predName())
			if !p.accept(",") {
				break
			}
		}
		p.expect(";")
		prog.Instrument = append(prog.Instrument, d)
	case "tvp":
		r := p.tok()
		if r.kind != tRaw {
			p.fail(r.pos, "expected TVP text in backquotes, found %s", r)
		}
		p.next()
		p.expect(";")
		prog.TVP = append(prog.TVP, &TVPDecl{Pos: t.pos, Text: r.text})
	case "init":
		d := &InitDecl{Pos: t.pos, Body: p.block()}
		if prog.Init != nil {
			p.e.add(t.pos, "duplicate init block (the first is at %d:%d)", prog.Init.Pos.Line, prog.Init.Pos.Col)
			return
		}
		prog.Init = d
	case "op":
		prog.Ops = append(prog.Ops, p.op(t.pos))
	}
}

// varList reads NAME {, NAME} : KIND.
func (p *parser) varList() []*VarDecl {
	var names []token
	for {
		names = append(names, p.ident("a name"))
		if !p.accept(",") {
			break
		}
	}
	p.expect(":")
	k := p.kind()
	tagged := false
	if t := p.tok(); t.kind == tIdent && t.text == "tagged" {
		p.next()
		tagged = true
	}
	out := make([]*VarDecl, len(names))
	for i, n := range names {
		out[i] = &VarDecl{Pos: n.pos, Name: n.text, Kind: k, Tagged: tagged}
	}
	return out
}

func (p *parser) kind() Kind {
	t := p.tok()
	if t.kind == tIdent && (t.text == "data" || t.text == "bool" || t.text == "lock") {
		p.next()
		return Kind{Pos: t.pos, Name: t.text}
	}
	n := p.ident("a kind (data, bool, lock or a type name)")
	return Kind{Pos: n.pos, Name: n.text}
}

func (p *parser) predName() *PredName {
	p.enter(p.tok().pos)
	defer p.leave()
	// Keywords are fine here: has[spec], if[idle,has[n]].
	n := p.tok()
	if n.kind != tIdent {
		p.fail(n.pos, "expected a predicate name, found %s", n)
	}
	p.next()
	pn := &PredName{Pos: n.pos, Name: n.text}
	if p.accept("[") {
		for {
			pn.Args = append(pn.Args, p.predName())
			if !p.accept(",") {
				break
			}
		}
		p.expect("]")
	}
	return pn
}

func (p *parser) op(pos Pos) *OpDecl {
	d := &OpDecl{Pos: pos, Name: p.ident("an operation name").text}
	p.expect("(")
	if !p.is(")") {
		for {
			n := p.ident("a parameter name")
			p.expect(":")
			d.Params = append(d.Params, &VarDecl{Pos: n.pos, Name: n.text, Kind: p.kind()})
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	if p.accept(":") {
		k := p.kind()
		d.Result = &k
	}
	d.Body = p.block()
	return d
}

func (p *parser) block() *Block {
	open := p.expect("{")
	p.enter(open.pos)
	defer p.leave()
	b := &Block{Pos: open.pos}
	for !p.is("}") && p.tok().kind != tEOF {
		start := p.i
		var s Stmt
		p.protect(func() { s = p.stmt() }, p.syncStmt)
		if s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.i == start {
			p.next()
		}
	}
	p.expect("}")
	return b
}

func (p *parser) stmt() Stmt {
	t := p.tok()
	if t.kind == tIdent {
		switch t.text {
		case "local":
			p.next()
			s := &LocalStmt{Pos: t.pos, Vars: p.varList()}
			p.expect(";")
			return s
		case "if":
			return p.ifStmt()
		case "loop":
			p.next()
			return &LoopStmt{Pos: t.pos, Body: p.block()}
		case "while":
			p.next()
			c := p.expr()
			return &LoopStmt{Pos: t.pos, Cond: c, Body: p.block()}
		case "break", "continue":
			p.next()
			p.noLP(t.text)
			p.expect(";")
			return &BranchStmt{Pos: t.pos, Tok: t.text}
		case "return":
			p.next()
			s := &ReturnStmt{Pos: t.pos}
			if p.accept("empty") {
				s.Empty = true
			} else if !p.is(";") && !p.is("@") {
				s.Value = p.expr()
			}
			p.noLP("return")
			p.expect(";")
			return s
		case "atomic":
			p.next()
			s := &AtomicStmt{Pos: t.pos, Body: p.block()}
			p.noLP("an atomic block")
			return s
		case "lock", "unlock":
			p.next()
			s := &LockStmt{Pos: t.pos, Unlock: t.text == "unlock", X: p.expr()}
			p.noLP(t.text)
			p.expect(";")
			return s
		case "free":
			// free is a contextual word: `free x;` frees, `free = x;`
			// assigns a variable named free.
			if n := p.toks[p.i+1]; n.kind == tIdent && !keywords[n.text] {
				p.next()
				s := &FreeStmt{Pos: t.pos, X: p.expr()}
				p.noLP("free")
				p.expect(";")
				return s
			}
		case "yield":
			p.next()
			p.noLP("yield")
			p.expect(";")
			return &YieldStmt{Pos: t.pos}
		}
	}
	lhs := p.expr()
	if !p.is("=") {
		if _, ok := lhs.(*CAS); ok {
			s := &ExprStmt{Pos: t.pos, X: lhs, LP: p.lpMark()}
			p.expect(";")
			return s
		}
		p.fail(p.tok().pos, "expected `=` after %s, found %s", "the left-hand side", p.tok())
	}
	eq := p.next()
	s := &AssignStmt{Pos: eq.pos, LHS: lhs, RHS: p.expr()}
	s.LP = p.lpMark()
	p.expect(";")
	return s
}

// noLP rejects a linearisation-point mark after a statement that cannot
// carry one.
func (p *parser) noLP(what string) {
	if p.is("@") {
		at := p.tok().pos
		p.lpMark()
		p.e.add(at, "a linearisation point cannot be marked on %s", what)
	}
}

func (p *parser) ifStmt() *IfStmt {
	t := p.expect("if")
	p.enter(t.pos)
	defer p.leave()
	s := &IfStmt{Pos: t.pos, Cond: p.expr()}
	s.LP = p.lpMark()
	s.Then = p.block()
	if p.accept("else") {
		if p.is("if") {
			s.Else = p.ifStmt()
		} else {
			s.Else = p.block()
		}
	}
	return s
}

// lpMark reads an optional @lp [ ( VALUE | empty ) ] [ if COND ].
func (p *parser) lpMark() *LPMark {
	if !p.is("@") {
		return nil
	}
	at := p.next()
	n := p.tok()
	if n.kind != tIdent || n.text != "lp" {
		p.fail(n.pos, "expected `lp` after `@`, found %s", n)
	}
	p.next()
	m := &LPMark{Pos: at.pos}
	if p.accept("(") {
		if p.accept("empty") {
			m.Empty = true
		} else {
			m.Value = p.expr()
		}
		p.expect(")")
	}
	if t := p.tok(); t.kind == tIdent && t.text == "after" {
		m.Partner = p.partner()
	} else if t.kind == tIdent && (t.text == "for" || t.text == "from") {
		p.next()
		m.Claim = &Claim{Pos: t.pos, Take: t.text == "from", X: p.expr()}
	}
	if p.accept("if") {
		m.Cond = p.expr()
	}
	return m
}

// partner reads "after OP ( VAR == EXPR )".
func (p *parser) partner() *Partner {
	at := p.next()
	pt := &Partner{Pos: at.pos}
	pt.Op = p.ident("the partner's operation").text
	p.expect("(")
	v := p.ident("the partner's variable")
	pt.Var = &Name{Pos: v.pos, Name: v.text}
	p.expect("==")
	pt.Expr = p.expr()
	p.expect(")")
	return pt
}

// Expressions: || below && below == != below ! below primaries.
func (p *parser) expr() Expr {
	p.enter(p.tok().pos)
	defer p.leave()
	return p.chain("||", p.andExpr)
}

func (p *parser) andExpr() Expr { return p.chain("&&", p.cmpExpr) }

// chain parses operands joined by op, left to right; each operator counts
// one level of nesting (until the chain ends), so that a chain of
// thousands meets the nesting limit as nested parentheses do.
func (p *parser) chain(op string, operand func() Expr) Expr {
	x := operand()
	for p.is(op) {
		t := p.next()
		p.enter(t.pos)
		defer p.leave()
		x = &Binary{Pos: t.pos, Op: t.text, X: x, Y: operand()}
	}
	return x
}

func (p *parser) cmpExpr() Expr {
	x := p.unary()
	if p.is("==") || p.is("!=") {
		op := p.next()
		x = &Binary{Pos: op.pos, Op: op.text, X: x, Y: p.unary()}
		if p.is("==") || p.is("!=") {
			p.fail(p.tok().pos, "comparisons do not chain: use parentheses")
		}
	}
	return x
}

func (p *parser) unary() Expr {
	if p.is("!") {
		t := p.next()
		p.enter(t.pos)
		defer p.leave()
		return &Unary{Pos: t.pos, X: p.unary()}
	}
	return p.primary()
}

func (p *parser) primary() Expr {
	t := p.tok()
	var x Expr
	switch {
	case t.kind == tPunct && t.text == "(":
		p.next()
		x = p.expr()
		p.expect(")")
	case t.kind == tIdent && (t.text == "null" || t.text == "true" || t.text == "false" || t.text == "any"):
		p.next()
		x = &Lit{Pos: t.pos, Value: t.text}
	case t.kind == tIdent && t.text == "new":
		p.next()
		x = &New{Pos: t.pos, Type: p.ident("a type name").text}
	case t.kind == tIdent && t.text == "cas":
		p.next()
		p.expect("(")
		c := &CAS{Pos: t.pos}
		c.Loc = p.expr()
		p.expect(",")
		c.Old = p.expr()
		p.expect(",")
		c.New = p.expr()
		p.expect(")")
		x = c
	case t.kind == tIdent && t.text == "empty":
		p.fail(t.pos, "`empty` is only a result: return empty, or @lp(empty)")
	case t.kind == tIdent && !keywords[t.text]:
		p.next()
		x = &Name{Pos: t.pos, Name: t.text}
	default:
		p.fail(t.pos, "expected an expression, found %s", t)
	}
	for p.is(".") {
		dot := p.next()
		p.enter(dot.pos)
		defer p.leave()
		f := p.ident("a field name")
		x = &Field{Pos: f.pos, X: x, Name: f.text}
	}
	return x
}
