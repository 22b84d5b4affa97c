package main

import (
	"strings"
	"testing"
)

// ABA1 replays concretely. Run on, the abstract run of msqueue-aba1.alg
// raises four messages (13,946 structures at the hundredth), among them
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
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "structures stored     13946") {
		t.Fatalf("abstract run: exit %d, want 1 with %q and 13946 stored:\n%s", code, want, out)
	}
	code, out, _ = runCLI("run", prog, "-D", "THREADS=2", "--join", "conc", "--copies", "2", "--threads", "2", "--max-depth", "114", "--max-structures", "3000000")
	if code != 3 || !strings.Contains(out, want) || !strings.Contains(out, "structures stored     156893") {
		t.Fatalf("concrete run: exit %d, want 3 (depth limit) with %q and 156893 stored:\n%s", code, want, out)
	}
}
