// The preprocessor's tests live outside package cpp so that they can lex
// its output with package tvp's lexer, which imports cpp: positions are
// checked as the TVP parser will see them, and the fuzz target feeds the
// output on to the lexer.
package cpp_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// mapFiles reads files from a map, as a cpp.Config.ReadFile.
func mapFiles(files map[string]string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(path)]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
}

// tokPos asks for the position of the n-th (0-based) token whose text is
// text, after lexing the preprocessed output.
type tokPos struct {
	text string
	n    int
	pos  string
}

// goodCase is a preprocessing that succeeds: the text of main.tvp (and
// other files) in, the text out, and optionally where tokens land, the
// files read and the warnings.
type goodCase struct {
	name    string
	main    string            // the text of main.tvp
	files   map[string]string // other files
	defines map[string]string
	path    []string
	want    string
	toks    []tokPos
	files2  []string // Files(), when given
	warns   []string // Warnings(), when given
}

// TestPreprocessText: comments, strings, continuation lines and skipped
// lines, the text keeping its lines and columns.
func TestPreprocessText(t *testing.T) {
	checkGood(t, []goodCase{
		{name: "comments become spaces",
			main: "a /* x */ b // c\nd /* e\nf */ g\n",
			want: "a         b     \nd     \n     g\n",
			toks: []tokPos{{"b", 0, "main.tvp:1:11"}, {"d", 0, "main.tvp:2:1"}, {"g", 0, "main.tvp:3:6"}}},
		{name: "no directive or macro inside comments and strings",
			main: "#define A B\n/* #define A C */ A \"A // A\" // A\n",
			want: "\n                  B \"A // A\"     \n",
			toks: []tokPos{{"B", 0, "main.tvp:2:19"}, {"A // A", 0, "main.tvp:2:21"}}},
		{name: "continuation lines",
			main: "#define LONG a \\\n  b \\\n  c\nLONG d\np \\\nq r\n",
			want: "\n\n\na b c d\np q r\n\n",
			toks: []tokPos{{"b", 0, "main.tvp:4:1"}, {"d", 0, "main.tvp:4:6"}, {"q", 0, "main.tvp:6:1"}, {"r", 0, "main.tvp:6:3"}}},
		{name: "continuation with trailing blanks and CRLF",
			main: "#define M(T) a_##T \\  \r\n b_##T\r\nM(1) x\r\n",
			want: "\n\na_1 b_1 x\r\n",
			toks: []tokPos{{"b_1", 0, "main.tvp:3:1"}, {"x", 0, "main.tvp:3:6"}}},
		{name: "a comment inside a directive spans lines",
			main: "#define X a /* c\n */ b\nX\n",
			want: "\n\na b\n"},
		{name: "skipped lines keep lines aligned",
			main: "#if 0\nbad \"\n#define X\n#endif\nok\n",
			want: "\n\n\n\nok\n",
			toks: []tokPos{{"ok", 0, "main.tvp:5:1"}}},
	})
}

// TestPreprocessMacros: macro definition and expansion, -D and
// redefinition.
func TestPreprocessMacros(t *testing.T) {
	checkGood(t, []goodCase{
		{name: "object-like macro",
			main: "#define N 3\nx N y\n",
			want: "\nx 3 y\n",
			toks: []tokPos{{"3", 0, "main.tvp:2:3"}, {"y", 0, "main.tvp:2:5"}}},
		{name: "function-like macro, arguments over several lines",
			main: "#define F(a, b) (a & b)\nF(x,\n  y) z\nw\n",
			want: "\n(x & y)\n z\nw\n",
			toks: []tokPos{{"(", 0, "main.tvp:2:1"}, {"y", 0, "main.tvp:2:1"}, {"z", 0, "main.tvp:3:6"}, {"w", 0, "main.tvp:4:1"}}},
		{name: "nested parentheses group arguments",
			main: "#define F(a) [a]\n#define G(a, b) a b\nG(F((1, 2)), F(3))\n",
			want: "\n\n[(1, 2)] [3]\n"},
		{name: "arguments are expanded, results rescanned",
			main: "#define ID(a) a\n#define TWO 2\n#define CALL(f, x) f(x)\nCALL(ID, TWO) CALL(ID, ID(TWO))\n",
			want: "\n\n\n2 2\n"},
		{name: "a macro naming itself is left alone",
			main: "#define x x\n#define y x\n#define f(a) f(a + 1)\n#define B A(B)\n#define A(a) a\nx y f(2) B\n",
			want: "\n\n\n\n\nx x f(2 + 1) B\n"},
		{name: "a function-like macro name met again without '(' is no recursion",
			main: "#define P(x) Q(x)\n#define Q(x) P\nP(1) + 2\n",
			want: "\n\nP + 2\n"},
		{name: "stringify and paste",
			main: "#define S(a) #a\n#define L(T) l_##T x##T T##y\n#define E(a, b) a ## b\nS( p  q ) L(1) E(,z) E(,)\n",
			want: "\n\n\n\"p q\" l_1 x1 1y z \n"},
		{name: "a function-like macro name without '(' is left alone",
			main: "#define F(a) a\nF + F\n(1)\n",
			want: "\nF + 1\n\n"},
		{name: "empty argument lists",
			main: "#define F() f\n#define G(a) [a]\nF() G()\n",
			want: "\n\nf []\n"},
		{name: "words: %p stays, '.' separates, expansions do not run together",
			main: "#define p q\n#define a b\n#define F(x) x\n%p p a.c c.a a$x F(u)F(v)\n",
			want: "\n\n\n%p q b .c c.b a$x u v\n"},
		{name: "brackets and braces are ordinary tokens",
			main: "#define DN(var) wcc[var]\n#define IN(var, set) foreach (d in {var} & set)\nDN(x) IN(r, S)\n",
			want: "\n\nwcc[x] foreach (d in {r} & S)\n"},
		{name: "a macro expansion maps to the invocation",
			main: "#define ACT(x) %action x() {\n  ACT(go) }\n",
			want: "\n  %action go() { }\n",
			toks: []tokPos{{"%action", 0, "main.tvp:2:3"}, {"go", 0, "main.tvp:2:3"}, {"}", 0, "main.tvp:2:11"}}},
		{name: "-D replaced by a later #define, with a warning",
			main:    "N\n#define N 2\nN\n",
			defines: map[string]string{"N": "1", "F(a)": "<a>"},
			want:    "1\n\n2\n",
			warns:   []string{"main.tvp:2:9: macro N redefined"}},
		{name: "the same definition again is no redefinition",
			main:  "#define A  x   y\n#define A x y\n#define B 1\n#define B 2\nA B\n",
			want:  "\n\n\n\nx y 2\n",
			warns: []string{"main.tvp:4:9: macro B redefined"}},
	})
}

// TestPreprocessInclude: where #include finds files, positions in them,
// macros they define.
func TestPreprocessInclude(t *testing.T) {
	checkGood(t, []goodCase{
		{name: "include, positions in the included file",
			main:   "a\n#include \"inc.tvp\"\nb\n",
			files:  map[string]string{"inc.tvp": "x\n  y\n"},
			want:   "a\nx\n  y\n\nb\n",
			toks:   []tokPos{{"x", 0, "inc.tvp:1:1"}, {"y", 0, "inc.tvp:2:3"}, {"b", 0, "main.tvp:3:1"}},
			files2: []string{"main.tvp", "inc.tvp"}},
		{name: "include: the including file's folder, then the search path",
			main: "#include \"sub/a.tvp\"\n#include <lib.tvp>\n",
			files: map[string]string{
				"sub/a.tvp":      "#include \"b.tvp\"\n",
				"sub/b.tvp":      "in_sub\n",
				"b.tvp":          "at_top\n",
				"libdir/lib.tvp": "L\n",
			},
			path:   []string{"libdir"},
			want:   "in_sub\n\n\nL\n\n",
			toks:   []tokPos{{"in_sub", 0, "sub/b.tvp:1:1"}, {"L", 0, "libdir/lib.tvp:1:1"}},
			files2: []string{"main.tvp", "sub/a.tvp", "sub/b.tvp", "libdir/lib.tvp"}},
		{name: "macros defined in an included file",
			main:  "#include \"m.tvp\"\nTWICE(p)\n",
			files: map[string]string{"m.tvp": "#define TWICE(x) x x\n"},
			want:  "\n\np p\n",
			toks:  []tokPos{{"p", 1, "main.tvp:2:1"}}},
	})
}

// TestPreprocessConditionals: #if and its expressions, #ifdef, #elif,
// #elseif, #warning.
func TestPreprocessConditionals(t *testing.T) {
	checkGood(t, []goodCase{
		{name: "#if with -D values",
			main:    "#if(1 < GNUM)\none\n#endif\n#if(2 < GNUM)\ntwo\n#endif\n#if GNUM > 1 && defined(GNUM) && !defined NOPE\nthree\n#endif\n",
			defines: map[string]string{"GNUM": "2"},
			want:    "\none\n\n\n\n\n\nthree\n\n"},
		{name: "#if: undefined names are 0, C precedence, hex and octal",
			main: "#if UNDEF + 1 == 1 && 1 + 2 * 3 == 7 && 0x10 == 020 && (1 ? 2 : 3) == 2 && -1 < 0 && ~0 == -1 && 7 % 4 == 3 && 1 << 3 == 8 && (6 & 3 | 8 ^ 1) == 11 && 0 || 1\nyes\n#else\nno\n#endif\n",
			want: "\nyes\n\n\n\n"},
		{name: "#if: no division by zero in branches not evaluated",
			main: "#if 0 && 1 / 0\na\n#elif 1 || 1 % 0\nb\n#endif\n#if 1 ? 2 : 1 / 0\nc\n#endif\n",
			want: "\n\n\nb\n\n\nc\n\n"},
		{name: "#elif chain and nesting in skipped text",
			main: "#if 0\n#if 1 / 0\n#foo\n#endif\n#elif 0\nA\n#elif 2\nB\n#else\nC\n#endif\n",
			want: "\n\n\n\n\n\n\nB\n\n\n\n"},
		{name: "#ifdef, #ifndef, #undef",
			main: "#define A\n#ifdef A\na\n#endif\n#undef A\n#ifndef A\nna\n#endif\n",
			want: "\n\na\n\n\n\nna\n\n"},
		{name: "#elseif alone is #else",
			main: "#ifdef NOPE\none\n#elseif\ntwo\n#endif\n",
			want: "\n\n\ntwo\n\n"},
		{name: "#elseif with an expression is #elif",
			main:  "#if 0\none\n#elseif 1\ntwo\n#else\nthree\n#endif\n",
			want:  "\n\n\ntwo\n\n\n\n",
			warns: []string{"main.tvp:3:1: #elseif read as #elif (TVLA 3 reads #elseif as #else and ignores the expression)"}},
		{name: "#warning",
			main:  "#if 1\n#warning \"too many threads\"\n#endif\nx\n",
			want:  "\n\n\nx\n",
			warns: []string{"main.tvp:2:1: #warning \"too many threads\""}},
	})
}

// checkGood preprocesses each case and compares what it gives with what
// the case wants.
func checkGood(t *testing.T, cases []goodCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"main.tvp": c.main}
			for k, v := range c.files {
				files[k] = v
			}
			pp, err := cpp.Preprocess("main.tvp", cpp.Config{Defines: c.defines, SearchPath: c.path, ReadFile: mapFiles(files)})
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if pp.Text() != c.want {
				t.Errorf("text\n got %q\nwant %q", pp.Text(), c.want)
			}
			if len(c.toks) > 0 {
				toks, err := tvp.Lex(pp)
				if err != nil {
					t.Fatalf("lex: %v", err)
				}
				for _, w := range c.toks {
					n := w.n
					found := false
					for _, tk := range toks {
						if tk.Text == w.text || tk.Kind.String() == w.text {
							if n == 0 {
								found = true
								if tk.Pos.String() != w.pos {
									t.Errorf("token %q #%d at %s, want %s", w.text, w.n, tk.Pos, w.pos)
								}
								break
							}
							n--
						}
					}
					if !found {
						t.Errorf("no token %q #%d", w.text, w.n)
					}
				}
			}
			if c.files2 != nil && !slices.Equal(pp.Files(), c.files2) {
				t.Errorf("files %q, want %q", pp.Files(), c.files2)
			}
			var warns []string
			for _, w := range pp.Warnings() {
				warns = append(warns, w.Error())
			}
			if !slices.Equal(warns, c.warns) {
				t.Errorf("warnings %q, want %q", warns, c.warns)
			}
		})
	}
}

func TestPreprocessBad(t *testing.T) {
	cases := []struct {
		name    string
		main    string
		files   map[string]string
		defines map[string]string
		path    []string
		mainAt  string // the main file's path; main.tvp when empty
		want    string
	}{
		{name: "unterminated comment", main: "a\n  /* x\n", want: "main.tvp:2:3: unterminated comment"},
		{name: "unterminated comment after a continuation", main: "a \\\nb /* x\n", want: "main.tvp:2:3: unterminated comment"},
		{name: "unterminated #if", main: "#if 1\n#ifdef A\n#endif\nx\n", want: "main.tvp:1:1: unterminated #if"},
		{name: "unterminated #ifndef in an included file", main: "#include \"i.tvp\"\n#endif\n",
			files: map[string]string{"i.tvp": "a\n  #ifndef X\n"}, want: "i.tvp:2:3: unterminated #ifndef"},
		{name: "#endif without #if", main: "x\n #endif\n", want: "main.tvp:2:2: #endif without #if"},
		{name: "#else without #if", main: "#else\n", want: "main.tvp:1:1: #else without #if"},
		{name: "#elif without #if", main: "#elif 1\n", want: "main.tvp:1:1: #elif without #if"},
		{name: "#else twice", main: "#ifdef A\n#else\n#else\n#endif\n", want: "main.tvp:3:1: #else after #else"},
		{name: "#elif after #else", main: "#if 1\n#else\n# elif 1\n#endif\n", want: "main.tvp:3:1: #elif after #else"},
		{name: "#else after #elseif alone", main: "#if 1\n#elseif\n#else\n#endif\n", want: "main.tvp:3:1: #else after #else"},
		{name: "unknown directive", main: "x\n#foo bar\n", want: "main.tvp:2:1: unknown directive #foo"},
		{name: "unknown directive, not a word", main: "#!x\n", want: "main.tvp:1:1: unknown directive #!x"},
		{name: "missing include file", main: "\n  #include \"x.tvp\"\n", mainAt: "src/main.tvp", path: []string{"lib", "src"},
			want: "src/main.tvp:2:3: cannot find include file \"x.tvp\" (searched: src, lib)"},
		{name: "include without a file name", main: "#include x.tvp\n", want: "main.tvp:1:1: #include expects \"FILE\" or <FILE>"},
		{name: "include cycle", mainAt: "a.tvp", files: map[string]string{"a.tvp": "#include \"b.tvp\"\n", "b.tvp": "x\n#include \"a.tvp\"\n"},
			want: "b.tvp:2:1: include cycle: a.tvp -> b.tvp -> a.tvp"},
		{name: "a file including itself", main: "#include \"./main.tvp\"\n", want: "main.tvp:1:1: include cycle: main.tvp -> main.tvp"},
		{name: "mutual macro recursion", main: "#define FOO(x) BAR(x)\n#define BAR(x) FOO(x)\nstart FOO(1)\n",
			want: "main.tvp:3:7: macro FOO expands recursively: FOO -> BAR -> FOO"},
		{name: "mutual recursion of object-like macros", main: "#define A B\n#define B C\n#define C A\n\n  B\n",
			want: "main.tvp:5:3: macro B expands recursively: B -> C -> A -> B"},
		{name: "wrong argument count", main: "#define F(a, b) a\nF(1)\n", want: "main.tvp:2:1: macro F expects 2 arguments, got 1"},
		{name: "brackets do not group arguments", main: "#define L(a) a\n x L(r[n,x])\n", want: "main.tvp:2:4: macro L expects 1 argument, got 2"},
		{name: "arguments to a macro without parameters", main: "#define F() a\nF(1)\n", want: "main.tvp:2:1: macro F expects 0 arguments, got 1"},
		{name: "unterminated argument list", main: "#define F(a) a\nx F((1)\ny\n", want: "main.tvp:2:3: unterminated argument list invoking macro F"},
		{name: "argument list cut by a directive", main: "#define F(a) a\nF(1\n#define G\n)\n", want: "main.tvp:2:1: unterminated argument list invoking macro F"},
		{name: "bad #if expression", main: "#if (1 2)\n#endif\n", want: "main.tvp:1:8: bad #if expression: unexpected \"2\""},
		{name: "#if expression cut short", main: "#if 1 +\n#endif\n", want: "main.tvp:1:1: bad #if expression: unexpected end of line"},
		{name: "#if with a missing ')'", main: "#if (1\n#endif\n", want: "main.tvp:1:5: bad #if expression: missing ')'"},
		{name: "#if with no expression", main: "#if\n#endif\n", want: "main.tvp:1:1: #if with no expression"},
		{name: "#elif expression", main: "#if 0\n#elif 1 ? 2\n#endif\n", want: "main.tvp:2:1: bad #elif expression: missing ':'"},
		{name: "division by zero in #if", main: "#if 1 / (2 - 2)\n#endif\n", want: "main.tvp:1:7: division by zero in #if"},
		{name: "remainder by zero through a macro", main: "#define Z 0\n#if 1 % Z\n#endif\n", want: "main.tvp:2:7: division by zero in #if"},
		{name: "defined without a name", main: "#if defined\n#endif\n", want: "main.tvp:1:5: operator \"defined\" requires an identifier"},
		{name: "bad integer in #if", main: "#if 08\n#endif\n", want: "main.tvp:1:5: invalid integer constant 08"},
		{name: "#error", main: "#ifndef TNUM\n#error TNUM must be set\n#endif\n", want: "main.tvp:2:1: #error TNUM must be set"},
		{name: "#define without a name", main: "\n#define\n", want: "main.tvp:2:1: #define without a macro name"},
		{name: "#define of a number", main: "#define 1x 2\n", want: "main.tvp:1:9: macro name must be an identifier"},
		{name: "#define defined", main: "#define defined 1\n", want: "main.tvp:1:9: \"defined\" cannot be used as a macro name"},
		{name: "#ifdef without a name", main: "#ifdef\n#endif\n", want: "main.tvp:1:1: #ifdef without a macro name"},
		{name: "bad parameter list", main: "#define F(a b) a\n", want: "main.tvp:1:13: missing ')' in the parameter list of macro F"},
		{name: "duplicate parameter", main: "#define F(a, a) a\n", want: "main.tvp:1:14: duplicate parameter a of macro F"},
		{name: "'#' without a parameter", main: "#define F(a) # b\n", want: "main.tvp:1:14: '#' is not followed by a parameter of macro F"},
		{name: "'##' at the end", main: "#define F(a) a ##\n", want: "main.tvp:1:9: '##' cannot appear at either end of a macro body"},
		{name: "'##' at the start", main: "#define F(a) ## a\n", want: "main.tvp:1:14: '##' cannot appear at either end of a macro body"},
		{name: "error inside an included file", main: "x\n#include \"i.tvp\"\n", files: map[string]string{"i.tvp": "a\n  #bogus\n"},
			want: "i.tvp:2:3: unknown directive #bogus"},
		{name: "bad -D name", main: "x\n", defines: map[string]string{"A B": "1"}, want: "<command line>:1:1: invalid macro name \"A B\" in -D"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mainAt := c.mainAt
			if mainAt == "" {
				mainAt = "main.tvp"
			}
			files := map[string]string{}
			for k, v := range c.files {
				files[k] = v
			}
			if c.main != "" {
				files[mainAt] = c.main
			}
			pp, err := cpp.Preprocess(mainAt, cpp.Config{Defines: c.defines, SearchPath: c.path, ReadFile: mapFiles(files)})
			if err == nil {
				t.Fatalf("no error; text %q", pp.Text())
			}
			var e *cpp.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not a *cpp.Error", err, err)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// Text produced by macros, and the end of the input, map to valid places.
func TestPreprocessPositions(t *testing.T) {
	pp, err := cpp.PreprocessText("m.tvp", "#define F(x) x x\nF(ab)\n", cpp.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if pp.Text() != "\nab ab\n" {
		t.Fatalf("text %q", pp.Text())
	}
	want := []string{"m.tvp:1:17", "m.tvp:2:1", "m.tvp:2:1", "m.tvp:2:1", "m.tvp:2:1", "m.tvp:2:1", "m.tvp:2:6"}
	for i, w := range want {
		if got := pp.PosAt(i).String(); got != w {
			t.Errorf("PosAt(%d) = %s, want %s", i, got, w)
		}
	}
	if got := pp.PosAt(len(pp.Text())).String(); got != "m.tvp:3:1" {
		t.Errorf("PosAt(end) = %s, want m.tvp:3:1", got)
	}
	if got := pp.PosAt(-5).String(); got != "m.tvp:1:17" {
		t.Errorf("PosAt(-5) = %s", got)
	}
	// The Files of PreprocessText name the given file.
	if !slices.Equal(pp.Files(), []string{"m.tvp"}) {
		t.Errorf("files %q", pp.Files())
	}
	// An empty file.
	pp, err = cpp.PreprocessText("e.tvp", "", cpp.Config{})
	if err != nil || pp.Text() != "" || pp.PosAt(0).String() != "e.tvp:1:1" {
		t.Errorf("empty file: %v %q %s", err, pp.Text(), pp.PosAt(0))
	}
}

// The limits stop blow-ups with an error, quickly.
func TestPreprocessLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define A0 x x\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, "#define A%d A%d A%d\n", i, i-1, i-1)
	}
	b.WriteString("A39\n")
	_, err := cpp.PreprocessText("big.tvp", b.String(), cpp.Config{})
	if err == nil || !strings.Contains(err.Error(), "big.tvp:41:1: macro expansion too large") {
		t.Errorf("got %v", err)
	}
	deep := strings.Repeat("#define F(x) x\n", 1) + strings.Repeat("F(", 300) + strings.Repeat(")", 300) + "\n"
	_, err = cpp.PreprocessText("deep.tvp", deep, cpp.Config{})
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v", err)
	}
}

// checkPositions asserts that every offset of pp maps to a valid place.
func checkPositions(t *testing.T, pp *cpp.Preprocessed) {
	t.Helper()
	for off := -1; off <= len(pp.Text()); off++ {
		p := pp.PosAt(off)
		if p.Line < 1 || p.Col < 1 || p.File == "" {
			t.Fatalf("PosAt(%d) = %+v", off, p)
		}
	}
}

var fuzzSeeds = []string{
	"%s PVar {x, y}\n#include \"inc.tvp\"\nforeach (z in PVar) {\n  %p z(v) unique box\n}\n",
	"#define CondAssign(cond,pred,result) pred = ((cond) ? (result) : (pred))\nCondAssign(x(v), y(v), 1/2)\n",
	"#define UPDATE_AT(from,to,trnm)\\\n    at[from](v) = 0\\\n    at[to](v) = 1\n%action a() {\n  UPDATE_AT(l1, l2,\n  t)\n}\n",
	"#if(1 < GNUM)\n%p g2()\n#elif GNUM == 1\n%p g1()\n#else\n#error no\n#endif\n",
	"#ifdef UNBOUND\nsm = { s_t: 1/2 }\n#elseif\nx\n#endif\n",
	"#define PRD(TN) \\\nl_##TN skip() l2_##TN \\\n/* c */ l3_#TN\nPRD(1)\n",
	"#define FOO(x) BAR(x)\n#define BAR(x) FOO(x)\nFOO(1)\n",
	"/* unterminated\n#define x\n",
	"#define S(a) #a\nS(\"q\" r) %message (E(v) x(v)) -> \"msg // not a comment\"\n",
	"#define L(a) a\nL(r[n,x])\nL((r[n,x]))\n",
	"#include \"main.tvp\"\n",
	"#if 1 / 0\n#endif\n#if ((((1)))) ? 2 : (3 << 70) >> -1\n#endif\n",
	"#define x x\n#define y(a) a y\nx y(y(x))\n",
	"a \\\r\n b\r\n#define E\r\nE\r\n\"open string\n",
}

func FuzzPreprocess(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		files := map[string]string{
			"main.tvp":       src,
			"inc.tvp":        "#define INC(a) [a]\n#ifndef GNUM\n#define GNUM 1\n#endif\nINC(x) \\\n y\n",
			"sub/deep.tvp":   "#include \"inc.tvp\"\nz\n",
			"sub/inc.tvp":    "sub\n",
			"loop.tvp":       "#include \"main.tvp\"\n",
			"sub/broken.tvp": "/* open\n",
		}
		cfg := cpp.Config{Defines: map[string]string{"GNUM": "2", "D": "1"}, SearchPath: []string{"sub"}, ReadFile: mapFiles(files)}
		pp, err := cpp.PreprocessText("main.tvp", src, cfg)
		if err != nil {
			var e *cpp.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T", err, err)
			}
			if e.Pos.File == "" || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("error at invalid position: %v", err)
			}
			return
		}
		checkPositions(t, pp)
		tvp.Lex(pp)
	})
}

// Every .tvp of the reference examples, when they are around, preprocesses
// without an internal problem. Some may fail for want of -D macros or
// include folders; those are counted and logged.
func TestPreprocessExamples(t *testing.T) {
	root := "/tmp/tvla-ref/examples"
	if _, err := os.Stat(root); err != nil {
		t.Skip("no reference examples at " + root)
	}
	var ok, failed, lexFailed int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tvp") {
			return err
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v\n%s", path, r, debug.Stack())
				}
			}()
			pp, err := cpp.Preprocess(path, cpp.Config{SearchPath: []string{filepath.Dir(path)}})
			if err != nil {
				var e *cpp.Error
				if !errors.As(err, &e) || e.Pos.File == "" || e.Pos.Line < 1 {
					t.Errorf("%s: internal problem: %v (%T)", path, err, err)
				}
				failed++
				t.Logf("%s: %v", path, err)
				return
			}
			ok++
			for _, off := range []int{0, len(pp.Text()) / 2, len(pp.Text())} {
				if p := pp.PosAt(off); p.Line < 1 || p.Col < 1 || p.File == "" {
					t.Errorf("%s: PosAt(%d) = %+v", path, off, p)
				}
			}
			if _, err := tvp.Lex(pp); err != nil {
				lexFailed++
				t.Logf("%s: lexing the preprocessed text: %v", path, err)
			}
		}()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files preprocess cleanly (%d of them do not lex), %d fail", ok, lexFailed, failed)
}
