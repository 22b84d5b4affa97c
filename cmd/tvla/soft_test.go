package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

var updateSoft = flag.Bool("update-soft", false, "rewrite testdata/soft/*.golden")

// toggle is the tiny collapsed thread model of the soft-invariant tests.
var toggle = filepath.Join("testdata", "soft", "toggle.tvp")

// maskSeconds replaces the times of a run's output by T, and the number
// of workers of the time line (one per CPU) by N.
var (
	seconds = regexp.MustCompile(`[0-9]+\.[0-9]{3}s?`)
	workers = regexp.MustCompile(`\((on 1 worker|summed over [0-9]+ workers):`)
)

func maskSeconds(s string) string {
	return workers.ReplaceAllString(seconds.ReplaceAllString(s, "T"), "(over N workers:")
}

// The collapsed toggle model fails without soft invariants (4 false
// alarms at c, where q is p but nothing says so); round 1 of the
// unconditional soft invariants still fails, with p and q both 1/2 at c;
// round 2 adds their conditional ones at c and verifies. The whole
// output of report is golden.
func TestSoftInvariantsReportGolden(t *testing.T) {
	code, _, _ := runCLI("run", toggle, "--collapse-threads", "-q")
	if code != exitMessages {
		t.Fatalf("collapsed without soft invariants: exit %d, want 1", code)
	}
	code, out, errOut := runCLI("run", toggle, "--collapse-threads", "--soft-invariants", "report", "-q")
	if code != exitVerified {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	got := maskSeconds(out)
	golden := filepath.Join("testdata", "soft", "toggle-report.golden")
	if *updateSoft {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/tvla -run SoftInvariantsReportGolden -update-soft to accept):\n%s", golden, got)
	}
	// auto prints the same but the TVP declarations.
	_, auto, _ := runCLI("run", toggle, "--collapse-threads", "--soft-invariants", "auto", "-q")
	if i := strings.Index(got, "\n// Soft invariants that held"); i < 0 || maskSeconds(auto) != got[:i] {
		t.Errorf("auto's output is not report's without the declarations:\n%s", auto)
	}
}

// The declarations report prints, pasted into the model (and their
// value 1 on the input's thread), give a model that verifies collapsed
// without --soft-invariants, in one run. --soft-invariants-out writes
// the same text.
func TestSoftInvariantsReportPastes(t *testing.T) {
	dir := t.TempDir()
	tvpOut := filepath.Join(dir, "held.tvp")
	code, out, errOut := runCLI("run", toggle, "--collapse-threads", "--soft-invariants", "report", "-q",
		"--soft-invariants-out", tvpOut, "--json", filepath.Join(dir, "s.json"))
	if code != exitVerified {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	decls, err := os.ReadFile(tvpOut)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "\n"+string(decls)) {
		t.Errorf("--soft-invariants-out is not what report printed:\n%s", decls)
	}
	var s driver.Summary
	data, _ := os.ReadFile(filepath.Join(dir, "s.json"))
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	model, _ := os.ReadFile(toggle)
	text := strings.Replace(string(model), "\n%%\n", "\n"+string(decls)+"\n%%\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "toggle.tvp"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	input, _ := os.ReadFile(strings.TrimSuffix(toggle, ".tvp") + ".tvs")
	var sets strings.Builder
	for _, name := range s.SoftInvariants.Reported {
		sets.WriteString("  " + name + " = {t}\n")
	}
	in := strings.Replace(string(input), "  at[a] = {t}\n", "  at[a] = {t}\n"+sets.String(), 1)
	if err := os.WriteFile(filepath.Join(dir, "toggle.tvs"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("run", filepath.Join(dir, "toggle.tvp"), "--collapse-threads", "--json", "-", "-q")
	if code != exitVerified {
		t.Fatalf("the model with the declarations pasted: exit %d, stderr %q", code, errOut)
	}
	var pasted driver.Summary
	if err := json.Unmarshal([]byte(out), &pasted); err != nil {
		t.Fatal(err)
	}
	if pasted.StructuresStored != s.StructuresStored || pasted.SoftInvariants != nil {
		t.Errorf("pasted: %d stored (generated: %d)", pasted.StructuresStored, s.StructuresStored)
	}
}

func TestSoftInvariantsJSON(t *testing.T) {
	s := runSummary(t, exitVerified, "run", toggle, "--collapse-threads", "--soft-invariants", "auto", "--json", "-", "-q")
	si := s.SoftInvariants
	if si == nil {
		t.Fatal("no soft_invariants in the summary")
	}
	want := driver.SoftSummary{
		Mode: "auto", LocationPattern: "at[*]", Locations: []string{"a", "b", "c"},
		ThreadPredicates: []string{"p", "q"}, Generated: 16, Skipped: []string{},
		Held:     []string{"nif[a,p]", "nif[a,q]", "nif[b,q]", "if[c,p,q]", "if[c,not[p],not[q]]"},
		Reported: []string{"nif[a,p]", "nif[a,q]", "nif[b,q]", "if[c,p,q]", "if[c,not[p],not[q]]"},
	}
	rounds := si.Rounds
	si.Rounds = nil
	if !reflect.DeepEqual(*si, want) {
		t.Errorf("soft_invariants %+v\nwant %+v", *si, want)
	}
	if len(rounds) != 2 || rounds[0].Generated != 12 || rounds[0].Verdict != "4 message(s)" ||
		rounds[1].Generated != 16 || rounds[1].Conditional != 4 || rounds[1].Held != 5 || rounds[1].Verdict != "verified" {
		t.Errorf("rounds %+v", rounds)
	}
	if s.StructuresStored != 9 || !s.Verified {
		t.Errorf("%d stored, verified %v", s.StructuresStored, s.Verified)
	}
	// One round only: the unconditional ones, and the false alarms.
	s = runSummary(t, exitMessages, "run", toggle, "--collapse-threads", "--soft-invariants", "auto", "--soft-rounds", "1", "--json", "-", "-q")
	if s.SoftInvariants == nil || len(s.SoftInvariants.Rounds) != 1 ||
		!reflect.DeepEqual(s.SoftInvariants.Held, []string{"nif[a,p]", "nif[a,q]", "nif[b,q]"}) {
		t.Errorf("--soft-rounds 1: %+v", s.SoftInvariants)
	}
	// Without --soft-invariants the summary has no such key.
	_, out, _ := runCLI("run", toggle, "--json", "-", "-q")
	if strings.Contains(out, "soft_invariants") {
		t.Error("soft_invariants in the summary of a run without soft invariants")
	}
}

// A location pattern that is not NAME[*] gives plain declarations, one
// %i and its rules per invariant: with *[c], at[c] is the location "at"
// and at[a], at[b], p and q its thread predicates.
func TestSoftInvariantsPlainDeclarations(t *testing.T) {
	_, out, errOut := runCLI("run", toggle, "--collapse-threads", "--soft-invariants", "report", "--soft-locations", "*[c]", "--soft-rounds", "1", "-q")
	for _, want := range []string{
		"unconditional: 8 (1 location(s) matching *[c], 4 thread predicate(s), if and nif), 2 held\n",
		"\n// at[a] does not hold\n%i nif[at,at[a]](v) = isthread(v) & (at[c](v) -> !at[a](v)) nonabs\n%r nif[at,at[a]](v) & at[c](v) ==> !at[a](v)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s%s", want, out, errOut)
		}
	}
}

func TestSoftInvariantsBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--soft-invariants", "auto"}, "--soft-invariants auto needs --collapse-threads"},
		{[]string{"--soft-invariants", "report"}, "--soft-invariants report needs --collapse-threads"},
		{[]string{"--soft-invariants", "maybe", "--collapse-threads"}, `--soft-invariants must be off, auto or report, not "maybe"`},
		{[]string{"--soft-pred", "p", "--collapse-threads"}, "need generated soft invariants: --soft-invariants auto or report, or an algorithm (.alg) with --collapse-threads"},
		{[]string{"--soft-invariants-out", "x.tvp"}, "need generated soft invariants: --soft-invariants auto or report"},
		{[]string{"--soft-rounds", "2"}, "--soft-rounds needs generated soft invariants: --soft-invariants auto or report, or an algorithm (.alg) with --collapse-threads"},
		{[]string{"--soft-rounds", "1", "--collapse-threads"}, "--soft-rounds needs generated soft invariants"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--soft-rounds", "0"}, "--soft-rounds must be at least 1"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--join", "conc"}, "cannot be used with --join conc"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--soft-locations", "at"}, "--soft-locations: location pattern \"at\" must have exactly one *"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--soft-locations", "pc[*]"}, "--soft-invariants: no location predicates: no unary predicate matches the pattern pc[*]"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--soft-pred", "zz"}, "--soft-invariants: --soft-pred zz: the program has no predicate zz"},
		{[]string{"--soft-invariants", "auto", "--collapse-threads", "--soft-skip", "p", "--soft-skip", "q"}, "--soft-invariants: no thread predicates"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(append([]string{"run", toggle, "-q"}, c.args...)...)
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, errOut, c.msg)
		}
		if strings.Contains(errOut, "panic") {
			t.Errorf("%v: %s", c.args, errOut)
		}
	}
}

// The collapsed stack without its hand-written soft invariants verifies
// with generated ones, in three rounds, storing the structures the
// hand-written ones give (328, 16 unscheduled; programs/stack/README.md,
// "Automatic soft invariants"). About two seconds.
func TestSoftInvariantsStack(t *testing.T) {
	if testing.Short() {
		t.Skip("two seconds")
	}
	stack := filepath.Join("..", "..", "programs", "stack", "stack.tvp")
	s := runSummary(t, exitVerified, "run", stack, "--collapse-threads", "-D", "NO_SOFT_INVARIANTS", "--soft-invariants", "auto", "--json", "-", "-q")
	si := s.SoftInvariants
	if s.StructuresStored != 328 || s.UnscheduledStructures != 16 || si == nil || len(si.Rounds) != 3 ||
		si.Generated != 562 || len(si.Held) != 204 || len(si.Skipped) != 0 {
		t.Fatalf("%d stored, %d unscheduled; soft invariants %+v", s.StructuresStored, s.UnscheduledStructures, si)
	}
	// Among them the thesis' (Fig. 8.6), in our naming.
	for _, name := range []string{
		"nif[idle,has[n]]", "nif[push9,doneLP]", "if[push9,opval[n]]", "if[push9,has[ss],succ[n,ss]]",
		"if[push9,not[has[ss]],tonull[n]]", "nif[pop35,doneLP]", "nif[pop35,has[n]]", "if[pop35,has[ss]]",
		"if[pop36,has[ssnext],succ[ss,ssnext]]", "if[pop36,not[has[ssnext]],tonull[ss]]", "nif[pop38,doneLP]",
		"nif[pop38,has[n]]", "if[pop38,opval[ss]]", "if[pop38,has[ssnext],succ[ss,ssnext]]",
		"if[pop38,not[has[ssnext]],tonull[ss]]",
	} {
		if !slices.Contains(si.Held, name) {
			t.Errorf("%s did not hold", name)
		}
	}
}

// A step from a location carries its conditional soft invariants to the
// next location when the thread's predicates are 1/2 on it: the step
// focuses on their conditions (model.FocusSoftConditions). carry.tvp
// needs "p implies q" carried from c to d by a step that changes
// neither; without the focus round 2 still fails at d (4 messages) and
// round 3 has no pair left to add.
func TestSoftFocusCarries(t *testing.T) {
	carry := filepath.Join("testdata", "soft", "carry.tvp")
	s := runSummary(t, exitVerified, "run", carry, "--collapse-threads", "--soft-invariants", "auto", "--json", "-", "-q")
	si := s.SoftInvariants
	if si == nil {
		t.Fatal("no soft_invariants in the summary")
	}
	if len(si.Rounds) != 2 || si.Rounds[0].Verdict != "4 message(s)" || si.Rounds[1].Verdict != "verified" {
		t.Errorf("rounds %+v", si.Rounds)
	}
	for _, want := range []string{"if[c,p,q]", "if[d,p,q]", "if[d,not[p],not[q]]"} {
		if !slices.Contains(si.Held, want) {
			t.Errorf("%s did not hold; held: %v", want, si.Held)
		}
	}
	if s.StructuresStored != 11 {
		t.Errorf("%d structures stored, want 11", s.StructuresStored)
	}
}

// An algorithm with --collapse-threads generates its soft invariants
// without --soft-invariants auto, so the flags that tune the generation
// apply to it as they do with auto: --soft-rounds 1 stops the compiled
// stack, refined from scratch, after its first round (504 generated,
// stopped at its first false alarm), where two rounds verify. Where
// nothing generates them (no --collapse-threads, or an explicit
// --soft-invariants off) the flag is refused, and the error says what
// would generate them.
func TestSoftRoundsOnAlgorithm(t *testing.T) {
	const prog = "../../programs/stack/treiber.alg"
	s := runSummary(t, exitMessages, "run", prog, "--collapse-threads", "--soft-from", "none", "--soft-rounds", "1", "--json", "-", "-q")
	si := s.SoftInvariants
	if si == nil || si.Mode != "auto" || len(si.Rounds) != 1 || si.Rounds[0].Generated != 504 || si.Rounds[0].Held != 218 ||
		si.Rounds[0].Stored != 740 || si.Rounds[0].Verdict != "stopped at a message (1 in all)" {
		t.Errorf("--soft-rounds 1: %+v", si)
	}
	const want = "tvla: --soft-rounds needs generated soft invariants: --soft-invariants auto or report, or an algorithm (.alg) with --collapse-threads\n"
	for _, args := range [][]string{
		{"--soft-rounds", "2"},
		{"--collapse-threads", "--soft-invariants", "off", "--soft-rounds", "2"},
	} {
		code, out, errOut := runCLI(append([]string{"run", prog, "-q"}, args...)...)
		if code != exitInput || out != "" || errOut != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 with %q", args, code, out, errOut, want)
		}
	}
	code, _, errOut := runCLI("run", prog, "-q", "--collapse-threads", "--soft-rounds", "0")
	if code != exitInput || errOut != "tvla: --soft-rounds must be at least 1\n" {
		t.Errorf("--soft-rounds 0: exit %d, stderr %q", code, errOut)
	}
}

// A saved set of pairs alone is a seed: round 1 generates every soft
// invariant with the conditional ones of its pairs. On the toggle model
// the pair at c is what round 2 of a run from scratch adds, so the seeded
// run verifies in one round with that round's figures (16 generated, 5
// held, 9 stored); a pair that names nothing of the program is left out,
// as from any saved set.
func TestSoftSeedOfPairs(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.soft")
	if err := os.WriteFile(seed, []byte("# pairs only\npair c p q\npair nowhere p q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("run", toggle, "--collapse-threads", "--soft-invariants", "auto", "--soft-from", seed, "--json", "-")
	var s driver.Summary
	if err := json.Unmarshal([]byte(out), &s); code != exitVerified || err != nil {
		t.Fatalf("exit %d, %v\n%s", code, err, errOut)
	}
	si := s.SoftInvariants
	if !s.Verified || s.StructuresStored != 9 || si == nil || len(si.Rounds) != 1 || si.Rounds[0].Generated != 16 || si.Rounds[0].Conditional != 4 ||
		!reflect.DeepEqual(si.Held, []string{"nif[a,p]", "nif[a,q]", "nif[b,q]", "if[c,p,q]", "if[c,not[p],not[q]]"}) {
		t.Errorf("seeded: verified %v, %d stored, %+v", s.Verified, s.StructuresStored, si)
	}
	for _, line := range []string{
		"soft invariants: round 1 generated them all, with the 1 pair(s) of the saved set " + seed + "\n",
		"warning: soft invariants: " + seed + ": 1 pair(s) name no location or thread predicate of the program, left out (first: nowhere p q); make the set again with --soft-save if the program changed\n",
	} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr lacks %q:\n%s", line, errOut)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.soft")
	if err := os.WriteFile(empty, []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI("run", toggle, "-q", "--collapse-threads", "--soft-invariants", "auto", "--soft-from", empty)
	if want := "tvla: " + empty + ":1:1: the set is empty: a set needs held lines"; code != exitInput || !strings.HasPrefix(errOut, want) {
		t.Errorf("an empty set: exit %d, stderr %q; want exit 2 with %q", code, errOut, want)
	}
}

// A --watch name that the program does not declare is told at once, when
// each round's program is built, not only when the run ends: on the carry
// model round 1 lacks the conditional if[c,p,q] its round 2 adds, and a
// misspelt name is missing from both rounds (and told once more at the
// end). A run without rounds tells it once. With -q too: these are
// warnings.
func TestWatchOfAnUndeclaredPredicateWarnsEarly(t *testing.T) {
	carry := filepath.Join("testdata", "soft", "carry.tvp")
	_, _, errOut := runCLI("run", carry, "--collapse-threads", "--soft-invariants", "auto", "-q", "--watch", "if[c,p,q]", "--watch", "if[c,nope]")
	want := "warning: --watch if[c,p,q]: the program of soft-invariant round 1 declares no unary predicate of that name (a later round may)\n" +
		"warning: --watch if[c,nope]: the program of soft-invariant round 1 declares no unary predicate of that name (a later round may)\n" +
		"warning: --watch if[c,nope]: the program of soft-invariant round 2 declares no unary predicate of that name (a later round may)\n" +
		"warning: --watch if[c,nope]: no soft-invariant round declared a unary predicate of that name\n"
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
	_, _, errOut = runCLI("run", carry, "-q", "--watch", "nope")
	if want := "warning: --watch nope: the program declares no unary predicate of that name\n"; errOut != want {
		t.Errorf("without rounds, stderr %q, want %q", errOut, want)
	}
}
