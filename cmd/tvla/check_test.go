package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func stack(name string) string { return filepath.Join("..", "..", "programs", "stack", name) }

// tvla check takes the flags of tvla run that decide what is loaded (issue
// 22): before, only -D and --path, so a run's command line with -props
// (TVLA's spelling too), --collapse-threads or --abs could not be checked.
func TestCheckTakesTheLoadingFlagsOfRun(t *testing.T) {
	code, out, errOut := runCLI("check", stack("stack.tvp"), "-props", stack("tvla.properties"))
	if code != exitVerified || !strings.Contains(out, "predicates       48 declared") {
		t.Errorf("-props: exit %d\n%s%s", code, out, errOut)
	}
	// Collapsing with generated soft invariants declares them.
	_, plain, _ := runCLI("check", stack("stack.tvp"), "-D", "NO_SOFT_INVARIANTS", "--collapse-threads")
	code, soft, errOut := runCLI("check", stack("stack.tvp"), "-D", "NO_SOFT_INVARIANTS", "--collapse-threads", "--soft-invariants", "auto")
	if code != exitVerified || !strings.Contains(plain, "predicates       51 declared") || !strings.Contains(soft, "predicates       435 declared") {
		t.Errorf("--soft-invariants auto: exit %d, want 51 predicates without and 435 with the generated soft invariants\n%s%s%s", code, plain, soft, errOut)
	}
	// --nonabs changes what the summary calls an abstraction predicate.
	_, out, _ = runCLI("check", sll("reverse.tvp"), "--nonabs", "t")
	if !strings.Contains(out, "abstraction    6 unary: x y shared reach[x] reach[y] reach[t]\n") {
		t.Errorf("--nonabs t:\n%s", out)
	}
	// A bad override is bad input, as for run.
	if code, _, errOut := runCLI("check", sll("reverse.tvp"), "--abs", "nosuch"); code != exitInput || !strings.Contains(errOut, "--abs nosuch") {
		t.Errorf("--abs nosuch: exit %d, %s", code, errOut)
	}
	// Every flag of run is accepted, so a run's command line checks as it is.
	if code, _, errOut := runCLI("check", sll("reverse.tvp"), "--join", "rel", "--max-structures", "10", "-q", "--workers", "1"); code != exitVerified {
		t.Errorf("run's flags: exit %d, %s", code, errOut)
	}
}
