package cpp

import (
	"strconv"
	"strings"
)

// evalIf evaluates the expression of an #if or #elif, the cleaned range
// [a, end) of f. "defined NAME" is replaced first, so that the names it
// tests are not expanded; then macros are expanded and the expression is
// evaluated with C's operators and precedence on int64.
func (p *preproc) evalIf(f *srcFile, dir string, pos Pos, a, end int) (bool, *Error) {
	raw := tokensOf(f, a, end, true, true)
	var ts []tok
	next := func(i int) int {
		for i < len(raw) && raw[i].kind == tSpace {
			i++
		}
		return i
	}
	for i := 0; i < len(raw); i++ {
		t := raw[i]
		if t.kind != tIdent || t.text != "defined" {
			ts = append(ts, t)
			continue
		}
		j := next(i + 1)
		paren := j < len(raw) && raw[j].text == "("
		if paren {
			j = next(j + 1)
		}
		if j >= len(raw) || raw[j].kind != tIdent {
			return false, errAt(t.where(), "operator \"defined\" requires an identifier")
		}
		v := "0"
		if p.macros[raw[j].text] != nil {
			v = "1"
		}
		if paren {
			j = next(j + 1)
			if j >= len(raw) || raw[j].text != ")" {
				return false, errAt(t.where(), "missing ')' after \"defined\"")
			}
		}
		ts = append(ts, tok{kind: tNumber, text: v, src: f, off: t.off})
		i = j
	}
	var ex []tok
	e := p.expand(ts, func(t tok) *Error {
		if t.kind != tSpace && t.kind != tNewline && t.kind != tMark && t.kind != tPlace {
			ex = append(ex, t)
		}
		return nil
	})
	if e != nil {
		return false, e
	}
	if len(ex) == 0 {
		return false, errAt(pos, "%s with no expression", dir)
	}
	q := &ifParser{p: p, toks: ex, dir: dir, pos: pos}
	v, e := q.cond(true)
	if e != nil {
		return false, e
	}
	if q.i < len(q.toks) {
		return false, q.unexpected()
	}
	return v != 0, nil
}

// ifParser evaluates a macro-expanded #if expression as it parses it.
type ifParser struct {
	p     *preproc
	toks  []tok
	i     int
	dir   string
	pos   Pos
	depth int
}

func (q *ifParser) peek() string {
	if q.i < len(q.toks) && q.toks[q.i].kind == tPunct {
		return q.toks[q.i].text
	}
	return ""
}

func (q *ifParser) unexpected() *Error {
	if q.i >= len(q.toks) {
		return errAt(q.pos, "bad %s expression: unexpected end of line", q.dir)
	}
	t := q.toks[q.i]
	return errAt(t.where(), "bad %s expression: unexpected %q", q.dir, t.text)
}

var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8,
	"+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// cond parses a conditional expression; eval is false in operands that
// are not evaluated (where division by zero is no error).
func (q *ifParser) cond(eval bool) (int64, *Error) {
	q.depth++
	defer func() { q.depth-- }()
	if q.depth > maxExprDepth {
		return 0, errAt(q.pos, "%s expression nested too deeply", q.dir)
	}
	c, e := q.binary(1, eval)
	if e != nil || q.peek() != "?" {
		return c, e
	}
	q.i++
	x, e := q.cond(eval && c != 0)
	if e != nil {
		return 0, e
	}
	if q.peek() != ":" {
		if q.i >= len(q.toks) {
			return 0, errAt(q.pos, "bad %s expression: missing ':'", q.dir)
		}
		return 0, q.unexpected()
	}
	q.i++
	y, e := q.cond(eval && c == 0)
	if e != nil {
		return 0, e
	}
	if c != 0 {
		return x, nil
	}
	return y, nil
}

func (q *ifParser) binary(minPrec int, eval bool) (int64, *Error) {
	l, e := q.unary(eval)
	if e != nil {
		return 0, e
	}
	for {
		op := q.peek()
		prec, ok := binaryPrec[op]
		if !ok || prec < minPrec {
			return l, nil
		}
		opTok := q.toks[q.i]
		q.i++
		ev := eval
		if op == "&&" {
			ev = eval && l != 0
		} else if op == "||" {
			ev = eval && l == 0
		}
		r, e := q.binary(prec+1, ev)
		if e != nil {
			return 0, e
		}
		switch op {
		case "||":
			l = b2i(l != 0 || r != 0)
		case "&&":
			l = b2i(l != 0 && r != 0)
		case "|":
			l |= r
		case "^":
			l ^= r
		case "&":
			l &= r
		case "==":
			l = b2i(l == r)
		case "!=":
			l = b2i(l != r)
		case "<":
			l = b2i(l < r)
		case ">":
			l = b2i(l > r)
		case "<=":
			l = b2i(l <= r)
		case ">=":
			l = b2i(l >= r)
		case "<<", ">>":
			if r < 0 {
				r = 64
			}
			if op == "<<" {
				l <<= uint64(r)
			} else {
				l >>= uint64(r)
			}
		case "+":
			l += r
		case "-":
			l -= r
		case "*":
			l *= r
		case "/", "%":
			if r == 0 {
				if eval {
					return 0, errAt(opTok.where(), "division by zero in %s", q.dir)
				}
				l = 0
			} else if op == "/" {
				l /= r
			} else {
				l %= r
			}
		}
	}
}

func (q *ifParser) unary(eval bool) (int64, *Error) {
	if q.i >= len(q.toks) {
		return 0, q.unexpected()
	}
	t := q.toks[q.i]
	switch {
	case t.kind == tPunct && (t.text == "!" || t.text == "~" || t.text == "-" || t.text == "+"):
		q.i++
		q.depth++
		defer func() { q.depth-- }()
		if q.depth > maxExprDepth {
			return 0, errAt(q.pos, "%s expression nested too deeply", q.dir)
		}
		v, e := q.unary(eval)
		if e != nil {
			return 0, e
		}
		switch t.text {
		case "!":
			return b2i(v == 0), nil
		case "~":
			return ^v, nil
		case "-":
			return -v, nil
		}
		return v, nil
	case t.kind == tPunct && t.text == "(":
		q.i++
		v, e := q.cond(eval)
		if e != nil {
			return 0, e
		}
		if q.peek() != ")" {
			if q.i >= len(q.toks) {
				return 0, errAt(t.where(), "bad %s expression: missing ')'", q.dir)
			}
			return 0, q.unexpected()
		}
		q.i++
		return v, nil
	case t.kind == tNumber:
		q.i++
		return parseIfNumber(t)
	case t.kind == tIdent && t.text == "defined":
		q.i++
		paren := q.peek() == "("
		if paren {
			q.i++
		}
		if q.i >= len(q.toks) || q.toks[q.i].kind != tIdent {
			return 0, errAt(t.where(), "operator \"defined\" requires an identifier")
		}
		v := b2i(q.p.macros[q.toks[q.i].text] != nil)
		q.i++
		if paren {
			if q.peek() != ")" {
				return 0, errAt(t.where(), "missing ')' after \"defined\"")
			}
			q.i++
		}
		return v, nil
	case t.kind == tIdent && isIdentStart(t.text[0]):
		q.i++
		return 0, nil // an identifier that is no macro
	}
	return 0, q.unexpected()
}

func parseIfNumber(t tok) (int64, *Error) {
	s := strings.TrimRight(t.text, "uUlL")
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || strings.ContainsRune(s, '_') {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, errAt(t.where(), "integer constant %s too large", t.text)
		}
		return 0, errAt(t.where(), "invalid integer constant %s", t.text)
	}
	return int64(v), nil
}
