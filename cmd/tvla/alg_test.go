package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Under restricted interleaving a lock-based operation runs from one
// lock to the next without preemption, so a lock that is missing goes
// unnoticed there; under full interleaving every statement is a step:
// the two lock-based algorithms verify with two threads, and without
// the lock on their removals they are caught; the lock-less list's pop
// without its cas (a plain write, as if the consumers' lock were
// enough) is caught with restricted interleaving.
func TestLocksMatter(t *testing.T) {
	variant := func(path string, edits ...string) string {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		for i := 0; i < len(edits); i += 2 {
			if !strings.Contains(text, edits[i]) {
				t.Fatalf("%q not in %s", edits[i], path)
			}
			text = strings.ReplaceAll(text, edits[i], edits[i+1])
		}
		out := filepath.Join(t.TempDir(), filepath.Base(path))
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	twolock, lockstack := "../../programs/queue/twolock.alg", "../../programs/stack/lockstack.alg"
	if !testing.Short() {
		for path, stored := range map[string]int{twolock: 6751, lockstack: 7863} {
			s := runSummary(t, 0, "run", variant(path, ";\nspec ", ";\ninterleaving full;\nspec "), "-D", "THREADS=2", "--json", "-")
			if !s.Verified || s.StructuresStored != stored {
				t.Errorf("%s with full interleaving: verified %v, %d stored; want verified with %d", path, s.Verified, s.StructuresStored, stored)
			}
		}
	}
	bugs := []struct{ path, want string }{
		{variant(twolock, "spec queue;", "spec queue;\ninterleaving full;", "\tlock HeadLock;\n", "", "\tunlock HeadLock;\n", ""),
			"linearisability: dequeue of a value while the specification queue is empty (dequeue, line 49)"},
		{variant(lockstack, "spec stack;", "spec stack;\ninterleaving full;", "\tlock L;\n\tss = Top @lp", "\tss = Top @lp", "\tunlock L;\n\t\treturn empty", "\t\treturn empty", "\tunlock L;\n\treturn lv", "\treturn lv"),
			"linearisability: pop of a value while the specification stack is empty (pop, line 39)"},
		{variant("../../programs/stack/llist.alg", "if cas(First, ss, ssnext) @lp(lv) {\n\t\t\tunlock DelLock;\n\t\t\treturn lv;\n\t\t}", "First = ssnext @lp(lv);\n\t\tunlock DelLock;\n\t\treturn lv;"),
			"linearisability: pop returns a value other than the specification's top (pop, line 50)"},
	}
	for _, b := range bugs {
		code, out, _ := runCLI("run", b.path, "-D", "THREADS=2", "--max-messages", "1")
		if code != 1 || !strings.Contains(out, b.want) {
			t.Errorf("%s: exit %d, want 1 with %q:\n%s", b.path, code, b.want, out)
		}
	}
}

// tvla compile writes the model and its input; the model loads as TVP.
func TestCompileWritesTVP(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("compile", "../../programs/stack/treiber.alg", "-o", dir)
	if code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, filepath.Join(dir, "treiber.tvp")) {
		t.Errorf("compile did not say what it wrote: %q", out)
	}
	tvp, err := os.ReadFile(filepath.Join(dir, "treiber.tvp"))
	if err != nil {
		t.Fatal(err)
	}
	// Readable: the statements appear as comments and action titles.
	for _, want := range []string{"// push, line 31: cas(Head, ss, n) succeeds", "%action", "ready schedule(idle) idle"} {
		if !strings.Contains(string(tvp), want) {
			t.Errorf("compiled model lacks %q", want)
		}
	}
	s := runSummary(t, 0, "run", filepath.Join(dir, "treiber.tvp"), "-D", "THREADS=1", "--json", "-")
	if s.StructuresStored != 335 {
		t.Errorf("the written model: %d stored, want 335 as from the .alg", s.StructuresStored)
	}
	if code, _, errOut := runCLI("compile", "../../programs/stack/treiber.alg"); code != 2 || !strings.Contains(errOut, "-o") {
		t.Errorf("compile without -o: exit %d, %q", code, errOut)
	}
}

// Errors in an algorithm, including those found only in the generated
// model, are reported at the algorithm's line and column.
func TestAlgorithmErrorsArePositioned(t *testing.T) {
	src, err := os.ReadFile("../../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new, want string }{
		// An instrumentation family with a variable that does not exist.
		{"instrument add succ[n,ss]", "instrument add succ[n,nosuch]", "bad.alg:20:16: succ[n,nosuch]: nosuch is not a thread-local node variable"},
		// Switching off a predicate the generator does not make.
		{"instrument add succ[n,ss]", "instrument off nosuch;\ninstrument add succ[n,ss]", "bad.alg:20:16: instrument off nosuch: no such generated predicate"},
		// Making a predicate the generator does not make nonabs.
		{"instrument add succ[n,ss]", "instrument nonabs nosuch;\ninstrument add succ[n,ss]", "bad.alg:20:19: instrument nonabs nosuch: no such generated predicate"},
		// Hand-written TVP with an error, found when the model loads.
		{"shared Head: Node;", "shared Head: Node;\ntvp `%p broken(`;", "bad.alg:17:1: in the generated model ("},
		// A name the generated model uses.
		{"shared Head: Node;", "shared Head, circ: Node;", "bad.alg:16:14: shared variable circ: the name is used by the generated model"},
	}
	for _, c := range cases {
		text := strings.Replace(string(src), c.old, c.new, 1)
		if text == string(src) {
			t.Fatalf("%q not in treiber.alg", c.old)
		}
		path := filepath.Join(t.TempDir(), "bad.alg")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI("check", path)
		if code != 2 || !strings.Contains(errOut, filepath.Dir(path)+"/"+c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.new, code, errOut, c.want)
		}
	}
}
