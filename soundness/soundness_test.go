package soundness_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/soundness"
)

// embed loads a program and its PROGRAM.tvs and checks it with TVLA's
// defaults for the abstract run, lists of up to 4 nodes (Copies 3) and
// at most 100 steps.
func embed(t testing.TB, path string, defines ...string) *soundness.Outcome {
	t.Helper()
	prog, inputs := testload.Program(t, path, testload.Defines(defines...))
	out, err := soundness.Embed(context.Background(), prog, inputs, soundness.EmbedOptions{
		Abstract:   engine.Options{Differencing: true},
		Concretize: engine.ConcretizeOptions{Copies: 3},
		MaxDepth:   100, MaxStructures: 20000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Report == nil {
		t.Fatalf("the abstract run stopped: %s", out.Abstract.StopReason)
	}
	return out
}

// The team's list programs are sound on every list of up to 4 nodes (two
// lists for append and merge), with the hand-written instrumentation
// updates and with derived ones: every concrete state embeds, the
// concrete run raises exactly the messages the analysis raises (none but
// the faulty search's null dereference), and no update formula disagrees
// with its definition on a concrete state. The counts of concrete
// structures are what the concrete runs reach (create's list grows
// without end, so its run stops at the depth limit).
func TestListProgramsAreSound(t *testing.T) {
	cases := []struct {
		name     string
		concrete int
		complete bool
	}{
		{"reverse", 90, true},
		{"create", 161, false},
		{"insert", 141, true},
		{"delete", 105, true},
		{"search", 65, true},
		{"search_nullderef", 66, true},
		{"append", 254, true},
		{"merge", 901, true},
	}
	for _, c := range cases {
		for _, variant := range []string{"", "DERIVE_UPDATES"} {
			t.Run(c.name+"/"+variant, func(t *testing.T) {
				var defs []string
				if variant != "" {
					defs = append(defs, variant)
				}
				out := embed(t, filepath.Join("..", "programs", "sll", c.name+".tvp"), defs...)
				rep := out.Report
				if !rep.Sound() || rep.UndecidedCount() > 0 || rep.Incomplete {
					t.Fatalf("not sound: %d failed, %d undecided, %d missed messages", rep.FailedCount(), rep.UndecidedCount(), len(rep.Missed))
				}
				if rep.Checked != c.concrete || out.Concrete.Stats.Stored != c.concrete {
					t.Errorf("%d concrete structures checked, want %d", rep.Checked, c.concrete)
				}
				if out.Concrete.Incomplete == c.complete {
					t.Errorf("concrete run incomplete %v (%s)", out.Concrete.Incomplete, out.Concrete.StopReason)
				}
				for _, n := range rep.Notes {
					t.Errorf("note at %s: %s", n.Location, n.Text)
				}
				wantMsgs := 0
				if c.name == "search_nullderef" {
					wantMsgs = 5
				}
				if out.Concrete.Stats.Messages != wantMsgs {
					t.Errorf("%d concrete messages, want %d", out.Concrete.Stats.Messages, wantMsgs)
				}
			})
		}
	}
}

// The planted unsound rule of testdata/embed/unsound_reach.tvp (a sound
// rule written the wrong way round) drops the states where a node outside
// x's list points into it: every such concrete state at L3 and L4 fails to
// embed, L3's message is missed, and the concrete run names the rule. The
// sound orientation passes.
func TestPlantedUnsoundRuleIsCaught(t *testing.T) {
	path := filepath.Join("..", "testdata", "embed", "unsound_reach.tvp")
	rep := embed(t, path).Report
	if rep.Sound() {
		t.Fatal("the unsound rule was not caught")
	}
	failed := map[string]int{}
	for _, l := range rep.Locations {
		failed[l.Label] = l.Failed
	}
	if failed["L1"] != 0 || failed["L2"] != 0 || failed["L3"] != 4 || failed["L4"] != 4 {
		t.Errorf("failures per location %v, want 4 at L3 and L4", failed)
	}
	f := rep.Failures[0]
	if f.Location != "L3" || len(f.Trace) != 3 || f.Trace[2].Action != "y->nxt = x" {
		t.Errorf("first failure at %s, trace %+v", f.Location, f.Trace)
	}
	// The closest candidate at L3 is the analysis' only structure there
	// (x empty), and the first mismatch is x's node.
	if len(f.Candidates) != 1 || !strings.HasPrefix(f.Candidates[0].Mismatches[0].String(), "x(u0) is 1 in the concrete structure") {
		t.Errorf("candidates %+v", f.Candidates)
	}
	if len(rep.Missed) != 1 || rep.Missed[0].Location != "L3" || rep.Missed[0].Text != "x = y loses x's old list" {
		t.Errorf("missed %+v", rep.Missed)
	}
	// The concrete run finds the rule false, with a trace to the first
	// state that breaks it: after y->nxt = x.
	if len(rep.Broken) != 1 || !strings.HasPrefix(rep.Broken[0].Text, engine.BrokenRule+"reach[x](v2) & nxt(v1, v2) ==> reach[x](v1)") ||
		len(rep.Broken[0].Trace) != 3 || rep.Broken[0].Action != "y->nxt = x" {
		t.Errorf("false claims %+v", rep.Broken)
	}
	if sound := embed(t, path, "SOUND").Report; !sound.Sound() || sound.Checked != 20 {
		t.Errorf("the sound orientation: sound %v, %d checked", sound.Sound(), sound.Checked)
	}
}

// The report does not depend on the number of workers.
func TestCheckIsDeterministic(t *testing.T) {
	path := filepath.Join("..", "testdata", "embed", "unsound_reach.tvp")
	out := embed(t, path)
	for _, w := range []int{1, 3} {
		rep := soundness.Check(context.Background(), out.Concrete, out.Abstract, soundness.Options{Workers: w})
		if rep.FailedCount() != 8 || len(rep.Failures) != 8 {
			t.Fatalf("%d workers: %d failed", w, rep.FailedCount())
		}
		for i, f := range rep.Failures {
			g := out.Report.Failures[i]
			if f.Location != g.Location || f.Index != g.Index || (f.Candidates == nil) != (g.Candidates == nil) {
				t.Errorf("%d workers: failure %d differs", w, i)
			}
		}
	}
	// A cancelled check is incomplete and checks nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := soundness.Check(ctx, out.Concrete, out.Abstract, soundness.Options{})
	if !rep.Incomplete || rep.Checked != 0 {
		t.Errorf("cancelled: incomplete %v, %d checked", rep.Incomplete, rep.Checked)
	}
}

// The planted rule of testdata/embed/unsound_silent.tvp sharpens instead
// of contradicting: the analysis raises nothing and verifies the program,
// but from L3 on the concrete states of lists of two or more nodes embed
// nowhere, the closest abstract structure at L3 differs by exactly the
// edge the rule cut, and L4's message is missed.
func TestPlantedSilentRuleIsCaught(t *testing.T) {
	path := filepath.Join("..", "testdata", "embed", "unsound_silent.tvp")
	out := embed(t, path)
	if out.Abstract.Stats.Messages != 0 || out.Abstract.Incomplete {
		t.Fatalf("the analysis itself noticed: %d messages, incomplete %v", out.Abstract.Stats.Messages, out.Abstract.Incomplete)
	}
	rep := out.Report
	failed := map[string]int{}
	for _, l := range rep.Locations {
		failed[l.Label] = l.Failed
	}
	if failed["L1"] != 0 || failed["L2"] != 0 || failed["L3"] != 13 || failed["L4"] != 13 || failed["L5"] != 13 {
		t.Errorf("failures per location %v", failed)
	}
	f := rep.Failures[0]
	if f.Location != "L3" || len(f.Candidates) == 0 {
		t.Fatalf("first failure %+v", f)
	}
	best := f.Candidates[0].Mismatches
	if len(best) != 1 || best[0].Pred != "nxt" || best[0].CV != logic.True || best[0].AV != logic.False {
		t.Errorf("closest candidate's mismatches %v, want the one cut nxt edge", best)
	}
	if len(rep.Missed) != 1 || rep.Missed[0].Location != "L4" {
		t.Errorf("missed %+v", rep.Missed)
	}
	if sound := embed(t, path, "SOUND").Report; !sound.Sound() {
		t.Errorf("without the rule: %d failed", sound.FailedCount())
	}
}
