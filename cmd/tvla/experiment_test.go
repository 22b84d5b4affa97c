package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// maskTimes hides what changes from run to run in results.md's table:
// time and peak memory, and their percentages (a ">" stays).
func maskTimes(md string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		cells := strings.Split(l, " | ")
		if !strings.HasPrefix(l, "| ") || len(cells) != 14 || strings.HasPrefix(l, "| variant") {
			continue
		}
		for j, mask := range map[int]string{9: "T", 10: "T%", 11: "M", 12: "M%"} {
			if strings.HasPrefix(cells[j], ">") {
				mask = ">" + mask
			}
			cells[j] = mask
		}
		lines[i] = strings.Join(cells, " | ")
	}
	return strings.Join(lines, "\n")
}

// An experiment over the list reversal: the files it writes, the table
// (figures and percentages of the baseline's, a >N run), and each run's
// figures exactly those of tvla run with the same options.
func TestExperimentEndToEnd(t *testing.T) {
	// The runs are this test binary acting as tvla (TestMain).
	t.Setenv("TVLA_TEST_MAIN", "1")
	out := t.TempDir()
	code, stdout, stderr := runCLI("experiment", ownTestdata("experiment", "reverse.toml"), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "| variant | unscheduled | % | stored | % | examined | % | breaches | % | time s | % | peak MiB | % | verdict |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n" +
		"| declared (baseline) | 0 | – | 66 | 100 | 85 | 100 | 40 | 100 | T | T% | M | M% | verified |\n" +
		"| nonabs-y | 0 | – | 63 | 95 | 83 | 98 | 40 | 100 | T | T% | M | M% | verified |\n" +
		"| nonabs-t | 0 | – | 82 | 124 | 146 | 172 | 105 | 263 | T | T% | M | M% | 5 messages |\n" +
		"| rel | 0 | – | 85 | 129 | 85 | 100 | 40 | 100 | T | T% | M | M% | verified |\n" +
		"| limit | >0 | – | >21 | >32 | >18 | >21 | >10 | >25 | >T | >T% | >M | >M% | stopped: max structures (20) |\n"
	if got := maskTimes(stdout); got != want {
		t.Errorf("standard output:\n%s\nwant:\n%s", got, want)
	}
	golden := "# Reversing a list: abstraction choices\n\n" +
		"Program `../../../../programs/sll/reverse.tvp` on `../../../../programs/sll/reverse.tvs`; 5 runs, 1 at a time (spec: `reverse.toml`).\n" +
		"Unscheduled: structures with no thread scheduled; stored: all kept at the end;\n" +
		"examined: all that actions produced; breaches: Coerce's sharpenings and discards;\n" +
		"time: tvla's analysis time; peak MiB: the largest heap in use. Each % column is the\n" +
		"figure before it as a percentage of the baseline's. `>N`: the run stopped at the\n" +
		"limit its verdict names, so N is a lower bound.\n\n" + want +
		"\n## Runs\n\n" +
		"- **declared (baseline)**: the predicates as declared  \n  `tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs`\n" +
		"- **nonabs-y**: y is not an abstraction predicate  \n  `tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs --nonabs y`\n" +
		"- **nonabs-t**: t is not one: nodes merge, and the analysis raises false alarms  \n  `tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs --nonabs t`\n" +
		"- **rel**: relational join  \n  `tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs --join rel`\n" +
		"- **limit**: stopped after 20 structures  \n  `tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs --max-structures 20`\n"
	if got := maskTimes(string(md)); got != golden {
		t.Errorf("results.md:\n%s\nwant:\n%s", got, golden)
	}
	for _, l := range []string{"[1/5] declared: tvla run", "[3/5] nonabs-t: 82 stored, 5 messages", "[5/5] limit: >21 stored, stopped: max structures (20)"} {
		if !strings.Contains(stderr, l) {
			t.Errorf("progress lacks %q:\n%s", l, stderr)
		}
	}

	csv, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	row := regexp.MustCompile(`(?m)^nonabs-y,false,y is not an abstraction predicate,0,,63,95\.5,83,97\.6,40,100\.0,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,true,verified,0,tvla run \.\./\.\./\.\./\.\./programs/sll/reverse\.tvp \.\./\.\./\.\./\.\./programs/sll/reverse\.tvs --nonabs y,false$`)
	if !row.Match(csv) || !strings.Contains(string(csv), "\nlimit,false,stopped after 20 structures,0,,21,31.8,18,21.2,10,25.0,") {
		t.Errorf("results.csv:\n%s", csv)
	}
	svg, _ := os.ReadFile(filepath.Join(out, "chart.svg"))
	if !strings.HasPrefix(string(svg), "<svg ") || !strings.Contains(string(svg), ">&gt;21</text>") || !strings.Contains(string(svg), "Structures stored") {
		t.Errorf("chart.svg:\n%s", svg)
	}

	// results.json holds each run's own summary: the same as tvla run's
	// with the same options, but for time and memory.
	var res struct {
		Runs []struct {
			Name    string              `json:"name"`
			Percent map[string]*float64 `json:"percent_of_baseline"`
			Summary map[string]any      `json:"summary"`
		} `json:"runs"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil || len(res.Runs) != 5 {
		t.Fatalf("results.json: %v\n%s", err, data)
	}
	if p := res.Runs[1].Percent["stored"]; p == nil || *p != 95.5 || res.Runs[0].Percent["unscheduled"] != nil {
		t.Errorf("percentages %v", res.Runs[1].Percent)
	}
	code, alone, _ := runCLI("run", sll("reverse.tvp"), sll("reverse.tvs"), "--nonabs", "t", "--json", "-", "-q")
	var want2 map[string]any
	if err := json.Unmarshal([]byte(alone), &want2); err != nil || code != exitMessages {
		t.Fatalf("tvla run: exit %d, %v", code, err)
	}
	got := res.Runs[2].Summary
	for _, m := range []map[string]any{got, want2} {
		delete(m, "time_seconds")
		delete(m, "peak_heap_bytes")
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want2)
	if string(a) != string(b) {
		t.Errorf("the experiment's run:\n%s\ntvla run:\n%s", a, b)
	}
}

func TestExperimentRejectsBadSpecs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("program = \"nosuch.tvp\"\n[baseline]\njoin = \"best\"\n"), 0o644)
	code, out, errOut := runCLI("experiment", bad)
	want := bad + ":1:1: program nosuch.tvp: no such file (paths are relative to the spec's folder)\n" +
		bad + ":3:1: the baseline: join must be \"part\", \"rel\", \"ind\" or \"decomp\", not \"best\"\n"
	if code != exitInput || errOut != want || out != "" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad-results")); err == nil {
		t.Error("a bad spec made an output folder")
	}
	code, _, errOut = runCLI("experiment", ownTestdata("experiment", "reverse.toml"), "--jobs", "0")
	if code != exitInput || errOut != "tvla: --jobs must be at least 1\n" {
		t.Errorf("--jobs 0: exit %d, %q", code, errOut)
	}
}

func TestExperimentHelpHasAnExample(t *testing.T) {
	_, out, _ := runCLI("experiment", "--help")
	for _, want := range []string{"[[variant]]", "max_structures = 20000", "--jobs", "--max-memory", "--timeout", "--out", "--cache DIR", "--fresh", "(reused)", "Exit status",
		"--slurm", "--partition", "--slurm-time", "--slurm-mem", "--sbatch-arg", "--no-wait", "--collect DIR", "--poll", "timed out", "cancelled", "unfinished"} {
		if !strings.Contains(out, want) {
			t.Errorf("experiment --help lacks %q", want)
		}
	}
}

// Ctrl-C stops the runs going on, as it stops tvla run, starts no more,
// and still writes the results: exit 3. Here two runs go at once: one
// that would not end, and one that its own time limit stops.
func TestExperimentInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	out := t.TempDir()
	cmd, _, lines := signalChild(t, "[2/2] timed: >", 50*time.Millisecond, syscall.SIGINT,
		"experiment", ownTestdata("experiment", "slow.toml"), "--out", out, "--jobs", "2", "--workers", "1")
	if code := cmd.ProcessState.ExitCode(); code != exitLimit {
		t.Fatalf("exit %d\n%s", code, strings.Join(lines, "\n"))
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**The experiment was interrupted**", "| stopped: interrupted |\n", "| stopped: timeout (200ms) |\n", "| endless (baseline) | >0 | "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(strings.Join(lines, "\n"), "experiment interrupted") {
		t.Errorf("stderr:\n%s", strings.Join(lines, "\n"))
	}
}

// --dry-run checks the spec and lists the runs' commands; nothing runs
// and nothing is written.
func TestExperimentDryRun(t *testing.T) {
	code, out, errOut := runCLI("experiment", ownTestdata("experiment", "reverse.toml"), "--dry-run", "--timeout", "90s")
	const p = "tvla run ../../../../programs/sll/reverse.tvp ../../../../programs/sll/reverse.tvs"
	want := "declared: " + p + " --timeout 1m30s\n" +
		"nonabs-y: " + p + " --nonabs y --timeout 1m30s\n" +
		"nonabs-t: " + p + " --nonabs t --timeout 1m30s\n" +
		"rel: " + p + " --join rel --timeout 1m30s\n" +
		"limit: " + p + " --max-structures 20 --timeout 1m30s\n"
	if code != 0 || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
	if _, err := os.Stat(ownTestdata("experiment", "reverse-results")); err == nil {
		t.Error("--dry-run made the output folder")
	}
}
