package cpp

import "strings"

// tkind is the kind of a preprocessing token.
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

// tok is a preprocessing token.
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

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isGlue reports whether c, on both sides of a boundary, would make the
// TVP lexer read one word: its word characters are ours and '.', and a
// '%' sticks to the word after it. It must follow package tvp's lexer.
func isGlue(c byte) bool { return isIdentChar(c) || c == '.' || c == '%' }

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
