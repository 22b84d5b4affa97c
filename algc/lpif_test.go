package algc

import (
	"os"
	"strings"
	"testing"
)

// lpif[op] is the condition of op's conditional linearisation point as
// a thread predicate, for collapsed threads only; pointer comparisons
// read "the same node", null comparisons and bool fields as the
// condition has them.
func TestLPIf(t *testing.T) {
	src, err := os.ReadFile("../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	add := func(names string) string {
		text := strings.Replace(string(src), "instrument add succ[n,ss],", "instrument add "+names+", succ[n,ss],", 1)
		if text == string(src) {
			t.Fatal("treiber.alg's instrument line changed: the test no longer edits it")
		}
		return text
	}
	out, err := Compile("treiber.alg", []byte(add("lpif[pop]")))
	if err != nil {
		t.Fatal(err)
	}
	// ss == null: no node.
	want := "%i lpif[pop](v) = !(E(u_1) ss(v, u_1)) nonabs\n"
	if !strings.Contains(out.TVP, want) {
		t.Errorf("model lacks %q", want)
	}
	// Collapsed threads only: in the block of COLLAPSE_THREADS
	// declarations, before its #endif.
	j := strings.Index(out.TVP, want)
	if i := strings.LastIndex(out.TVP[:max(j, 0)], "#if"); j < 0 || i < 0 || !strings.HasPrefix(out.TVP[i:], "#ifdef COLLAPSE_THREADS\n") || strings.Contains(out.TVP[i:j], "#endif") {
		t.Errorf("lpif[pop] is not declared under COLLAPSE_THREADS")
	}

	// A conjunction of pointer comparisons and a bool field, as the
	// Ladan-Mozes–Shavit dequeue's empty point has it.
	lms, err := os.ReadFile("../programs/queue/lms.alg")
	if err != nil {
		t.Fatal(err)
	}
	out = compileFile(t, "../programs/queue/lms.alg")
	if !strings.Contains(string(lms), "lpif[dequeue]") {
		t.Fatal("lms.alg no longer requests lpif[dequeue]")
	}
	want = "%i lpif[dequeue](v) = (((E(u_1) tail(v, u_1) & head(v, u_1)) & (E(u_2) head(v, u_2) & Head(u_2))) & (E(u_3) head(v, u_3) & dummy(u_3))) nonabs\n"
	if !strings.Contains(out.TVP, want) {
		t.Errorf("model lacks %q", want)
	}

	for bad, wantErr := range map[string]string{
		"lpif[push]":      "lpif[push]: push has 0 conditional linearisation points; lpif needs exactly one",
		"lpif[nosuch]":    "lpif[nosuch]: nosuch is not an operation",
		"lpif[pop,push]":  "lpif takes an operation's name: lpif[op]",
		"lpif[pop[push]]": "the arguments are variable names",
	} {
		if _, err := Compile("treiber.alg", []byte(add(bad))); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want %q", bad, err, wantErr)
		}
	}
}
