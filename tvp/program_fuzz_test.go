package tvp

import (
	"testing"
)

// fuzzProgramSeeds are small programs in the style of TVLA's examples;
// every one loads without error (TestFuzzProgramSeeds).
var fuzzProgramSeeds = []string{
	// A singly linked list: sets, foreach, properties, every clause kind.
	`%s PVar {x, y}
foreach (z in PVar) {
  %p z(v) unique pointer
}
%p n(v1, v2) function acyclic
%i r[n](v) = E(w) (x(w) & n*(w, v)) nonabs
%i is(v) = E(a, b) (a != b & n(a, v) & n(b, v))
%r E(a) (n(a, v) & x(a)) & is(v) ==> !x(v)
%%
%action Set_Null(lhs) {
  %t lhs + " = NULL"
  { lhs(v) = 0 }
}
%action Malloc(lhs) {
  %t lhs + " = malloc()"
  %new
  {
    lhs(v) = isNew(v)
  }
  %retain 1
}
%%
L1 Set_Null(x) L2
L2 Malloc(y) L3
%%
L3
`,
	// Composite formulas and set comprehensions.
	`%s Vars {x, y, t}
%s Fields {n}
%s Reach {r[f, p] : p in Vars}
foreach (p in Vars) { %p p(v) unique }
foreach (f in Fields) { %p f(v1, v2) function }
%i any[n]() = |/{ E(v) p(v) : p in Vars }
%i all() = &/{ E(v) p(v) : p in Vars - {t} }
%i r[n](v) = E(a) (x(a) & n*(a, v)) | 0
%%
%action Skip() { %t "skip" }
%%
start Skip() "end"
`,
	// An action with every clause in order.
	`%p x(v) unique
%p y(v) unique
%p n(v1, v2) function
%i sh(v) = E(a, b) (a != b & n(a, v) & n(b, v))
%%
%action Everything(p) {
  %t "all of " + p
  %f { p(v), E(a) p(a) & n(a, v) }
  %p E(v) p(v)
  %message (E(v) p(v) & sh(v)) -> "shared " + p
  %new
  {
    p(v) = p(v) | isNew(v)
    n(v1, v2) = (n(v1, v2) ? 1 : 1/2)
    foreach (q in {x, y} - {p}) {
      q(v) = q(v) & !isNew(v)
    }
  }
  %retain !isNew(v)
  %message (!E(v) p(v)) -> "lost " + p
}
%%
L1 Everything(x) L2
L2 Everything(y) L1
`,
	// Transitive closure, if-then-else, equality, the spaced operators.
	`%p n(v1, v2)
%p x(v)
%i t(v1, v2) = TC(v1, v2)(a, b) n(a, b)
%i c(v) = A(w) (x(w) <-> (w == v)) & (x(v) ? 1 : 0)
%i d(v) = x(v) - > E(u) n(u, v)
%r E(a) (t(a, v) & t(v, a)) ==> 0
%%
%action Id() { %p t(a, b) }
%%
a Id() b
b Id() a
`,
	// Global focus formulas and messages, %clone, %param.
	`%s S {a, b}
foreach (p in S) { %p p(v) }
%p n(v1, v2)
%f { a(v) }
%message (E(v) a(v) & b(v)) -> "a and b meet"
%%
%action Pick() {
  %param p in S
  %t "pick " + p
  %clone p(v)
  { p(v) = 1 }
}
%%
L Pick() M
`,
	// Properties: dependencies, uniquePerCC, display hints.
	`%p n(v1, v2) function invfunction [v1] --> v2 {1, 1/2}
%p x(v) abs box uniquePerCC(n) {1}
%p m(v1, v2, v3) [v1, v2] --> v3
%p flag() nonabs
%%
%action SetFlag() {
  %t "flag"
  %p !flag()
  { flag() = 1 }
}
%%
L1 SetFlag() L2
`,
	// Nested foreach and set expressions with parentheses.
	`%s P {a, b}
%s Q {b, c}
%s R (P + Q) & {a, c}
%s D P - (Q - {c})
foreach (p in R) {
  foreach (q in D) {
    %p e[p, q](v)
  }
}
%%
%%
`,
	// Updates written with parentheses, auto, an empty action.
	`%p x(v)
%p y(v)
%%
%action Swap() {
  {
    (x(v)) = y(v)
    y(v) = x(v) auto
  }
}
%action Nothing() {}
%%
L1 Swap() L2
L2 Nothing() L1
`,
	// Messages with a focus formula, after the updates.
	`%p x(v)
%p n(v1, v2)
%%
%action Check(p) {
  %message [E(a) x(a)] (E(a) x(a) & !n(a, a)) -> "x" + " has no loop"
  { x(v) = x(v) }
  %message (!E(a) x(a)) -> p
}
%%
L1 Check(x) L2
`,
	// Instrumentation over instrumentation, 1/2 written with spaces.
	`%p x(v)
%p n(v1, v2) function
%i r(v) = E(a) (x(a) & n*(a, v))
%i c(v) = E(a) (r(a) & n+(a, v) & n(v, a))
%i h() = 1 / 2
%%
%action Loop() { %f { c(v) } %p E(v) c(v) }
%%
L1 Loop() L1
`,
	// Unsupported clauses that are read and ignored.
	`%p x(v)
%closecycle x -> E(v) x(v)
%%
%action Dec() {
  %t "decompose"
  %p E(v) x(v)
  %decompose
}
%%
L1 Dec() L2
`,
	// A broken program: the errors must be well-formed too.
	`%p x(v) function
%i y(v) = z(v) & x(v, v)
%%
%action A1(p) { %f { q(v) } { p(w) = x(v) } }
%%
L1 A1() L2
L2 A1(x) L3
L3 B() L4
`,
}

func TestFuzzProgramSeeds(t *testing.T) {
	for i, s := range fuzzProgramSeeds[:len(fuzzProgramSeeds)-1] {
		if _, err := ParseProgram("seed.tvp", NewPlainSource("seed.tvp", s)); err != nil {
			t.Errorf("seed %d: %v", i, err)
		}
	}
}

// FuzzParseProgram checks that no program text makes the parser panic,
// and that every error is an ErrorList entry with a valid position.
func FuzzParseProgram(f *testing.F) {
	for _, s := range fuzzProgramSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := ParseProgram("fuzz.tvp", NewPlainSource("fuzz.tvp", src))
		if err == nil {
			if prog == nil {
				t.Fatal("no program and no error")
			}
			return
		}
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("error %v is a %T, not an ErrorList", err, err)
		}
		if len(list) == 0 {
			t.Fatal("empty ErrorList")
		}
		for _, e := range list {
			if e == nil {
				t.Fatal("nil error in the list")
			}
			if e.Pos.File == "" || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("error at an invalid position: %q (%+v)", e.Error(), e.Pos)
			}
		}
	})
}
