package cpp

import (
	"fmt"
	"slices"
	"strings"
)

// Macro expansion: an invocation's arguments are collected, expanded and
// substituted into the body, and the result is rescanned.

// expand macro-expands ts, giving each resulting token to out. Function-
// like invocations may take their arguments from anywhere in ts, across
// lines.
func (p *preproc) expand(ts []tok, out func(tok) *Error) *Error {
	st := &stream{in: ts}
	for st.more() {
		t := st.pop()
		var m *macro
		if t.kind == tIdent && !t.paint {
			m = p.macros[t.text]
		}
		if m == nil {
			if e := out(t); e != nil {
				return e
			}
			continue
		}
		j := 0
		if m.fn {
			for x := st.at(0); x != nil && (x.kind == tSpace || x.kind == tNewline || x.kind == tMark); x = st.at(j) {
				j++
			}
			if x := st.at(j); x == nil || x.kind != tPunct || x.text != "(" {
				if e := out(t); e != nil { // not an invocation
					return e
				}
				continue
			}
		}
		if k := slices.Index(t.hide, m.name); k >= 0 {
			if k == len(t.hide)-1 { // the macro names itself: left alone, as in C
				t.paint = true
				if e := out(t); e != nil {
					return e
				}
				continue
			}
			chain := append(slices.Clone(t.hide[k:]), m.name)
			return errAt(t.where(), "macro %s expands recursively: %s", m.name, strings.Join(chain, " -> "))
		}
		var args [][]tok
		var nls []tok
		if m.fn {
			for ; j >= 0; j-- {
				if x := st.pop(); x.kind == tNewline {
					nls = append(nls, x)
				}
			}
			var e *Error
			args, nls, e = p.collectArgs(st, m, &t, nls)
			if e != nil {
				return e
			}
		}
		res, e := p.substitute(m, &t, args)
		if e != nil {
			return e
		}
		st.push(nls...)
		at := t.where()
		st.push(tok{kind: tMark, pos: &at})
		st.push(res...)
	}
	return nil
}

// collectArgs reads the arguments of an invocation of m from st, just
// after its '('. Line breaks read are added to nls.
func (p *preproc) collectArgs(st *stream, m *macro, name *tok, nls []tok) ([][]tok, []tok, *Error) {
	var args [][]tok
	var cur []tok
	depth := 0
	for {
		if !st.more() {
			return nil, nil, errAt(name.where(), "unterminated argument list invoking macro %s", m.name)
		}
		t := st.pop()
		if t.kind == tPunct {
			switch t.text {
			case "(":
				depth++
			case ")":
				if depth == 0 {
					args = append(args, cur)
					goto done
				}
				depth--
			case ",":
				if depth == 0 {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		if t.kind == tNewline {
			nls = append(nls, t)
			t.kind, t.text, t.extra = tSpace, " ", 0
		}
		cur = append(cur, t)
	}
done:
	for k, a := range args {
		for len(a) > 0 && (a[0].kind == tSpace || a[0].kind == tMark) {
			a = a[1:]
		}
		for len(a) > 0 && (a[len(a)-1].kind == tSpace || a[len(a)-1].kind == tMark) {
			a = a[:len(a)-1]
		}
		args[k] = a
	}
	if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
		args = nil
	}
	if len(args) != len(m.params) {
		return nil, nil, errAt(name.where(), "macro %s expects %s, got %d", m.name, plural(len(m.params), "argument"), len(args))
	}
	return args, nls, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// substitute gives the replacement of an invocation of m named by name,
// before rescanning.
func (p *preproc) substitute(m *macro, name *tok, args [][]tok) ([]tok, *Error) {
	where := name.where()
	at := &where
	hide := make([]string, len(name.hide)+1)
	copy(hide, name.hide)
	hide[len(name.hide)] = m.name
	expanded := make([][]tok, len(args))
	done := make([]bool, len(args))
	merge := &hideMerger{hide: hide}
	var res []tok
	add := func(t tok) *Error {
		p.work++
		if p.work > maxExpandTokens {
			return errAt(where, "macro expansion too large (over %d tokens)", maxExpandTokens)
		}
		res = append(res, t)
		return nil
	}
	for i, it := range m.body {
		switch it.kind {
		case itTok:
			if e := add(tok{kind: it.tk, text: it.text, pos: at, hide: hide}); e != nil {
				return nil, e
			}
		case itPaste:
			if e := add(tok{kind: tPaste}); e != nil {
				return nil, e
			}
		case itStr:
			if e := add(tok{kind: tString, text: stringify(args[it.param]), pos: at, hide: hide}); e != nil {
				return nil, e
			}
		case itParam:
			// An operand of ## takes the argument as written, any other
			// parameter the argument expanded (once, however often used).
			raw := i > 0 && m.body[i-1].kind == itPaste || i+1 < len(m.body) && m.body[i+1].kind == itPaste
			var src []tok
			if raw {
				src = args[it.param]
				if len(src) == 0 {
					src = []tok{{kind: tPlace}}
				}
			} else {
				if !done[it.param] {
					x, e := p.expandArg(args[it.param], where)
					if e != nil {
						return nil, e
					}
					expanded[it.param], done[it.param] = x, true
				}
				src = expanded[it.param]
			}
			for _, x := range src {
				x.src, x.pos, x.hide, x.extra = nil, at, merge.with(x.hide), 0
				if x.kind == tNewline {
					x.kind, x.text = tSpace, " "
				}
				if e := add(x); e != nil {
					return nil, e
				}
			}
		}
	}
	if !m.paste {
		return res, nil
	}
	return pasteTokens(res, at, hide), nil
}

// hideMerger gives the tokens of an argument the macro chain of the
// invocation they are substituted into, after the macros of their own
// chain that are not on it.
type hideMerger struct {
	hide []string
	// A cache: the tokens of one expansion share one chain slice, so
	// their merge is done once and its result shared too.
	lastOwn, lastMerged []string
}

func (h *hideMerger) with(own []string) []string {
	if len(own) == 0 {
		return h.hide
	}
	if len(own) == len(h.lastOwn) && &own[0] == &h.lastOwn[0] {
		return h.lastMerged
	}
	var merged []string
	for _, x := range own {
		if !slices.Contains(h.hide, x) {
			merged = append(merged, x)
		}
	}
	merged = append(merged, h.hide...)
	h.lastOwn, h.lastMerged = own, merged
	return merged
}

// expandArg expands a macro argument before it is substituted. Arguments
// may hold invocations whose arguments hold invocations, so the depth is
// limited.
func (p *preproc) expandArg(arg []tok, where Pos) ([]tok, *Error) {
	p.argDepth++
	if p.argDepth > maxArgDepth {
		p.argDepth--
		return nil, errAt(where, "macro arguments nested too deeply")
	}
	var x []tok
	e := p.expand(arg, func(t tok) *Error { x = append(x, t); return nil })
	p.argDepth--
	if e != nil {
		return nil, e
	}
	return x, nil
}

// pasteTokens carries out the ## operators of a substitution: the texts
// on either side are joined and scanned again into tokens, placed at at.
func pasteTokens(res []tok, at *Pos, hide []string) []tok {
	var out []tok
	for i := 0; i < len(res); i++ {
		if res[i].kind != tPaste {
			out = append(out, res[i])
			continue
		}
		var left tok
		if n := len(out); n > 0 {
			left, out = out[n-1], out[:n-1]
		}
		var right tok
		if i+1 < len(res) {
			right = res[i+1]
			i++
		}
		text := left.text + right.text
		if text == "" {
			out = append(out, tok{kind: tPlace})
			continue
		}
		scanPP(text, 0, len(text), false, true, func(k tkind, a, b int) {
			out = append(out, tok{kind: k, text: text[a:b], pos: at, hide: hide})
		})
	}
	return out
}

// stringify spells an argument as a string literal.
func stringify(arg []tok) string {
	var b strings.Builder
	b.WriteByte('"')
	space := false
	for _, t := range arg {
		switch t.kind {
		case tSpace, tNewline:
			space = true
			continue
		case tMark, tPlace, tPaste:
			continue
		}
		if space && b.Len() > 1 {
			b.WriteByte(' ')
		}
		space = false
		if t.kind == tString {
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t.text))
		} else {
			b.WriteString(t.text)
		}
	}
	b.WriteByte('"')
	return b.String()
}
