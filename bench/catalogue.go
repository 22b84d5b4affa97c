package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tvla-go/tvla/internal/catalogue"
)

// The catalogue's entries as cases: group "catalogue" holds the entries
// marked bench (too slow for the test suite), group "catalogue-all"
// every other settled entry; neither runs by default. A case runs
// `tvla run PROGRAM ARGS...` with the entry's arguments as written, and
// its result is checked against the entry (verdict, stored structures,
// rounds, message).

const cataloguePath = "programs/catalogue.toml"

// catalogueCases reads the catalogue under root.
func catalogueCases(root string) ([]benchCase, error) {
	entries, err := catalogue.Load(filepath.Join(root, cataloguePath))
	if err != nil {
		return nil, err
	}
	var out []benchCase
	for _, e := range entries {
		if e.Expect == catalogue.Unknown {
			continue
		}
		group := "catalogue-all"
		if e.Bench {
			group = "catalogue"
		}
		out = append(out, benchCase{name: "cat-" + e.Name, group: group, program: "programs/" + e.Program,
			args: e.RunArgs(filepath.Join(root, "programs")), entry: &e, macros: e.Defines(), firstMessage: slices.Contains(e.Args, "--max-messages")})
	}
	return out, nil
}

// mismatch says how a run's outcome differs from its catalogue entry
// ("" when it does not, or when the case is not an entry).
func mismatch(c benchCase, o outcome) string {
	e := c.entry
	if e == nil {
		return ""
	}
	if o.err != "" {
		return o.err
	}
	var out []string
	switch {
	case e.Expect == catalogue.Verified && o.verdict != "verified":
		out = append(out, "not verified")
	case e.Expect == catalogue.Fault && !slices.ContainsFunc(o.messages, func(m string) bool { return strings.Contains(m, e.Message) }):
		out = append(out, fmt.Sprintf("no message %q", e.Message))
	}
	if o.stored != e.Stored {
		out = append(out, fmt.Sprintf("%d stored, the catalogue says %d", o.stored, e.Stored))
	}
	if e.Rounds != 0 && o.rounds != e.Rounds {
		out = append(out, fmt.Sprintf("%d rounds, the catalogue says %d", o.rounds, e.Rounds))
	}
	return strings.Join(out, "; ")
}

const (
	tableStart = "<!-- catalogue table: go run ./bench -catalogue-table docs/catalogue.md -->"
	tableEnd   = "<!-- end of catalogue table -->"
)

// runCatalogueTable runs every settled entry of the catalogue (bench
// entries too) once with the tvla binary and replaces the table between
// the markers of the Markdown file doc. It returns 1 when a run differs
// from its entry (the table says how), else 0.
func runCatalogueTable(o options, doc, scratch string, stdout io.Writer) int {
	text, err := os.ReadFile(doc)
	if err != nil {
		fmt.Fprintln(stdout, "bench:", err)
		return 2
	}
	i, j := bytes.Index(text, []byte(tableStart)), bytes.Index(text, []byte(tableEnd))
	if i < 0 || j < i {
		fmt.Fprintf(stdout, "bench: %s has no %q ... %q markers\n", doc, tableStart, tableEnd)
		return 2
	}
	entries, err := catalogue.Load(filepath.Join(o.root, cataloguePath))
	if err != nil {
		fmt.Fprintln(stdout, "bench:", err)
		return 2
	}
	cases, _ := catalogueCases(o.root)
	var table strings.Builder
	fmt.Fprintf(&table, "%s\n\nMeasured %s with `%s` (%s), one run per entry, %d CPUs shared with other work (load average at the start: %s): times are wall-clock seconds of the whole `tvla run` process and vary with the load.\n\n",
		tableStart, time.Now().UTC().Format("2006-01-02 15:04 MST"), "go run ./bench -catalogue-table", gitRevision(o.root), runtime.NumCPU(), loadAverage())
	fmt.Fprintln(&table, "| algorithm | variant | threads | stored | time s | verdict | published result | note | entry |")
	fmt.Fprintln(&table, "|---|---|---|---:|---:|---|---|---|---|")
	code := 0
	for _, e := range entries {
		if e.Expect == catalogue.Unknown {
			fmt.Fprintf(&table, "| %s | %s | %s | — | — | not settled | %s | %s | `%s` |\n", e.Algorithm, e.Variant, e.Threads(), cell(e.Published), cell(e.Note), e.Name)
			continue
		}
		if e.Bench && o.skipBench {
			fmt.Fprintf(&table, "| %s | %s | %s | %s | — | %s, not run (a bench entry: the catalogue's count) | %s | %s | `%s` |\n", e.Algorithm, e.Variant, e.Threads(), thousands(e.Stored),
				e.Expect, cell(e.Published), cell(e.Note), e.Name)
			continue
		}
		c := cases[slices.IndexFunc(cases, func(c benchCase) bool { return c.entry.Name == e.Name })]
		fmt.Fprintf(stdout, "%s ...\n", e.Name)
		r := runTVLA(o, o.bin, c, scratch)
		verdict := "verified"
		if e.Expect == catalogue.Fault {
			// The message raised, as LOCATION: TEXT (without its action).
			i := slices.IndexFunc(r.messages, func(m string) bool { return strings.Contains(m, e.Message) })
			if i >= 0 {
				verdict = "fault: " + r.messageHeads[i]
			}
		}
		if m := joinNonEmpty(mismatch(c, r), concreteChecks(o, c, scratch)); m != "" {
			verdict, code = "**differs from the catalogue**: "+m, 1
		}
		switch e.Rounds {
		case 0:
		case 1:
			verdict += " (1 soft-invariant round)"
		default:
			verdict += fmt.Sprintf(" (%d soft-invariant rounds)", e.Rounds)
		}
		fmt.Fprintf(&table, "| %s | %s | %s | %s | %.1f | %s | %s | %s | `%s` |\n", e.Algorithm, e.Variant, e.Threads(), thousands(r.stored),
			r.wall.Seconds(), cell(verdict), cell(e.Published), cell(e.Note), e.Name)
	}
	fmt.Fprintf(&table, "\n%s\n", tally(entries))
	// The file is read again: it may have been edited during the runs.
	if text, err = os.ReadFile(doc); err == nil {
		i, j = bytes.Index(text, []byte(tableStart)), bytes.Index(text, []byte(tableEnd))
	}
	if err != nil || i < 0 || j < i {
		fmt.Fprintf(stdout, "bench: %s: lost its markers during the runs (%v)\n", doc, err)
		return 2
	}
	out := append(append(append([]byte{}, text[:i]...), table.String()...), text[j:]...)
	if err := os.WriteFile(doc, out, 0o644); err != nil {
		fmt.Fprintln(stdout, "bench:", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote the table into %s\n", doc)
	return code
}

// tally counts the entries by verdict, and the algorithms verified for
// any number of threads.
func tally(entries []catalogue.Entry) string {
	var verified, faults, replayed, unknown int
	unbounded := map[string]bool{}
	for _, e := range entries {
		switch e.Expect {
		case catalogue.Verified:
			verified++
			if e.Threads() == "unbounded (collapsed)" {
				unbounded[e.Algorithm] = true
			}
		case catalogue.Fault:
			faults++
			if e.Replay != nil {
				replayed++
			}
		default:
			unknown++
		}
	}
	return fmt.Sprintf("%d entries: %d verified, %d faults shown with a trace (%d of them replayed concretely), %d not settled; %d algorithms verified for any number of threads.",
		len(entries), verified, faults, replayed, unknown, len(unbounded))
}

// cell escapes a table cell's text.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// thousands prints n with thousands separators, as the docs do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func gitRevision(root string) string {
	out, err := exec.Command("git", "-C", root, "describe", "--always", "--dirty").Output()
	if err != nil {
		return "revision unknown"
	}
	return "revision " + strings.TrimSpace(string(out))
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}

// concreteChecks runs, for a bench entry, the concrete checks its table
// asks for, which the test suite runs for the other entries: the
// embedding check (tvla embed with the entry's macros and the table's
// bounds: exit 0, sound, at least min_concrete concrete structures
// checked) and the concrete replay of a fault (tvla run --join conc with
// the entry's arguments: exit 1 with the entry's message). It returns
// what failed ("" when nothing did, or there is nothing to check).
func concreteChecks(o options, c benchCase, scratch string) string {
	e := c.entry
	if e == nil || !e.Bench {
		return ""
	}
	var out []string
	if e.Embed != nil {
		if m := benchEmbed(o, c, scratch); m != "" {
			out = append(out, "embed: "+m)
		}
	}
	if r := e.Replay; r != nil {
		args := append(append([]string{"run", filepath.Join(o.root, c.program)}, c.args...), "-q", "--join", "conc",
			"--copies", fmt.Sprint(r.Copies), "--threads", fmt.Sprint(r.Threads), "--max-depth", fmt.Sprint(r.Depth))
		if !slices.Contains(e.Args, "--max-messages") {
			args = append(args, "--max-messages", "1")
		}
		cmd := exec.Command(o.bin, args...)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		_, _, timedOut, err := measured(cmd, o.timeout)
		code := cmd.ProcessState.ExitCode()
		switch {
		case timedOut:
			out = append(out, "replay: timeout")
		case code != 1 || !strings.Contains(stdout.String(), e.Message):
			out = append(out, fmt.Sprintf("replay: exit %d (%v), the message not reached", code, err))
		}
	}
	return strings.Join(out, "; ")
}

// benchEmbed runs tvla embed on a bench entry with an embed table.
func benchEmbed(o options, c benchCase, scratch string) string {
	e := c.entry
	summary := filepath.Join(scratch, "embed.json")
	os.Remove(summary)
	embedArgs, err := e.EmbedArgs(filepath.Join(o.root, "programs"))
	if err != nil {
		return err.Error()
	}
	args := append([]string{"embed", filepath.Join(o.root, c.program)}, embedArgs...)
	args = append(args, "--copies", fmt.Sprint(e.Embed.Copies), "--threads", fmt.Sprint(e.Embed.Threads),
		"--max-depth", fmt.Sprint(e.Embed.Depth), "-q", "--json", summary)
	cmd := exec.Command(o.bin, args...)
	_, _, timedOut, err := measured(cmd, o.timeout)
	if timedOut {
		return "timeout"
	}
	var s struct {
		Checked int  `json:"checked"`
		Sound   bool `json:"sound"`
	}
	data, rerr := os.ReadFile(summary)
	if rerr != nil || json.Unmarshal(data, &s) != nil {
		return fmt.Sprintf("no summary (%v)", err)
	}
	switch {
	case err != nil || !s.Sound:
		return fmt.Sprintf("not sound (%v)", err)
	case s.Checked < e.Embed.MinConcrete:
		return fmt.Sprintf("%d concrete structures checked, the table asks for at least %d", s.Checked, e.Embed.MinConcrete)
	}
	return ""
}

// joinNonEmpty joins the non-empty texts with "; ".
func joinNonEmpty(texts ...string) string {
	var out []string
	for _, t := range texts {
		if t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "; ")
}
