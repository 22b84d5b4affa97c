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

// directiveLine is a directive as read from its logical line.
type directiveLine struct {
	f        *srcFile
	pos      Pos    // of the '#'
	name     string // the word after the '#'; "" for none
	rest     int    // where the text after the name starts in f.clean
	end      int    // where the logical line ends in f.clean
	restText string // the text after the name on one line, trimmed
}

func readDirective(f *srcFile, hash, end int) directiveLine {
	s := f.clean
	i := hash + 1
	for i < end && (isHSpace(s[i]) || s[i] == '\n') {
		i++
	}
	j := i
	for j < end && isIdentChar(s[j]) {
		j++
	}
	return directiveLine{
		f: f, pos: f.posAt(hash), name: s[i:j], rest: j, end: end,
		restText: strings.TrimSpace(strings.ReplaceAll(s[j:end], "\n", " ")),
	}
}

// directive handles the directive whose '#' is at hash and whose logical
// line ends at end.
func (p *preproc) directive(f *srcFile, hash, end int, conds *[]cond) *Error {
	d := readDirective(f, hash, end)
	if d.name == "elseif" {
		if d.restText == "" {
			d.name = "else"
		} else {
			p.warn(d.pos, "#elseif read as #elif (TVLA 3 reads #elseif as #else and ignores the expression)")
			d.name = "elif"
		}
	}
	// The conditionals are read even in skipped text, to keep the nesting.
	switch d.name {
	case "if", "ifdef", "ifndef":
		return p.openCond(d, conds)
	case "elif":
		return p.elif(d, *conds)
	case "else":
		return p.elseDirective(d, *conds)
	case "endif":
		return p.endif(d, conds)
	}
	if len(*conds) > 0 && !(*conds)[len(*conds)-1].active {
		return nil
	}
	return p.command(d)
}

// warnExtra warns of text after a directive that takes none.
func (p *preproc) warnExtra(d directiveLine) {
	if d.restText != "" {
		p.warn(d.pos, "extra tokens after #%s", d.name)
	}
}

// openCond handles #if, #ifdef and #ifndef. In skipped text the condition
// is not evaluated: the group only has to be closed.
func (p *preproc) openCond(d directiveLine, conds *[]cond) *Error {
	active := len(*conds) == 0 || (*conds)[len(*conds)-1].active
	c := cond{pos: d.pos, name: "#" + d.name, outer: active}
	if active {
		var v bool
		var e *Error
		if d.name == "if" {
			v, e = p.evalIf(d.f, "#if", d.pos, d.rest, d.end)
		} else {
			v, e = p.ifdef(d.f, d.name, d.pos, d.rest, d.end)
		}
		if e != nil {
			return e
		}
		if d.name == "ifndef" {
			v = !v
		}
		c.active, c.taken = v, v
	}
	*conds = append(*conds, c)
	return nil
}

// elif handles #elif; its expression is evaluated only when no earlier
// branch was taken.
func (p *preproc) elif(d directiveLine, conds []cond) *Error {
	if len(conds) == 0 {
		return errAt(d.pos, "#elif without #if")
	}
	c := &conds[len(conds)-1]
	if c.elseSeen {
		return errAt(d.pos, "#elif after #else")
	}
	if !c.outer || c.taken {
		c.active = false
		return nil
	}
	v, e := p.evalIf(d.f, "#elif", d.pos, d.rest, d.end)
	if e != nil {
		return e
	}
	c.active, c.taken = v, v
	return nil
}

func (p *preproc) elseDirective(d directiveLine, conds []cond) *Error {
	if len(conds) == 0 {
		return errAt(d.pos, "#else without #if")
	}
	c := &conds[len(conds)-1]
	if c.elseSeen {
		return errAt(d.pos, "#else after #else")
	}
	if c.outer {
		p.warnExtra(d)
	}
	c.elseSeen = true
	c.active = c.outer && !c.taken
	c.taken = true
	return nil
}

func (p *preproc) endif(d directiveLine, conds *[]cond) *Error {
	if len(*conds) == 0 {
		return errAt(d.pos, "#endif without #if")
	}
	if (*conds)[len(*conds)-1].outer {
		p.warnExtra(d)
	}
	*conds = (*conds)[:len(*conds)-1]
	return nil
}

// command handles a directive other than a conditional, in active text.
func (p *preproc) command(d directiveLine) *Error {
	switch d.name {
	case "":
		if d.restText != "" {
			w := d.restText
			if k := strings.IndexAny(w, " \t"); k >= 0 {
				w = w[:k]
			}
			return errAt(d.pos, "unknown directive #%s", w)
		}
		return nil // the null directive
	case "define":
		return p.define(d.f, d.rest, d.end, d.pos)
	case "undef":
		n, after, e := p.macroName(d.f, "#undef", d.pos, d.rest, d.end)
		if e != nil {
			return e
		}
		if strings.TrimSpace(d.f.clean[after:d.end]) != "" {
			p.warn(d.pos, "extra tokens after #undef")
		}
		delete(p.macros, n)
		return nil
	case "include":
		return p.include(d.f, d.pos, d.rest, d.end)
	case "error":
		return errAt(d.pos, "%s", strings.TrimSpace("#error "+d.restText))
	case "warning":
		p.warn(d.pos, "%s", strings.TrimSpace("#warning "+d.restText))
		return nil
	}
	return errAt(d.pos, "unknown directive #%s", d.name)
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
