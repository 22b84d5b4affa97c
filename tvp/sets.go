package tvp

import (
	"github.com/tvla-go/tvla/logic"
)

// Set expressions name sets of predicate names:
//
//	set_expr ::= ID | { name, ... } | { name, ... : x in set_expr }
//	           | set_expr + set_expr | set_expr - set_expr | set_expr & set_expr
//	           | ( set_expr )
//
// + and - bind tighter than & and all are left-associative, as in TVP's
// grammar. Sets keep their members in order of first insertion, so that
// foreach expands deterministically.

// setExpr parses a set expression and returns its members.
func (p *parser) setExpr() ([]string, error) {
	left, err := p.setSum()
	if err != nil {
		return nil, err
	}
	for p.peekKind() == AND {
		op := p.next()
		right, err := p.setSum()
		if err != nil {
			return nil, err
		}
		if err := p.spend(len(left)+len(right), op); err != nil {
			return nil, err
		}
		left = intersect(left, right)
	}
	return left, nil
}

func (p *parser) setSum() ([]string, error) {
	left, err := p.setPrimary()
	if err != nil {
		return nil, err
	}
	for {
		k := p.peekKind()
		if k != PLUS && k != MINUS {
			return left, nil
		}
		op := p.next()
		right, err := p.setPrimary()
		if err != nil {
			return nil, err
		}
		if err := p.spend(len(left)+len(right), op); err != nil {
			return nil, err
		}
		if k == PLUS {
			left = union(left, right)
		} else {
			left = minus(left, right)
		}
	}
}

func (p *parser) setPrimary() ([]string, error) {
	t := p.peek()
	switch t.Kind {
	case ID:
		p.next()
		members, ok := p.sets[t.Text]
		if !ok && !p.syntaxOnly {
			return nil, p.errorf(t, "set %s is not declared (declare it with %%s before its use)", t.Text)
		}
		return members, nil
	case LP:
		p.next()
		s, err := p.setExpr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(RP, "')'"); err != nil {
			return nil, err
		}
		return s, nil
	case LCBR:
		return p.setLiteral()
	}
	return nil, p.errorf(t, "expected a set (a set name, {...} or a parenthesised set expression), found %s", t)
}

// setLiteral parses { a, b } or the comprehension { a[x], b : x in S }.
func (p *parser) setLiteral() ([]string, error) {
	open := p.next()
	// A comprehension has a ':' before the closing brace; its names are
	// read once per member of S, with x bound.
	colon := p.findAtDepth(p.at, COLON, RCBR)
	if colon < 0 || p.toks[colon].Kind != COLON {
		var out []string
		seen := map[string]bool{}
		if p.accept(RCBR) {
			return out, nil
		}
		for {
			name, _, err := p.predName()
			if err != nil {
				return nil, err
			}
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
			if p.accept(RCBR) {
				return out, nil
			}
			if _, err := p.expect(COMMA, "',' or '}'"); err != nil {
				return nil, err
			}
		}
	}
	listStart := p.at
	p.at = colon + 1
	iter, err := p.expect(ID, "the iterator of a set comprehension")
	if err != nil {
		return nil, err
	}
	if err := p.expectIn(); err != nil {
		return nil, err
	}
	over, err := p.setExpr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(RCBR, "'}' closing the comprehension opened at "+open.Pos.String()); err != nil {
		return nil, err
	}
	end := p.at
	var out []string
	seen := map[string]bool{}
	for _, m := range over {
		err := p.replay(listStart, map[string]string{iter.Text: m}, func() error {
			for {
				name, _, err := p.predName()
				if err != nil {
					return err
				}
				if !seen[name] {
					seen[name] = true
					out = append(out, name)
				}
				if p.peekKind() == COLON {
					return nil
				}
				if _, err := p.expect(COMMA, "',' or ':'"); err != nil {
					return err
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	p.at = end
	return out, nil
}

// expectIn reads the word "in" of foreach and comprehensions.
func (p *parser) expectIn() error {
	t := p.peek()
	if t.Kind != ID || t.Text != "in" {
		return p.errorf(t, "expected 'in', found %s", t)
	}
	p.next()
	return nil
}

// replay parses again from token index start with extra bindings, then
// restores the position: how foreach bodies, comprehensions, composite
// formulas and action bodies are expanded.
func (p *parser) replay(start int, bind map[string]string, parse func() error) error {
	if err := p.spend(0, p.toks[start]); err != nil {
		return err
	}
	saved := p.at
	p.at = start
	p.bindings = append(p.bindings, bind)
	err := parse()
	p.bindings = p.bindings[:len(p.bindings)-1]
	p.at = saved
	return err
}

// findAtDepth scans from token index from for the first token of kind want
// that is not nested in brackets opened after from; it stops (returning
// that index) at an unmatched stop token, and returns -1 at the end.
func (p *parser) findAtDepth(from int, want, stop Kind) int {
	depth := 0
	for i := from; i < len(p.toks); i++ {
		switch k := p.toks[i].Kind; {
		case depth == 0 && k == want:
			return i
		case k == LP || k == LBR || k == LCBR:
			depth++
		case k == RP || k == RBR || k == RCBR:
			if depth == 0 {
				if k == stop {
					return i
				}
				return -1
			}
			depth--
		case k == EOF:
			return -1
		}
	}
	return -1
}

// matching returns the index of the bracket closing the one at open, or -1.
func (p *parser) matching(open int) int {
	depth := 0
	for i := open; i < len(p.toks); i++ {
		switch p.toks[i].Kind {
		case LP, LBR, LCBR:
			depth++
		case RP, RBR, RCBR:
			depth--
			if depth == 0 {
				return i
			}
		case EOF:
			return -1
		}
	}
	return -1
}

// combine parses |/{ f : x in S } and &/{ f : x in S }: the disjunction
// (conjunction) of f with x bound to each member of S, 0 (1) when S is
// empty.
func (p *parser) combine() (logic.Formula, error) {
	opTok := p.next()
	p.next() // the '/'
	open, err := p.expect(LCBR, "'{' of a composite formula")
	if err != nil {
		return nil, err
	}
	colon := p.findAtDepth(p.at, COLON, RCBR)
	if colon < 0 || p.toks[colon].Kind != COLON {
		return nil, p.errorf(open, "composite formula without ': x in SET'")
	}
	bodyStart := p.at
	p.at = colon + 1
	iter, err := p.expect(ID, "the iterator of a composite formula")
	if err != nil {
		return nil, err
	}
	if err := p.expectIn(); err != nil {
		return nil, err
	}
	over, err := p.setExpr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(RCBR, "'}' closing the composite formula"); err != nil {
		return nil, err
	}
	end := p.at
	var parts []logic.Formula
	for _, m := range over {
		err := p.replay(bodyStart, map[string]string{iter.Text: m}, func() error {
			f, err := p.formula()
			if err != nil {
				return err
			}
			if t := p.peek(); t.Kind != COLON {
				return p.errorf(t, "expected ':' after the formula of a composite formula, found %s", t)
			}
			parts = append(parts, f)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	p.at = end
	if opTok.Kind == OR {
		return logic.NewOr(parts...), nil
	}
	return logic.NewAnd(parts...), nil
}

// Sets have no repeated members; union keeps a's order, then b's new
// members in their order.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	in := members(a)
	for _, x := range b {
		if !in[x] {
			in[x] = true
			out = append(out, x)
		}
	}
	return out
}

func minus(a, b []string) []string {
	var out []string
	in := members(b)
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	in := members(b)
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

func members(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
