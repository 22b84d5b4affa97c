package tvp

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/tvp/cpp"
)

// Pos is a place in an original source file, 1-based. It is the
// preprocessor's type, because positions come out of its source map.
type Pos = cpp.Pos

// Kind is the kind of a token of the TVP and TVS languages.
type Kind uint8

const (
	EOF Kind = iota
	ID
	STRING
	NUMBER  // digits other than the literals 0 and 1
	TRUE    // 1
	FALSE   // 0
	UNKNOWN // 1/2
	// Punctuation and operators.
	LP
	RP
	LBR
	RBR
	LCBR
	RCBR
	COMMA
	COLON
	QMARK
	ASSIGN    // =
	EQ        // ==
	NEQ       // !=
	NOT       // !
	AND       // &
	OR        // |
	IMPLIES   // ->
	IFF       // <->
	IMPLIES_T // ==>
	ARROW     // -->
	STAR
	PLUS
	MINUS
	COMBINE // the / of |/{...}
	PERCENT // a lone %; %% separates sections
	// Keywords written as identifiers.
	EXISTS  // E
	FORALL  // A
	TCKW    // TC
	AUTO    // auto
	FOREACH // foreach
	// Section keywords, written with a leading %.
	PRED       // %p
	INS_PRED   // %i
	CONS_RULE  // %r
	FOCUS      // %f
	MESSAGE    // %message
	TITLE      // %t
	SET        // %s
	PSET       // %pset
	PARAM      // %param
	ACTION     // %action
	NEW        // %new
	CLONE      // %clone
	RETAIN     // %retain
	CLOSECYCLE // %closecycle
	FRAMEPRE   // %frame_pre
	FRAME      // %frame
	COMPOSE    // %compose
	DECOMPOSE  // %decompose
	DNAME      // %dname
	// TVS only.
	UNIVERSE // %n
	LOCATION // %location
	DESCR    // %d
)

var kindNames = map[Kind]string{
	EOF: "end of input", ID: "identifier", STRING: "string", NUMBER: "number",
	TRUE: "1", FALSE: "0", UNKNOWN: "1/2", LP: "(", RP: ")", LBR: "[", RBR: "]",
	LCBR: "{", RCBR: "}", COMMA: ",", COLON: ":", QMARK: "?", ASSIGN: "=", EQ: "==",
	NEQ: "!=", NOT: "!", AND: "&", OR: "|", IMPLIES: "->", IFF: "<->", IMPLIES_T: "==>",
	ARROW: "-->", STAR: "*", PLUS: "+", MINUS: "-", COMBINE: "/", PERCENT: "%",
	EXISTS: "E", FORALL: "A", TCKW: "TC", AUTO: "auto", FOREACH: "foreach",
	PRED: "%p", INS_PRED: "%i", CONS_RULE: "%r", FOCUS: "%f", MESSAGE: "%message",
	TITLE: "%t", SET: "%s", PSET: "%pset", PARAM: "%param", ACTION: "%action",
	NEW: "%new", CLONE: "%clone", RETAIN: "%retain", CLOSECYCLE: "%closecycle",
	FRAMEPRE: "%frame_pre", FRAME: "%frame", COMPOSE: "%compose",
	DECOMPOSE: "%decompose", DNAME: "%dname", UNIVERSE: "%n", LOCATION: "%location",
	DESCR: "%d",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Token is one lexeme with the place it came from.
type Token struct {
	Kind Kind
	Text string // identifier or string contents, number digits
	Pos  Pos
}

func (t Token) String() string {
	switch t.Kind {
	case ID:
		return fmt.Sprintf("identifier %q", t.Text)
	case STRING:
		return fmt.Sprintf("string %q", t.Text)
	case NUMBER:
		return "number " + t.Text
	case EOF:
		if t.Text != "" {
			// A token hidden as the end of a sub-parse, such as the ->
			// before a %message's text.
			return "'" + t.Text + "'"
		}
		return "end of input"
	case EXISTS, FORALL, TCKW, AUTO, FOREACH:
		return "reserved word '" + t.Kind.String() + "'"
	}
	return "'" + t.Kind.String() + "'"
}

// percentKeywords are tried longest first, as TVLA's scanner does: %pset
// is one token, %px is %p followed by the identifier x.
var percentKeywords = []struct {
	text string
	kind Kind
}{
	{"%closecycle", CLOSECYCLE}, {"%decompose", DECOMPOSE}, {"%frame_pre", FRAMEPRE},
	{"%location", LOCATION}, {"%message", MESSAGE}, {"%compose", COMPOSE},
	{"%action", ACTION}, {"%retain", RETAIN}, {"%clone", CLONE}, {"%dname", DNAME},
	{"%frame", FRAME}, {"%param", PARAM}, {"%pset", PSET}, {"%new", NEW},
	{"%d", DESCR}, {"%f", FOCUS}, {"%i", INS_PRED}, {"%n", UNIVERSE}, {"%p", PRED},
	{"%r", CONS_RULE}, {"%s", SET}, {"%t", TITLE},
}

var wordKeywords = map[string]Kind{"E": EXISTS, "A": FORALL, "TC": TCKW, "auto": AUTO, "foreach": FOREACH}

// Source is text to lex together with where each byte came from; the
// preprocessor supplies one that maps expanded text back to the original
// files and lines.
type Source interface {
	Text() string
	PosAt(offset int) Pos
}

// plainSource is text from one file, not preprocessed.
type plainSource struct {
	file, text string
	lines      []int // offsets of line starts
}

// NewPlainSource wraps text from file for lexing without preprocessing.
func NewPlainSource(file, text string) Source {
	s := &plainSource{file: file, text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

func (s *plainSource) Text() string { return s.text }

func (s *plainSource) PosAt(off int) Pos {
	lo, hi := 0, len(s.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{File: s.file, Line: lo + 1, Col: off - s.lines[lo] + 1}
}

// Error is a problem found in the input, at a position. It is the
// preprocessor's type, so that callers check for one kind of front-end
// error whether it came from preprocessing, lexing or parsing.
type Error = cpp.Error

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIDChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '.' }

// Lex splits src into tokens, ending with an EOF token. Comments (// and
// /* */) and white space are skipped. It stops at the first error.
func Lex(src Source) ([]Token, error) {
	text := src.Text()
	var toks []Token
	i := 0
	emit := func(k Kind, s string, at int) { toks = append(toks, Token{Kind: k, Text: s, Pos: src.PosAt(at)}) }
	errAt := func(at int, format string, args ...any) error {
		return &Error{Pos: src.PosAt(at), Msg: fmt.Sprintf(format, args...)}
	}
	for i < len(text) {
		c := text[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x1a:
			i++
			continue
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return nil, errAt(start, "unterminated comment")
			}
			i += end + 4
			continue
		case isLetter(c):
			for i < len(text) && isIDChar(text[i]) {
				i++
			}
			word := text[start:i]
			if k, ok := wordKeywords[word]; ok {
				emit(k, word, start)
			} else {
				emit(ID, word, start)
			}
			continue
		case isDigit(c):
			if c == '1' {
				if n := matchHalf(text[i:]); n > 0 {
					emit(UNKNOWN, "1/2", start)
					i += n
					continue
				}
			}
			for i < len(text) && isDigit(text[i]) {
				i++
			}
			switch num := text[start:i]; num {
			case "0":
				emit(FALSE, num, start)
			case "1":
				emit(TRUE, num, start)
			default:
				emit(NUMBER, num, start)
			}
			continue
		case c == '"':
			end := strings.IndexAny(text[i+1:], "\"\n")
			if end < 0 || text[i+1+end] == '\n' {
				return nil, errAt(start, "unterminated string")
			}
			emit(STRING, text[i+1:i+1+end], start)
			i += end + 2
			continue
		case c == '%':
			k, n := matchPercent(text[i:])
			emit(k, text[i:i+n], start)
			i += n
			continue
		}
		// Operators, longest first.
		if k, n := matchOperator(text[i:]); n > 0 {
			emit(k, text[i:i+n], start)
			i += n
			continue
		}
		return nil, errAt(start, "illegal character %q", c)
	}
	toks = append(toks, Token{Kind: EOF, Pos: src.PosAt(len(text))})
	return toks, nil
}

// matchHalf recognises 1/2 with at most one space on either side of the
// slash, as TVLA does, and returns its length.
func matchHalf(s string) int {
	i := 1
	if i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != '/' {
		return 0
	}
	i++
	if i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != '2' {
		return 0
	}
	i++
	if i < len(s) && isIDChar(s[i]) {
		return 0
	}
	return i
}

func matchPercent(s string) (Kind, int) {
	for _, kw := range percentKeywords {
		if strings.HasPrefix(s, kw.text) {
			return kw.kind, len(kw.text)
		}
	}
	return PERCENT, 1
}

// singleOperators are the one-character punctuation tokens.
var singleOperators = map[byte]Kind{
	'(': LP, ')': RP, '[': LBR, ']': RBR, '{': LCBR, '}': RCBR, ',': COMMA,
	':': COLON, '?': QMARK, '=': ASSIGN, '!': NOT, '&': AND, '|': OR,
	'*': STAR, '+': PLUS, '-': MINUS, '/': COMBINE,
}

// matchOperator recognises punctuation. "->" and "<->" may have one space
// inside ("- >", "< - >"), as in TVLA's scanner.
func matchOperator(s string) (Kind, int) {
	spaced := func(parts ...string) int {
		i := 0
		for j, p := range parts {
			if j > 0 && i < len(s) && s[i] == ' ' {
				i++
			}
			if !strings.HasPrefix(s[i:], p) {
				return 0
			}
			i += len(p)
		}
		return i
	}
	switch {
	case strings.HasPrefix(s, "==>"):
		return IMPLIES_T, 3
	case strings.HasPrefix(s, "-->"):
		return ARROW, 3
	case strings.HasPrefix(s, "=="):
		return EQ, 2
	case strings.HasPrefix(s, "!="):
		return NEQ, 2
	}
	if n := spaced("<", "-", ">"); n > 0 {
		return IFF, n
	}
	if n := spaced("-", ">"); n > 0 {
		return IMPLIES, n
	}
	if k, ok := singleOperators[s[0]]; ok {
		return k, 1
	}
	return EOF, 0
}
