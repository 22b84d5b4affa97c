package cpp

import "strings"

// cond is an open #if, #ifdef or #ifndef group.
type cond struct {
	pos      Pos    // of the '#'
	name     string // the opening directive, "#if", "#ifdef", "#ifndef"
	outer    bool   // the enclosing text is active
	taken    bool   // some branch has been taken
	active   bool   // the current branch is active
	elseSeen bool
}

// processFile reads f logical line by logical line: directives are
// handled as they come, and each run of ordinary lines in active text is
// expanded in one go, because a macro's arguments may span lines.
func (p *preproc) processFile(f *srcFile) *Error {
	var conds []cond
	s := f.clean
	runStart := -1
	flush := func(end int) *Error {
		if runStart < 0 {
			return nil
		}
		ts := tokensOf(f, runStart, end, false, false)
		runStart = -1
		return p.expand(ts, p.emit)
	}
	for pos := 0; pos < len(s); {
		i := pos
		for i < len(s) && (isHSpace(s[i]) || s[i] == '\n' && f.inComment(i)) {
			i++
		}
		end := f.lineEnd(pos)
		next := min(end+1, len(s))
		if i < len(s) && s[i] == '#' {
			if e := flush(pos); e != nil {
				return e
			}
			if e := p.directive(f, i, end, &conds); e != nil {
				return e
			}
			if e := p.emitNewlines(f, pos, next); e != nil {
				return e
			}
		} else if len(conds) == 0 || conds[len(conds)-1].active {
			if runStart < 0 {
				runStart = pos
			}
		} else if e := p.emitNewlines(f, pos, next); e != nil {
			return e
		}
		pos = next
	}
	if e := flush(len(s)); e != nil {
		return e
	}
	if n := len(conds); n > 0 {
		return errAt(conds[n-1].pos, "unterminated %s", conds[n-1].name)
	}
	return nil
}

// directive handles the directive whose '#' is at hash and whose logical
// line ends at end.
func (p *preproc) directive(f *srcFile, hash, end int, conds *[]cond) *Error {
	s := f.clean
	pos := f.posAt(hash)
	blank := func(i int) int {
		for i < end && (isHSpace(s[i]) || s[i] == '\n') {
			i++
		}
		return i
	}
	i := blank(hash + 1)
	j := i
	for j < end && isIdentChar(s[j]) {
		j++
	}
	name := s[i:j]
	rest := j
	restText := strings.TrimSpace(strings.ReplaceAll(s[rest:end], "\n", " "))
	active := len(*conds) == 0 || (*conds)[len(*conds)-1].active
	top := func() *cond { return &(*conds)[len(*conds)-1] }
	extra := func() {
		if restText != "" {
			p.warn(pos, "extra tokens after #%s", name)
		}
	}

	if name == "elseif" {
		if restText == "" {
			name = "else"
		} else {
			p.warn(pos, "#elseif read as #elif (TVLA 3 reads #elseif as #else and ignores the expression)")
			name = "elif"
		}
	}
	switch name {
	case "if", "ifdef", "ifndef":
		c := cond{pos: pos, name: "#" + name, outer: active}
		if active {
			var v bool
			var e *Error
			if name == "if" {
				v, e = p.evalIf(f, "#if", pos, rest, end)
			} else {
				v, e = p.ifdef(f, name, pos, rest, end)
			}
			if e != nil {
				return e
			}
			if name == "ifndef" {
				v = !v
			}
			c.active, c.taken = v, v
		}
		*conds = append(*conds, c)
		return nil
	case "elif":
		if len(*conds) == 0 {
			return errAt(pos, "#elif without #if")
		}
		c := top()
		if c.elseSeen {
			return errAt(pos, "#elif after #else")
		}
		if !c.outer || c.taken {
			c.active = false
			return nil
		}
		v, e := p.evalIf(f, "#elif", pos, rest, end)
		if e != nil {
			return e
		}
		c.active, c.taken = v, v
		return nil
	case "else":
		if len(*conds) == 0 {
			return errAt(pos, "#else without #if")
		}
		c := top()
		if c.elseSeen {
			return errAt(pos, "#else after #else")
		}
		if c.outer {
			extra()
		}
		c.elseSeen = true
		c.active = c.outer && !c.taken
		c.taken = true
		return nil
	case "endif":
		if len(*conds) == 0 {
			return errAt(pos, "#endif without #if")
		}
		if top().outer {
			extra()
		}
		*conds = (*conds)[:len(*conds)-1]
		return nil
	}
	if !active {
		return nil
	}
	switch name {
	case "":
		if restText != "" {
			w := restText
			if k := strings.IndexAny(w, " \t"); k >= 0 {
				w = w[:k]
			}
			return errAt(pos, "unknown directive #%s", w)
		}
		return nil // the null directive
	case "define":
		return p.define(f, rest, end, pos)
	case "undef":
		n, after, e := p.macroName(f, "#undef", pos, rest, end)
		if e != nil {
			return e
		}
		if strings.TrimSpace(s[after:end]) != "" {
			p.warn(pos, "extra tokens after #undef")
		}
		delete(p.macros, n)
		return nil
	case "include":
		return p.include(f, pos, rest, end)
	case "error":
		return errAt(pos, "%s", strings.TrimSpace("#error "+restText))
	case "warning":
		p.warn(pos, "%s", strings.TrimSpace("#warning "+restText))
		return nil
	}
	return errAt(pos, "unknown directive #%s", name)
}

// macroName reads the identifier after a directive; it returns the name
// and where it ends.
func (p *preproc) macroName(f *srcFile, dir string, pos Pos, a, end int) (string, int, *Error) {
	s := f.clean
	for a < end && (isHSpace(s[a]) || s[a] == '\n') {
		a++
	}
	if a >= end {
		return "", a, errAt(pos, "%s without a macro name", dir)
	}
	b := a
	for b < end && isIdentChar(s[b]) {
		b++
	}
	if !isIdentStart(s[a]) || b < end && (s[b] == '%' || s[b] == '.') {
		return "", a, errAt(f.posAt(a), "macro name must be an identifier")
	}
	if s[a:b] == "defined" {
		return "", a, errAt(f.posAt(a), "\"defined\" cannot be used as a macro name")
	}
	return s[a:b], b, nil
}

func (p *preproc) ifdef(f *srcFile, name string, pos Pos, a, end int) (bool, *Error) {
	n, after, e := p.macroName(f, "#"+name, pos, a, end)
	if e != nil {
		return false, e
	}
	if strings.TrimSpace(f.clean[after:end]) != "" {
		p.warn(pos, "extra tokens after #%s %s", name, n)
	}
	return p.macros[n] != nil, nil
}
