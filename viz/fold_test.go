package viz

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/golden"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// manyThreadPreds is a collapsed thread model in small: a summary thread
// and the scheduled one at three locations, a node each points to, and
// the soft invariants of §8.2 on them, generated (if[L,p], nif[L,p])
// and hand-written (ifc[L,q,p]): 28 predicates that are 1 or 1/2 on the
// scheduled thread, 24 on the others.
func manyThreadPreds(t *testing.T) (*tvl.Structure, *predicates.Vocabulary) {
	t.Helper()
	v := newVocab(t)
	thread := v.voc.Lookup(predicates.IsThreadName).Pred
	sched := v.add(predicates.ScheduledName, predicates.Core, 1, predicates.Properties{})
	var at []*tvl.Pred
	for _, l := range []string{"L1", "L2", "L3", "L4"} {
		at = append(at, v.add("at["+l+"]", predicates.Core, 1, predicates.Properties{}))
	}
	has := v.add("has[n]", predicates.Instrumentation, 1, predicates.Properties{NonAbs: true})
	done := v.add("doneLP", predicates.Core, 1, predicates.Properties{NonAbs: true})
	v.add("waiting", predicates.Core, 1, predicates.Properties{NonAbs: true})
	n := v.add("n", predicates.Core, 2, predicates.Properties{})
	var hand []*tvl.Pred
	for _, l := range []string{"L1", "L2", "L3", "L4"} {
		hand = append(hand, v.add("ifc["+l+",doneLP,has[n]]", predicates.Instrumentation, 1, predicates.Properties{NonAbs: true}))
	}
	// A core predicate named like a soft invariant is the program's own:
	// never folded.
	own := v.add("if[own]", predicates.Core, 1, predicates.Properties{})
	set, err := v.voc.AddSoftInvariants(predicates.SoftConfig{Preds: []string{"has[n]", "doneLP", "waiting"}})
	if err != nil {
		t.Fatal(err)
	}
	s := structure(v.voc, 3)
	s.Set(thread, one, 0)
	s.Set(thread, one, 1)
	s.SetSummary(1, true)
	s.Set(sched, one, 0)
	s.Set(at[1], one, 0)
	s.Set(at[0], half, 1)
	s.Set(at[2], half, 1)
	s.Set(has, one, 0)
	s.Set(done, half, 1)
	s.Set(own, one, 0)
	s.Set(n, one, 0, 2)
	s.Set(n, half, 1, 2)
	for _, inv := range set.Invariants {
		s.Set(inv.Pred.Pred, one, 0)
		v := one
		if inv.Negated {
			v = half
		}
		s.Set(inv.Pred.Pred, v, 1)
	}
	for _, p := range hand {
		s.Set(p, one, 0)
	}
	return s, v.voc
}

var reNodeLabel = regexp.MustCompile(`(?m)^\s*n\d+\[.*label=<(.*)>,margin.*tooltip="([^"]*)"`)

// TestFoldThreadPredicates: a thread's soft invariants leave its node
// (a count stays, the tooltip lists them) and come back as Folded; the
// location and core predicates stay in the node; StructureGraph (and so
// --dot) still lists everything.
func TestFoldThreadPredicates(t *testing.T) {
	s, voc := manyThreadPreds(t)
	c := Caption{Location: "L2", Detail: "structure 1 of 1"}
	full := StructureGraph(s, voc, c).String()
	golden.Check(t, "threads_soft.dot", []byte(full))
	g, folded := DrawStructure(s, voc, c, DrawOptions{FoldThreadPredicates: true})
	got := g.String()
	if again, _ := DrawStructure(s, voc, c, DrawOptions{FoldThreadPredicates: true}); again.String() != got {
		t.Fatal("two drawings of one structure differ")
	}
	golden.Check(t, "threads_folded.dot", []byte(got))

	soft := 0
	for _, p := range voc.All() {
		if IsSoftInvariant(p) {
			soft++
		}
	}
	if soft < 25 {
		t.Fatalf("%d soft invariants; the test wants many", soft)
	}
	if n := strings.Count(full, "if["); n < 2*soft {
		t.Errorf("unfolded: %d mentions of if[ for %d soft invariants on two threads", n, soft)
	}

	nodes := reNodeLabel.FindAllStringSubmatch(got, -1)
	if len(nodes) != 3 {
		t.Fatalf("%d individual nodes, want 3:\n%s", len(nodes), got)
	}
	for i, want := range [][]string{
		{"tr_scheduled", "at[L2]", "has[n]", "if[own]", "+" + fmt.Sprint(soft) + " soft invariants"},
		{"at[L1]=1/2", "at[L3]=1/2", "doneLP=1/2", "+" + fmt.Sprint(soft-4) + " soft invariants"},
		{"u2"},
	} {
		label, tip := nodes[i][1], nodes[i][2]
		for _, w := range want {
			if !strings.Contains(label, w) {
				t.Errorf("node u%d lacks %s: %s", i, w, label)
			}
		}
		if strings.Contains(label, "if[L") || strings.Contains(label, "nif[") || strings.Contains(label, "ifc[") {
			t.Errorf("node u%d lists soft invariants: %s", i, label)
		}
		if i < 2 && (!strings.Contains(tip, "; soft invariants: ") || !strings.Contains(tip, "if[L1,has[n]]") || !strings.Contains(tip, "if[L4,waiting]") ||
			strings.Contains(tip, "ifc[L3,doneLP,has[n]]") != (i == 0)) {
			t.Errorf("node u%d: the tooltip does not list the folded predicates: %s", i, tip)
		}
	}

	if len(folded) != 2 || folded[0].Individual != "u0" || folded[1].Individual != "u1" || !folded[1].Summary {
		t.Fatalf("folded %+v, want u0 and u1 (summary)", folded)
	}
	for i, f := range folded {
		if want := soft - 4*i; len(f.Values) != want {
			t.Errorf("%s: %d values folded, want %d", f.Individual, len(f.Values), want)
		}
		vals := map[string]string{}
		for _, v := range f.Values {
			vals[v.Name] = v.Value
		}
		want := map[string]string{"if[L1,has[n]]": "1", "nif[L1,has[n]]": "1", "ifc[L2,doneLP,has[n]]": "1"}
		if i == 1 {
			want = map[string]string{"if[L1,has[n]]": "1", "nif[L1,has[n]]": "1/2", "ifc[L2,doneLP,has[n]]": ""}
		}
		for k, w := range want {
			if vals[k] != w {
				t.Errorf("%s: %s = %q, want %q", f.Individual, k, vals[k], w)
			}
		}
	}
	if _, none := DrawStructure(s, voc, c, DrawOptions{}); none != nil {
		t.Errorf("nothing folded without the option, got %+v", none)
	}
}
