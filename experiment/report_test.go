package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tvla-go/tvla/internal/golden"
)

// fakeReport is an experiment with every kind of outcome, with figures
// given (the runs do not happen).
func fakeReport() *Report {
	s := &Spec{File: "testdata/stack.toml", Dir: "testdata", Title: "The stack, four ways", Description: "Made-up figures.",
		Program: "stack.tvp", Input: "stack.tvs"}
	run := func(name, desc string, flags []string, status Status, sum *Summary, exit int) *Outcome {
		r := Run{Name: name, Description: desc, Baseline: name == "collapsed", Join: "part", Defines: map[string]string{}, Abs: []string{}, NonAbs: []string{}}
		s.Runs = append(s.Runs, r)
		o := &Outcome{Run: r, Status: status, Summary: sum, ExitCode: exit, Command: append([]string{"tvla", "run", "stack.tvp", "stack.tvs"}, flags...)}
		if sum != nil {
			o.RawSummary = json.RawMessage(`{"structures_stored": 1}`)
		}
		return o
	}
	outs := []*Outcome{
		run("collapsed", "any number of threads", []string{"--collapse-threads"}, Verified,
			&Summary{Unscheduled: 16, Stored: 328, Examined: 8912, Breaches: 57333, TimeSeconds: 1.891, PeakHeap: 25 << 20, Verified: true}, 0),
		run("threads-1", "", []string{"-D", "THREADS=1"}, Verified,
			&Summary{Unscheduled: 14, Stored: 86, Examined: 302, Breaches: 396, TimeSeconds: 0.0812, PeakHeap: 14 << 20, Verified: true}, 0),
		run("rel", "relational join", []string{"--collapse-threads", "--join", "rel", "--max-structures", "20000"}, Limit,
			&Summary{Unscheduled: 40, Stored: 20001, Examined: 30123, Breaches: 90000, TimeSeconds: 12.5, PeakHeap: 300 << 20, Incomplete: true,
				StopReason: "the structure limit (20000) was exceeded"}, 3),
		run("slow", "", []string{"--timeout", "1m0s"}, Limit,
			&Summary{Unscheduled: 100, Stored: 900, Examined: 9000, Breaches: 99, TimeSeconds: 60.02, PeakHeap: 40 << 20, Incomplete: true,
				StopReason: "the time limit (1m0s) was reached"}, 3),
		run("bug", "a faulty pop", []string{"-D", "BUG_POP_WRONG_VALUE", "--nonabs", "succ[ss,ssnext]"}, Messages,
			&Summary{Unscheduled: 7, Stored: 129, Examined: 285, Breaches: 814, Messages: 2, TimeSeconds: 0.1, PeakHeap: 16 << 20}, 1),
		run("breach", "", []string{"--nonabs", "has[next]"}, Messages,
			&Summary{Unscheduled: 8, Stored: 180, Examined: 1856, Breaches: 20000, Messages: 3, TimeSeconds: 0.25, PeakHeap: 20 << 20, Incomplete: true,
				StopReason: "Coerce found a structure inconsistent after the update of action CASsucc(Head, ss, ssnext) [pop38] at pop38: ..."}, 1),
		run("broken", "", []string{"-D", "THREADS=9"}, Failed, nil, 2),
		run("late", "", nil, NotRun, nil, 0),
	}
	outs[6].Error = "stack_preds.tvp:183:1: #error \"THREADS must be 1, 2, 3 or 4\"\nmore"
	return &Report{Spec: s, Outcomes: outs, Tool: "tvla", Version: "test", Jobs: 2, MaxMemory: 4 << 30, Timeout: 10 * time.Minute}
}

func TestReportGolden(t *testing.T) {
	r := fakeReport()
	golden.Check(t, "report.md", r.Markdown())
	golden.Check(t, "report.csv", r.CSV())
	golden.Check(t, "report.json", r.JSON())
	golden.Check(t, "chart.svg", r.Chart())
}

// Percentages of lower bounds are bounds: ">" when the run stopped early,
// "<" when the baseline did, "?" when both did.
func TestPercentOfLowerBounds(t *testing.T) {
	done := func(n int) *Outcome { return &Outcome{Summary: &Summary{Stored: n}} }
	stopped := func(n int) *Outcome { return &Outcome{Summary: &Summary{Stored: n, Incomplete: true}} }
	stored := columns[1]
	cases := []struct {
		o, base *Outcome
		want    string
	}{
		{done(150), done(100), "150"},
		{done(1), done(3), "33"},
		{done(2), done(3), "67"},
		{stopped(150), done(100), ">150"},
		{done(150), stopped(100), "<150"},
		{stopped(150), stopped(100), "?"},
		{done(5), done(0), "–"},
		{&Outcome{}, done(1), "–"},
	}
	for i, c := range cases {
		if got := stored.percentCell(c.o, c.base); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
	if b := stopped(7); stored.percentCell(b, b) != "100" || stored.cell(b) != ">7" {
		t.Errorf("the baseline's own row: %q %q", stored.percentCell(b, b), stored.cell(b))
	}
}

func TestLimitNames(t *testing.T) {
	for reason, want := range map[string]string{
		"the structure limit (20) was exceeded":            "max structures (20)",
		"the time limit (1m0s) was reached":                "timeout (1m0s)",
		"the memory limit (1GiB) was reached: 1.2GiB live": "memory (1GiB)",
		"the message limit (1) was reached":                "max messages (1)",
		"interrupted":                                      "interrupted",
		"":                                                 "a limit",
	} {
		if got := limitName(reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}

func TestShellLine(t *testing.T) {
	got := ShellLine([]string{"tvla", "run", "my prog.tvp", "--nonabs", "succ[ss,ssnext]", "-D", "X=it's"})
	want := `tvla run 'my prog.tvp' --nonabs 'succ[ss,ssnext]' -D 'X=it'\''s'`
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

// Tally counts made and reused runs, not those an interrupt left undone;
// WriteFiles writes the four report files.
func TestReportTallyAndFiles(t *testing.T) {
	r := fakeReport()
	want := 0
	for _, oc := range r.Outcomes {
		if oc.Status != NotRun {
			want++
		}
	}
	r.Outcomes[0].Reused = true
	if made, reused := r.Tally(); made != want-1 || reused != 1 {
		t.Errorf("made %d, reused %d; want %d and 1", made, reused, want-1)
	}
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.md", "results.csv", "results.json", "chart.svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

// Problems names the runs that decide an experiment's exit status: failed
// ones, and those that did not end; a verified run, one with messages, one
// stopped by a limit or timed out by the scheduler are none of them.
func TestReportProblems(t *testing.T) {
	oc := func(name string, st Status, errText string) *Outcome {
		return &Outcome{Run: Run{Name: name}, Status: st, Error: errText}
	}
	r := &Report{Outcomes: []*Outcome{
		oc("ok", Verified, ""), oc("bad", Failed, "x.tvp:1:1: syntax error\nmore"), oc("late", Unfinished, ""),
		oc("gone", Cancelled, "by user"), oc("never", NotRun, ""), oc("slow", TimedOut, "time limit"),
	}}
	failed, unended := r.Problems()
	if want := []string{"bad: x.tvp:1:1: syntax error\nmore"}; !slices.Equal(failed, want) {
		t.Errorf("failed %q, want %q", failed, want)
	}
	if want := []string{"late: unfinished", "gone: cancelled: by user", "never: not run"}; !slices.Equal(unended, want) {
		t.Errorf("unended %q, want %q", unended, want)
	}
	if failed, unended := (&Report{Outcomes: []*Outcome{oc("ok", Verified, "")}}).Problems(); failed != nil || unended != nil {
		t.Errorf("a verified run: %q %q", failed, unended)
	}
}
