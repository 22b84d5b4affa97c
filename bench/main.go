// Command bench runs the benchmark suite: the bundled programs in their
// configurations with tvla and, with -ref, with the reference TVLA 3 on
// the same files, one after the other, and prints a Markdown table with
// the ratios.
//
//	go run ./bench [-ref] [-bin tvla] [-base REV|-base-bin tvla] [-repeat N] [-workers N] [-timeout 1h] [CASE|GROUP|all ...]
//	go run ./bench -memory [-memory-structures 300000] [-base REV|-base-bin tvla]
//	go run ./bench -list
//	go run ./bench catalogue                       # the catalogue's bench entries
//	go run ./bench -catalogue-table docs/catalogue.md
//
// With no CASE it runs the default groups (stack, queue, lists, sorting)
// without the slow cases; a group or case name selects those, "all" every
// case. The reference needs java and TVLA_HOME (an extracted TVLA 3) or
// TVLA_MIRROR (see ../shared/tools/ref-tvla, or set REF_TVLA to that
// script); each of its runs works on a copy of the program's folder, where
// it writes its outputs.
//
// Per run: structures stored and examined, constraint breaches, the
// tool's own analysis time, wall time and peak resident memory (of the
// process and its children: the JVM's for the reference), and the
// verdict. A reference run that stops at a constraint breached after an
// update exits 0 with no message; that is reported as "stopped", never
// as verified. The ratios are reference over tvla, for wall time and peak
// memory, and whether the per-location counts agree.
//
// -base REV builds tvla as it is at a git revision (for example the
// commit a branch started from) and runs it after ours on every case,
// with the same ratios (base over ours): a change's effect measured in
// one run. -repeat N runs each build N times per case, alternating, and
// reports the median times, for a shared, noisy machine.
//
// The entries of programs/catalogue.toml are cases too (catalogue.go):
// group "catalogue" runs those marked bench = true, too slow for the
// test suite, "catalogue-all" the others; each run is checked against
// its entry, and one that differs makes the exit status 1 (with -ref,
// the reference runs the .tvp entries with their macros; it cannot read
// an .alg program, and says so in its row).
// -catalogue-table FILE runs every settled entry once and writes the
// results table between the markers of FILE (docs/catalogue.md).
//
// -memory runs, instead of the cases, the memory report: the uncollapsed
// Michael–Scott queue (programs/queue/queue.tvp with no macros: unbounded
// threads, never reaching a fixpoint in memory) stopped at
// -memory-structures stored structures, by our build and the base
// build, with the collector at GOGC=25 and its trace on, and per build
// the peak live heap (from the trace: what decides how many structures
// fit under --max-memory), the peak heap in use and the peak resident
// memory, each per stored structure.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tvla-go/tvla/driver"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	ref     bool
	bin     string
	refTVLA string
	workers int
	timeout time.Duration
	root    string
	// base is a git revision built and run after ours on every case
	// (baseBin: a binary instead); repeat runs each build that many
	// times, alternating, and keeps the median times.
	base, baseBin string
	repeat        int
	// memory runs the memory report instead of the cases: bytes per
	// stored structure of the uncollapsed queue at memoryStructures.
	memory           bool
	memoryStructures int
	// catalogueTable is the Markdown file whose results table
	// -catalogue-table rewrites.
	catalogueTable string
	// skipBench leaves the catalogue's bench entries out of the
	// table's runs: their rows give the catalogue's count, no time.
	skipBench bool
}

func run(args []string, stdout, stderr io.Writer) int {
	o, names, list, ok := parseFlags(args, stderr)
	if !ok {
		return 2
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	o.root = root
	catalogued, err := catalogueCases(root)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	all := append(cases(), catalogued...)
	if list {
		for _, c := range all {
			slow := ""
			if c.slow {
				slow = " (slow)"
			}
			options := strings.Join(c.macros, " ")
			if c.entry != nil {
				options = strings.Join(c.args, " ")
			}
			fmt.Fprintf(stdout, "%-32s %-13s %s %s%s\n", c.name, c.group, c.program, options, slow)
		}
		return 0
	}
	selected, err := selectCases(all, names)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	scratch, err := os.MkdirTemp("", "tvla-bench")
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	defer os.RemoveAll(scratch)
	if err := o.prepare(scratch, stderr); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if o.memory {
		return runMemory(o, scratch, stdout)
	}
	if o.catalogueTable != "" {
		return runCatalogueTable(o, o.catalogueTable, scratch, stdout)
	}
	return runCases(o, selected, scratch, stdout)
}

// parseFlags reads the command line: the options, the cases named, and
// whether to list the cases.
func parseFlags(args []string, stderr io.Writer) (o options, names []string, list, ok bool) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&list, "list", false, "list the cases and groups, and exit")
	fs.BoolVar(&o.ref, "ref", false, "also run the reference TVLA 3 and print ratios")
	fs.StringVar(&o.bin, "bin", "", "the tvla binary (default: go build ./cmd/tvla into a temporary folder)")
	fs.StringVar(&o.refTVLA, "ref-tvla", os.Getenv("REF_TVLA"), "the ref-tvla script (default: ../shared/tools/ref-tvla beside the repository)")
	fs.IntVar(&o.workers, "workers", 0, "tvla run --workers (0: one per CPU)")
	fs.DurationVar(&o.timeout, "timeout", time.Hour, "bound on each run; a run that hits it is reported as a timeout")
	fs.StringVar(&o.base, "base", "", "also build this git `revision` of tvla and run it after ours on every case, with ratios (base over ours)")
	fs.StringVar(&o.baseBin, "base-bin", "", "like -base, with this tvla `binary`")
	fs.IntVar(&o.repeat, "repeat", 1, "run each build `N` times per case, alternating, and report the median times")
	fs.BoolVar(&o.memory, "memory", false, "instead of the cases, report bytes per stored structure of the uncollapsed Michael–Scott queue (with -base: of both builds)")
	fs.IntVar(&o.memoryStructures, "memory-structures", 300000, "the --max-structures of -memory")
	fs.BoolVar(&o.skipBench, "skip-bench", false, "with -catalogue-table, do not run the entries marked bench (the slow ones): their rows give the catalogue's stored count and no time")
	fs.StringVar(&o.catalogueTable, "catalogue-table", "", "instead of the cases, run every settled entry of programs/catalogue.toml and write the results table into the Markdown `FILE` (between its markers)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bench [flags] [CASE|GROUP|all ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, nil, false, false
	}
	if o.base != "" && o.baseBin != "" {
		fmt.Fprintln(stderr, "bench: -base and -base-bin exclude each other")
		return o, nil, false, false
	}
	o.repeat = max(o.repeat, 1)
	return o, fs.Args(), list, true
}

// prepare builds the binaries the run needs and checks the reference's
// set-up.
func (o *options) prepare(scratch string, stderr io.Writer) error {
	if o.bin == "" {
		o.bin = filepath.Join(scratch, "tvla")
		build := exec.Command("go", "build", "-o", o.bin, "./cmd/tvla")
		build.Dir, build.Stdout, build.Stderr = o.root, stderr, stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building tvla: %w", err)
		}
	}
	if o.base != "" {
		bin, err := buildRevision(o.root, o.base, scratch, stderr)
		if err != nil {
			return err
		}
		o.baseBin = bin
	}
	if !o.ref {
		return nil
	}
	if o.refTVLA == "" {
		o.refTVLA = filepath.Join(o.root, "..", "shared", "tools", "ref-tvla")
	}
	if os.Getenv("TVLA_HOME") == "" && os.Getenv("TVLA_MIRROR") == "" {
		return errors.New("-ref needs TVLA_HOME (an extracted TVLA 3) or TVLA_MIRROR (its fetched git folder)")
	}
	if _, err := os.Stat(o.refTVLA); err != nil {
		return fmt.Errorf("no ref-tvla script: %w", err)
	}
	return nil
}

// runCases runs the cases with tvla (and the base build, and the
// reference, when asked) and prints the table; it returns 1 when a
// catalogue entry's run differs from the entry, else 0.
func runCases(o options, selected []benchCase, scratch string, stdout io.Writer) int {
	code := 0
	fmt.Fprintln(stdout, "| case | tool | stored | examined | breaches | analysis s | wall s | peak MB | verdict | wall ratio | memory ratio | counts |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	var timeRatios, memRatios, baseRatios []float64
	for _, c := range selected {
		ours, base := runBuilds(o, c, scratch)
		if m := joinNonEmpty(mismatch(c, ours), concreteChecks(o, c, scratch)); m != "" {
			ours.verdict, code = ours.verdict+" (differs from the catalogue: "+m+")", 1
		}
		fmt.Fprintln(stdout, row(c.name, "tvla", ours, "", "", ""))
		if o.baseBin != "" {
			tr, mr, agree, t := compare(ours, base)
			if t > 0 {
				baseRatios = append(baseRatios, t)
			}
			fmt.Fprintln(stdout, row(c.name, "tvla (base)", base, tr, mr, agree))
		}
		if !o.ref {
			continue
		}
		theirs := runReference(o, c, scratch)
		tr, mr, agree, t := compare(ours, theirs)
		if t > 0 && (theirs.verdict == "verified" || strings.HasPrefix(theirs.verdict, "msg")) {
			timeRatios = append(timeRatios, t)
			memRatios = append(memRatios, float64(theirs.peakKB)/float64(ours.peakKB))
		}
		fmt.Fprintln(stdout, row(c.name, "TVLA 3", theirs, tr, mr, agree))
	}
	if len(baseRatios) > 0 {
		fmt.Fprintf(stdout, "\n%d cases against the base build: wall-time ratio (base over ours) median %.2f×, geometric mean %.2f×, min %.2f×\n",
			len(baseRatios), median(baseRatios), geomean(baseRatios), slices.Min(baseRatios))
	}
	if len(timeRatios) > 0 {
		fmt.Fprintf(stdout, "\n%d cases with both verdicts: wall-time ratio median %.1f×, geometric mean %.1f×, min %.1f×; memory ratio median %.1f×, min %.1f×\n",
			len(timeRatios), median(timeRatios), geomean(timeRatios), slices.Min(timeRatios), median(memRatios), slices.Min(memRatios))
	}
	return code
}

// compare gives the ratios of other's wall time and peak memory over
// ours', and whether the per-location counts agree; t is the time ratio
// (0 when either run failed).
func compare(ours, other outcome) (timeRatio, memRatio, agree string, t float64) {
	if ours.err != "" || other.err != "" {
		return "", "", "", 0
	}
	t, m := other.wall.Seconds()/ours.wall.Seconds(), float64(other.peakKB)/float64(ours.peakKB)
	agree = "same"
	if !maps(ours.locations, other.locations) {
		agree = "DIFFERENT"
	}
	return fmt.Sprintf("%.2f×", t), fmt.Sprintf("%.2f×", m), agree, t
}

// repoRoot finds the module root from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run inside the repository (no go.mod found)")
		}
		dir = parent
	}
}

func selectCases(all []benchCase, names []string) ([]benchCase, error) {
	var out []benchCase
	if len(names) == 0 {
		for _, c := range all {
			if defaultGroups[c.group] && !c.slow {
				out = append(out, c)
			}
		}
		return out, nil
	}
	for _, n := range names {
		found := false
		for _, c := range all {
			if n == "all" || c.name == n || (c.group == n && !c.slow) {
				if !slices.ContainsFunc(out, func(d benchCase) bool { return d.name == c.name }) {
					out = append(out, c)
				}
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no case or group %q (go run ./bench -list)", n)
		}
	}
	return out, nil
}

// outcome is one tool's run of a case.
type outcome struct {
	stored, examined, breaches int
	analysis, wall             time.Duration
	peakKB                     int64
	peakHeap                   uint64 // the tool's own figure (ours only)
	peakLive                   uint64 // the largest live heap GODEBUG=gctrace=1 reported
	verdict                    string
	messages                   []string // "LOCATION: TEXT (ACTION)"
	messageHeads               []string // the same, "LOCATION: TEXT"
	rounds                     int      // soft-invariant rounds
	locations                  map[string]int
	err                        string // timeout or failure: no figures
}

func row(name, tool string, o outcome, timeRatio, memRatio, agree string) string {
	if o.err != "" {
		return fmt.Sprintf("| %s | %s | | | | | %.1f | %d | %s | | | |", name, tool, o.wall.Seconds(), o.peakKB/1024, o.err)
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %.2f | %.2f | %d | %s | %s | %s | %s |", name, tool, o.stored, o.examined,
		o.breaches, o.analysis.Seconds(), o.wall.Seconds(), o.peakKB/1024, o.verdict, timeRatio, memRatio, agree)
}

// measured runs cmd with the timeout and returns its wall time, peak
// resident memory (KB, the largest of the process and its children) and
// whether it timed out.
func measured(cmd *exec.Cmd, timeout time.Duration) (time.Duration, int64, bool, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, false, err
	}
	timer := time.AfterFunc(timeout, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	err := cmd.Wait()
	wall := time.Since(start)
	timedOut := !timer.Stop()
	var peak int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss
	}
	return wall, peak, timedOut, err
}

// runTVLA runs a case with a tvla binary, with env added to the
// environment.
func runTVLA(o options, bin string, c benchCase, scratch string, env ...string) outcome {
	summary := filepath.Join(scratch, "summary.json")
	os.Remove(summary)
	cfg := c.config(o)
	args := append(append([]string{"run", cfg.Program}, cfg.Inputs...), cfg.RunFlags()...)
	args = append(append(args, c.args...), "-q", "--json", summary)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	wall, peak, timedOut, err := measured(cmd, o.timeout)
	out := outcome{wall: wall, peakKB: peak}
	if timedOut {
		out.err = "timeout"
		return out
	}
	var d driver.Summary
	data, rerr := os.ReadFile(summary)
	peakLive, rest := gcTrace(stderr.String())
	if rerr != nil || json.Unmarshal(data, &d) != nil {
		out.err = fmt.Sprintf("failed (%v): %s", err, firstLine(rest))
		return out
	}
	out.stored, out.examined, out.breaches = d.StructuresStored, d.StructuresExamined, d.ConstraintBreaches
	out.peakHeap, out.peakLive = d.PeakHeapBytes, peakLive
	out.analysis = time.Duration(d.TimeSeconds * float64(time.Second))
	out.locations = map[string]int{}
	for _, l := range d.Locations {
		out.locations[l.Label] = l.Structures
	}
	for _, g := range d.MessageGroups {
		out.messages = append(out.messages, fmt.Sprintf("%s: %s (%s)", g.Location, g.Text, g.Action))
		out.messageHeads = append(out.messageHeads, g.Location+": "+g.Text)
	}
	if d.SoftInvariants != nil {
		out.rounds = len(d.SoftInvariants.Rounds)
	}
	switch {
	case d.Verified:
		out.verdict = "verified"
	case d.Messages > 0:
		out.verdict = fmt.Sprintf("msg (%d)", d.Messages)
		for _, l := range d.Locations {
			if l.Messages > 0 {
				out.verdict = fmt.Sprintf("msg at %s", l.Label)
				break
			}
		}
	case d.Incomplete:
		out.verdict = "incomplete"
	}
	return out
}

var (
	refLocation = regexp.MustCompile(`(?m)^([^\s:]+):\t(\d+)\tstructures`)
	refTotal    = func(label string) *regexp.Regexp { return regexp.MustCompile(label + `\s*:\s*([\d.]+)`) }
	refExamined = refTotal("Total number of structures")
	refBreaches = refTotal("Num of constraint breaches")
	refMessages = refTotal("Total number of messages")
	refTime     = refTotal("Total analysis time")
	refStopLoc  = regexp.MustCompile(`Program location = (\S+)`)
)

func runReference(o options, c benchCase, scratch string) outcome {
	// The reference writes its outputs beside the program: give it a
	// copy of the program's folder.
	dir := filepath.Join(scratch, "ref")
	os.RemoveAll(dir)
	if err := copyDir(filepath.Join(o.root, filepath.Dir(c.program)), dir); err != nil {
		return outcome{err: "copy: " + err.Error()}
	}
	args := []string{filepath.Base(c.program), filepath.Base(c.inputFile())}
	for _, m := range c.macros {
		if name, value, ok := strings.Cut(m, "="); ok {
			args = append(args, "-D"+name+"("+value+")")
		} else {
			args = append(args, "-D"+m)
		}
	}
	if c.firstMessage {
		args = append(args, "-mm", "1")
	}
	cmd := exec.Command(o.refTVLA, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), fmt.Sprintf("TVLA_TIMEOUT=%d", int(o.timeout.Seconds())))
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	wall, peak, timedOut, _ := measured(cmd, o.timeout+time.Minute)
	out := outcome{wall: wall, peakKB: peak}
	text := log.String()
	if timedOut || wall >= o.timeout {
		out.err = "timeout"
		return out
	}
	return parseReference(text, out)
}

// parseReference reads the reference's own report.
func parseReference(text string, out outcome) outcome {
	number := func(re *regexp.Regexp) (float64, bool) {
		m := re.FindStringSubmatch(text)
		if m == nil {
			return 0, false
		}
		f, err := strconv.ParseFloat(m[1], 64)
		return f, err == nil
	}
	examined, ok := number(refExamined)
	if !ok {
		out.err = "failed: " + firstLine(text)
		return out
	}
	out.examined = int(examined)
	b, _ := number(refBreaches)
	out.breaches = int(b)
	t, _ := number(refTime)
	out.analysis = time.Duration(t * float64(time.Second))
	out.locations = map[string]int{}
	for _, m := range refLocation.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[2])
		out.locations[m[1]] = n
		out.stored += n
	}
	msgs, _ := number(refMessages)
	switch {
	case strings.Contains(text, "has stopped since a constraint was breached"):
		loc := "?"
		if m := refStopLoc.FindStringSubmatch(text); m != nil {
			loc = m[1]
		}
		out.verdict = "stopped: breach after update at " + loc
	case msgs > 0:
		out.verdict = fmt.Sprintf("msg (%d)", int(msgs))
	default:
		out.verdict = "verified"
	}
	return out
}

// maps reports whether two per-location counts agree on every location
// the reference lists (it lists only reached ones).
func maps(ours, theirs map[string]int) bool {
	for l, n := range theirs {
		if ours[l] != n {
			return false
		}
	}
	for l, n := range ours {
		if n != 0 && theirs[l] != n {
			return false
		}
	}
	return true
}

func copyDir(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".tvp") || strings.HasSuffix(e.Name(), ".tvs")) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func geomean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs)))
}
