package tvp

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
)

// Printing a formula and parsing the text gives back the same tree, for
// thousands of random formulas covering every construct.
func TestPrintParseRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		f := testgen.Formula(r, 5)
		text := logic.String(f)
		g, err := ParseFormula("gen", text)
		if err != nil {
			t.Fatalf("case %d: %q does not parse: %v", i, text, err)
		}
		if !logic.EqualFormulas(f, g) {
			t.Fatalf("case %d: %q reads back as %q", i, text, logic.String(g))
		}
	}
}

// Parsing follows TVP's precedences; each case gives the input and the
// fully bracketed reading expected.
func TestParsePrecedence(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a() & b() | c()", "a() & b() | c()"},
		{"a() | b() & c()", "a() | b() & c()"},
		{"!a() & b()", "!a() & b()"},
		{"!(a() & b())", "!(a() & b())"},
		{"a() -> b() -> c()", "a() -> b() -> c()"}, // left-associative
		{"a() -> (b() -> c())", "a() -> (b() -> c())"},
		{"a() <-> b() -> c()", "a() <-> b() -> c()"},
		{"E(v) x(v) & y(v)", "E(v) x(v) & y(v)"}, // the body reaches right
		{"(E(v) x(v)) & y(w)", "(E(v) x(v)) & y(w)"},
		{"a() & E(v) x(v) | y(v)", "a() & (E(v) x(v) | y(v))"},
		{"!E(v) x(v) & y(v)", "!(E(v) x(v) & y(v))"},
		{"A(v, w) n(v, w) -> v == w", "A(v, w) n(v, w) -> v == w"},
		{"E() b()", "E() b()"},
		{"v != w", "v != w"},
		{"!(v == w)", "v != w"},
		{"n*(v, w) & n+(w, v)", "n*(v, w) & n+(w, v)"},
		{"TC(a, b)(s, t) n(s, t) & !x(t)", "TC(a, b)(s, t) n(s, t) & !x(t)"},
		{"(x(v) ? 1 : 1/2)", "(x(v) ? 1 : 1/2)"},
		{"(x(v)?y(v):0) & 1 / 2", "(x(v) ? y(v) : 0) & 1/2"},
		{"r[n,x](v) & t[n](v, w)", "r[n,x](v) & t[n](v, w)"},
		{"r[ n , x ](v)", "r[n,x](v)"},
		{"a() - > b() < - > c()", "a() -> b() <-> c()"},
	}
	for _, c := range cases {
		f, err := ParseFormula("t", c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := logic.String(f); got != c.want {
			t.Errorf("%q parsed as %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseStructure(t *testing.T) {
	f, err := ParseFormula("t", "a() & E(v) x(v) | y(v)")
	if err != nil {
		t.Fatal(err)
	}
	and, ok := f.(*logic.Binary)
	if !ok || and.Op != logic.And {
		t.Fatalf("top is %T, want &", f)
	}
	q, ok := and.Right.(*logic.Quant)
	if !ok || q.Kind != logic.Exists {
		t.Fatalf("right of & is %T, want E", and.Right)
	}
	if or, ok := q.Body.(*logic.Binary); !ok || or.Op != logic.Or {
		t.Fatalf("body of E is %s, want a disjunction", logic.String(q.Body))
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"x(v", "t:1:4: expected ',' or ')', found end of input"},
		{"x(v) &", "t:1:7: expected a formula, found end of input"},
		{"x(v) y(v)", "t:1:6: unexpected identifier \"y\" after the formula"},
		{"TC(a)(s, t) n(s, t)", "t:1:3: expected two variables, found 1"},
		{"(x(v) ? y(v))", "t:1:13: expected ':' of an if-then-else, found ')'"},
		{"x(v) # y", "t:1:6: illegal character '#'"},
		{"/* open", "t:1:1: unterminated comment"},
		{"x(v) & \"open", "t:1:8: unterminated string"},
		{"v ==", "t:1:5: expected a variable, found end of input"},
		{"r[n,(v)", "t:1:5: expected a predicate name, found '('"},
	}
	for _, c := range cases {
		_, err := ParseFormula("t", c.in)
		if err == nil {
			t.Errorf("%q: no error", c.in)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q: error %q, want %q", c.in, err.Error(), c.want)
		}
	}
}

func TestLexPositionsAndTokens(t *testing.T) {
	src := "// comment\n%p x(v) unique\n  /* multi\nline */ %i r[n,x](v) = 1 / 2 ==> 1/2 %pset %px"
	toks, err := Lex(NewPlainSource("f.tvp", src))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, tk := range toks {
		kinds = append(kinds, tk.Kind.String())
	}
	want := "%p identifier ( identifier ) identifier %i identifier [ identifier , identifier ] ( identifier ) = 1/2 ==> 1/2 %pset %p identifier end of input"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("tokens:\n got %s\nwant %s", got, want)
	}
	if p := toks[0].Pos; p.Line != 2 || p.Col != 1 {
		t.Errorf("first token at %v", p)
	}
	if p := toks[6].Pos; p.String() != "f.tvp:4:9" {
		t.Errorf("%%i at %v, want f.tvp:4:9", p)
	}
}
