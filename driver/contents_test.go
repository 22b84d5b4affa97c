package driver

import (
	"fmt"
	"slices"
	"testing"
)

// What tvla check summarises of list reversal: counted by hand from
// reverse.tvp, list_preds.tvp and list_actions.tvp (7 unary and 2 binary
// predicates; 3 %r rules, 11 more from the properties).
func TestContentsOfReverse(t *testing.T) {
	cfg := Defaults(program("sll", "reverse.tvp"))
	l, err := Load(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Contents()
	if !slices.Equal(c.Files, []string{"reverse.tvp", "list_preds.tvp", "list_actions.tvp"}) {
		t.Errorf("files %q", c.Files)
	}
	if c.Declared != 9 || !slices.Equal(c.ByArity, []ArityCount{{1, 7}, {2, 2}}) {
		t.Errorf("%d declared, by arity %v", c.Declared, c.ByArity)
	}
	if !slices.Equal(c.Core, []string{"x/1", "y/1", "t/1", "nxt/2"}) || len(c.Instrumentation) != 5 || len(c.Abstraction) != 7 {
		t.Errorf("core %q, instrumentation %q, abstraction %q", c.Core, c.Instrumentation, c.Abstraction)
	}
	// 16 rules: two of them make t[nxt] = nxt*, nxt acyclic, antisymmetric
	// (predicates.ClosureOfAcyclicRules).
	if c.Rules != 16 || c.Written != 3 || c.Constraints != 32 {
		t.Errorf("%d rules, %d written, %d constraints", c.Rules, c.Written, c.Constraints)
	}
	if c.Definitions != 14 || len(c.Actions) != 11 || c.Actions[0] != "SetNull(y)" {
		t.Errorf("%d definitions, actions %q", c.Definitions, c.Actions)
	}
	if c.Locations != 11 || c.Edges != 11 || c.Entry != "L1" {
		t.Errorf("cfg: %d locations, %d edges, entry %q", c.Locations, c.Edges, c.Entry)
	}
	if !slices.Equal(c.Inputs, []InputCount{{"reverse.tvs", 3}}) || len(c.Warnings) != 0 {
		t.Errorf("inputs %v, warnings %q", c.Inputs, c.Warnings)
	}
}

func TestArityName(t *testing.T) {
	var got []string
	for k := range 6 {
		got = append(got, ArityName(k))
	}
	if want := "[nullary unary binary ternary 4-ary 5-ary]"; fmt.Sprint(got) != want {
		t.Errorf("%v, want %s", got, want)
	}
}
