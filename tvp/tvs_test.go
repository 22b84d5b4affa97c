package tvp

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// tvsTestVocabulary covers every arity and parameterised names.
func tvsTestVocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	v.MustAdd("b", 0)
	v.MustAdd("c", 0)
	v.MustAdd("x", 1)
	v.MustAdd("y", 1)
	v.MustAdd("r[n,x]", 1)
	v.MustAdd("n", 2)
	v.MustAdd("t[n]", 2)
	v.MustAdd("f", 3)
	v.MustAdd("g", 4)
	return v
}

func parseTVSString(t *testing.T, text string) []TVSLocation {
	t.Helper()
	locs, err := ParseTVS(NewPlainSource("in.tvs", text), tvsTestVocabulary())
	if err != nil {
		t.Fatalf("ParseTVS: %v", err)
	}
	return locs
}

// checkTVSStructure compares a parsed structure with the expected names and
// the expected tvl printing (individuals named u0, u1, ... by number).
func checkTVSStructure(t *testing.T, what string, st TVSStructure, names []string, want string) {
	t.Helper()
	if fmt.Sprint(st.Names) != fmt.Sprint(names) {
		t.Errorf("%s: names %q, want %q", what, st.Names, names)
	}
	if got := st.Structure.String(); got != want {
		t.Errorf("%s: structure\n%s\nwant\n%s", what, got, want)
	}
}

func TestParseTVSValueForms(t *testing.T) {
	in := `// every form of value
%n = {a, b, c}
%p = {
  b = 1/2
  c = 1
  x = {a, b:1/2, c:0}
  r[ n , x ] = {c}
  n = {a->b, b->b:1/2, c - > a:1}
  t[n] = {}
  f = {(a, b, c):1/2, (c,c,a)}
  g = {(a, a, b, c)}
  sm = {b:1/2, a:0}
  y = {a}
  y = {b, a:1} /* the same predicate again: values add up */
}
`
	locs := parseTVSString(t, in)
	if len(locs) != 1 || locs[0].Label != "" || len(locs[0].Structures) != 1 {
		t.Fatalf("got %d locations, want one unlabelled with one structure", len(locs))
	}
	if locs[0].Pos != (Pos{File: "in.tvs", Line: 2, Col: 1}) || locs[0].Structures[0].Pos != (Pos{File: "in.tvs", Line: 2, Col: 1}) {
		t.Errorf("positions %v, %v", locs[0].Pos, locs[0].Structures[0].Pos)
	}
	checkTVSStructure(t, "forms", locs[0].Structures[0], []string{"a", "b", "c"}, `%n = {u0, u1, u2}
%p = {
  b = 1/2
  c = 1
  sm = {u1:1/2}
  x = {u0, u1:1/2}
  y = {u0, u1}
  r[n,x] = {u2}
  n = {u0->u1, u1->u1:1/2, u2->u0}
  f = {(u0, u1, u2):1/2, (u2, u2, u0)}
  g = {(u0, u0, u1, u2)}
}
`)
	// Direct reads of a few values, by predicate.
	s := locs[0].Structures[0].Structure
	voc := s.Vocabulary()
	for _, c := range []struct {
		pred string
		args []int
		want logic.Kleene
	}{
		{"b", nil, logic.Unknown}, {"c", nil, logic.True},
		{"x", []int{0}, logic.True}, {"x", []int{1}, logic.Unknown}, {"x", []int{2}, logic.False},
		{"n", []int{1, 1}, logic.Unknown}, {"n", []int{2, 0}, logic.True}, {"n", []int{0, 0}, logic.False},
		{"t[n]", []int{0, 0}, logic.False},
		{"f", []int{0, 1, 2}, logic.Unknown}, {"f", []int{2, 2, 0}, logic.True}, {"f", []int{0, 0, 0}, logic.False},
		{"g", []int{0, 0, 1, 2}, logic.True},
		{"sm", []int{1}, logic.Unknown}, {"sm", []int{0}, logic.False},
	} {
		if got := s.Get(voc.Lookup(c.pred), c.args...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.pred, c.args, got, c.want)
		}
	}
}

func TestParseTVSStructuresAndNames(t *testing.T) {
	in := `, %n = {}
%p = {}
, %n = {u.1, _0, A, E, $p, [l, [m, k]]}
%p = {
  x = {u.1, A:1/2, [l,[m,k]]}
  n = {E->$p, _0->_0}
}
%n = {a} %p = {b = 0}
`
	locs := parseTVSString(t, in)
	if len(locs) != 1 || len(locs[0].Structures) != 3 {
		t.Fatalf("got %+v", locs)
	}
	sts := locs[0].Structures
	checkTVSStructure(t, "empty", sts[0], []string{}, "%n = {}\n%p = {\n}\n")
	checkTVSStructure(t, "names", sts[1], []string{"u.1", "_0", "A", "E", "$p", "[l,[m,k]]"}, `%n = {u0, u1, u2, u3, u4, u5}
%p = {
  x = {u0, u2:1/2, u5}
  n = {u1->u1, u3->u4}
}
`)
	checkTVSStructure(t, "explicit 0", sts[2], []string{"a"}, "%n = {u0}\n%p = {\n}\n")
	wantPos := []Pos{{File: "in.tvs", Line: 1, Col: 3}, {File: "in.tvs", Line: 3, Col: 3}, {File: "in.tvs", Line: 8, Col: 1}}
	for i, st := range sts {
		if st.Pos != wantPos[i] {
			t.Errorf("structure %d at %v, want %v", i, st.Pos, wantPos[i])
		}
	}
}

func TestParseTVSLocationsMessages(t *testing.T) {
	in := `%location L1 = {
  %message "first"
  %message "second line"
  %n = {a}
  %p = { x = {a} }
  %n = {a, b} %p = { n = {a->b:1/2} },
  %d = {"a description"}
  %n = {} %p = { b = 1 }
}
%location "label with spaces" = {}
%location L1 = { %message "" %n = {} %p = {} }
`
	locs := parseTVSString(t, in)
	if len(locs) != 3 {
		t.Fatalf("got %d locations, want 3", len(locs))
	}
	wantLoc := []struct {
		label string
		n     int
		pos   Pos
	}{{"L1", 3, Pos{File: "in.tvs", Line: 1, Col: 1}}, {"label with spaces", 0, Pos{File: "in.tvs", Line: 10, Col: 1}}, {"L1", 1, Pos{File: "in.tvs", Line: 11, Col: 1}}}
	for i, w := range wantLoc {
		if locs[i].Label != w.label || len(locs[i].Structures) != w.n || locs[i].Pos != w.pos {
			t.Errorf("location %d: %q with %d structures at %v, want %q with %d at %v",
				i, locs[i].Label, len(locs[i].Structures), locs[i].Pos, w.label, w.n, w.pos)
		}
	}
	sts := locs[0].Structures
	if fmt.Sprintf("%q", sts[0].Messages) != `["first" "second line"]` || sts[1].Messages != nil || sts[2].Messages != nil {
		t.Errorf("messages %q %q %q", sts[0].Messages, sts[1].Messages, sts[2].Messages)
	}
	if sts[0].Pos != (Pos{File: "in.tvs", Line: 2, Col: 3}) || sts[2].Pos != (Pos{File: "in.tvs", Line: 7, Col: 3}) {
		t.Errorf("positions %v %v", sts[0].Pos, sts[2].Pos)
	}
	if sts[2].Description != "a description" || sts[0].Description != "" {
		t.Errorf("descriptions %q %q", sts[2].Description, sts[0].Description)
	}
	checkTVSStructure(t, "L1[0]", sts[0], []string{"a"}, "%n = {u0}\n%p = {\n  x = {u0}\n}\n")
	checkTVSStructure(t, "L1[1]", sts[1], []string{"a", "b"}, "%n = {u0, u1}\n%p = {\n  n = {u0->u1:1/2}\n}\n")
	checkTVSStructure(t, "L1[2]", sts[2], []string{}, "%n = {}\n%p = {\n  b = 1\n}\n")
	if m := locs[2].Structures[0].Messages; len(m) != 1 || m[0] != "" {
		t.Errorf("empty message: %q", m)
	}
}

func TestParseTVSEmptyFile(t *testing.T) {
	for _, in := range []string{"", "  // nothing\n/* at all */\n"} {
		locs := parseTVSString(t, in)
		if len(locs) != 1 || locs[0].Label != "" || len(locs[0].Structures) != 0 {
			t.Errorf("%q: got %+v, want one empty unlabelled group", in, locs)
		}
	}
}

func TestParseTVSErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"%n = {a}\n%p = {\n  foo = {a}\n}", "e.tvs:3:3: unknown predicate foo"},
		{"%n = {a}\n%p = { r[n,y] = {a} }", "e.tvs:2:8: unknown predicate r[n,y]"},
		{"%n = {a}\n%p = { n = {a} }", "e.tvs:2:13: predicate n is binary but is given a unary value"},
		{"%n = {a}\n%p = { x = {a, a->a} }", "e.tvs:2:16: predicate x is unary but is given a binary value"},
		{"%n = {a}\n%p = { f = {(a, a)} }", "e.tvs:2:13: predicate f is ternary but is given a binary value"},
		{"%n = {a}\n%p = { g = {(a,a,a)} }", "e.tvs:2:13: predicate g is 4-ary but is given a ternary value"},
		{"%n = {a}\n%p = { x = 1 }", "e.tvs:2:12: predicate x is unary but is given a nullary value"},
		{"%n = {a}\n%p = { b = {a} }", "e.tvs:2:13: predicate b is nullary but is given a unary value"},
		{"%n = {a, b}\n%p = { n = {a->c} }", "e.tvs:2:16: unknown individual c"},
		{"%n = {a, b, a}\n%p = {}", "e.tvs:1:13: individual a declared twice (first at 1:7)"},
		{"%n = {a}\n%p = {\n  x = {a:1}\n  x = {a:1/2}\n}", "e.tvs:4:8: conflicting values for x(a): 1 and 1/2"},
		{"%n = {a}\n%p = { b = 1 b = 0 }", "e.tvs:2:18: conflicting values for b: 1 and 0"},
		{"%n = {a}\n%p = { sm = {a:1} }", "e.tvs:2:16: the summary predicate sm can be 0 or 1/2 but is given 1 for a"},
		{"%n = {a}\n%p = { sm = {a} }", "e.tvs:2:14: the summary predicate sm can be 0 or 1/2 but is given 1 for a"},
		{"%n {a}\n%p = {}", "e.tvs:1:4: expected '=' after %n, found '{'"},
		{"%n = a\n%p = {}", "e.tvs:1:6: expected '{' after %n =, found identifier \"a\""},
		{"%n = {a}\n%p = { x = {a}", "e.tvs:2:15: unexpected end of input: the '{' of %p at 2:6 is not closed"},
		{"%n = {a}\n%p = { x = {a", "e.tvs:2:14: unexpected end of input: the '{' of the value of x at 2:12 is not closed"},
		{"%n = {a}\n", "e.tvs:2:1: expected %p after the universe, found end of input"},
		{"%location L = {\n %n = {} %p = {}\n", "e.tvs:3:1: unexpected end of input: the '{' of %location L at 1:15 is not closed"},
		{"%n = {a}\n%p = { x = {a b} }", "e.tvs:2:15: expected ',' or '}' in the value of x, found identifier \"b\""},
		{"%n = {a}\n%p = { x = {a:2} }", "e.tvs:2:15: expected a value (0, 1, 1/2) after ':', found number 2"},
		{"%n = {a}\n%p = { b = x }", "e.tvs:2:12: expected a value (0, 1, 1/2) or '{' after b =, found identifier \"x\""},
		{"%n = {1}\n%p = {}", "e.tvs:1:7: expected an individual's name, found '1'"},
		{"%t = {t1(main)}\n%n = {}\n%p = {}", "e.tvs:1:1: 3VMC thread declarations (%t) are not supported"},
		{"%n = {}\n%p = {}\n%a = (s0)\n", "e.tvs:3:1: 3VMC automaton initialisations (%a) are not supported"},
		{"%n = {}\n%p = {}\n%location L = {}", "e.tvs:3:1: %location after structures outside any location: a file lists either structures or %location groups"},
		{"%n = {}\n%p = {},\n", "e.tvs:3:1: expected a structure after ',', found end of input"},
		{"%location L = {}\n%n = {} %p = {}", "e.tvs:2:1: expected %location or end of input, found '%n'"},
		{"%location = {}", "e.tvs:1:11: expected a location label (identifier or string), found '='"},
		{"%message first\n%n = {} %p = {}", "e.tvs:1:10: expected a string after %message, found identifier \"first\""},
		{"%message \"unterminated\n%n = {} %p = {}", "e.tvs:1:10: unterminated string"},
		{"%d = {description}\n%n = {} %p = {}", "e.tvs:1:7: expected a string in %d, found identifier \"description\""},
		{"%p = {}", "e.tvs:1:1: expected %n, found '%p'"},
		{"%n = {a}\n%p = { 1 }", "e.tvs:2:8: expected a predicate name or '}', found '1'"},
		{"%n = {a}\n%p = { r[] = {a} }", "e.tvs:2:10: expected a predicate name, found ']'"},
		{"%n = {a}\n%p = { f = {(a, a, a} }", "e.tvs:2:21: expected ',' or ')' in a tuple, found '}'"},
		{"%n = {a,}\n%p = {}", "e.tvs:1:9: expected an individual's name, found '}'"},
		{"%n = {" + strings.Repeat("[", 200) + "a" + strings.Repeat("]", 200) + "}\n%p = {}", "e.tvs:1:107: names nested more than 100 deep"},
		{"%n = {}\n%p = { r" + strings.Repeat("[r", 150) + "}", "e.tvs:2:209: names nested more than 100 deep"},
	}
	for _, c := range cases {
		_, err := ParseTVS(NewPlainSource("e.tvs", c.in), tvsTestVocabulary())
		var perr *Error
		if err == nil {
			t.Errorf("%q: no error, want %s", c.in, c.want)
		} else if !errors.As(err, &perr) {
			t.Errorf("%q: error %v is not an *Error", c.in, err)
		} else if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, err, c.want)
		}
	}
}

// Writing structures and reading them back gives equal structures, in the
// same order, with the same labels, messages and names.
func TestWriteParseTVSRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	voc := testgen.Vocabulary()
	nameSets := [][]string{nil, {"a", "b", "c", "d", "e", "f"}, {"_5", "_4", "_3", "_2", "_1", "_0"}, {"u.1", "A", "$x", "E", "TC", "n.0"}}
	messages := []string{"", "Illegal dereference to n component of elem", "x may be null", "it's 50% done"}
	labels := []string{"L1", "exit", "label with spaces", "", "l.2$"}
	const total = 1000
	made := 0
	for round := 0; made < total; round++ {
		var locs []TVSLocation
		nloc := r.IntN(3) + 1
		for l := 0; l < nloc && made < total; l++ {
			loc := TVSLocation{Label: labels[r.IntN(len(labels))]}
			if nloc == 1 && r.IntN(2) == 0 {
				loc.Label = ""
			}
			for k := r.IntN(4); k > 0 && made < total; k-- {
				n := r.IntN(7)
				st := TVSStructure{Structure: testgen.Structure(r, voc, n, r.IntN(4) == 0)}
				if names := nameSets[r.IntN(len(nameSets))]; names != nil {
					st.Names = names[:n]
				}
				for m := r.IntN(3); m > 0; m-- {
					st.Messages = append(st.Messages, messages[r.IntN(len(messages))])
				}
				if r.IntN(5) == 0 {
					st.Description = "structure " + fmt.Sprint(made)
				}
				loc.Structures = append(loc.Structures, st)
				made++
			}
			locs = append(locs, loc)
		}
		var buf bytes.Buffer
		if err := WriteTVS(&buf, locs); err != nil {
			t.Fatalf("round %d: WriteTVS: %v", round, err)
		}
		back, err := ParseTVS(NewPlainSource("rt.tvs", buf.String()), voc)
		if err != nil {
			t.Fatalf("round %d: %v in\n%s", round, err, buf.String())
		}
		if len(back) != len(locs) {
			t.Fatalf("round %d: %d locations, want %d\n%s", round, len(back), len(locs), buf.String())
		}
		for i := range locs {
			a, b := locs[i], back[i]
			if a.Label != b.Label || len(a.Structures) != len(b.Structures) {
				t.Fatalf("round %d, location %d: %q with %d structures, want %q with %d",
					round, i, b.Label, len(b.Structures), a.Label, len(a.Structures))
			}
			for j := range a.Structures {
				x, y := a.Structures[j], b.Structures[j]
				if !tvl.Equal(x.Structure, y.Structure) {
					t.Fatalf("round %d: structure %d/%d differs:\n%s\nread back as\n%s", round, i, j, x.Structure, y.Structure)
				}
				if fmt.Sprintf("%q", x.Messages) != fmt.Sprintf("%q", y.Messages) || x.Description != y.Description {
					t.Fatalf("round %d: structure %d/%d: messages %q %q, want %q %q", round, i, j, y.Messages, y.Description, x.Messages, x.Description)
				}
				if x.Names != nil && fmt.Sprint(x.Names) != fmt.Sprint(y.Names) {
					t.Fatalf("round %d: structure %d/%d: names %q, want %q", round, i, j, y.Names, x.Names)
				}
			}
		}
	}
}

func TestWriteTVSFormat(t *testing.T) {
	voc := tvsTestVocabulary()
	locs := parseTVSString(t, `%location L1 = {
  %message "null dereference"
  %n = {_1, _0}
  %p = { sm = {_1:1/2} x = {_0} n = {_0->_1:1/2} b = 1 f = {(_0, _1, _0)} }
}
%location "after loop" = { %n = {} %p = {} }
`)
	var buf bytes.Buffer
	if err := WriteTVS(&buf, locs); err != nil {
		t.Fatal(err)
	}
	want := `%location L1 = {
  %message "null dereference"
  %n = {_1, _0}
  %p = {
    b = 1
    sm = {_1:1/2}
    x = {_0}
    n = {_0->_1:1/2}
    f = {(_0, _1, _0)}
  }
}

%location "after loop" = {
  %n = {}
  %p = {
  }
}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}

	// Bare structures; names that are not identifiers, or repeated, fall
	// back to u0, u1, ...
	s := tvl.New(voc)
	s.AddIndividual()
	s.AddIndividual()
	s.Set(voc.Lookup("x"), logic.True, 1)
	buf.Reset()
	err := WriteTVS(&buf, []TVSLocation{{Structures: []TVSStructure{
		{Structure: s, Names: []string{"a b", "c"}},
		{Structure: s, Names: []string{"c", "c"}},
		{Structure: s, Names: []string{"p", "q"}, Description: "two"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	want = `%n = {u0, u1}
%p = {
  x = {u1}
}

%n = {u0, u1}
%p = {
  x = {u1}
}

%d = {"two"}
%n = {p, q}
%p = {
  x = {q}
}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}

	// Text TVS cannot quote.
	for _, bad := range []TVSLocation{
		{Label: `say "hi"`},
		{Label: "L", Structures: []TVSStructure{{Structure: s, Messages: []string{"two\nlines"}}}},
		{Label: "L", Structures: []TVSStructure{{Structure: s, Description: `"`}}},
		{Label: "L", Structures: []TVSStructure{{}}},
	} {
		if err := WriteTVS(&buf, []TVSLocation{bad}); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func FuzzParseTVS(f *testing.F) {
	for _, seed := range []string{
		"",
		"%n = {a, b}\n%p = { b = 1/2 x = {a, b:1/2} n = {a->b:1} f = {(a,b,a)} sm = {b:1/2} }",
		"%location L = { %message \"m\" %n = {} %p = {} , %d = {\"d\"} %n = {a} %p = {r[n,x] = {a}} }",
		"%location \"s\" = {}",
		", %n = {[a,[b]]} %p = { t[n] = {[a,[b]]->[a,[b]]} g = {(  [a,[b]],[a,[b]],[a,[b]],[a,[b]] )} }",
		"%t = {} %n = {} %p = {} %a = s",
		"%n = {a a} %p = {",
		"%n = {a}\n%p = { x = {a:1}, x = {a:0} }",
	} {
		f.Add(seed)
	}
	voc := tvsTestVocabulary()
	f.Fuzz(func(t *testing.T, in string) {
		locs, err := ParseTVS(NewPlainSource("fuzz.tvs", in), voc)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		// What parses can be written and read back.
		var buf bytes.Buffer
		if err := WriteTVS(&buf, locs); err != nil {
			return // e.g. a message with a quote cannot be written
		}
		back, err := ParseTVS(NewPlainSource("back.tvs", buf.String()), voc)
		if err != nil {
			t.Fatalf("written output does not parse: %v\n%s", err, buf.String())
		}
		if len(back) != len(locs) && !(len(locs) == 0 && len(back) == 1) {
			t.Fatalf("%d locations read back as %d", len(locs), len(back))
		}
		for i := range locs {
			if len(back[i].Structures) != len(locs[i].Structures) {
				t.Fatalf("location %d: %d structures read back as %d", i, len(locs[i].Structures), len(back[i].Structures))
			}
			for j := range locs[i].Structures {
				if !tvl.Equal(locs[i].Structures[j].Structure, back[i].Structures[j].Structure) {
					t.Fatalf("structure %d/%d differs after a round trip", i, j)
				}
			}
		}
	})
}

// tvsStripDirectives stands in for the C preprocessor on the example files:
// it blanks directive lines (keeping line numbers) and keeps the first
// branch of every conditional, dropping #else parts.
func tvsStripDirectives(text string) string {
	lines := strings.Split(text, "\n")
	var active []bool // per open conditional: is the current branch kept
	kept := func() bool {
		for _, a := range active {
			if !a {
				return false
			}
		}
		return true
	}
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		if !strings.HasPrefix(trim, "#") {
			if !kept() {
				lines[i] = ""
			}
			continue
		}
		word := strings.TrimLeft(trim[1:], " \t")
		switch {
		case strings.HasPrefix(word, "if"):
			active = append(active, true)
		case strings.HasPrefix(word, "el"):
			if len(active) > 0 {
				active[len(active)-1] = false
			}
		case strings.HasPrefix(word, "endif"):
			if len(active) > 0 {
				active = active[:len(active)-1]
			}
		}
		lines[i] = ""
	}
	return strings.Join(lines, "\n")
}

// inferTVSVocabulary reads src for syntax only and declares every
// predicate it names, with the arity its values use.
func inferTVSVocabulary(src Source) (*tvl.Vocabulary, error) {
	toks, err := Lex(src)
	if err != nil {
		return nil, err
	}
	arity := map[string]int{}
	var order []string
	var clash error
	p := &tvsParser{toks: toks, onLocation: func(string, Pos) {}}
	p.onStructure = func(ast *tvsStructAST) error {
		for _, pv := range ast.preds {
			k := -1
			switch {
			case pv.nullary:
				k = 0
			case len(pv.entries) > 0:
				k = len(pv.entries[0].args)
			}
			old, seen := arity[pv.pred.text]
			if !seen {
				order = append(order, pv.pred.text)
				arity[pv.pred.text] = k
			} else if old < 0 {
				arity[pv.pred.text] = k
			} else if k >= 0 && k != old && clash == nil {
				clash = &Error{Pos: pv.pred.pos, Msg: fmt.Sprintf("predicate %s used with arities %d and %d", pv.pred.text, old, k)}
			}
		}
		return nil
	}
	if err := p.file(); err != nil {
		return nil, err
	}
	if clash != nil {
		return nil, clash
	}
	voc := tvl.NewVocabulary()
	for _, name := range order {
		if name == tvl.SummaryName {
			continue
		}
		k := arity[name]
		if k < 0 {
			k = 1 // only ever given {}: any arity reads it
		}
		voc.MustAdd(name, k)
	}
	return voc, nil
}

// Every TVS file of the reference distribution's examples parses, except
// those using the 3VMC extensions.
func TestParseTVSExampleCorpus(t *testing.T) {
	root := "/tmp/tvla-ref/examples"
	if _, err := os.Stat(root); err != nil {
		t.Skip("no reference examples at " + root)
	}
	var files []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		// Running the reference leaves its trace dumps (NAME.out.tvs) next
		// to the examples; they are its output, not distributed inputs.
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tvs") && !strings.HasSuffix(path, ".out.tvs") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	// Files that are wrong as distributed (TVLA rejects them too).
	broken := map[string]string{
		// A typo, "tThree-tThree", in a branch taken when GNUM > 2.
		"decomposition/linearization_nbq/nbq-general.tvs": "found '-'",
		// Names individuals and predicates it never declares.
		"decomposition/nonblock_stack/stack.tvs": "unknown individual producer1",
	}
	ok, unsupported, bad, structures := 0, 0, 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src := NewPlainSource(file, tvsStripDirectives(string(data)))
		voc, err := inferTVSVocabulary(src)
		if err == nil {
			var locs []TVSLocation
			locs, err = ParseTVS(src, voc)
			for _, l := range locs {
				structures += len(l.Structures)
			}
		}
		switch {
		case err == nil:
			ok++
		case strings.Contains(err.Error(), "3VMC"):
			unsupported++
			t.Logf("unsupported: %v", err)
		case broken[strings.TrimPrefix(file, root+"/")] != "" && strings.Contains(err.Error(), broken[strings.TrimPrefix(file, root+"/")]):
			bad++
			t.Logf("broken as distributed: %v", err)
		default:
			t.Errorf("%v", err)
		}
	}
	t.Logf("%d TVS files: %d parse (%d structures), %d use 3VMC extensions, %d are broken as distributed",
		len(files), ok, structures, unsupported, bad)
}
