package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The algorithms of programs/ compile and verify with bounded threads;
// the counts are those of the compiled models (docs/algorithms.md).
func TestAlgorithmsVerify(t *testing.T) {
	cases := []struct {
		program string
		threads string
		stored  int
	}{
		{"../../programs/stack/treiber.alg", "THREADS=1", 335},
		{"../../programs/stack/treiber.alg", "THREADS=2", 2481},
		{"../../programs/queue/msqueue.alg", "THREADS=1", 348},
		{"../../programs/queue/dglm.alg", "THREADS=1", 342},
		{"../../programs/queue/dglm.alg", "THREADS=2", 8696},
	}
	for _, c := range cases {
		s := runSummary(t, 0, "run", c.program, "-D", c.threads, "--json", "-")
		if s.StructuresStored != c.stored || s.Messages != 0 || !s.Verified {
			t.Errorf("%s %s: %d stored, %d messages, verified %v; want %d stored, verified", c.program, c.threads, s.StructuresStored, s.Messages, s.Verified, c.stored)
		}
	}
}

// Algorithms never modelled by hand, written only in the language
// (docs/algorithms.md): Michael and Scott's two-lock queue, Linux's
// lock-less list as a stack (lock-free pushes, pops under a lock) and a
// stack behind one lock verify with one and two threads.
func TestNewAlgorithmsVerify(t *testing.T) {
	cases := []struct {
		program string
		threads string
		stored  int
	}{
		{"../../programs/queue/twolock.alg", "THREADS=1", 261},
		{"../../programs/queue/twolock.alg", "THREADS=2", 1435},
		{"../../programs/stack/llist.alg", "THREADS=1", 413},
		{"../../programs/stack/llist.alg", "THREADS=2", 3036},
		{"../../programs/stack/lockstack.alg", "THREADS=1", 413},
		{"../../programs/stack/lockstack.alg", "THREADS=2", 1716},
	}
	for _, c := range cases {
		s := runSummary(t, 0, "run", c.program, "-D", c.threads, "--json", "-")
		if s.StructuresStored != c.stored || s.Messages != 0 || !s.Verified {
			t.Errorf("%s %s: %d stored, %d messages, verified %v; want %d stored, verified", c.program, c.threads, s.StructuresStored, s.Messages, s.Verified, c.stored)
		}
	}
}

// The same three verify for any number of threads: with collapsed
// threads and the soft invariants generated (the lock-based ones in one
// round, the lock-less list in two).
func TestNewAlgorithmsCollapsedVerify(t *testing.T) {
	cases := []struct {
		program        string
		stored, rounds int
		slow           bool
	}{
		{"../../programs/queue/twolock.alg", 1566, 1, false},
		{"../../programs/stack/lockstack.alg", 1239, 1, false},
		{"../../programs/stack/llist.alg", 2362, 2, true},
	}
	for _, c := range cases {
		if c.slow && testing.Short() {
			t.Logf("%s collapsed: skipped in -short (about 15 s)", c.program)
			continue
		}
		s := runSummary(t, 0, "run", c.program, "--collapse-threads", "--json", "-")
		if !s.Verified || s.StructuresStored != c.stored || s.SoftInvariants == nil || len(s.SoftInvariants.Rounds) != c.rounds {
			rounds := -1
			if s.SoftInvariants != nil {
				rounds = len(s.SoftInvariants.Rounds)
			}
			t.Errorf("collapsed %s: verified %v, %d stored, %d round(s); want verified in %d round(s) with %d stored", c.program, s.Verified, s.StructuresStored, rounds, c.rounds, c.stored)
		}
	}
}

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

// bugCase is a faulty variant of an algorithm: the first message with
// two threads (its location and text) and the structures stored when
// the run stops there.
type bugCase struct {
	name, message string
	stored        int
}

// checkBugVariants runs each variant in dir with two threads to its
// first message: it exits 1 with that message, a trace whose steps name
// the algorithm's lines, and the stored count; and it changes 1 to 5
// lines of orig.
func checkBugVariants(t *testing.T, orig, dir string, cases []bugCase) {
	t.Helper()
	src0, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		path := dir + c.name + ".alg"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := changedLines(string(src0), string(src)); n < 1 || n > 5 {
			t.Errorf("%s changes %d lines of %s, want 1 to 5", c.name, n, orig)
		}
		code, out, _ := runCLI("run", path, "-D", "THREADS=2", "--max-messages", "1", "--trace")
		stored := fmt.Sprintf("explored: %d structures", c.stored)
		trace := regexp.MustCompile(`(?m)^ +[0-9]+ +\S+ +after [a-z]+, line [0-9]+: `)
		if code != 1 || !strings.Contains(out, "messages:\n  "+c.message+" (action ") || !strings.Contains(out, stored) || len(trace.FindAllString(out, -1)) < 3 {
			t.Errorf("%s: exit %d, want 1 with %q, %q and a trace naming .alg lines:\n%s", c.name, code, c.message, stored, out)
		}
	}
}

// The stack's faulty variants, each the hand model's fault (stack.tvp's
// BUG_ macros) a line away from treiber.alg, are caught with two
// threads by linearisability messages, as the hand model's are.
func TestStackBugVariants(t *testing.T) {
	checkBugVariants(t, "../../programs/stack/treiber.alg", "../../programs/stack/bugs/", []bugCase{
		{"push-no-compare", "pop42_lp: linearisability: pop returns empty but the specification stack is not empty (pop, line 42)", 1209},
		{"pop-early-lp", "pop51_lp: linearisability: pop returns a value other than the specification's top (pop, line 51)", 173},
		{"pop-wrong-value", "pop51_lp: linearisability: pop returns a value other than the specification's top (pop, line 51)", 171},
		{"push-no-lp", "push_end: linearisability: push returns without linearising", 39},
	})
}

// changedLines counts the lines of a that b replaces (the two differ
// only by replaced lines here).
func changedLines(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al) != len(bl) {
		return -1
	}
	n := 0
	for i := range al {
		if al[i] != bl[i] {
			n++
		}
	}
	return n
}

// The queue's faulty variants, the hand model's faults (queue.tvp's
// BUG_ macros with DGLM) a line away from dglm.alg, are caught with two
// threads at the dequeue's linearisation points.
func TestQueueBugVariants(t *testing.T) {
	checkBugVariants(t, "../../programs/queue/dglm.alg", "../../programs/queue/bugs/", []bugCase{
		{"enq-tail-first", "dequeue63_lp: linearisability: dequeue returns empty but the specification queue is not empty (dequeue, line 63)", 849},
		{"deq-no-compare", "dequeue71_lp: linearisability: dequeue of a value while the specification queue is empty (dequeue, line 71)", 1123},
		{"deq-reset-next", "dequeue63_lp: linearisability: dequeue returns empty but the specification queue is not empty (dequeue, line 63)", 1898},
		{"deq-wrong-value", "dequeue71_lp: linearisability: dequeue returns a value other than the specification's first value (dequeue, line 71)", 364},
	})
}

// The compiled Treiber stack verifies for any number of threads with
// collapsed threads: for an algorithm, --collapse-threads generates the
// soft invariants by itself (two rounds here, each stopping at its first
// message).
func TestTreiberCollapsedVerifies(t *testing.T) {
	s := runSummary(t, 0, "run", "../../programs/stack/treiber.alg", "--collapse-threads", "--soft-from", "none", "--json", "-")
	if !s.Verified || s.StructuresStored != 1292 || s.SoftInvariants == nil || len(s.SoftInvariants.Rounds) != 2 {
		t.Errorf("collapsed treiber.alg: verified %v, %d stored, soft %+v; want verified in 2 rounds with 1292 stored", s.Verified, s.StructuresStored, s.SoftInvariants)
	}
}

// The compiled DGLM queue verifies for any number of threads too. It
// needs its comparison of sshead with Head to focus on ssnext (the
// variable succ[sshead,ssnext] pairs it with): without that, round 2
// stopped after 148 structures at a false "dequeue returns empty
// without linearising as empty".
func TestDGLMCollapsedVerifies(t *testing.T) {
	s := runSummary(t, 0, "run", "../../programs/queue/dglm.alg", "--collapse-threads", "--soft-from", "none", "--json", "-")
	if !s.Verified || s.StructuresStored != 1471 || s.SoftInvariants == nil || len(s.SoftInvariants.Rounds) != 2 {
		t.Errorf("collapsed dglm.alg: verified %v, %d stored, soft %+v; want verified in 2 rounds with 1471 stored", s.Verified, s.StructuresStored, s.SoftInvariants)
	}
}

// Memory reuse (docs/algorithms.md, "Memory reuse"): Treiber's stack
// whose pop frees the node it removed shows the thesis' ABA¹ fault with
// two threads (Table 6.1, Figure 6.1: a pop's cas succeeds on a node
// freed and reused by a push, and it returns the old value), with a
// trace whose steps name the .alg lines; tagging Head with a
// modification counter fixes it. Both verify with one thread.
func TestTreiberReuseABA(t *testing.T) {
	const prog = "../../programs/stack/treiber-reuse.alg"
	code, out, _ := runCLI("run", prog, "-D", "THREADS=2", "--max-messages", "1", "--trace")
	want := "linearisability: pop returns a value other than the specification's top (pop, line 46)"
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, want 1 with %q:\n%s", code, want, out)
	}
	for _, step := range []string{"push, line 22: n = new Node reuses a freed node", "push, line 22: n = new Node takes the freed node", "pop, line 47: free ss", "pop, line 46: cas(Head, ss, ssnext) succeeds"} {
		if !strings.Contains(out, step) {
			t.Errorf("the trace has no step %q:\n%s", step, out)
		}
	}
	s := runSummary(t, 1, "run", prog, "-D", "THREADS=2", "--max-messages", "1", "--json", "-")
	if s.StructuresStored != 1066 || s.Messages != 1 || s.Verified {
		t.Errorf("%s THREADS=2: %d stored, %d messages, verified %v; want 1066 stored, 1 message", prog, s.StructuresStored, s.Messages, s.Verified)
	}
	// The fault replays concretely: a concrete run with two threads
	// reaches the same message (breadth first, at depth 54).
	code, out, _ = runCLI("run", prog, "-D", "THREADS=2", "--join", "conc", "--copies", "2", "--threads", "2", "--max-depth", "60", "--max-messages", "1")
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("concrete run: exit %d, want 1 with %q:\n%s", code, want, out)
	}
	// The tag is the fix: with two threads the tagged stack verifies.
	if s := runSummary(t, 0, "run", "../../programs/stack/treiber-tagged.alg", "-D", "THREADS=2", "--json", "-"); s.StructuresStored != 6234 || !s.Verified {
		t.Errorf("treiber-tagged.alg THREADS=2: %d stored, verified %v; want 6234 stored, verified", s.StructuresStored, s.Verified)
	}
	for _, p := range []string{prog, "../../programs/stack/treiber-tagged.alg"} {
		s := runSummary(t, 0, "run", p, "-D", "THREADS=1", "--json", "-")
		if s.StructuresStored != 434 || s.Messages != 0 || !s.Verified {
			t.Errorf("%s THREADS=1: %d stored, %d messages, verified %v; want 434 stored, verified", p, s.StructuresStored, s.Messages, s.Verified)
		}
	}
}

// The Michael-Scott queue with two threads: about 10 s of analysis, so
// not with -short.
func TestMSQueueTwoThreadsVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s of analysis")
	}
	s := runSummary(t, 0, "run", "../../programs/queue/msqueue.alg", "-D", "THREADS=2", "--json", "-")
	if s.StructuresStored != 11883 || s.Messages != 0 || !s.Verified {
		t.Errorf("msqueue.alg THREADS=2: %d stored, %d messages, verified %v; want 11883 stored, verified", s.StructuresStored, s.Messages, s.Verified)
	}
}
