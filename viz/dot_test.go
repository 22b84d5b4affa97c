package viz

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/internal/golden"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// vocab builds a predicate vocabulary in Go.
type vocab struct {
	t   *testing.T
	voc *predicates.Vocabulary
}

func newVocab(t *testing.T) *vocab { return &vocab{t: t, voc: predicates.New()} }

func (v *vocab) add(name string, kind predicates.Kind, arity int, props predicates.Properties) *tvl.Pred {
	v.t.Helper()
	params := make([]logic.Var, arity)
	for i := range params {
		params[i] = logic.Var("v" + string(rune('1'+i)))
	}
	p, err := v.voc.Declare(name, kind, params, props, nil, "test")
	if err != nil {
		v.t.Fatal(err)
	}
	return p.Pred
}

// structure returns a structure over voc with n individuals.
func structure(voc *predicates.Vocabulary, n int) *tvl.Structure {
	s := tvl.New(voc.Tvl())
	for range n {
		s.AddIndividual()
	}
	return s
}

const (
	one  = logic.True
	half = logic.Unknown
	zero = logic.False
)

// listVocab has two pointer variables, a next field, reachability from x
// (instrumentation) and a marker predicate.
func listVocab(t *testing.T) (*vocab, map[string]*tvl.Pred) {
	v := newVocab(t)
	p := map[string]*tvl.Pred{
		"x":        v.add("x", predicates.Core, 1, predicates.Properties{Unique: true, Pointer: true}),
		"y":        v.add("y", predicates.Core, 1, predicates.Properties{Unique: true, Pointer: true}),
		"n":        v.add("n", predicates.Core, 2, predicates.Properties{Function: true}),
		"reach[x]": v.add("reach[x]", predicates.Instrumentation, 1, predicates.Properties{}),
		"path":     v.add("path", predicates.Instrumentation, 2, predicates.Properties{}),
		"marked":   v.add("marked", predicates.Core, 1, predicates.Properties{}),
	}
	return v, p
}

func TestStructureDOTGolden(t *testing.T) {
	cases := []struct {
		name    string
		caption Caption
		build   func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary)
	}{
		{"summary.dot", Caption{Location: "L2", Detail: "structure 1 of 3"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			// x -> u0 -n-> u1 (summary), u1 -n=1/2-> u1; reach[x] on both;
			// marked = 1/2 on the summary node.
			v, p := listVocab(t)
			s := structure(v.voc, 2)
			s.Set(p["x"], one, 0)
			s.SetSummary(1, true)
			s.Set(p["n"], one, 0, 1)
			s.Set(p["n"], half, 1, 1)
			s.Set(p["reach[x]"], one, 0)
			s.Set(p["reach[x]"], one, 1)
			s.Set(p["marked"], half, 1)
			return s, v.voc
		}},
		{"half_edges.dot", Caption{Location: "L3"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			// Definite and indefinite edges of a core and an
			// instrumentation predicate: n and path at 1 on the same pair
			// share one edge; path alone is grey.
			v, p := listVocab(t)
			s := structure(v.voc, 3)
			s.SetSummary(2, true)
			s.Set(p["n"], one, 0, 1)
			s.Set(p["path"], one, 0, 1)
			s.Set(p["n"], half, 1, 2)
			s.Set(p["path"], half, 1, 2)
			s.Set(p["path"], one, 0, 2)
			s.Set(p["n"], half, 2, 2)
			s.Set(p["marked"], one, 0)
			s.Set(p["marked"], half, 2)
			return s, v.voc
		}},
		{"pointers.dot", Caption{Location: "L4", Detail: "after y = x->n"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			// x and y on one node, y possibly on a summary node (dotted
			// arrow), a box predicate, a pointer that holds nowhere (not
			// drawn), and a unary predicate whose display hint {1} hides
			// its 1/2 values.
			v, p := listVocab(t)
			top := v.add("top", predicates.Core, 1, predicates.Properties{Box: true})
			null := v.add("z", predicates.Core, 1, predicates.Properties{Pointer: true})
			loud := v.add("loud", predicates.Core, 1, predicates.Properties{Show: []logic.Kleene{one}})
			_ = null
			s := structure(v.voc, 2)
			s.SetSummary(1, true)
			s.Set(p["x"], one, 0)
			s.Set(p["y"], one, 0)
			s.Set(p["y"], half, 1)
			s.Set(top, one, 1)
			s.Set(loud, one, 0)
			s.Set(loud, half, 1)
			s.Set(p["n"], half, 0, 1)
			return s, v.voc
		}},
		{"nullary.dot", Caption{Location: "exit"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			// Nullary predicates at 1, 1/2 and 0 (not shown), one whose
			// hint shows 0, and a ternary predicate: all in the table.
			v := newVocab(t)
			ok := v.add("ok", predicates.Core, 0, predicates.Properties{})
			maybe := v.add("maybe", predicates.Instrumentation, 0, predicates.Properties{})
			v.add("never", predicates.Core, 0, predicates.Properties{})
			v.add("shown_zero", predicates.Core, 0, predicates.Properties{Show: []logic.Kleene{one, zero}})
			tri := v.add("between", predicates.Core, 3, predicates.Properties{})
			s := structure(v.voc, 3)
			s.Set(ok, one)
			s.Set(maybe, half)
			s.Set(tri, one, 0, 1, 2)
			s.Set(tri, half, 2, 1, 0)
			return s, v.voc
		}},
		{"threads.dot", Caption{Location: "L7", Detail: "structure 2 of 5"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			// Two threads (TVLA's built-in isthread), one a summary,
			// holding a lock (a data value, is_data) and waiting for it;
			// the running thread's program counter as a label.
			v := newVocab(t)
			isData := v.add("is_data", predicates.Core, 1, predicates.Properties{})
			atL7 := v.add("at[L7]", predicates.Core, 1, predicates.Properties{})
			holds := v.add("holds", predicates.Core, 2, predicates.Properties{})
			waits := v.add("waits", predicates.Core, 2, predicates.Properties{})
			cur := v.add("current", predicates.Core, 1, predicates.Properties{Pointer: true})
			thread := v.voc.Lookup(predicates.IsThreadName).Pred
			s := structure(v.voc, 3)
			s.Set(thread, one, 0)
			s.Set(thread, one, 1)
			s.SetSummary(1, true)
			s.Set(isData, one, 2)
			s.Set(atL7, one, 0)
			s.Set(atL7, half, 1)
			s.Set(cur, one, 0)
			s.Set(holds, one, 0, 2)
			s.Set(waits, half, 1, 2)
			return s, v.voc
		}},
		{"message.dot", Caption{Location: "L3", Detail: "y = y->nxt raises the message", Message: "null dereference: y->nxt\n(y may be <NULL> & more)"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			v, p := listVocab(t)
			s := structure(v.voc, 1)
			s.Set(p["x"], one, 0)
			return s, v.voc
		}},
		{"empty.dot", Caption{Location: "L1", Detail: "input structure"}, func(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
			v, _ := listVocab(t)
			return structure(v.voc, 0), v.voc
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, voc := c.build(t)
			got := StructureGraph(s, voc, c.caption).String()
			if again := StructureGraph(s, voc, c.caption).String(); again != got {
				t.Fatal("two drawings of one structure differ")
			}
			golden.Check(t, c.name, []byte(got))
			checkDOT(t, c.name, got)
		})
	}
}

// checkDOT checks the drawing conventions in a DOT text.
func checkDOT(t *testing.T, name, got string) {
	t.Helper()
	want := map[string][]string{
		"summary.dot":    {`peripheries="2"`, `style="dotted"`, `shape="plaintext"`, `marked=1/2`, `reach[x]`, `label="x"`},
		"half_edges.dot": {`label="n, path",style="dotted"`, `color="#777777",constraint="false"`, `<BR/>marked>`, `marked=1/2`},
		"pointers.dot":   {`label="y"`, `label="top"`, `<BR/>loud>`},
		"nullary.dot":    {`>ok</TD><TD ALIGN="RIGHT">1<`, `>maybe</TD><TD ALIGN="RIGHT">1/2<`, `>shown_zero</TD><TD ALIGN="RIGHT">0<`, `between(u0, u1, u2)`},
		"threads.dot":    {`shape="hexagon"`, `shape="box"`, `at[L7]=1/2`, `label="waits",style="dotted"`},
		"message.dot":    {`message: null dereference: y-&gt;nxt<BR ALIGN="LEFT"/>(y may be &lt;NULL&gt; &amp; more)`},
		"empty.dot":      {`<I>no individuals</I>`},
	}
	for _, w := range want[name] {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %s", name, w)
		}
	}
	unwanted := map[string][]string{
		"pointers.dot": {`label="z"`, `loud=1/2`},
		"nullary.dot":  {`never`},
		"threads.dot":  {`isthread`, `is_data`},
	}
	for _, w := range unwanted[name] {
		if strings.Contains(got, w) {
			t.Errorf("%s has %s", name, w)
		}
	}
}

// tinyRun is a hand-made program and result: three locations, one never
// reached, one with a structure and a message.
func tinyRun(t *testing.T) (*model.Program, *engine.Result) {
	v, p := listVocab(t)
	s := structure(v.voc, 1)
	s.Set(p["x"], one, 0)
	s.Freeze()
	prog := &model.Program{
		File:       "dir/tiny.tvp",
		Vocabulary: v.voc,
		Locations:  []string{"start", "loop", "dead end"},
		Edges: []*model.Edge{
			{From: "start", To: "loop", Action: &model.Action{Name: "Copy", Args: []string{"y", "x"}, Title: "y = x"}},
			{From: "loop", To: "loop", Action: &model.Action{Name: "Load", Args: []string{"y", "y"}, Title: "y = y->n"}},
			{From: "loop", To: "dead end", Action: &model.Action{Name: "Skip"}},
		},
	}
	res := &engine.Result{Locations: []*engine.LocationResult{
		{Label: "start", Structures: engine.StructuresOf(s)},
		{Label: "loop", Structures: engine.StructuresOf(s, s), Messages: []engine.Message{{Location: "loop", Text: "oops"}}},
		{Label: "dead end"},
	}}
	return prog, res
}

func TestCFGDOTGolden(t *testing.T) {
	prog, res := tinyRun(t)
	got := CFGGraph(prog, res).String()
	golden.Check(t, "cfg.dot", []byte(got))
	for _, w := range []string{`label=" y = x "`, `label=" Skip() "`, `2 structures`, `1 message<`, `style="rounded,dashed"`, `shape="point"`} {
		if !strings.Contains(got, w) {
			t.Errorf("CFG lacks %s", w)
		}
	}
	if strings.Contains(got, "href") {
		t.Error("CFGGraph links its nodes; only the report's CFG should")
	}
	// Without a result: locations and edges only.
	if bare := CFGGraph(prog, nil).String(); strings.Contains(bare, "structure") {
		t.Error("CFG without a result shows counts")
	}
}

func TestSafeNamesAreUnique(t *testing.T) {
	n := newNamer()
	got := []string{n.take(safeName("L 1")), n.take(safeName("L_1")), n.take(safeName("l_1")), n.take(safeName("")), n.take(safeName("../x"))}
	want := []string{"L_1", "L_1_2", "l_1_3", "_", "___x"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names %q, want %q", got, want)
	}
}
