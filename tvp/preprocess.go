package tvp

// The C-style preprocessor that TVLA runs over .tvp and .tvs files before
// lexing. It works in the usual phases: line splicing (backslash-newline),
// comment removal (comments become spaces, line breaks stay), directives,
// then macro expansion over preprocessing tokens. The result is a Source
// whose every byte maps back to a place in an original file.
//
// Decisions, where TVLA 3 (which uses IBM's cprep library) and C differ:
//
//   - Macro recursion. A macro is not re-expanded inside its own expansion
//     (C), so `#define x x` leaves x, as TVLA does. A cycle through two or
//     more different macros (FOO -> BAR -> FOO), on which TVLA loops
//     forever, is an error at the invocation. Every token carries the
//     chain of macros whose expansion produced it; meeting a macro already
//     on the chain is an error unless it is the last link (the macro
//     naming itself).
//   - #elseif. TVLA reads it as #else and ignores anything after it (so a
//     later #else flips the condition once more). Here #elseif alone is
//     #else; #elseif EXPR is read as #elif EXPR, with a warning.
//   - #warning text adds a warning (TVLA passes the line through and its
//     parser then fails on the '#').
//   - Unknown directives and #error are errors (TVLA passes them through).
//   - Undefined identifiers in #if are 0 (C; TVLA hangs on them).
//   - ## pastes (TVLA drops the ## and keeps a space when the operands are
//     written with spaces around it; `li_##TN` works alike in both).
//   - Brackets do not group macro arguments: F(r[n,x]) passes two
//     arguments, as in C and TVLA.
//   - A function-like macro name not followed by '(' is left alone (C;
//     TVLA reports an error).
//   - Macro names and parameters are C tokens: {var}, x|y, !a&b expand var,
//     x, y, a, b. TVLA glues { } | & : = ? ^ ~ to words, so that in TVLA
//     `#define IF_IN_SET(var, set) foreach (dummy in {var} & set)` keeps
//     {var} unsubstituted (examples IF_IN_SET, LastInterruption).
//   - Words: '$' is an identifier character, '.' is not (a.c expands a),
//     and a '%' that does not follow a word character sticks to the word
//     after it, so %p is never expanded by a macro p (as in TVLA). After a
//     macro expansion a space is inserted when the next character would
//     otherwise run into the expansion's last word (TVLA: a.c gives b .c).
//   - #include "f" searches the including file's folder, then the search
//     path; #include <f> the same. (TVLA resolves names against its working
//     folder.)

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// PreprocessConfig controls preprocessing.
type PreprocessConfig struct {
	// Defines are macros defined before the main file is read, as by -D.
	// A key is a macro name (or NAME(params) for a function-like macro),
	// the value its body: -D NAME alone should arrive as "1" (C; TVLA gives
	// it an empty body). A #define in a file replaces them, with a warning.
	Defines map[string]string
	// SearchPath holds folders searched for included files after the
	// including file's own folder, in order.
	SearchPath []string
	// ReadFile reads a file; nil means os.ReadFile. A missing file should
	// give an error satisfying errors.Is(err, fs.ErrNotExist).
	ReadFile func(path string) ([]byte, error)
}

// Limits that keep hostile input from running away.
const (
	maxIncludeDepth = 200
	maxArgDepth     = 200
	maxExpandTokens = 1 << 20  // tokens produced by macro substitution, in all (the examples need 16k at most)
	maxOutput       = 64 << 20 // bytes of preprocessed text
	maxExprDepth    = 500
)

// Preprocessed is the text after preprocessing, with the original
// position of every byte. It implements Source.
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

// Preprocess reads the file at path and preprocesses it.
func Preprocess(path string, cfg PreprocessConfig) (*Preprocessed, error) {
	p := newPreproc(cfg)
	data, err := p.read(path)
	if err != nil {
		return nil, &Error{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf("cannot read file: %v", err)}
	}
	return p.run(path, string(data))
}

// PreprocessText preprocesses text as the contents of file; included files
// are still read through cfg, relative to file's folder first.
func PreprocessText(file, text string, cfg PreprocessConfig) (*Preprocessed, error) {
	return newPreproc(cfg).run(file, text)
}

// ---------------------------------------------------------------------------
// Source files: splicing, comments, positions.

type srcFile struct {
	name    string
	orig    string
	clean   string   // spliced, comments blanked; newlines kept
	splices []splice // sorted by at
	lines   []int    // offsets of line starts in orig
	// commentNL holds the offsets in clean of line breaks inside /* */
	// comments: they do not end a logical line.
	commentNL []int
}

// splice records a removed backslash-newline: cleaned bytes from at on sit
// cum bytes further on in the original text.
type splice struct{ at, cum int }

func newSrcFile(name, text string) (*srcFile, *Error) {
	f := &srcFile{name: name, orig: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	// Line splicing: a backslash, optional blanks, a line break.
	var b []byte
	if strings.IndexByte(text, '\\') >= 0 {
		b = make([]byte, 0, len(text))
		cum := 0
		for i := 0; i < len(text); i++ {
			if text[i] == '\\' {
				j := i + 1
				for j < len(text) && isHSpace(text[j]) {
					j++
				}
				if j < len(text) && text[j] == '\n' {
					cum += j + 1 - i
					f.splices = append(f.splices, splice{at: len(b), cum: cum})
					i = j
					continue
				}
			}
			b = append(b, text[i])
		}
	} else {
		b = []byte(text)
	}
	// Comments and strings.
	for i := 0; i < len(b); {
		switch {
		case b[i] == '"':
			i++
			for i < len(b) && b[i] != '"' && b[i] != '\n' {
				i++
			}
			if i < len(b) && b[i] == '"' {
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			start := i
			end := -1
			for j := i + 2; j+1 < len(b); j++ {
				if b[j] == '*' && b[j+1] == '/' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				f.clean = string(b)
				return nil, &Error{Pos: f.posAt(start), Msg: "unterminated comment"}
			}
			for ; i < end; i++ {
				if b[i] == '\n' {
					f.commentNL = append(f.commentNL, i)
				} else {
					b[i] = ' '
				}
			}
		default:
			i++
		}
	}
	f.clean = string(b)
	return f, nil
}

// origOff maps an offset in clean to one in orig.
func (f *srcFile) origOff(c int) int {
	i := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at > c }) - 1
	if i >= 0 {
		c += f.splices[i].cum
	}
	return c
}

// posAt gives the original position of offset c of the cleaned text.
func (f *srcFile) posAt(c int) Pos {
	if c < 0 {
		c = 0
	}
	if c > len(f.clean) {
		c = len(f.clean)
	}
	o := f.origOff(c)
	if o > len(f.orig) {
		o = len(f.orig)
	}
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > o }) - 1
	return Pos{File: f.name, Line: line + 1, Col: o - f.lines[line] + 1}
}

// splicesIn counts the splices whose removed line break belongs to the
// cleaned range [a, b).
func (f *srcFile) splicesIn(a, b int) int {
	lo := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at >= a })
	hi := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at >= b })
	return hi - lo
}

func (f *srcFile) inComment(nl int) bool {
	_, found := slices.BinarySearch(f.commentNL, nl)
	return found
}

// lineEnd returns the offset of the line break ending the logical line
// containing from (line breaks inside comments do not count), or
// len(clean).
func (f *srcFile) lineEnd(from int) int {
	for {
		k := strings.IndexByte(f.clean[from:], '\n')
		if k < 0 {
			return len(f.clean)
		}
		if !f.inComment(from + k) {
			return from + k
		}
		from += k + 1
	}
}

func isHSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0x1a
}

// ---------------------------------------------------------------------------
// Preprocessing tokens.

type tkind uint8

const (
	tSpace tkind = iota
	tNewline
	tIdent
	tNumber
	tString
	tPunct
	tMark  // end of a macro expansion; no text
	tPlace // an empty operand of ##; no text
	tPaste // a ## operator inside a substitution
)

type tok struct {
	text  string
	src   *srcFile // the token is original text of src at off...
	pos   *Pos     // ...or, when src is nil, produced at *pos
	hide  []string // the macros whose expansion produced it, outermost first
	off   int32
	extra int32 // tNewline: line breaks spliced away in the line it ends
	kind  tkind
	paint bool // never to be expanded (C's "painted blue")
}

func (t *tok) where() Pos {
	if t.src != nil {
		return t.src.posAt(int(t.off))
	}
	if t.pos != nil {
		return *t.pos
	}
	return Pos{}
}

// stream is tokens being expanded: the rest of the input, after tokens
// pushed back (results of expansions, to be rescanned).
type stream struct {
	in   []tok
	i    int
	back []tok // the next token is last
}

func (s *stream) more() bool { return len(s.back) > 0 || s.i < len(s.in) }

func (s *stream) pop() tok {
	if n := len(s.back); n > 0 {
		t := s.back[n-1]
		s.back = s.back[:n-1]
		return t
	}
	s.i++
	return s.in[s.i-1]
}

// at returns the k-th next token, or nil.
func (s *stream) at(k int) *tok {
	if k < len(s.back) {
		return &s.back[len(s.back)-1-k]
	}
	if k -= len(s.back); s.i+k < len(s.in) {
		return &s.in[s.i+k]
	}
	return nil
}

// push puts ts in front of the stream.
func (s *stream) push(ts ...tok) {
	for k := len(ts) - 1; k >= 0; k-- {
		s.back = append(s.back, ts[k])
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

// isGlue reports whether c, on both sides of a boundary, would make the
// lexer read one word.
func isGlue(c byte) bool { return isIDChar(c) || c == '%' }

var punct2 = []string{"##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"}

// scanPP splits s[start:end] into preprocessing tokens. In expr mode (for
// #if) '%' is always an operator; in directive mode line breaks are blanks.
func scanPP(s string, start, end int, expr, directive bool, emit func(k tkind, a, b int)) {
	i := start
	for i < end {
		c := s[i]
		a := i
		switch {
		case isHSpace(c) || directive && c == '\n':
			for i < end && (isHSpace(s[i]) || directive && s[i] == '\n') {
				i++
			}
			emit(tSpace, a, i)
		case c == '\n':
			i++
			emit(tNewline, a, i)
		case isIdentStart(c):
			for i < end && isIdentChar(s[i]) {
				i++
			}
			emit(tIdent, a, i)
		case c == '%' && !expr && (i == 0 || !isIdentChar(s[i-1])):
			j := i
			for j < end && s[j] == '%' {
				j++
			}
			if j < end && isIdentStart(s[j]) {
				for j < end && isIdentChar(s[j]) {
					j++
				}
				i = j
				emit(tIdent, a, i)
			} else {
				i++
				emit(tPunct, a, i)
			}
		case isDigit(c):
			for i < end && (isIdentChar(s[i]) || s[i] == '.') {
				i++
			}
			emit(tNumber, a, i)
		case c == '"':
			i++
			for i < end && s[i] != '"' && s[i] != '\n' {
				i++
			}
			if i < end && s[i] == '"' {
				i++
			}
			emit(tString, a, i)
		default:
			i++
			for _, p := range punct2 {
				if strings.HasPrefix(s[a:end], p) {
					i = a + len(p)
					break
				}
			}
			emit(tPunct, a, i)
		}
	}
}

// tokensOf scans the cleaned text [a, b) of f into tokens.
func tokensOf(f *srcFile, a, b int, expr, directive bool) []tok {
	ts := make([]tok, 0, (b-a)/2+1)
	lineStart := a
	scanPP(f.clean, a, b, expr, directive, func(k tkind, x, y int) {
		t := tok{kind: k, text: f.clean[x:y], src: f, off: int32(x)}
		if k == tNewline {
			t.extra = int32(f.splicesIn(lineStart, y))
			lineStart = y
		}
		ts = append(ts, t)
	})
	return ts
}

// ---------------------------------------------------------------------------
// Macros.

type itemKind uint8

const (
	itTok   itemKind = iota
	itParam          // a parameter, replaced by its argument
	itStr            // #parameter
	itPaste          // ##
)

type item struct {
	kind  itemKind
	tk    tkind
	text  string
	param int
}

type macro struct {
	name   string
	fn     bool
	params []string
	body   []item
	paste  bool
	canon  string // for comparing definitions
}

// ---------------------------------------------------------------------------
// The preprocessor.

type cond struct {
	pos      Pos    // of the '#'
	name     string // the opening directive, "#if", "#ifdef", "#ifndef"
	outer    bool   // the enclosing text is active
	taken    bool   // some branch has been taken
	active   bool   // the current branch is active
	elseSeen bool
}

type preproc struct {
	cfg      PreprocessConfig
	read     func(string) ([]byte, error)
	macros   map[string]*macro
	cache    map[string]*srcFile
	files    []string
	warnings []*Error
	stack    []string // include stack, cleaned paths
	names    []string // include stack, as found
	out      strings.Builder
	segs     []segment
	needSep  bool
	sepPos   Pos
	work     int
	argDepth int
}

func newPreproc(cfg PreprocessConfig) *preproc {
	p := &preproc{cfg: cfg, read: cfg.ReadFile, macros: map[string]*macro{}, cache: map[string]*srcFile{}}
	if p.read == nil {
		p.read = os.ReadFile
	}
	return p
}

func errAt(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *preproc) warn(pos Pos, format string, args ...any) {
	p.warnings = append(p.warnings, errAt(pos, format, args...))
}

func (p *preproc) run(file, text string) (*Preprocessed, error) {
	if err := p.commandLineDefines(); err != nil {
		return nil, err
	}
	if len(text) > maxOutput {
		return nil, errAt(Pos{File: file, Line: 1, Col: 1}, "file too large (over %d bytes)", maxOutput)
	}
	sf, e := newSrcFile(file, text)
	if e != nil {
		return nil, e
	}
	p.cache[filepath.Clean(file)] = sf
	p.files = append(p.files, file)
	p.stack = append(p.stack, filepath.Clean(file))
	p.names = append(p.names, file)
	if e := p.processFile(sf); e != nil {
		return nil, e
	}
	return &Preprocessed{text: p.out.String(), segs: p.segs, end: sf.posAt(len(sf.clean)), files: p.files, warnings: p.warnings}, nil
}

func (p *preproc) commandLineDefines() *Error {
	keys := make([]string, 0, len(p.cfg.Defines))
	for k := range p.cfg.Defines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if i := strings.IndexByte(k, '('); i >= 0 {
			name = k[:i]
		}
		ok := name != "" && isIdentStart(name[0]) && !strings.ContainsAny(k, "\n\r")
		for i := 0; ok && i < len(name); i++ {
			ok = isIdentChar(name[i])
		}
		if !ok {
			return errAt(Pos{File: "<command line>", Line: 1, Col: 1}, "invalid macro name %q in -D", k)
		}
		line := k + " " + strings.ReplaceAll(p.cfg.Defines[k], "\n", " ")
		sf, e := newSrcFile("<command line>", line)
		if e != nil {
			return e
		}
		if e := p.define(sf, 0, len(sf.clean), sf.posAt(0)); e != nil {
			return e
		}
	}
	return nil
}

// write appends text to the output, mapped to src at off (consecutive
// bytes) or, when src is nil, entirely to pos.
func (p *preproc) write(text string, src *srcFile, off int, pos Pos) *Error {
	if text == "" {
		return nil
	}
	at := p.out.Len()
	if at+len(text) > maxOutput {
		if src != nil {
			pos = src.posAt(off)
		}
		return errAt(pos, "preprocessed text too large (over %d bytes)", maxOutput)
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

// include handles #include.
func (p *preproc) include(f *srcFile, pos Pos, a, end int) *Error {
	s := f.clean
	text := strings.TrimSpace(strings.ReplaceAll(s[a:end], "\n", " "))
	if text != "" && text[0] != '"' && text[0] != '<' {
		// A computed include: expand the macros.
		var b strings.Builder
		e := p.expand(tokensOf(f, a, end, false, true), func(t tok) *Error {
			if t.kind != tMark {
				b.WriteString(t.text)
			}
			return nil
		})
		if e != nil {
			return e
		}
		text = strings.TrimSpace(b.String())
	}
	var name string
	var rest string
	switch {
	case strings.HasPrefix(text, "\""):
		k := strings.IndexByte(text[1:], '"')
		if k < 0 {
			return errAt(pos, "missing closing '\"' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	case strings.HasPrefix(text, "<"):
		k := strings.IndexByte(text[1:], '>')
		if k < 0 {
			return errAt(pos, "missing closing '>' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	default:
		return errAt(pos, "#include expects \"FILE\" or <FILE>")
	}
	if name == "" {
		return errAt(pos, "empty file name in #include")
	}
	if strings.TrimSpace(rest) != "" {
		p.warn(pos, "extra tokens after #include")
	}
	if len(p.stack) >= maxIncludeDepth {
		return errAt(pos, "#include nested too deeply (over %d levels)", maxIncludeDepth)
	}
	var dirs []string
	if !filepath.IsAbs(name) {
		dirs = append(dirs, filepath.Dir(f.name))
		for _, d := range p.cfg.SearchPath {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	found := ""
	var sf *srcFile
	var readErr error
	try := func(path string) bool {
		clean := filepath.Clean(path)
		if c := p.cache[clean]; c != nil {
			found, sf = path, c
			return true
		}
		data, err := p.read(path)
		if err != nil {
			if readErr == nil && !errors.Is(err, fs.ErrNotExist) {
				readErr = err
			}
			return false
		}
		if len(data) > maxOutput {
			readErr = errAt(pos, "include file %q too large (over %d bytes)", path, maxOutput)
			return true
		}
		nf, e := newSrcFile(path, string(data))
		if e != nil {
			readErr = e
			return true
		}
		p.cache[clean] = nf
		p.files = append(p.files, path)
		found, sf = path, nf
		return true
	}
	if len(dirs) == 0 {
		try(name)
	}
	for _, d := range dirs {
		if try(filepath.Join(d, name)) {
			break
		}
	}
	if sf == nil {
		if e, ok := readErr.(*Error); ok {
			return e
		}
		if readErr != nil {
			return errAt(pos, "cannot read include file %q: %v", name, readErr)
		}
		if len(dirs) == 0 {
			return errAt(pos, "cannot find include file %q", name)
		}
		return errAt(pos, "cannot find include file %q (searched: %s)", name, strings.Join(dirs, ", "))
	}
	clean := filepath.Clean(found)
	if k := slices.Index(p.stack, clean); k >= 0 {
		chain := append(slices.Clone(p.names[k:]), found)
		return errAt(pos, "include cycle: %s", strings.Join(chain, " -> "))
	}
	p.stack = append(p.stack, clean)
	p.names = append(p.names, found)
	e := p.processFile(sf)
	p.stack = p.stack[:len(p.stack)-1]
	p.names = p.names[:len(p.names)-1]
	return e
}

// ---------------------------------------------------------------------------
// Macro expansion.

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
	var lastOwn, lastMerged []string
	merge := func(own []string) []string {
		if len(own) == 0 {
			return hide
		}
		if len(own) == len(lastOwn) && &own[0] == &lastOwn[0] {
			return lastMerged
		}
		var h []string
		for _, x := range own {
			if !slices.Contains(hide, x) {
				h = append(h, x)
			}
		}
		h = append(h, hide...)
		lastOwn, lastMerged = own, h
		return h
	}
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
			raw := i > 0 && m.body[i-1].kind == itPaste || i+1 < len(m.body) && m.body[i+1].kind == itPaste
			var src []tok
			if raw {
				src = args[it.param]
				if len(src) == 0 {
					src = []tok{{kind: tPlace}}
				}
			} else {
				if !done[it.param] {
					p.argDepth++
					if p.argDepth > maxArgDepth {
						p.argDepth--
						return nil, errAt(where, "macro arguments nested too deeply")
					}
					var x []tok
					e := p.expand(args[it.param], func(t tok) *Error { x = append(x, t); return nil })
					p.argDepth--
					if e != nil {
						return nil, e
					}
					expanded[it.param], done[it.param] = x, true
				}
				src = expanded[it.param]
			}
			for _, x := range src {
				x.src, x.pos, x.hide, x.extra = nil, at, merge(x.hide), 0
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
	return out, nil
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

// ---------------------------------------------------------------------------
// #if expressions.

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
