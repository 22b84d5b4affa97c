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
	name, i, e := p.macroName(f, "#define", pos, a, end)
	if e != nil {
		return e
	}
	namePos := f.posAt(i - len(name))
	m := &macro{name: name}
	// Only a '(' right after the name makes a function-like macro.
	if i < end && f.clean[i] == '(' {
		m.fn = true
		if i, e = readParams(f, m, i+1, end); e != nil {
			return e
		}
	}
	if e := readBody(f, m, i, end, namePos); e != nil {
		return e
	}
	m.canon = canonical(m)
	if old := p.macros[name]; old != nil && old.canon != m.canon {
		p.warn(namePos, "macro %s redefined", name)
	}
	p.macros[name] = m
	return nil
}

// readParams reads the parameter list of m from i, just after its '(',
// and returns where the list ends.
func readParams(f *srcFile, m *macro, i, end int) (int, *Error) {
	s := f.clean
	blank := func() {
		for i < end && (isHSpace(s[i]) || s[i] == '\n') {
			i++
		}
	}
	blank()
	if i < end && s[i] == ')' {
		return i + 1, nil
	}
	for {
		blank()
		if strings.HasPrefix(s[i:end], "...") {
			return i, errAt(f.posAt(i), "variadic macros are not supported")
		}
		if i >= end || !isIdentStart(s[i]) {
			return i, errAt(f.posAt(min(i, end)), "expected a parameter name in the parameter list of macro %s", m.name)
		}
		b := i
		for i < end && isIdentChar(s[i]) {
			i++
		}
		pn := s[b:i]
		if slices.Contains(m.params, pn) {
			return i, errAt(f.posAt(b), "duplicate parameter %s of macro %s", pn, m.name)
		}
		m.params = append(m.params, pn)
		blank()
		if i < end && s[i] == ',' {
			i++
			continue
		}
		if i < end && s[i] == ')' {
			return i + 1, nil
		}
		return i, errAt(f.posAt(min(i, end)), "missing ')' in the parameter list of macro %s", m.name)
	}
}

// readBody reads the body of m, the cleaned range [i, end) of f, into
// items: blanks collapse to one space, and none is kept around '##' or at
// either end.
func readBody(f *srcFile, m *macro, i, end int, namePos Pos) *Error {
	s := f.clean
	var body []item
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
				return errAt(f.posAt(int(t.off)), "'#' is not followed by a parameter of macro %s", m.name)
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
	m.body = body
	return nil
}

// canonical spells a definition so that two are equal exactly when a
// redefinition changes nothing (and needs no warning).
func canonical(m *macro) string {
	var canon strings.Builder
	canon.WriteString(strings.Join(m.params, ","))
	canon.WriteString(fmt.Sprint(m.fn, "\x00"))
	for _, it := range m.body {
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
	return canon.String()
}
