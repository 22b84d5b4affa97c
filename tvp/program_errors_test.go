package tvp

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// A broken program and the exact errors it must produce, every line
// file:line:col: message, in order.
type programErrorCase struct {
	name  string
	main  string            // main.tvp
	files map[string]string // other files, for #include
	// plain parses main with ParseProgram, without preprocessing, as
	// the fuzz target does.
	plain bool
	want  string
}

var programErrorCases = []programErrorCase{
	// ---- lexical errors
	{name: "unterminated comment (preprocessor)",
		main: "%p x(v)\n/* no end\n%%\n%%\n",
		want: `main.tvp:2:1: unterminated comment`},
	{name: "unterminated comment (lexer)", plain: true,
		main: "%p x(v)\n%%\n%%\nL1 /* no end\n",
		want: `main.tvp:4:4: unterminated comment`},
	{name: "illegal character",
		main: "%p x(v)\n%p y(v) @ unique\n%%\n%%\n",
		want: `main.tvp:2:9: illegal character '@'`},
	{name: "unterminated string",
		main: "%p x(v)\n%%\n%action Skip() {\n  %t \"skip\n}\n%%\nL1 Skip() L2\n",
		want: `main.tvp:4:6: unterminated string`},

	// ---- sections
	{name: "missing %% at the end of the declarations",
		main: "%p x(v)\n%p n(v1, v2) function\n",
		want: `main.tvp:3:1: missing %%: the program ends inside the declarations section`},
	{name: "missing %% before the actions",
		main: "%p x(v)\n%action Skip() {}\n%%\nL1 Skip() L2\n",
		want: `main.tvp:2:1: expected %% before the actions section, found '%action'`},
	{name: "missing %% at the end of the actions",
		main: "%p x(v)\n%%\n%action Skip() {}\n",
		want: `main.tvp:4:1: missing %%: the program ends inside the actions section`},
	{name: "missing %% before the control-flow graph",
		main: "%p x(v)\n%%\n%action Skip() {}\nL1 Skip() L2\n",
		want: `main.tvp:4:1: expected %% before the control-flow graph, found identifier "L1"`},
	{name: "missing %% before the locations to print",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2\nL1, L2\n",
		want: `main.tvp:6:3: expected an action name, found ',' (locations to print go after a %% line)`},
	{name: "a lone % among the declarations",
		main: "%p x(v)\n% x\n%%\n%%\n",
		want: `main.tvp:2:1: expected %% (a lone % is not a declaration)`},

	// ---- braces
	{name: "foreach body never closed",
		main: "%s S {x, y}\nforeach (p in S) {\n  %p p(v)\n%%\n%%\n",
		want: `main.tvp:2:18: missing '}': foreach body opened here is never closed`},
	{name: "foreach body not closed before %%",
		main: "%s S {x, y}\nforeach (p in S) {\n  %p p(v)\n%%\n%%\n}\n",
		want: `main.tvp:4:1: missing '}': foreach body not closed before %%`},
	{name: "action body never closed",
		main: "%p x(v)\n%%\n%action Skip() {\n  %t \"skip\"\n%%\nL1 Skip() L2\n",
		want: `main.tvp:3:16: missing '}': the body of action Skip is not closed before %%`},
	{name: "update block not closed",
		main: "%p x(v)\n%%\n%action Clear() {\n  {\n    x(v) = 0\n}\n%action Skip() {}\n%%\nL1 Clear() L2\n",
		want: `main.tvp:3:17: missing '}': the body of action Clear is not closed before the next %action`},
	{name: "update block not closed, its action closed by a stray brace",
		main: "%p x(v)\n%%\n%action Clear() {\n  {\n    x(v) = 0\n}\n%%\nL1 Clear() L2\n}\n",
		want: `main.tvp:3:17: missing '}': the body of action Clear is not closed before %%
main.tvp:9:1: unbalanced '}' in the control-flow graph`},
	{name: "stray } among the declarations",
		main: "%p x(v)\n}\n%%\n%%\n",
		want: `main.tvp:2:1: unbalanced '}' among the declarations`},
	{name: "stray } among the actions",
		main: "%p x(v)\n%%\n%action Skip() {}\n}\n%%\nL1 Skip() L2\n",
		want: `main.tvp:4:1: unbalanced '}' among the action definitions`},
	{name: "stray } in the control-flow graph",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2\n}\n",
		want: `main.tvp:6:1: unbalanced '}' in the control-flow graph`},

	// ---- declarations
	{name: "unknown properties and properties on the wrong arity",
		main: "%p x(v) pointer fast\n%p y(v) function\n%p n(v1, v2) unique acyclic\n%p z(v) abs nonabs\n%p w(v) lonely(x)\n%%\n%%\n",
		want: `main.tvp:1:17: unknown property fast (known: abs, acyclic, antireflexive, antisymmetric, box, function, invfunction, nonabs, pointer, reflexive, symmetric, transitive, unique, uniquePerCC)
main.tvp:2:9: property function needs a predicate of arity 2, not 1
main.tvp:3:14: property unique needs a predicate of arity 1, not 2
main.tvp:4:13: a predicate cannot be both abs and nonabs
main.tvp:5:9: unknown property lonely(...) (known: abs, acyclic, antireflexive, antisymmetric, box, function, invfunction, nonabs, pointer, reflexive, symmetric, transitive, unique, uniquePerCC)`},
	{name: "bad display hint",
		main: "%p x(v) {1, 2}\n%%\n%%\n",
		want: `main.tvp:1:13: expected 0, 1 or 1/2 in a display hint, found number 2`},
	{name: "predicate declared twice, built-ins declared",
		main: "%p x(v)\n%p n(v1, v2)\n%i x(v) = 0\n%p sm(v)\n%p isNew(v)\n%p n(a, b)\n%%\n%%\n",
		want: `main.tvp:3:4: predicate x already declared at main.tvp:1:4
main.tvp:4:4: predicate sm is built in and cannot be declared
main.tvp:5:4: predicate isNew is built in and cannot be declared
main.tvp:6:4: predicate n already declared at main.tvp:2:4`},
	{name: "a variable twice in a declaration",
		main: "%p n(v, v)\n%%\n%%\n",
		want: `main.tvp:1:4: predicate n: variable v appears twice in its declaration`},
	{name: "undeclared predicates and wrong arities in definitions",
		main: "%p x(v)\n%p n(v1, v2)\n%i r(v) = E(a) (x(a) & n*(a, v) & q(a))\n%i s(v) = x(v, v) | n(v) | x+(v, v)\n%%\n%%\n",
		want: `main.tvp:3:35: undeclared predicate q
main.tvp:4:11: predicate x has arity 1 but is applied to 2 arguments
main.tvp:4:21: predicate n has arity 2 but is applied to 1 argument
main.tvp:4:28: predicate x has arity 1 but is applied to 2 arguments`},
	{name: "unbound variables in a definition",
		main: "%p x(v)\n%p n(v1, v2)\n%i r(v) = E(a) (x(a) & n(a, b)) | x(w)\n%i t(v) = TC(a, b)(c, d) n(c, d)\n%%\n%%\n",
		want: `main.tvp:3:24: unbound variable b in the definition of r
main.tvp:3:35: unbound variable w in the definition of r
main.tvp:4:11: unbound variable a in the definition of t
main.tvp:4:11: unbound variable b in the definition of t`},
	{name: "instrumentation predicates defined in a cycle",
		main: "%p x(v)\n%i a(v) = b(v) | x(v)\n%i b(v) = c(v)\n%i c(v) = a(v)\n%i d(v) = !d(v)\n%%\n%%\n",
		want: `main.tvp:2:4: instrumentation predicates defined in a cycle: a -> b -> c -> a
main.tvp:5:4: instrumentation predicates defined in a cycle: d -> d`},
	{name: "consistency rules",
		main: "%p x(v)\n%p y(v)\n%r x(v) ==> z(v)\n%r x(v) ==> x(v) & y(v)\n%r E(v) x(v) ==> !y(v) | x(v)\n%r !x(v) ==> !q(v)\n%%\n%%\n",
		want: `main.tvp:3:13: undeclared predicate z
main.tvp:4:13: the head of a consistency rule must be a predicate, an equality, a constant or the negation of one, not x(v) & y(v)
main.tvp:5:18: the head of a consistency rule must be a predicate, an equality, a constant or the negation of one, not !y(v) | x(v)
main.tvp:6:15: undeclared predicate q`},
	{name: "consistency rule without ==>",
		main: "%p x(v)\n%p y(v)\n%r x(v) -> y(v)\n%%\n%%\n",
		want: `main.tvp:4:1: expected '==>' of a consistency rule, found '%'`},
	{name: "global focus and messages",
		main: "%p x(v)\n%f { x(v), q(v) }\n%message (E(v) r(v)) -> \"r\" + x\n%%\n%action Skip() {}\n%action Skip2() {}\n%%\nL1 Skip() L2\nL2 Skip2() L3\n",
		want: `main.tvp:2:12: undeclared predicate q
main.tvp:3:16: undeclared predicate r`},
	{name: "uniquePerCC of an undeclared predicate",
		main: "%p n(v1, v2) uniquePerCC(m)\n%%\n%%\n",
		want: `main.tvp:1:4: uniquePerCC(m) of n names an undeclared predicate`},

	// ---- sets
	{name: "set used before its declaration",
		main: "%p x(v)\n%s S T + {x}\n%s T {x}\n%%\n%%\n",
		want: `main.tvp:2:6: set T is not declared (declare it with %s before its use)`},
	{name: "foreach over an undeclared set",
		main: "foreach (p in Vars) {\n  %p p(v)\n}\n%s Vars {x}\n%%\n%%\n",
		want: `main.tvp:1:15: set Vars is not declared (declare it with %s before its use)`},
	{name: "comprehension over an undeclared set",
		main: "%s S {x}\n%s R {r[p], t[p] : p in T}\n%%\n%%\n",
		want: `main.tvp:2:25: set T is not declared (declare it with %s before its use)`},
	{name: "comprehension without 'in'",
		main: "%s S {x}\n%s R {r[p] : p S}\n%%\n%%\n",
		want: `main.tvp:2:16: expected 'in', found identifier "S"`},
	{name: "composite formula without ': x in S'",
		main: "%s S {x}\n%p x(v)\n%i any() = |/{ E(v) x(v) }\n%%\n%%\n",
		want: `main.tvp:3:14: composite formula without ': x in SET'`},
	{name: "composite formula over an undeclared set",
		main: "%p x(v)\n%i any() = &/{ E(v) p(v) : p in Vars }\n%%\n%%\n",
		want: `main.tvp:2:33: set Vars is not declared (declare it with %s before its use)`},

	// ---- messages
	{name: "%message without ->",
		main: "%p x(v)\n%message E(v) x(v) \"x is set\"\n%%\n%%\n",
		want: `main.tvp:2:20: expected '->' and the text of %message, found string "x is set"`},
	{name: "%message whose formula ends at the ->",
		main: "%p x(v)\n%message E(v) x(v) & -> \"x is set\"\n%%\n%%\n",
		want: `main.tvp:2:22: expected a formula, found '->'`},
	{name: "%message without a text after ->",
		main: "%p x(v)\n%%\n%action Skip() {\n  %message E(v) x(v) ->\n}\n%%\nL1 Skip() L2\n",
		want: `main.tvp:5:1: expected a message (a string or a predicate name), found '}'`},

	// ---- actions
	{name: "A is a reserved word",
		main: "%p x(v)\n%%\n%action A() {}\n%%\nL1 A() L2\n",
		want: `main.tvp:3:9: expected the action's name, found reserved word 'A'`},
	{name: "clauses in the wrong order",
		main: "%p x(v)\n%%\n%action Test() {\n  %p E(v) x(v)\n  %f { x(v) }\n}\n%%\nL1 Test() L2\n",
		want: `main.tvp:5:3: unexpected '%f' in the body of action Test (clauses go in the order %t %f %p %message %new %clone {updates} %retain %message)`},
	{name: "undeclared predicates in an action",
		main: "%p x(v)\n%%\n%action Act() {\n  %t \"act \" + y\n  %f { x(v), f(v) }\n  %p E(v) p(v)\n  %message E(v) m(v) -> \"m\"\n  {\n    x(v) = u(v)\n  }\n  %retain !r(v)\n}\n%%\nL1 Act() L2\n",
		want: `main.tvp:5:14: undeclared predicate f
main.tvp:6:11: undeclared predicate p
main.tvp:7:17: undeclared predicate m
main.tvp:9:12: undeclared predicate u
main.tvp:11:12: undeclared predicate r`},
	{name: "updates: undeclared, repeated variable, wrong arity, sm, unbound",
		main: "%p x(v)\n%p n(v1, v2)\n%%\n%action Act() {\n  {\n    y(v) = 0\n    n(v, v) = 0\n    x(v1, v2) = 1\n    sm(v) = 0\n    x(v) = n(v, w)\n  }\n}\n%%\nL1 Act() L2\n",
		want: `main.tvp:6:5: update of undeclared predicate y
main.tvp:7:5: variable v appears twice on the left of an update
main.tvp:8:5: predicate x has arity 1 but its update has 2 variables
main.tvp:9:5: the summary predicate sm cannot be updated
main.tvp:10:12: unbound variable w in the update of x`},
	{name: "one unbound variable, used twice in a foreach body of three members, is one error (issue 19)",
		main: "%s S {a, b, c}\nforeach (p in S) {\n  %p p(v)\n}\n%p x(v)\n%%\n%action Set() {\n  { foreach (p in S) { p(v) = x(w) & x(w) } }\n}\n%%\nL1 Set() L2\n",
		want: `main.tvp:8:31: unbound variable w in the update of a`},
	{name: "one unbound variable used four times in a definition is one error (issue 19)",
		main: "%p x(v)\n%p n(v1, v2)\n%i r(v) = x(w) & x(w) & n(w, v) & w == v\n%%\n%%\n",
		want: `main.tvp:3:11: unbound variable w in the definition of r`},
	{name: "errors that depend on the arguments",
		main: "%s Vars {x, y}\nforeach (p in Vars) {\n  %p p(v)\n}\n%%\n%action Copy(lhs, rhs) {\n  %t lhs + \" = \" + rhs\n  {\n    lhs(v) = rhs(v)\n  }\n}\n%%\nL1 Copy(x, z) L2\nL2 Copy(q, y) L3\nL3 Copy(x, z) L4\n",
		want: `main.tvp:9:5: update of undeclared predicate q (in Copy(q, y), used at main.tvp:14:4)
main.tvp:9:14: undeclared predicate z (in Copy(x, z), used at main.tvp:13:4)`},
	{name: "%new with two free variables",
		main: "%p x(v)\n%p n(v1, v2)\n%%\n%action New() {\n  %new n(a, b)\n}\n%%\nL1 New() L2\n",
		want: `main.tvp:5:8: the %new formula of action New must have one free variable, has 2: a, b`},
	{name: "transitive closure with three variables",
		main: "%p n(v1, v2)\n%i r(v1, v2) = TC(v1, v2, v3)(a, b) n(a, b)\n%%\n%%\n",
		want: `main.tvp:2:18: expected two variables, found 3`},

	{name: "expansion out of bounds",
		main: "%s S {a}\n" + strings.Repeat("%s S {x[p, p] : p in S}\n", 30) + "%%\n%%\n",
		want: `main.tvp:19:7: the program is too large once foreach, set comprehensions, composite formulas and actions are expanded (more than 4194304 tokens, name bytes and set members)`},

	// ---- control-flow graph
	{name: "unknown action, wrong numbers of arguments",
		main: "%p x(v)\n%%\n%action Set(p) {}\n%%\nL1 Sit(x) L2\nL2 Set() L3\nL3 Set(x, x) L4\n",
		want: `main.tvp:5:4: unknown action Sit
main.tvp:6:4: action Set takes 1 argument, given 0
main.tvp:7:4: action Set takes 1 argument, given 2`},
	{name: "edge missing its target at the end",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2\nL2 Skip()\n",
		want: `main.tvp:7:1: expected the target location of the edge (a name or a quoted string), found end of input`},
	{name: "extra token after an edge, more edges follow (issue 19)",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2 junk\nL2 Skip() L3\n",
		want: `main.tvp:5:14: unexpected identifier "junk" after the edge ending in L2 (an edge is written FROM Action(args) TO)`},
	{name: "extra token after the last edge (issue 19)",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2 junk\n",
		want: `main.tvp:5:14: unexpected identifier "junk" after the edge ending in L2 (an edge is written FROM Action(args) TO)`},
	{name: "missing } at the end of an included file (issue 19)",
		main:  "%p x(v)\n#include \"inc.tvp\"\n%%\n%%\n",
		files: map[string]string{"inc.tvp": "%s S {a, b\n"},
		want:  `inc.tvp:1:10: expected ',' or '}' before the end of inc.tvp, found '%' at main.tvp:3:1`},
	{name: "missing ) at the end of an included file, the includer ending there (issue 19)",
		main:  "%p x(v)\n#include \"inc.tvp\"\n",
		files: map[string]string{"inc.tvp": "%i r(v) = E(w) (x(w)\n"},
		want:  `inc.tvp:1:20: expected ')' before the end of inc.tvp, found end of input at main.tvp:3:1`},
	{name: "edge missing its target in the middle",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip()\nL2 Skip() L3\n",
		want: `main.tvp:6:4: expected a location before the action Skip (an edge is written FROM Action(args) TO)`},
	{name: "bad locations to print",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2\n%%\nL1, L3, \"L2\", L4\n",
		want: `main.tvp:7:5: location L3 to print is not in the control-flow graph
main.tvp:7:15: location L4 to print is not in the control-flow graph`},
	{name: "not a location to print",
		main: "%p x(v)\n%%\n%action Skip() {}\n%%\nL1 Skip() L2\n%%\nL1 (L2)\n",
		want: `main.tvp:7:4: expected a location to print (a name or a quoted string), found '('`},

	// ---- preprocessing and includes
	{name: "macro recursion",
		main: "#define P Q(v)\n#define Q(a) P\n%p P\n%%\n%%\n",
		want: `main.tvp:3:4: macro P expands recursively: P -> Q -> P`},
	{name: "include cycle",
		main:  "#include \"a.tvp\"\n%%\n%%\n",
		files: map[string]string{"a.tvp": "%p x(v)\n#include \"b.tvp\"\n", "b.tvp": "#include \"a.tvp\"\n"},
		want:  `b.tvp:1:1: include cycle: a.tvp -> b.tvp -> a.tvp`},
	{name: "include of a missing file",
		main: "%p x(v)\n#include \"preds.tvp\"\n%%\n%%\n",
		want: `main.tvp:2:1: cannot find include file "preds.tvp" (searched: .)`},
	{name: "errors inside included files and macros",
		main: "#define DECL(p) %p p(v) unique pointr\n%s Vars {x, y}\n#include \"preds.tvp\"\n%%\n#include \"actions.tvp\"\n%%\nL1 Set(x) L2\nL2 Set(z) L3\n",
		files: map[string]string{
			"preds.tvp":   "foreach (p in Vars) {\n  DECL(p)\n}\n%i r(v) = x(v) & n(v)\n",
			"actions.tvp": "%action Set(p) {\n  %f { p(v) }\n  {\n    p(v) = 1\n  }\n}\n",
		},
		want: `preds.tvp:2:3: unknown property pointr (known: abs, acyclic, antireflexive, antisymmetric, box, function, invfunction, nonabs, pointer, reflexive, symmetric, transitive, unique, uniquePerCC)
preds.tvp:4:18: undeclared predicate n
actions.tvp:2:8: undeclared predicate z (in Set(z), used at main.tvp:8:4)
actions.tvp:4:5: update of undeclared predicate z (in Set(z), used at main.tvp:8:4)`},
}

// programErrors loads c and returns its errors, one per line.
func programErrors(t *testing.T, c programErrorCase) string {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	var err error
	if c.plain {
		_, err = ParseProgram("main.tvp", NewPlainSource("main.tvp", c.main))
	} else {
		files := map[string]string{"main.tvp": c.main}
		for k, v := range c.files {
			files[k] = v
		}
		_, _, err = LoadProgram("main.tvp", LoadConfig{ReadFile: mapFiles(files)})
	}
	if err == nil {
		t.Fatal("no error")
	}
	var list ErrorList
	var one *Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one) && !c.plain:
		list = ErrorList{one}
	default:
		t.Fatalf("error %v is a %T", err, err)
	}
	for _, e := range list {
		if e.Pos.File == "" || e.Pos.Line < 1 || e.Pos.Col < 1 {
			t.Errorf("error without a valid position: %+v", e)
		}
	}
	return err.Error()
}

var errLine = regexp.MustCompile(`^[a-z]+\.tvp:[0-9]+:[0-9]+: \S`)

// TestProgramErrors loads each broken program and compares every error
// line. With DUMP_PROGRAM_ERRORS=1 it prints what each case gives
// instead, to help write a new case (check the output by eye).
func TestProgramErrors(t *testing.T) {
	dump := os.Getenv("DUMP_PROGRAM_ERRORS") != ""
	for _, c := range programErrorCases {
		t.Run(c.name, func(t *testing.T) {
			got := programErrors(t, c)
			if dump {
				fmt.Printf("=== %s\n%s\n", c.name, got)
				return
			}
			for _, l := range strings.Split(got, "\n") {
				if !errLine.MatchString(l) {
					t.Errorf("not file:line:col: message: %q", l)
				}
			}
			if got != c.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}
