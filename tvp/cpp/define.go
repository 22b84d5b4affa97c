package cpp

import (
	"fmt"
	"slices"
	"strings"
)

// itemKind is the kind of an element of a macro body.
type itemKind uint8

const (
	itTok   itemKind = iota
	itParam          // a parameter, replaced by its argument
	itStr            // #parameter
	itPaste          // ##
)

// item is an element of a macro body, kept apart from tokens so that
// substitution needs no second look at parameter names.
type item struct {
	kind  itemKind
	tk    tkind
	text  string
	param int
}

// macro is a definition by #define or -D.
type macro struct {
	name   string
	fn     bool
	params []string
	body   []item
	paste  bool
	canon  string // for comparing definitions
}

// define reads a #define from the cleaned range [a, end) of f.
func (p *preproc) define(f *srcFile, a, end int, pos Pos) *Error {
	s := f.clean
	name, i, e := p.macroName(f, "#define", pos, a, end)
	if e != nil {
		return e
	}
	namePos := f.posAt(i - len(name))
	m := &macro{name: name}
	if i < end && s[i] == '(' {
		m.fn = true
		i++
		blank := func() {
			for i < end && (isHSpace(s[i]) || s[i] == '\n') {
				i++
			}
		}
		blank()
		if i < end && s[i] == ')' {
			i++
		} else {
			for {
				blank()
				if strings.HasPrefix(s[i:end], "...") {
					return errAt(f.posAt(i), "variadic macros are not supported")
				}
				if i >= end || !isIdentStart(s[i]) {
					return errAt(f.posAt(min(i, end)), "expected a parameter name in the parameter list of macro %s", name)
				}
				b := i
				for i < end && isIdentChar(s[i]) {
					i++
				}
				pn := s[b:i]
				if slices.Contains(m.params, pn) {
					return errAt(f.posAt(b), "duplicate parameter %s of macro %s", pn, name)
				}
				m.params = append(m.params, pn)
				blank()
				if i < end && s[i] == ',' {
					i++
					continue
				}
				if i < end && s[i] == ')' {
					i++
					break
				}
				return errAt(f.posAt(min(i, end)), "missing ')' in the parameter list of macro %s", name)
			}
		}
	}
	var body []item
	var canon strings.Builder
	canon.WriteString(strings.Join(m.params, ","))
	canon.WriteString(fmt.Sprint(m.fn, "\x00"))
	var ts []tok
	scanPP(s, i, end, false, true, func(k tkind, x, y int) {
		ts = append(ts, tok{kind: k, text: s[x:y], off: int32(x)})
	})
	for k := 0; k < len(ts); k++ {
		t := ts[k]
		switch {
		case t.kind == tSpace:
			if len(body) > 0 && body[len(body)-1].kind != itPaste && !(body[len(body)-1].kind == itTok && body[len(body)-1].tk == tSpace) {
				body = append(body, item{kind: itTok, tk: tSpace, text: " "})
			}
		case t.kind == tPunct && t.text == "##":
			if n := len(body); n > 0 && body[n-1].kind == itTok && body[n-1].tk == tSpace {
				body = body[:n-1]
			}
			if len(body) == 0 {
				return errAt(f.posAt(int(t.off)), "'##' cannot appear at either end of a macro body")
			}
			body = append(body, item{kind: itPaste})
			m.paste = true
		case t.kind == tPunct && t.text == "#" && m.fn:
			k2 := k + 1
			for k2 < len(ts) && ts[k2].kind == tSpace {
				k2++
			}
			pi := -1
			if k2 < len(ts) && ts[k2].kind == tIdent {
				pi = slices.Index(m.params, ts[k2].text)
			}
			if pi < 0 {
				return errAt(f.posAt(int(t.off)), "'#' is not followed by a parameter of macro %s", name)
			}
			body = append(body, item{kind: itStr, param: pi})
			k = k2
		case t.kind == tIdent && m.fn && slices.Contains(m.params, t.text):
			body = append(body, item{kind: itParam, param: slices.Index(m.params, t.text)})
		default:
			body = append(body, item{kind: itTok, tk: t.kind, text: t.text})
		}
	}
	if n := len(body); n > 0 && body[n-1].kind == itTok && body[n-1].tk == tSpace {
		body = body[:n-1]
	}
	if n := len(body); n > 0 && body[n-1].kind == itPaste {
		return errAt(namePos, "'##' cannot appear at either end of a macro body")
	}
	for _, it := range body {
		switch it.kind {
		case itTok:
			canon.WriteString(it.text)
		case itParam:
			fmt.Fprintf(&canon, "\x00p%d", it.param)
		case itStr:
			fmt.Fprintf(&canon, "\x00s%d", it.param)
		case itPaste:
			canon.WriteString("\x00##")
		}
	}
	m.body = body
	m.canon = canon.String()
	if old := p.macros[name]; old != nil && old.canon != m.canon {
		p.warn(namePos, "macro %s redefined", name)
	}
	p.macros[name] = m
	return nil
}
