package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/tvp"
)

// Summary holds the figures of a run, read from the JSON summary `tvla
// run --json` writes (docs/cli-contract.md).
type Summary struct {
	Unscheduled int     `json:"unscheduled_structures"`
	Stored      int     `json:"structures_stored"`
	Examined    int     `json:"structures_examined"`
	Breaches    int     `json:"constraint_breaches"`
	Messages    int     `json:"messages"`
	TimeSeconds float64 `json:"time_seconds"`
	PeakHeap    uint64  `json:"peak_heap_bytes"`
	Verified    bool    `json:"verified"`
	Incomplete  bool    `json:"incomplete"`
	StopReason  string  `json:"stop_reason"`
}

// Status is how a run ended.
type Status string

const (
	Verified    Status = "verified"    // fixpoint, no message (exit 0)
	Messages    Status = "messages"    // fixpoint, messages raised (exit 1)
	Limit       Status = "limit"       // stopped by a limit (exit 3)
	Interrupted Status = "interrupted" // stopped by the experiment's interrupt
	Failed      Status = "error"       // bad input or a crash: no figures
	NotRun      Status = "not run"     // the experiment was interrupted first
	// The statuses a scheduler gives (the Slurm back end, experiment/slurm):
	// Error then says how. The figures, when the run wrote any before it
	// was stopped, are lower bounds.
	TimedOut   Status = "timed out"  // stopped by the scheduler's time limit
	Cancelled  Status = "cancelled"  // cancelled (scancel) before it ended
	Unfinished Status = "unfinished" // still queued or running when collected
)

// Backend makes an experiment's runs: Runner, on this machine, or a
// cluster's scheduler (experiment/slurm). Run returns the outcomes in the
// spec's order; when ctx ends first, the outcomes so far and ctx's error.
type Backend interface {
	Run(ctx context.Context, s *Spec) ([]*Outcome, error)
}

var _ Backend = (*Runner)(nil)

// Outcome is what one run gave.
type Outcome struct {
	Run Run
	// Command is the `tvla run` command line of the run, paths relative
	// to the spec's folder, without the flags that only say how the
	// experiment runs it (--json, -q, --workers, --max-memory).
	Command []string
	Status  Status
	// Summary and RawSummary are the run's JSON summary (nil when the
	// run failed or did not run).
	Summary    *Summary
	RawSummary json.RawMessage
	ExitCode   int
	// Error is the run's error output when it failed; for a run a
	// scheduler stopped, or one not finished, how (TimedOut, Cancelled,
	// Unfinished).
	Error string
	// WallSeconds is the process's whole time, for the progress lines.
	WallSeconds float64
	// Reused is set when the figures are a stored result of the same
	// key (Cache), not of a run made now; Key is the run's key ("" when
	// no cache was used, or the run could not be keyed).
	Reused bool
	Key    string
}

// Complete reports whether the figures are those of a whole run, not
// lower bounds.
func (o *Outcome) Complete() bool {
	return o.Summary != nil && !o.Summary.Incomplete
}

// Verdict says in a few words how the run ended: verified, the number of
// messages, the limit that stopped it.
func (o *Outcome) Verdict() string {
	switch o.Status {
	case Verified:
		return "verified"
	case Messages:
		v := fmt.Sprintf("%d messages", o.Summary.Messages)
		if o.Summary.Messages == 1 {
			v = "1 message"
		}
		if o.Summary.Incomplete {
			// Stopped at a message: --max-messages, or a constraint
			// breached after an update.
			v += "; stopped: " + limitName(o.Summary.StopReason)
		}
		return v
	case Limit, Interrupted:
		return "stopped: " + limitName(o.Summary.StopReason)
	case Failed:
		return "error: " + firstLine(o.Error)
	case TimedOut, Cancelled, Unfinished:
		if o.Error != "" {
			return string(o.Status) + ": " + firstLine(o.Error)
		}
	}
	return string(o.Status)
}

// limitName shortens the engine's and the command's stop reasons ("the
// structure limit (100) was exceeded") to the limit's name.
func limitName(reason string) string {
	arg := func() string {
		if i, j := strings.Index(reason, "("), strings.Index(reason, ")"); i >= 0 && j > i {
			return " (" + reason[i+1:j] + ")"
		}
		return ""
	}
	switch {
	case strings.HasPrefix(reason, "the structure limit"):
		return "max structures" + arg()
	case strings.HasPrefix(reason, "the time limit"):
		return "timeout" + arg()
	case strings.HasPrefix(reason, "the memory limit"):
		return "memory" + arg()
	case strings.HasPrefix(reason, "the message limit"):
		return "max messages" + arg()
	case strings.HasPrefix(reason, "Coerce found a structure inconsistent after the update"):
		return "a constraint breached after an update"
	case reason == "":
		return "a limit"
	}
	return reason
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Runner runs the runs of a spec as `tvla run` processes.
type Runner struct {
	// Exe is the tvla executable; Env, when not nil, its environment.
	Exe string
	Env []string
	// Jobs is how many runs go at once (at least 1).
	Jobs int
	// MaxMemory is the memory budget of all the runs going at once: each
	// gets MaxMemory/Jobs as its --max-memory (0: no limit, given as
	// --max-memory 0 so that no run takes tvla run's default).
	MaxMemory uint64
	// Timeout bounds each run that sets no timeout of its own (0: none).
	Timeout time.Duration
	// Workers is each run's --workers (0: the CPUs shared among Jobs).
	Workers int
	// Log gets a line when a run starts and when it ends (nil: none).
	Log io.Writer
	// Cache, when not nil, gives the runs whose result it holds, which
	// are not made again, and stores the results of the runs made.
	Cache *Cache

	initOnce, killOnce sync.Once
	kill               chan struct{}
}

// Kill ends the runs going on at once, without their figures (a second
// Ctrl-C). Call it only while Run goes on.
func (rn *Runner) Kill() {
	rn.killOnce.Do(func() { close(rn.killChan()) })
}

func (rn *Runner) killChan() chan struct{} {
	rn.initOnce.Do(func() { rn.kill = make(chan struct{}) })
	return rn.kill
}

// Check loads the program and input of every run as tvla run would
// (the driver's loader, with the run's macros and abstraction overrides), and returns the errors as
// SpecErrors naming the run: a wrong macro, an unknown predicate, a
// program that does not parse under some variant's macros. An error a
// variant inherits from the baseline is reported once. Nothing runs.
func Check(s *Spec) error {
	var errs SpecErrors
	baseMsg := ""
	for _, r := range s.Runs {
		c := r.Config(0)
		cfg := c.LoadConfig()
		prog, _, err := driver.LoadProgram(s.ProgramPath(), cfg)
		if err == nil && s.InputPath() != "" {
			_, err = tvp.LoadTVS(s.InputPath(), prog.Vocabulary.Tvl(), cfg)
		}
		if err == nil {
			continue
		}
		msg, at := err.Error(), r.at[""]
		var ae *tvp.AbstractionError
		if errors.As(err, &ae) {
			key := "abs"
			if !ae.Abs {
				key = "nonabs"
			}
			msg = fmt.Sprintf("%s %s: %v", key, ae.Pred, ae.Err)
			if a, ok := r.at[key]; ok {
				at = a
			}
		} else if a, ok := r.at["defines"]; ok {
			at = a
		}
		if r.Baseline {
			baseMsg = msg
		} else if msg == baseMsg {
			continue
		}
		errs = append(errs, &SpecError{File: s.File, Line: at.line, Col: at.col,
			Msg: fmt.Sprintf("%s: %s", runWhat(r), strings.ReplaceAll(msg, "\n", "\n  "))})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func runWhat(r Run) string {
	if r.Baseline {
		return "the baseline"
	}
	return fmt.Sprintf("variant %q", r.Name)
}

// Run executes the spec's runs, Jobs at a time, and returns their
// outcomes in the spec's order. When ctx ends (an interrupt), the runs
// going on are told to stop (they end as `tvla run` does on Ctrl-C, with
// what they found), the others do not start, and Run returns ctx's error
// with the outcomes.
func (rn *Runner) Run(ctx context.Context, s *Spec) ([]*Outcome, error) {
	jobs := max(rn.Jobs, 1)
	out := make([]*Outcome, len(s.Runs))
	for i, r := range s.Runs {
		out[i] = &Outcome{Run: r, Status: NotRun, Command: rn.Command(s, r)}
	}
	todo, keys := rn.Cache.Consult(s, out, rn.logf)
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(jobs, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				n := next
				next++
				mu.Unlock()
				if n >= len(todo) || ctx.Err() != nil {
					return
				}
				i := todo[n]
				rn.logf("[%d/%d] %s: %s\n", i+1, len(s.Runs), s.Runs[i].Name, strings.Join(out[i].Command, " "))
				rn.runOne(ctx, s, out[i], jobs)
				o := out[i]
				rn.logf("[%d/%d] %s: %s (%.1fs)\n", i+1, len(s.Runs), o.Run.Name, o.Progress(), o.WallSeconds)
				if k := keys[i]; k != nil {
					if _, err := rn.Cache.Store(k, o); err != nil {
						rn.logf("experiment: cache: %s not stored: %v\n", o.Run.Name, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}

// Progress is the outcome as a progress line gives it: the stored
// structures (">N" for a lower bound) and the verdict.
func (o *Outcome) Progress() string {
	if o.Summary == nil {
		return o.Verdict()
	}
	more := ""
	if !o.Complete() {
		more = ">"
	}
	return fmt.Sprintf("%s%d stored, %s", more, o.Summary.Stored, o.Verdict())
}

func (rn *Runner) logf(format string, args ...any) {
	if rn.Log != nil {
		fmt.Fprintf(rn.Log, format, args...)
	}
}

// Command is the run's command line as a person would type it in the
// spec's folder.
func (rn *Runner) Command(s *Spec, r Run) []string {
	args := []string{"tvla", "run", s.Program}
	if s.Input != "" {
		args = append(args, s.Input)
	}
	return append(args, r.Flags(rn.Timeout)...)
}

// runOne runs tvla on one configuration and reads its JSON summary.
func (rn *Runner) runOne(ctx context.Context, s *Spec, o *Outcome, jobs int) {
	args := []string{"run", s.ProgramPath()}
	if in := s.InputPath(); in != "" {
		args = append(args, in)
	}
	args = append(args, o.Run.Flags(rn.Timeout)...)
	workers := rn.Workers
	if workers <= 0 {
		workers = max(1, runtime.NumCPU()/jobs)
	}
	args = append(args, "--json", "-", "-q", "--workers", strconv.Itoa(workers))
	// Always given: a run given none would take tvla run's default limit,
	// and Jobs runs at once would together go past it.
	args = append(args, "--max-memory", strconv.FormatUint(rn.MaxMemory/uint64(jobs), 10))
	cmd := exec.Command(rn.Exe, args...)
	cmd.Env = rn.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownProcessGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		o.Status, o.Error, o.ExitCode = Failed, err.Error(), -1
		return
	}
	done := make(chan struct{})
	go func() {
		// On an interrupt, the run stops as on Ctrl-C: it writes its
		// summary with what it found.
		select {
		case <-ctx.Done():
			interrupt(cmd)
		case <-done:
			return
		}
		select {
		case <-rn.killChan():
			cmd.Process.Kill()
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	o.WallSeconds = time.Since(start).Seconds()
	o.ExitCode = cmd.ProcessState.ExitCode()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		o.Status, o.Error = Failed, err.Error()
		return
	}
	switch o.ExitCode {
	case 0, 1, 3:
	default:
		o.Status, o.Error = Failed, strings.TrimSpace(stderr.String())
		if o.Error == "" {
			o.Error = fmt.Sprintf("tvla run ended with %s", cmd.ProcessState)
		}
		return
	}
	if err := o.SetResult(o.ExitCode, stdout.Bytes()); err != nil {
		o.Status, o.Error = Failed, fmt.Sprintf("the JSON summary of tvla run does not read: %v; its errors: %s", err, strings.TrimSpace(stderr.String()))
	}
}

// SetResult sets the outcome of a `tvla run` that exited with exitCode
// (0, 1 or 3) and wrote summary, its JSON summary: the figures and the
// status. A back end that collects runs' exit statuses and summaries
// (Slurm's, say) makes its outcomes with it, and stores them with
// Cache.Store.
func (o *Outcome) SetResult(exitCode int, summary []byte) error {
	var sum Summary
	if err := json.Unmarshal(summary, &sum); err != nil {
		return err
	}
	o.ExitCode = exitCode
	o.Summary, o.RawSummary = &sum, json.RawMessage(bytes.TrimSpace(summary))
	switch {
	case exitCode == 3 && sum.StopReason == "interrupted":
		o.Status = Interrupted
	case exitCode == 3:
		o.Status = Limit
	case exitCode == 1:
		o.Status = Messages
	case exitCode == 0:
		o.Status = Verified
	default:
		o.Summary, o.RawSummary = nil, nil
		return fmt.Errorf("tvla run's exit status %d has no summary", exitCode)
	}
	return nil
}

// Executable is the running program's path (the tvla binary).
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(exe)
}
