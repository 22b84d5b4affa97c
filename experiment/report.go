package experiment

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tvla-go/tvla/internal/atomicfile"
)

// Report is an experiment's outcomes with what the reports say about how
// they were run.
type Report struct {
	Spec     *Spec
	Outcomes []*Outcome // the baseline first
	// Tool and Version name the program that ran the experiment.
	Tool, Version string
	Jobs          int
	MaxMemory     uint64        // the budget of the runs going at once
	Timeout       time.Duration // the time limit of runs that set none
	// Interrupted is set when the experiment was interrupted.
	Interrupted bool
	// Backend, when the runs were not made on this machine, says where,
	// e.g. "as Slurm job array 42" (Jobs, MaxMemory are then not shown).
	Backend string
}

// A column is one figure of a run: format for the tables, csvFormat for
// results.csv.
type column struct {
	title, key        string
	value             func(*Summary) float64
	format, csvFormat func(float64) string
}

func count(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

func fixed(decimals int) func(float64) string {
	return func(v float64) string { return strconv.FormatFloat(v, 'f', decimals, 64) }
}

// seconds shows a time to about three significant digits.
func seconds(v float64) string {
	switch {
	case v >= 10:
		return fixed(1)(v)
	case v >= 1:
		return fixed(2)(v)
	}
	return fixed(3)(v)
}

var columns = []column{
	{"unscheduled", "unscheduled", func(s *Summary) float64 { return float64(s.Unscheduled) }, count, count},
	{"stored", "stored", func(s *Summary) float64 { return float64(s.Stored) }, count, count},
	{"examined", "examined", func(s *Summary) float64 { return float64(s.Examined) }, count, count},
	{"breaches", "breaches", func(s *Summary) float64 { return float64(s.Breaches) }, count, count},
	{"time s", "time_s", func(s *Summary) float64 { return s.TimeSeconds }, seconds, fixed(3)},
	{"peak MiB", "peak_mib", func(s *Summary) float64 { return float64(s.PeakHeap) / (1 << 20) }, fixed(1), fixed(2)},
}

// cell is a figure as the tables show it: ">N" when the run stopped early
// (N is then a lower bound), "–" when the run has no figures.
func (c column) cell(o *Outcome) string {
	if o.Summary == nil {
		return "–"
	}
	s := c.format(c.value(o.Summary))
	if !o.Complete() {
		s = ">" + s
	}
	return s
}

// percent is o's figure as a percentage of the baseline's, rounded, with
// ok false when there is none (no figures, or a baseline of 0).
func (c column) percent(o, base *Outcome) (p float64, ok bool) {
	if o.Summary == nil || base.Summary == nil {
		return 0, false
	}
	b := c.value(base.Summary)
	if b == 0 {
		return 0, false
	}
	return 100 * c.value(o.Summary) / b, true
}

// percentCell shows a percentage as the thesis' tables do, to the unit:
// ">p" when only o stopped early (its figure is a lower bound), "<p" when
// only the baseline did, "?" when both did.
func (c column) percentCell(o, base *Outcome) string {
	if o == base {
		if o.Summary == nil || c.value(o.Summary) == 0 {
			return "–"
		}
		return "100"
	}
	p, ok := c.percent(o, base)
	if !ok {
		return "–"
	}
	s := strconv.FormatFloat(math.Round(p), 'f', 0, 64)
	switch oc, bc := o.Complete(), base.Complete(); {
	case oc && bc:
		return s
	case bc:
		return ">" + s
	case oc:
		return "<" + s
	}
	return "?"
}

func (r *Report) base() *Outcome { return r.Outcomes[0] }

// label names a run in the tables: "(baseline)" after the baseline's
// name (but one called so), "(reused)" after a run whose figures the
// cache gave.
func label(o *Outcome) string {
	var marks []string
	if o.Run.Baseline && o.Run.Name != "baseline" {
		marks = append(marks, "baseline")
	}
	if o.Reused {
		marks = append(marks, "reused")
	}
	if len(marks) == 0 {
		return o.Run.Name
	}
	return o.Run.Name + " (" + strings.Join(marks, ", ") + ")"
}

// ended reports whether the run was made and ended (so that it has an
// exit status): not one the experiment did not start, or one still
// queued or running.
func (o *Outcome) ended() bool { return o.Status != NotRun && o.Status != Unfinished }

// count is the number of runs with status st.
func (r *Report) count(st Status) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Status == st {
			n++
		}
	}
	return n
}

func (r *Report) reused() int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Reused {
			n++
		}
	}
	return n
}

// Table is the Markdown table of the outcomes: per run the figures, each
// with its percentage of the baseline's, and the verdict.
func (r *Report) Table() string {
	var b strings.Builder
	b.WriteString("| variant |")
	for _, c := range columns {
		fmt.Fprintf(&b, " %s | %% |", c.title)
	}
	b.WriteString(" verdict |\n|---|")
	for range columns {
		b.WriteString("---:|---:|")
	}
	b.WriteString("---|\n")
	for _, o := range r.Outcomes {
		fmt.Fprintf(&b, "| %s |", label(o))
		for _, c := range columns {
			fmt.Fprintf(&b, " %s | %s |", c.cell(o), c.percentCell(o, r.base()))
		}
		fmt.Fprintf(&b, " %s |\n", markdownEscape(o.Verdict()))
	}
	return b.String()
}

func markdownEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// Markdown is results.md: a heading, what was run and how to read the
// table, the table, and each run's description and command line.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	s := r.Spec
	title := s.Title
	if title == "" {
		title = "Experiment " + baseName(s.File)
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	if s.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(s.Description))
	}
	fmt.Fprintf(&b, "Program `%s`", s.Program)
	if s.Input != "" {
		fmt.Fprintf(&b, " on `%s`", s.Input)
	}
	if r.Backend != "" {
		fmt.Fprintf(&b, "; %d runs %s", len(r.Outcomes), r.Backend)
	} else {
		fmt.Fprintf(&b, "; %d runs, %d at a time", len(r.Outcomes), max(r.Jobs, 1))
	}
	if r.MaxMemory > 0 && r.Backend == "" {
		fmt.Fprintf(&b, ", each with a memory limit of %s", formatBytes(r.MaxMemory/uint64(max(r.Jobs, 1))))
	}
	if r.Timeout > 0 {
		fmt.Fprintf(&b, ", time limit %s unless a run sets its own", r.Timeout)
	}
	b.WriteString(" (spec: `" + baseName(s.File) + "`).\n")
	b.WriteString("Unscheduled: structures with no thread scheduled; stored: all kept at the end;\n" +
		"examined: all that actions produced; breaches: Coerce's sharpenings and discards;\n" +
		"time: tvla's analysis time; peak MiB: the largest heap in use. Each % column is the\n" +
		"figure before it as a percentage of the baseline's. `>N`: the run stopped at the\n" +
		"limit its verdict names, so N is a lower bound.\n\n")
	if n := r.reused(); n > 0 {
		fmt.Fprintf(&b, "(reused): %d of the %d runs were not made again: their figures are the stored\n"+
			"result of an earlier run of the same configuration, files and tool (the cache;\n"+
			"`--fresh` makes them again).\n\n", n, len(r.Outcomes))
	}
	switch n := r.count(Unfinished); {
	case r.Interrupted && r.Backend != "":
		b.WriteString("**The wait was interrupted** before every run had ended: those unfinished go on, and\n" +
			"`tvla experiment SPEC --collect DIR` writes the whole report once they have ended.\n\n")
	case r.Interrupted:
		b.WriteString("**The experiment was interrupted**: the runs marked so stopped early, those not run have no figures.\n\n")
	case n > 0:
		fmt.Fprintf(&b, "**%d of the %d runs had not finished** when this report was written: collect the results again once they have.\n\n", n, len(r.Outcomes))
	}
	b.WriteString(r.Table())
	b.WriteString("\n## Runs\n\n")
	for _, o := range r.Outcomes {
		fmt.Fprintf(&b, "- **%s**", label(o))
		if o.Run.Description != "" {
			fmt.Fprintf(&b, ": %s", strings.TrimSpace(o.Run.Description))
		}
		fmt.Fprintf(&b, "  \n  `%s`", ShellLine(o.Command))
		if o.Status == Failed || o.Status == TimedOut || o.Status == Cancelled {
			lines := strings.Split(strings.TrimSpace(o.Error), "\n")
			what := "error"
			if o.Status != Failed {
				what = string(o.Status)
			}
			fmt.Fprintf(&b, "  \n  %s: %s", what, markdownEscape(strings.Join(lines, "; ")))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// CSV is results.csv: one row per run, figures as plain numbers (the
// column complete says whether they are lower bounds), percentages of
// the baseline's to one decimal (empty when there is none).
func (r *Report) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"variant", "baseline", "description"}
	for _, c := range columns {
		head = append(head, c.key, c.key+"_pct")
	}
	head = append(head, "complete", "verdict", "exit_code", "command", "reused")
	w.Write(head)
	for _, o := range r.Outcomes {
		row := []string{o.Run.Name, strconv.FormatBool(o.Run.Baseline), o.Run.Description}
		for _, c := range columns {
			if o.Summary == nil {
				row = append(row, "", "")
				continue
			}
			row = append(row, c.csvFormat(c.value(o.Summary)))
			if p, ok := c.percent(o, r.base()); ok {
				row = append(row, strconv.FormatFloat(p, 'f', 1, 64))
			} else {
				row = append(row, "")
			}
		}
		exit := ""
		if o.ended() {
			exit = strconv.Itoa(o.ExitCode)
		}
		row = append(row, strconv.FormatBool(o.Complete()), o.Verdict(), exit, ShellLine(o.Command), strconv.FormatBool(o.Reused))
		w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}

type jsonReport struct {
	Tool           string    `json:"tool"`
	Version        string    `json:"version"`
	Spec           string    `json:"spec"`
	Title          string    `json:"title,omitempty"`
	Description    string    `json:"description,omitempty"`
	Program        string    `json:"program"`
	Input          string    `json:"input,omitempty"`
	Jobs           int       `json:"jobs"`
	MaxMemoryBytes uint64    `json:"max_memory_bytes"`
	Timeout        string    `json:"timeout,omitempty"`
	Interrupted    bool      `json:"interrupted"`
	Backend        string    `json:"backend,omitempty"`
	Runs           []jsonRun `json:"runs"`
}

type jsonRun struct {
	Name        string              `json:"name"`
	Description string              `json:"description,omitempty"`
	Baseline    bool                `json:"baseline"`
	Command     []string            `json:"command"`
	Options     jsonOptions         `json:"options"`
	Status      Status              `json:"status"`
	Verdict     string              `json:"verdict"`
	Complete    bool                `json:"complete"`
	ExitCode    *int                `json:"exit_code"`
	Error       string              `json:"error,omitempty"`
	Percent     map[string]*float64 `json:"percent_of_baseline"`
	// Summary is the run's own JSON summary, as tvla run wrote it.
	Summary json.RawMessage `json:"summary"`
	// Reused: the summary is a stored result of the same Key (the
	// cache), not of a run made now.
	Reused bool   `json:"reused"`
	Key    string `json:"key,omitempty"`
}

type jsonOptions struct {
	Defines         map[string]string `json:"defines"`
	Join            string            `json:"join"`
	CollapseThreads bool              `json:"collapse_threads"`
	Abs             []string          `json:"abs"`
	NonAbs          []string          `json:"nonabs"`
	MaxStructures   int               `json:"max_structures"`
	Timeout         string            `json:"timeout,omitempty"`
}

// JSON is results.json: the experiment, and per run its options, command
// line, verdict, percentages of the baseline's figures and the run's own
// JSON summary (null when it has none).
func (r *Report) JSON() []byte {
	s := r.Spec
	out := jsonReport{Tool: r.Tool, Version: r.Version, Spec: baseName(s.File), Title: s.Title, Description: s.Description,
		Program: s.Program, Input: s.Input, Jobs: max(r.Jobs, 1), MaxMemoryBytes: r.MaxMemory, Interrupted: r.Interrupted, Backend: r.Backend, Runs: []jsonRun{}}
	if r.Timeout > 0 {
		out.Timeout = r.Timeout.String()
	}
	for _, o := range r.Outcomes {
		run := jsonRun{Name: o.Run.Name, Description: o.Run.Description, Baseline: o.Run.Baseline, Command: o.Command,
			Options: jsonOptions{Defines: o.Run.Defines, Join: o.Run.Join, CollapseThreads: o.Run.CollapseThreads,
				Abs: o.Run.Abs, NonAbs: o.Run.NonAbs, MaxStructures: o.Run.MaxStructures},
			Status: o.Status, Verdict: o.Verdict(), Complete: o.Complete(), Error: o.Error,
			Percent: map[string]*float64{}, Summary: o.RawSummary, Reused: o.Reused, Key: o.Key}
		if t := o.Run.timeout(r.Timeout); t > 0 {
			run.Options.Timeout = t.String()
		}
		if o.ended() {
			code := o.ExitCode
			run.ExitCode = &code
		}
		if run.Summary == nil {
			run.Summary = json.RawMessage("null")
		}
		for _, c := range columns {
			if p, ok := c.percent(o, r.base()); ok {
				p = math.Round(p*10) / 10
				run.Percent[c.key] = &p
			} else {
				run.Percent[c.key] = nil
			}
		}
		out.Runs = append(out.Runs, run)
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	return append(data, '\n')
}

// ShellLine writes a command line, quoting the words a shell would read
// otherwise (predicate names with brackets, for one).
func ShellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`[]*?{}()<>|&;#~!,") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// formatBytes writes a size with a binary unit, as tvla's --max-memory
// reads it.
func formatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + "GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + "MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + "KiB"
	}
	return strconv.FormatUint(n, 10) + "B"
}

// ReportFiles names the files WriteFiles writes, as the log says it.
const ReportFiles = "results.md, results.csv, results.json and chart.svg"

// WriteFiles writes the report into dir: results.md, results.csv,
// results.json and chart.svg, each whole or not at all.
func (r *Report) WriteFiles(dir string) error {
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"results.md", r.Markdown()},
		{"results.csv", r.CSV()},
		{"results.json", r.JSON()},
		{"chart.svg", r.Chart()},
	} {
		if err := atomicfile.Write(filepath.Join(dir, f.name), f.data, true); err != nil {
			return err
		}
	}
	return nil
}

// Tally counts the runs the experiment made and those whose stored
// result it reused (a run the interrupt left undone is neither).
func (r *Report) Tally() (made, reused int) {
	for _, oc := range r.Outcomes {
		switch {
		case oc.Reused:
			reused++
		case oc.ended():
			made++
		}
	}
	return made, reused
}

// Problems lists the runs that failed (bad input, a task that failed)
// and those that did not end (cancelled, unfinished, never run), each as
// "NAME: what happened", in the spec's order: what decides an
// experiment's exit status besides an interrupt.
func (r *Report) Problems() (failed, unended []string) {
	for _, oc := range r.Outcomes {
		switch oc.Status {
		case Failed:
			failed = append(failed, fmt.Sprintf("%s: %s", oc.Run.Name, oc.Error))
		case Cancelled, Unfinished, NotRun:
			unended = append(unended, fmt.Sprintf("%s: %s", oc.Run.Name, oc.Verdict()))
		}
	}
	return failed, unended
}
