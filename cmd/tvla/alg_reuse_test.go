package main

import (
	"strings"
	"testing"
)

// The Michael-Scott queue without a garbage collector
// (docs/memory-reuse.md, "The Michael–Scott queue with reuse"): each ABA
// fault of Friggens (2013, Table 6.1) with two threads, as a trace whose
// steps name the .alg lines, with the stored count at the first message.
// msqueue-reuse.alg (no counters) shows ABA2 first; msqueue-aba2.alg
// (counters on Head and Tail only) shows it too, so the counter on next
// is what removes it; msqueue-aba1.alg (counters on Tail and next only)
// shows ABA1, so the counter on Head is what removes that one.
func TestMSQueueReuseABA(t *testing.T) {
	const aba2 = "linearisability: dequeue returns empty but the specification queue is not empty"
	cases := []struct {
		file, loc, msg string
		line           string
		stored         int
		steps          []string
	}{
		{"msqueue-reuse", "dequeue68_lp", aba2, "68", 4618, []string{
			"enqueue, line 45: cas(sstail.next, ssnext, n) succeeds",
			"dequeue, line 82: free sshead",
			"enqueue, line 33: n = new Node reuses a freed node",
			"enqueue, line 34: n.next = null",
			"enqueue, line 55: cas(Tail, sstail, n) fails",
		}},
		{"msqueue-aba2", "dequeue69_lp", aba2, "69", 5483, []string{
			"enqueue, line 46: cas(sstail.next, tnext, n) succeeds",
			"dequeue, line 83: free sshead",
			"enqueue, line 34: n = new Node reuses a freed node",
			"enqueue, line 56: cas(Tail, sstail, n) fails",
		}},
		{"msqueue-aba1", "dequeue81_lp", "linearisability: dequeue returns a value other than the specification's first value", "81", 6270, []string{
			"dequeue, line 82: free sshead",
			"enqueue, line 33: n = new Node reuses a freed node",
			"enqueue, line 34: n.next = null",
			"dequeue, line 81: cas(Head, sshead, ssnext) succeeds",
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			prog := "../../programs/queue/" + c.file + ".alg"
			want := c.loc + ": " + c.msg + " (dequeue, line " + c.line + ")"
			code, out, _ := runCLI("run", prog, "-D", "THREADS=2", "--max-messages", "1", "--trace")
			if code != 1 || !strings.Contains(out, want) {
				t.Fatalf("exit %d, want 1 with %q:\n%s", code, want, out)
			}
			trace := out[strings.Index(out, "trace 1:"):]
			for _, step := range c.steps {
				if !strings.Contains(trace, step) {
					t.Errorf("the trace has no step %q:\n%s", step, trace)
				}
			}
			s := runSummary(t, 1, "run", prog, "-D", "THREADS=2", "--max-messages", "1", "--json", "-")
			if s.StructuresStored != c.stored || s.Messages != 1 || s.Verified {
				t.Errorf("%d stored, %d messages, verified %v; want %d stored, 1 message", s.StructuresStored, s.Messages, s.Verified, c.stored)
			}
		})
	}
}

// ABA2 replays concretely: a concrete run of msqueue-reuse.alg with two
// threads reaches the same message at depth 91 (42,437 concrete
// structures, about 5 s of CPU: not with -short). Its shortest trace is
// the thesis' ABA2 with three nodes: both threads read the dummy D and
// its null next; one links its node X, moves Tail, dequeues (frees D)
// and starts an enqueue that reuses D and resets D.next; the other's
// cas(sstail.next, ssnext, n) then succeeds on D, outside the list, and
// its dequeue finds the queue empty while the specification holds its
// value.
func TestMSQueueReuseABA2Concrete(t *testing.T) {
	if testing.Short() {
		t.Skip("a concrete run of about 5 s")
	}
	code, out, _ := runCLI("run", "../../programs/queue/msqueue-reuse.alg", "-D", "THREADS=2", "--join", "conc", "--copies", "2", "--threads", "2", "--max-depth", "95", "--max-messages", "1", "--trace")
	want := "dequeue68_lp: linearisability: dequeue returns empty but the specification queue is not empty (dequeue, line 68)"
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("concrete run: exit %d, want 1 with %q:\n%s", code, want, out)
	}
	trace := out[strings.Index(out, "trace 1:"):]
	for _, step := range []string{"enqueue, line 33: n = new Node takes the freed node", "dequeue, line 82: free sshead", "enqueue, line 45: cas(sstail.next, ssnext, n) succeeds", "enqueue, line 55: cas(Tail, sstail, n) fails"} {
		if !strings.Contains(trace, step) {
			t.Errorf("the concrete trace has no step %q:\n%s", step, trace)
		}
	}
}

// The counters are the fix: msqueue-tagged.alg verifies with one thread
// and with two (the latter about 40 s of CPU: not with -short); with one
// thread the reuse model stores as many structures (reuse needs a second
// thread to go wrong).
func TestMSQueueTaggedVerifies(t *testing.T) {
	for _, p := range []string{"msqueue-reuse", "msqueue-tagged"} {
		s := runSummary(t, 0, "run", "../../programs/queue/"+p+".alg", "-D", "THREADS=1", "--json", "-")
		if s.StructuresStored != 624 || s.Messages != 0 || !s.Verified {
			t.Errorf("%s THREADS=1: %d stored, %d messages, verified %v; want 624 stored, verified", p, s.StructuresStored, s.Messages, s.Verified)
		}
	}
	if testing.Short() {
		t.Skip("the two-thread run takes about 40 s of CPU")
	}
	s := runSummary(t, 0, "run", "../../programs/queue/msqueue-tagged.alg", "-D", "THREADS=2", "--json", "-")
	if s.StructuresStored != 51566 || s.Messages != 0 || !s.Verified {
		t.Errorf("msqueue-tagged.alg THREADS=2: %d stored, %d messages, verified %v; want 51566 stored, verified", s.StructuresStored, s.Messages, s.Verified)
	}
}

// ABA1 replays concretely. Run on, the abstract run of msqueue-aba1.alg
// raises four messages (13,930 structures at the hundredth), among them
// the thesis' ABA1 in its one-value form: the dequeue's cas on Head
// succeeds on the reused old dummy when the queue is empty and takes a
// value. A concrete run with two threads reaches that message by depth
// 114 (156,893 concrete structures, about 22 s of CPU and 400 MB: not
// with -short); the abstract first message, a value other than the
// first, comes only at depth 131 (581,772 concrete structures to depth
// 140, measured once, docs/memory-reuse.md).
func TestMSQueueReuseABA1Concrete(t *testing.T) {
	if testing.Short() {
		t.Skip("a concrete run of about 22 s")
	}
	const prog = "../../programs/queue/msqueue-aba1.alg"
	want := "dequeue81_lp: linearisability: dequeue of a value while the specification queue is empty (dequeue, line 81)"
	code, out, _ := runCLI("run", prog, "-D", "THREADS=2", "--max-messages", "100")
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "structures stored     13930") {
		t.Fatalf("abstract run: exit %d, want 1 with %q and 13930 stored:\n%s", code, want, out)
	}
	code, out, _ = runCLI("run", prog, "-D", "THREADS=2", "--join", "conc", "--copies", "2", "--threads", "2", "--max-depth", "114", "--max-structures", "3000000")
	if code != 3 || !strings.Contains(out, want) || !strings.Contains(out, "structures stored     156893") {
		t.Fatalf("concrete run: exit %d, want 3 (depth limit) with %q and 156893 stored:\n%s", code, want, out)
	}
}
