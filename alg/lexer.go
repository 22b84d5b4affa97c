package alg

import (
	"fmt"
	"unicode/utf8"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tRaw   // `...`, hand-written TVP
	tPunct // one of the operators and delimiters; text says which
)

type token struct {
	kind tokKind
	text string // the identifier, the operator, or the raw text between the backquotes
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		if keywords[t.text] {
			return "`" + t.text + "`"
		}
		return "identifier " + t.text
	case tRaw:
		return "TVP text"
	}
	return "`" + t.text + "`"
}

// keywords cannot name declarations. The contextual words restricted,
// full, add, off and lp are ordinary identifiers.
var keywords = map[string]bool{
	"algorithm": true, "spec": true, "interleaving": true, "type": true,
	"shared": true, "local": true, "instrument": true, "tvp": true, "op": true, "init": true,
	"data": true, "bool": true, "lock": true, "unlock": true,
	"if": true, "else": true, "loop": true, "while": true, "break": true,
	"continue": true, "return": true, "empty": true, "atomic": true,
	"yield": true, "new": true, "null": true, "cas": true, "true": true, "false": true,
	"any": true,
}

// lex splits src into tokens; lexical errors go to e and the offending
// bytes are skipped.
func lex(file string, src []byte, e *errs) []token {
	var toks []token
	line, col := 1, 1
	i := 0
	pos := func() Pos { return Pos{file, line, col} }
	advance := func(n int) {
		for k := 0; k < n && i < len(src); k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			p := pos()
			advance(2)
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				advance(1)
			}
			if i >= len(src) {
				e.add(p, "comment not terminated")
			} else {
				advance(2)
			}
		case isLetter(c):
			p := pos()
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, token{tIdent, string(src[i:j]), p})
			advance(j - i)
		case c == '`':
			p := pos()
			advance(1)
			j := i
			for j < len(src) && src[j] != '`' {
				j++
			}
			text := string(src[i:j])
			if j >= len(src) {
				e.add(p, "TVP text not terminated (a closing ` is missing)")
				advance(j - i)
			} else {
				advance(j - i + 1)
			}
			toks = append(toks, token{tRaw, text, p})
		default:
			p := pos()
			two := ""
			if i+1 < len(src) {
				two = string(src[i : i+2])
			}
			switch two {
			case "==", "!=", "&&", "||":
				toks = append(toks, token{tPunct, two, p})
				advance(2)
				continue
			}
			switch c {
			case '{', '}', '(', ')', '[', ']', ';', ',', ':', '.', '=', '!', '@':
				toks = append(toks, token{tPunct, string(c), p})
				advance(1)
			default:
				r, size := utf8.DecodeRune(src[i:])
				if r == utf8.RuneError && size <= 1 {
					e.add(p, "invalid byte %#02x", c)
					size = 1
				} else if isDigit(c) {
					e.add(p, "numbers are not part of the language (data values are abstract)")
				} else {
					e.add(p, "unexpected character %s", quoteRune(r))
				}
				advance(size)
				// A run of bad characters gives one error.
				for i < len(src) && !isLetter(src[i]) && !isSpace(src[i]) && !isPunct(src[i]) {
					advance(1)
				}
			}
		}
	}
	toks = append(toks, token{tEOF, "", pos()})
	return toks
}

func quoteRune(r rune) string {
	if r < ' ' || r == 0x7f {
		return fmt.Sprintf("%U", r)
	}
	return fmt.Sprintf("%q", r)
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
func isPunct(c byte) bool {
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', ',', ':', '.', '=', '!', '@', '/', '`', '&', '|':
		return true
	}
	return false
}
