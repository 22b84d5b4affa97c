package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A linearisation decided later (docs/algorithms.md): Treiber's stack
// whose pop linearises its removal at the cas for whichever thread
// claims the node (@lp(lv) for ss) and returns the value only after
// taking it with the claim (@lp(lv) from ss). It verifies with one and
// two threads; variants that misuse the points are caught.
func TestClaimLinearisation(t *testing.T) {
	const path = "testdata/claim/claimstack.alg"
	counts := map[string]int{"1": 439}
	if !testing.Short() {
		counts["2"] = 5685
	}
	for threads, stored := range counts {
		s := runSummary(t, 0, "run", path, "-D", "THREADS="+threads, "--json", "-")
		if !s.Verified || s.StructuresStored != stored {
			t.Errorf("THREADS=%s: verified %v, %d stored; want verified with %d", threads, s.Verified, s.StructuresStored, stored)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	variant := func(edits ...string) string {
		text := string(src)
		for i := 0; i < len(edits); i += 2 {
			if !strings.Contains(text, edits[i]) {
				t.Fatalf("%q not in %s", edits[i], path)
			}
			text = strings.Replace(text, edits[i], edits[i+1], 1)
		}
		out := filepath.Join(t.TempDir(), "claimstack.alg")
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	bugs := []struct{ path, threads, want string }{
		// The claim takes another node's removal, or none: the pop
		// returns owing its own.
		{variant("won = true @lp(lv) from ss;", "won = true;\n\t\t\tss = ss @lp(lv) from ssnext;"), "1",
			"linearisability: pop takes a removal for ssnext's node, but none is owed (none was linearised for it, or another thread took it) (pop, line 58)"},
		{variant("won = true @lp(lv) from ss;", "won = true;", "won = false;", "won = false @lp(lv) from ss;"), "1",
			"linearisability: pop returns before any thread took the removal it linearised for a node's taker"},
		// The claim returns some other value.
		{variant("won = true @lp(lv) from ss;", "lv = any;\n\t\t\twon = true @lp(lv) from ss;"), "1",
			"linearisability: pop returns a value other than the one removed for ss's node (pop, line 58)"},
	}
	for _, b := range bugs {
		code, out, _ := runCLI("run", b.path, "-D", "THREADS="+b.threads, "--max-messages", "2")
		if code != 1 || !strings.Contains(out, b.want) {
			t.Errorf("exit %d, want 1 with %q:\n%s", code, b.want, out)
		}
	}
}
