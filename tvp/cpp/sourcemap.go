package cpp

import (
	"slices"
	"sort"
	"strings"
)

// Preprocessed is the text after preprocessing, with the original
// position of every byte. It implements package tvp's Source, so the
// TVP and TVS lexers read it directly.
type Preprocessed struct {
	text     string
	segs     []segment
	end      Pos
	files    []string
	warnings []*Error
}

// segment maps output bytes from out on: either to consecutive bytes of a
// source file's cleaned text (src != nil, from off), or all to pos.
type segment struct {
	out int
	src *srcFile
	off int
	pos Pos
}

// Text returns the preprocessed text.
func (p *Preprocessed) Text() string { return p.text }

// PosAt returns the original position of the byte at off. Text produced by
// a macro expansion maps to the macro name at the outermost invocation;
// offsets at or past the end map to the end of the main file.
func (p *Preprocessed) PosAt(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off >= len(p.text) || len(p.segs) == 0 {
		return p.end
	}
	i := sort.Search(len(p.segs), func(i int) bool { return p.segs[i].out > off }) - 1
	if i < 0 {
		i = 0
	}
	s := p.segs[i]
	if s.src != nil {
		return s.src.posAt(s.off + off - s.out)
	}
	return s.pos
}

// Files lists every file read: the main file first, then included files
// in the order they were first read, each once, named as found.
func (p *Preprocessed) Files() []string { return slices.Clone(p.files) }

// Warnings returns the warnings, in the order found.
func (p *Preprocessed) Warnings() []*Error { return slices.Clone(p.warnings) }

// write appends text to the output, mapped to src at off (consecutive
// bytes) or, when src is nil, entirely to pos.
func (p *preproc) write(text string, src *srcFile, off int, pos Pos) *Error {
	if text == "" {
		return nil
	}
	at := p.out.Len()
	if at+len(text) > p.max {
		if src != nil {
			pos = src.posAt(off)
		}
		return errAt(pos, "preprocessed text too large (over %s)", SizeString(int64(p.max)))
	}
	var last *segment
	if n := len(p.segs); n > 0 {
		last = &p.segs[n-1]
	}
	if src != nil {
		if last == nil || last.src != src || last.off+at-last.out != off {
			p.segs = append(p.segs, segment{out: at, src: src, off: off})
		}
	} else if last == nil || last.src != nil || last.pos != pos {
		p.segs = append(p.segs, segment{out: at, pos: pos})
	}
	p.out.WriteString(text)
	return nil
}

// emit writes one expanded token to the output.
func (p *preproc) emit(t tok) *Error {
	switch t.kind {
	case tMark:
		s := p.out.String()
		if len(s) > 0 && isGlue(s[len(s)-1]) {
			p.needSep, p.sepPos = true, t.where()
		}
		return nil
	case tPlace, tPaste:
		return nil
	}
	if t.text == "" {
		return nil
	}
	if p.needSep {
		p.needSep = false
		if isGlue(t.text[0]) {
			if e := p.write(" ", nil, 0, p.sepPos); e != nil {
				return e
			}
		}
	}
	if t.kind == tNewline {
		text := "\n"
		if t.src == nil {
			text = " " // cannot happen: produced newlines are spaces
		}
		if e := p.write(text, t.src, int(t.off), t.where()); e != nil {
			return e
		}
		if t.extra > 0 {
			return p.write(strings.Repeat("\n", int(t.extra)), nil, 0, t.where())
		}
		return nil
	}
	if t.src != nil {
		return p.write(t.text, t.src, int(t.off), Pos{})
	}
	return p.write(t.text, nil, 0, t.where())
}

// emitNewlines writes the line breaks of the cleaned range [a, b) of f,
// which produced no text (directives, skipped lines), so that output lines
// stay aligned with the file's lines.
func (p *preproc) emitNewlines(f *srcFile, a, b int) *Error {
	p.needSep = false
	for i := a; i < b; i++ {
		if f.clean[i] == '\n' {
			if e := p.write("\n", f, i, Pos{}); e != nil {
				return e
			}
		}
	}
	if n := f.splicesIn(a, b); n > 0 {
		return p.write(strings.Repeat("\n", n), nil, 0, f.posAt(b-1))
	}
	return nil
}
