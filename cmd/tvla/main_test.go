package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// runSummary runs tvla with args (which write the JSON summary to stdout,
// --json -), checks its exit code, and decodes the summary.
func runSummary(t *testing.T, wantCode int, args ...string) driver.Summary {
	t.Helper()
	code, out, errOut := runCLI(args...)
	if code != wantCode {
		t.Fatalf("%v: exit %d, want %d (stderr %q)", args, code, wantCode, errOut)
	}
	var s driver.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: stdout is not just the JSON summary: %v\n%s", args, err, out)
	}
	return s
}

func TestHelpListsCommands(t *testing.T) {
	code, out, _ := runCLI("--help")
	if code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	for _, want := range []string{"run", "version", "tvla run programs/stack/stack.tvp --collapse-threads"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI("version")
	if code != 0 || !strings.HasPrefix(out, "tvla ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestRunFlagsAreDeclared(t *testing.T) {
	code, out, _ := runCLI("run", "--help")
	if code != 0 {
		t.Fatalf("run --help exit %d", code)
	}
	for _, flag := range []string{"--join", "--action", "--props", "--max-structures", "--max-messages",
		"--collapse-threads", "--soft-invariants", "--soft-rounds", "--tvs", "--dot", "--svg", "--html", "--json", "--quiet", "--path", "-D"} {
		if !strings.Contains(out, flag) {
			t.Errorf("run --help lacks %s", flag)
		}
	}
}

func TestRunRejectsBadInputWithExit2(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.tvp")
	if err := os.WriteFile(prog, []byte("%%\n%%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"run"}, "requires at least 1 arg"},
		{[]string{"run", filepath.Join(dir, "missing.tvp")}, "missing.tvp: no such file or directory"},
		{[]string{"run", prog, "--join", "best"}, `--join must be rel, part, ind, decomp or conc, not "best"`},
		{[]string{"run", prog, "-join", "best"}, `--join must be rel, part, ind, decomp or conc, not "best"`},
		{[]string{"run", prog, "--action", "fub"}, `--action must match [f][c]pu[c]b, not "fub"`},
		{[]string{"run", prog, "-D", "1X"}, `bad macro definition "1X"`},
		{[]string{"run", prog, "--bogus"}, "unknown flag: --bogus"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, errOut, c.msg)
		}
	}
}

func TestTVLASpellings(t *testing.T) {
	got := normalizeTVLAFlags([]string{"p.tvp", "-join", "rel", "-ms", "10", "-terse", "-DGNUM(2)", "-props=x.properties", "--", "-join"})
	want := []string{"p.tvp", "--join", "rel", "--max-structures", "10", "--quiet", "-DGNUM(2)", "--props=x.properties", "--", "-join"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("normalize = %v", got)
	}
}

func sll(name string) string { return filepath.Join("..", "..", "programs", "sll", name) }

func TestRunVerifiesAndReports(t *testing.T) {
	dir := t.TempDir()
	jsonPath, tvsPath := filepath.Join(dir, "s.json"), filepath.Join(dir, "out.tvs")
	code, out, errOut := runCLI("run", sll("reverse.tvp"), "--json", jsonPath, "--tvs", tvsPath)
	if code != exitVerified {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "verified: fixpoint reached, no message raised") || !strings.Contains(out, "L2") {
		t.Errorf("table:\n%s", out)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var s driver.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.StructuresStored != 66 || s.Messages != 0 || !s.Verified || s.Incomplete || s.Program != "reverse.tvp" ||
		len(s.Inputs) != 1 || s.Inputs[0] != "reverse.tvs" || s.Options.Join != "part" || s.Options.Action != "fcpucb" {
		t.Errorf("summary %+v", s)
	}
	if len(s.Locations) != 11 || s.Locations[0].Label != "L1" || s.Locations[0].Structures != 3 {
		t.Errorf("locations %+v", s.Locations)
	}
	if _, err := os.Stat(tvsPath); err != nil {
		t.Errorf("no TVS output: %v", err)
	}
}

func TestRunReportsMessagesWithExit1(t *testing.T) {
	s := runSummary(t, exitMessages, "run", sll("search_nullderef.tvp"), "--json", "-", "-q")
	if s.Messages != 4 || s.Verified || len(s.MessageTexts) != 1 || s.MessageTexts[0] != "null dereference: y->nxt" {
		t.Errorf("summary %+v", s)
	}
}

func TestRunStopsAtStructureLimitWithExit3(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "s.json")
	code, _, errOut := runCLI("run", sll("merge.tvp"), "-ms", "20", "--json", jsonPath, "-q")
	if code != exitLimit || !strings.Contains(errOut, "structure limit (20)") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var s driver.Summary
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal("the summary was not written on stopping:", err)
	}
	if err := json.Unmarshal(data, &s); err != nil || !s.Incomplete || s.Verified {
		t.Errorf("summary %+v (%v)", s, err)
	}
}

func TestRunReadsTVLAProperties(t *testing.T) {
	dir := t.TempDir()
	props := filepath.Join(dir, "x.properties")
	os.WriteFile(props, []byte("# join as TVLA names it\ntvla.joinType = rel\ntvla.dot.rotate = true\n"), 0o644)
	code, out, errOut := runCLI("run", sll("reverse.tvp"), "-props", props, "--json", "-", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s driver.Summary
	json.Unmarshal([]byte(out), &s)
	if s.Options.Join != "rel" {
		t.Errorf("join %q, want rel from the properties file", s.Options.Join)
	}
	if !strings.Contains(errOut, "tvla.dot.rotate") {
		t.Errorf("unknown key not reported: %q", errOut)
	}
}

func TestExplainUpdates(t *testing.T) {
	code, out, errOut := runCLI("run", sll("reverse.tvp"), "-D", "DERIVE_UPDATES", "--explain-updates", "Store(y, t)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"%action Store(y, t)", "nxt(v1, v2) = nxt(v1, v2) | y(v1) & t(v2)  // written", "path(v1, v2) = path(v1, v2) | ", "// derived"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runCLI("run", sll("reverse.tvp"), "--explain-updates", "Nope")
	if code != exitInput || !strings.Contains(errOut, `no action "Nope" is used`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// The result must not depend on the number of workers: same table, same
// messages and traces, same TVS and DOT, byte for byte.
func TestWorkersDoNotChangeOutputs(t *testing.T) {
	for _, prog := range []string{"merge.tvp", "search_nullderef.tvp", "insert.tvp"} {
		outputs := map[int][]string{}
		for _, n := range []int{1, 4} {
			dir := t.TempDir()
			tvs, dotf := filepath.Join(dir, "out.tvs"), filepath.Join(dir, "out.dot")
			code, stdout, stderr := runCLI("run", sll(prog), "-q", "--trace", "--workers", strconv.Itoa(n), "--tvs", tvs, "--dot", dotf)
			if code > 1 {
				t.Fatalf("%s --workers %d: exit %d: %s", prog, n, code, stderr)
			}
			var table []string
			for _, line := range strings.Split(stdout, "\n") {
				if !strings.HasPrefix(line, "time ") {
					table = append(table, line)
				}
			}
			tvsText, err := os.ReadFile(tvs)
			if err != nil {
				t.Fatal(err)
			}
			dotText, err := os.ReadFile(dotf)
			if err != nil {
				t.Fatal(err)
			}
			outputs[n] = []string{strings.Join(table, "\n"), string(tvsText), string(dotText)}
		}
		for i, what := range []string{"report", "TVS", "DOT"} {
			if outputs[1][i] != outputs[4][i] {
				t.Errorf("%s: the %s with 4 workers differs from 1 worker's", prog, what)
			}
		}
		if !strings.Contains(outputs[1][0], "structures stored") {
			t.Errorf("%s: no report:\n%s", prog, outputs[1][0])
		}
	}
}

// When Coerce discards every input structure nothing is explored, and the
// verdict says so instead of claiming a proof.
func TestVacuousVerdict(t *testing.T) {
	dir := t.TempDir()
	prog, input := filepath.Join(dir, "v.tvp"), filepath.Join(dir, "v.tvs")
	if err := os.WriteFile(prog, []byte("%p x(v) unique\n%p y(v)\n%r x(v) ==> y(v)\n%%\n%action skip() {\n  %t \"skip\"\n}\n%%\nL1 skip() L2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(input, []byte("%n = {a}\n%p = {\n  x = {a}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("run", prog, input)
	if code != exitVerified || !strings.Contains(out, "verified, vacuously: Coerce discarded every input structure (1)") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// --join ind: one structure per location, individuals that may not exist
// printed with inac, the reference's message; the summary says ind.
func TestRunSingleStructureJoin(t *testing.T) {
	dir := t.TempDir()
	tvsPath := filepath.Join(dir, "out.tvs")
	s := runSummary(t, exitMessages, "run", sll("reverse.tvp"), "--join", "ind", "--json", "-", "-q", "--tvs", tvsPath)
	if s.Options.Join != "ind" || s.StructuresStored != 11 || s.Messages != 1 || len(s.MessageTexts) != 1 ||
		s.MessageTexts[0] != "a node may be unreachable from y (a leak)" {
		t.Errorf("summary %+v", s)
	}
	for _, l := range s.Locations {
		if l.Structures != 1 {
			t.Errorf("%s: %d structures", l.Label, l.Structures)
		}
	}
	data, err := os.ReadFile(tvsPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "inac = {u0:1/2, u1:1/2}") {
		t.Errorf("TVS output without inac:\n%.400s", data)
	}
}
