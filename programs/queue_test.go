package programs_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/tvp"
)

// The Michael-Scott queue with the merged specification (queue/README.md).

var queueProgram = filepath.Join("queue", "queue.tvp")

// runQueue analyses queue.tvp with queue.tvs beside it, TVLA's defaults
// and the given macros (NAME, or NAME=VALUE), stopping after maxMessages
// messages (0: no limit).
func runQueue(t testing.TB, maxMessages int, defines ...string) *engine.Result {
	t.Helper()
	return runWith(t, queueProgram, engine.Options{MaxMessages: maxMessages}, defines...)
}

// checkQueueVerified checks that the run reached its fixpoint without a
// message, with the given numbers of stored and unscheduled structures.
func checkQueueVerified(t *testing.T, res *engine.Result, stored, unscheduled int) {
	t.Helper()
	checkVerified(t, res, stored, unscheduled)
}

// One thread, restricted and full interleaving, with either dequeue. The
// restricted counts are the thesis' (Table 7.10: 26 unscheduled and 115
// stored with the original dequeue, 26 and 117 with the simplified one);
// all of them are also the reference TVLA 3's on the same files.
func TestQueueOneThreadVerifies(t *testing.T) {
	cases := []struct {
		name                string
		defines             []string
		stored, unscheduled int
	}{
		{"original", nil, 115, 26},
		{"simplified", []string{"DGLM"}, 117, 26},
		{"original/full", []string{"FULL_INTERLEAVING"}, 169, 53},
		{"simplified/full", []string{"DGLM", "FULL_INTERLEAVING"}, 175, 55},
		{"original/pure", []string{"PURE_INIT"}, 227, 52},
		{"simplified/pure", []string{"DGLM", "PURE_INIT"}, 219, 49},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkQueueVerified(t, runQueue(t, 0, append(c.defines, "THREADS=1")...), c.stored, c.unscheduled)
		})
	}
}

// Every soft invariant holds of an idle thread, so queue.tvs must set each
// one on the input's threads; a missing one would make Coerce discard the
// input. The list in queue_soft.tvs is written out by hand for each
// configuration: this checks it against the predicates queue_soft.tvp
// declares.
func TestQueueSoftInput(t *testing.T) {
	for _, defines := range [][]string{
		{"COLLAPSE_THREADS"},
		{"COLLAPSE_THREADS", "FULL_INTERLEAVING"},
		{"COLLAPSE_THREADS", "DGLM"},
		{"COLLAPSE_THREADS", "DGLM", "FULL_INTERLEAVING"},
		{"COLLAPSE_THREADS", "BUG_ENQ_TAIL_FIRST"},
	} {
		t.Run(strings.Join(defines, "+"), func(t *testing.T) {
			cfg := tvp.LoadConfig{Defines: map[string]string{}}
			for _, d := range defines {
				cfg.Defines[d] = "1"
			}
			prog, _, err := tvp.LoadProgram(queueProgram, cfg)
			if err != nil {
				t.Fatal(err)
			}
			locs, err := tvp.LoadTVS(strings.TrimSuffix(queueProgram, ".tvp")+".tvs", prog.Vocabulary.Tvl(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			soft := 0
			for _, l := range locs {
				for _, s := range l.Structures {
					text := s.Structure.String()
					for _, p := range prog.Vocabulary.Tvl().Preds() {
						if !strings.HasPrefix(p.Name, "if[") && !strings.HasPrefix(p.Name, "ifc[") {
							continue
						}
						soft++
						if !strings.Contains(text, "\n  "+p.Name+" = {") {
							t.Errorf("the input does not set %s", p.Name)
						}
					}
				}
			}
			if soft == 0 {
				t.Error("no soft invariants declared")
			}
		})
	}
}

// Each faulty variant raises its linearisability message, with a trace
// from the input, with either dequeue; the run stops at the first message
// (tvla run --max-messages 1). Each runs in its quickest configuration
// here (collapsed threads, two threads or one); go run ./bench queue runs them all.
func TestQueueBugsAreReported(t *testing.T) {
	const (
		emptyNotEmpty = "linearisability: dequeue finds the queue empty but the specification queue is not empty"
		specEmpty     = "linearisability: dequeue of a value while the specification queue is empty"
		value         = "linearisability: dequeue returns a value other than the specification's first"
	)
	cases := []struct {
		name                string
		defines             []string
		message             string // raised when the run stops
		stored, unscheduled int    // when the run stops
	}{
		{"BUG_ENQ_TAIL_FIRST/original", []string{"THREADS=2"}, specEmpty, 564, 68},
		{"BUG_ENQ_TAIL_FIRST/collapsed", []string{"COLLAPSE_THREADS", "DGLM"}, emptyNotEmpty, 414, 14},
		{"BUG_ENQ_TAIL_FIRST/simplified", []string{"THREADS=2", "DGLM"}, emptyNotEmpty, 937, 111},
		{"BUG_DEQ_NO_COMPARE/original", []string{"THREADS=2"}, specEmpty, 1723, 234},
		{"BUG_DEQ_NO_COMPARE/simplified", []string{"THREADS=2", "DGLM"}, specEmpty, 1041, 136},
		{"BUG_DEQ_NO_COMPARE/collapsed", []string{"COLLAPSE_THREADS", "DGLM"}, specEmpty, 277, 10},
		{"BUG_DEQ_RESET_NEXT/original", []string{"THREADS=2"}, emptyNotEmpty, 3687, 524},
		{"BUG_DEQ_RESET_NEXT/simplified", []string{"THREADS=2", "DGLM"}, emptyNotEmpty, 2421, 333},
		{"BUG_DEQ_RESET_NEXT/collapsed", []string{"COLLAPSE_THREADS", "DGLM"}, specEmpty, 545, 16},
		{"BUG_DEQ_WRONG_VALUE/original", []string{"THREADS=1"}, value, 77, 17},
		{"BUG_DEQ_WRONG_VALUE/simplified", []string{"THREADS=1", "DGLM"}, value, 66, 14},
		{"BUG_DEQ_WRONG_VALUE/collapsed", []string{"COLLAPSE_THREADS", "DGLM"}, value, 162, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bug, _, _ := strings.Cut(c.name, "/")
			res := runQueue(t, 1, append(c.defines, bug)...)
			if res.Stats.Messages == 0 || !res.Incomplete {
				t.Fatalf("%d messages (%s), want the run to stop at the first", res.Stats.Messages, res.StopReason)
			}
			// The run stops at the first message: --max-messages 1 records
			// exactly one (that application's structures are still joined).
			var msg engine.Message
			found := false
			for _, l := range res.Locations {
				for _, m := range l.Messages {
					if !strings.HasPrefix(m.Text, "linearisability: ") {
						t.Errorf("message %q at %s", m.Text, m.Location)
					}
					if m.Text == c.message && !found {
						msg, found = m, true
					}
				}
			}
			if !found {
				t.Fatalf("no message %q", c.message)
			}
			trace := res.Trace(msg)
			if len(trace) < 3 || trace[0].Action != "" || trace[0].Location != "ready" {
				t.Fatalf("trace of %d steps does not start at an input", len(trace))
			}
			last := trace[len(trace)-1]
			if last.Location != msg.Location || !strings.HasSuffix(last.Action, "fails") {
				t.Errorf("trace ends at %s after %q, want the failing check at %s", last.Location, last.Action, msg.Location)
			}
			if res.Stats.Stored != c.stored || res.Stats.Unscheduled != c.unscheduled {
				t.Errorf("%d structures stored, %d unscheduled; want %d and %d",
					res.Stats.Stored, res.Stats.Unscheduled, c.stored, c.unscheduled)
			}
		})
	}
}

// With one thread an enqueue's CAS steps always find what it read, a
// dequeue's CAS never fails and no thread holds an old snapshot: these
// faults cannot show, and the model verifies.
func TestQueueBugsNeedTwoThreads(t *testing.T) {
	for _, bug := range []string{"BUG_ENQ_TAIL_FIRST", "BUG_DEQ_NO_COMPARE", "BUG_DEQ_RESET_NEXT"} {
		t.Run(bug, func(t *testing.T) {
			res := runQueue(t, 0, bug, "THREADS=1")
			if res.Incomplete || res.Stats.Messages != 0 {
				t.Errorf("%d messages (%s)", res.Stats.Messages, res.StopReason)
			}
		})
	}
}

// BenchmarkQueue runs the heavier configurations (see also go run ./bench,
// which measures the README's table); each must verify.
func BenchmarkQueue(b *testing.B) {
	for _, c := range []struct {
		name    string
		defines []string
	}{
		{"collapsed", []string{"COLLAPSE_THREADS"}},
		{"collapsed-dglm", []string{"COLLAPSE_THREADS", "DGLM"}},
		{"collapsed-full", []string{"COLLAPSE_THREADS", "FULL_INTERLEAVING"}},
		{"collapsed-full-dglm", []string{"COLLAPSE_THREADS", "FULL_INTERLEAVING", "DGLM"}},
		{"threads-2", []string{"THREADS=2"}},
		{"threads-2-dglm", []string{"THREADS=2", "DGLM"}},
		{"threads-2-full", []string{"THREADS=2", "FULL_INTERLEAVING"}},
		{"threads-2-full-dglm", []string{"THREADS=2", "FULL_INTERLEAVING", "DGLM"}},
		{"no-tail-fixup-collapsed", []string{"COLLAPSE_THREADS", "DGLM", "NO_TAIL_FIXUP"}},
		{"threads-3-dglm", []string{"THREADS=3", "DGLM"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res := runQueue(b, 0, c.defines...)
				if res.Incomplete || res.Stats.Messages != 0 {
					b.Fatalf("not verified: %d messages (%s)", res.Stats.Messages, res.StopReason)
				}
			}
		})
	}
}
