package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func program(dir, name string) string { return filepath.Join("..", "programs", dir, name) }

// List reversal from reverse.tvs beside the program: the reference's
// counts (programs/sll), verified, and the summary says so.
func TestAnalyseReverse(t *testing.T) {
	o, err := Analyse(context.Background(), Defaults(program("sll", "reverse.tvp")), Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	res := o.Result
	if res.Stats.Stored != 66 || res.Stats.Messages != 0 || !Verified(res) || Verdict(res) != "verified" {
		t.Errorf("%d stored, %d messages, verdict %s", res.Stats.Stored, res.Stats.Messages, Verdict(res))
	}
	if len(res.Locations) != 11 || res.Locations[0].Label != "L1" || res.Locations[0].Structures.Len() != 3 {
		t.Errorf("locations: %d, first %s with %d", len(res.Locations), res.Locations[0].Label, res.Locations[0].Structures.Len())
	}
	s := o.Summary("test")
	if s.Program != "reverse.tvp" || len(s.Inputs) != 1 || s.Inputs[0] != "reverse.tvs" || s.StructuresStored != 66 ||
		!s.Verified || s.Options.Join != "part" || s.Version != "test" || o.Soft != nil || s.SoftInvariants != nil {
		t.Errorf("summary %+v", s)
	}
}

// A structure limit stops the run: no error, an incomplete result whose
// outputs are written.
func TestAnalyseStopsAtTheStructureLimit(t *testing.T) {
	cfg := Defaults(program("sll", "merge.tvp"))
	cfg.MaxStructures = 20
	o, err := Analyse(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Result.Incomplete || !strings.Contains(o.Result.StopReason, "structure limit (20)") || Verified(o.Result) {
		t.Errorf("incomplete %v, reason %q", o.Result.Incomplete, o.Result.StopReason)
	}
	dir := t.TempDir()
	out := &Outputs{TVS: filepath.Join(dir, "out.tvs"), JSON: filepath.Join(dir, "s.json")}
	if err := out.Write(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out.JSON)
	if err != nil || !bytes.Contains(data, []byte(`"incomplete": true`)) {
		t.Errorf("summary %s (%v)", data, err)
	}
}

// A concrete run starts from the concrete instances of the inputs, and
// says how many it made on the log.
func TestAnalyseConcrete(t *testing.T) {
	cfg := Defaults(program("sll", "reverse.tvp"))
	cfg.Join, cfg.Concrete.Copies = "conc", 2
	var log bytes.Buffer
	o, err := Analyse(context.Background(), cfg, Hooks{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if o.Result.Stats.Stored != 60 || !Verified(o.Result) || o.Result.Locations[1].Structures.Len() != 10 {
		t.Errorf("%d stored, verdict %s", o.Result.Stats.Stored, Verdict(o.Result))
	}
	want := "concrete inputs: 4 structure(s) from 3 input structure(s) (summary individuals as 1 to 2 individuals, threads 1 to 2)\n"
	if log.String() != want {
		t.Errorf("log %q", log.String())
	}
}

// The collapsed stack without its hand-written soft invariants verifies
// with generated ones in three rounds (programs/stack/README.md,
// "Automatic soft invariants"): each round's figures, a line per new
// round on the log, and the typed values of the unconditional ones.
func TestAnalyseSoftRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("two seconds")
	}
	cfg := Defaults(program("stack", "stack.tvp"))
	cfg.CollapseThreads, cfg.Defines, cfg.Soft.Mode = true, []string{"NO_SOFT_INVARIANTS"}, SoftAuto
	var log bytes.Buffer
	o, err := Analyse(context.Background(), cfg, Hooks{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if o.Result.Stats.Stored != 328 || o.Result.Stats.Unscheduled != 16 || !Verified(o.Result) {
		t.Errorf("%d stored, %d unscheduled, %s", o.Result.Stats.Stored, o.Result.Stats.Unscheduled, Verdict(o.Result))
	}
	want := []SoftRound{
		{Generated: 384, Conditional: 0, Held: 184, Stored: 113, Verdict: "stopped at a constraint breached after an update"},
		{Generated: 508, Conditional: 124, Held: 185, Stored: 261, Verdict: "stopped at a constraint breached after an update"},
		{Generated: 562, Conditional: 178, Held: 204, Stored: 328, Verdict: "verified"},
	}
	soft := o.Soft
	if soft == nil || len(soft.Rounds) != len(want) {
		t.Fatalf("soft %+v", soft)
	}
	for i, r := range soft.Rounds {
		r.TimeSeconds = 0
		if r != want[i] {
			t.Errorf("round %d: %+v, want %+v", i+1, r, want[i])
		}
	}
	if n := strings.Count(log.String(), "soft invariants: round "); n != 2 ||
		!strings.HasPrefix(log.String(), "soft invariants: round 1: stopped at a constraint breached after an update; round 2 adds conditional ones for ") {
		t.Errorf("log %q", log.String())
	}
	// nif[idle,has[n]] and if[push9,opval[n]] held (Fig. 8.6).
	values := map[string]SoftValue{}
	for _, p := range soft.Set.Preds {
		for _, l := range soft.Set.LocationNames {
			values[l+" "+p.Name] = soft.Value(l, p)
		}
	}
	if values["idle has[n]"] != SoftNever || values["push9 opval[n]"] != SoftAlways || values["idle has[n]"].String() != "0" {
		t.Errorf("idle has[n] %v, push9 opval[n] %v", values["idle has[n]"], values["push9 opval[n]"])
	}
	// Of the 562: 384 unconditional, 156 held, and 178 conditional, 48
	// held, none implied: the 204 held of round 3.
	reported := 0
	for _, l := range soft.Set.LocationNames {
		reported += len(soft.ReportedAt(l))
	}
	if c := soft.Counts(); c != (SoftCounts{Unconditional: 384, HeldUnconditional: 156, Conditional: 178, HeldConditional: 48, Implied: 0}) ||
		reported != c.HeldConditional-c.Implied {
		t.Errorf("counts %+v, %d reported", c, reported)
	}
	if s := o.Summary("test").SoftInvariants; s == nil || s.Generated != 562 || len(s.Held) != 204 || s.Mode != "auto" {
		t.Errorf("summary %+v", s)
	}
}

// The printed form of each soft value.
func TestSoftValueStrings(t *testing.T) {
	for v, want := range map[SoftValue]string{SoftNotGenerated: "", SoftAlways: "1", SoftNever: "0", SoftUnknown: "1/2", SoftNoThread: "-"} {
		if v.String() != want {
			t.Errorf("%d: %q, want %q", v, v.String(), want)
		}
	}
}

// Embedding reverse's concrete runs (lists of up to 3 nodes) in its
// abstract run: sound, with the counts of both runs.
func TestEmbedReverse(t *testing.T) {
	cfg := Defaults(program("sll", "reverse.tvp"))
	cfg.Concrete = ConcreteConfig{Copies: 2, MaxDepth: 100}
	s, err := Open(cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Embed(context.Background(), EmbedOptions{MaxStructures: 20000, Explain: 3})
	if err != nil {
		t.Fatal(err)
	}
	sum := e.Summary("test")
	if !sum.Sound || sum.Incomplete || sum.ConcreteInputs != 4 || sum.ConcreteStructures != 60 || sum.AbstractStructures != 66 ||
		sum.Checked != 60 || sum.Options.Threads != 2 || sum.Options.MaxStructures != 20000 {
		t.Errorf("summary %+v", sum)
	}
}

// Errors name the flag at fault, and wrap the loader's.
func TestLoadErrors(t *testing.T) {
	cfg := Defaults(program("sll", "reverse.tvp"))
	cfg.Abs = []string{"nosuch"}
	_, err := Load(&cfg)
	if err == nil || !strings.HasPrefix(err.Error(), "--abs nosuch: ") {
		t.Errorf("unknown predicate: %v", err)
	}
	cfg = Defaults(program("sll", "nosuch.tvp"))
	if _, err := Load(&cfg); err == nil || !strings.HasSuffix(err.Error(), "nosuch.tvp: no such file or directory") {
		t.Errorf("missing program: %v", err)
	}
}

// A context that ends before the program is loaded stops the analysis
// there: Analyse returns the Outcome of an empty run, incomplete, whose
// reason says what was stopped, and whose outputs can be written.
func TestAnalyseStoppedBeforeLoading(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := Defaults(program("sll", "reverse.tvp"))
	if _, err := OpenContext(ctx, cfg, Hooks{}); err == nil || err.Error() != "interrupted while "+PhaseLoading {
		t.Errorf("OpenContext: %v", err)
	}
	o, err := Analyse(ctx, cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if res := o.Result; !res.Incomplete || res.StopReason != "interrupted while loading the program and its inputs" || Verified(res) {
		t.Errorf("incomplete %v, reason %q", res.Incomplete, res.StopReason)
	}
	dir := t.TempDir()
	out := &Outputs{TVS: filepath.Join(dir, "out.tvs"), DOT: filepath.Join(dir, "out.dot"), JSON: filepath.Join(dir, "s.json")}
	if err := out.Write(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out.JSON)
	if err != nil || !bytes.Contains(data, []byte(`"nothing_explored": true`)) || !bytes.Contains(data, []byte(`"locations": []`)) {
		t.Errorf("summary %s (%v)", data, err)
	}
	// Loaded, then stopped before the engine is built.
	s, err := Open(cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CompileContext(ctx); err == nil || err.Error() != "interrupted while "+PhaseBuilding {
		t.Errorf("CompileContext: %v", err)
	}
}

// cancelOn is a log that cancels a context when a line containing its
// text is written.
type cancelOn struct {
	bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.text)) {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// An interrupt between soft-invariant rounds (here as round 2 is about to
// be loaded; the engine build's own checks are engine's
// TestInterruptStopsTheEngineBuild) ends the refinement at once with
// round 1's result, stopped early, not with round 1's verdict: exit 3.
func TestSoftRoundsStoppedBetweenRounds(t *testing.T) {
	cfg := Defaults(program("stack", "stack.tvp"))
	cfg.CollapseThreads, cfg.Defines, cfg.Soft.Mode = true, []string{"NO_SOFT_INVARIANTS"}, SoftAuto
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &cancelOn{text: "round 2 adds", cancel: cancel}
	o, err := Analyse(ctx, cfg, Hooks{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	res := o.Result
	const reason = "interrupted while loading the program and its inputs for soft-invariant round 2 (the outputs hold round 1's result)"
	if !res.Incomplete || res.StoppedOnMessage || res.StopReason != reason || Verified(res) {
		t.Errorf("incomplete %v, stopped on a message %v, reason %q", res.Incomplete, res.StoppedOnMessage, res.StopReason)
	}
	if res.Stats.Stored != 113 || o.Soft == nil || len(o.Soft.Rounds) != 1 {
		t.Errorf("%d stored (round 1 stores 113), soft %+v", res.Stats.Stored, o.Soft)
	}
}
