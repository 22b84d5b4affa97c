// Command bench runs the benchmark suite: the bundled programs in their
// configurations with tvla and, with -ref, with the reference TVLA 3 on
// the same files, one after the other, and prints a Markdown table with
// the ratios.
//
//	go run ./bench [-ref] [-bin tvla] [-workers N] [-timeout 1h] [CASE|GROUP|all ...]
//	go run ./bench -list
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
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	list := fs.Bool("list", false, "list the cases and groups, and exit")
	fs.BoolVar(&o.ref, "ref", false, "also run the reference TVLA 3 and print ratios")
	fs.StringVar(&o.bin, "bin", "", "the tvla binary (default: go build ./cmd/tvla into a temporary folder)")
	fs.StringVar(&o.refTVLA, "ref-tvla", os.Getenv("REF_TVLA"), "the ref-tvla script (default: ../shared/tools/ref-tvla beside the repository)")
	fs.IntVar(&o.workers, "workers", 0, "tvla run --workers (0: one per CPU)")
	fs.DurationVar(&o.timeout, "timeout", time.Hour, "bound on each run; a run that hits it is reported as a timeout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bench [flags] [CASE|GROUP|all ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	o.root = root
	all := cases()
	if *list {
		for _, c := range all {
			slow := ""
			if c.slow {
				slow = " (slow)"
			}
			fmt.Fprintf(stdout, "%-32s %-11s %s %s%s\n", c.name, c.group, c.program, strings.Join(c.macros, " "), slow)
		}
		return 0
	}
	selected, err := selectCases(all, fs.Args())
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
	if o.bin == "" {
		o.bin = filepath.Join(scratch, "tvla")
		build := exec.Command("go", "build", "-o", o.bin, "./cmd/tvla")
		build.Dir, build.Stdout, build.Stderr = root, stderr, stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "bench: building tvla:", err)
			return 2
		}
	}
	if o.ref {
		if o.refTVLA == "" {
			o.refTVLA = filepath.Join(root, "..", "shared", "tools", "ref-tvla")
		}
		if os.Getenv("TVLA_HOME") == "" && os.Getenv("TVLA_MIRROR") == "" {
			fmt.Fprintln(stderr, "bench: -ref needs TVLA_HOME (an extracted TVLA 3) or TVLA_MIRROR (its fetched git folder)")
			return 2
		}
		if _, err := os.Stat(o.refTVLA); err != nil {
			fmt.Fprintln(stderr, "bench: no ref-tvla script:", err)
			return 2
		}
	}

	fmt.Fprintln(stdout, "| case | tool | stored | examined | breaches | analysis s | wall s | peak MB | verdict | wall ratio | memory ratio | counts |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	var timeRatios, memRatios []float64
	for _, c := range selected {
		ours := runOurs(o, c, scratch)
		fmt.Fprintln(stdout, row(c.name, "tvla", ours, "", "", ""))
		if !o.ref {
			continue
		}
		theirs := runReference(o, c, scratch)
		tr, mr, agree := "", "", ""
		if ours.err == "" && theirs.err == "" {
			t, m := theirs.wall.Seconds()/ours.wall.Seconds(), float64(theirs.peakKB)/float64(ours.peakKB)
			tr, mr = fmt.Sprintf("%.1f×", t), fmt.Sprintf("%.1f×", m)
			agree = "same"
			if !maps(ours.locations, theirs.locations) {
				agree = "DIFFERENT"
			}
			if theirs.verdict == "verified" || strings.HasPrefix(theirs.verdict, "msg") {
				timeRatios, memRatios = append(timeRatios, t), append(memRatios, m)
			}
		}
		fmt.Fprintln(stdout, row(c.name, "TVLA 3", theirs, tr, mr, agree))
	}
	if len(timeRatios) > 0 {
		fmt.Fprintf(stdout, "\n%d cases with both verdicts: wall-time ratio median %.1f×, geometric mean %.1f×, min %.1f×; memory ratio median %.1f×, min %.1f×\n",
			len(timeRatios), median(timeRatios), geomean(timeRatios), slices.Min(timeRatios), median(memRatios), slices.Min(memRatios))
	}
	return 0
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
	verdict                    string
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

func runOurs(o options, c benchCase, scratch string) outcome {
	summary := filepath.Join(scratch, "summary.json")
	os.Remove(summary)
	cfg := c.config(o)
	args := append(append([]string{"run", cfg.Program}, cfg.Inputs...), cfg.RunFlags()...)
	args = append(args, "-q", "--json", summary)
	cmd := exec.Command(o.bin, args...)
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
	if rerr != nil || json.Unmarshal(data, &d) != nil {
		out.err = fmt.Sprintf("failed (%v): %s", err, firstLine(stderr.String()))
		return out
	}
	out.stored, out.examined, out.breaches = d.StructuresStored, d.StructuresExamined, d.ConstraintBreaches
	out.analysis = time.Duration(d.TimeSeconds * float64(time.Second))
	out.locations = map[string]int{}
	for _, l := range d.Locations {
		out.locations[l.Label] = l.Structures
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
