package slurm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/tvla-go/tvla/experiment"
)

// classify sets o from what its task left and what Slurm says of it:
//
//   - tvla ended by itself (its status written, no signal, or a complete
//     summary): the run's result, as a local run's;
//   - no status yet, and the task queued or running (or Slurm not
//     answering): Unfinished;
//   - otherwise Slurm stopped the task, or it failed: TimedOut, Cancelled
//     or Failed, as Slurm's state says, or when Slurm has forgotten the
//     task, the message slurmstepd wrote in its log. The figures tvla
//     wrote when it stopped are kept (lower bounds).
func classify(o *experiment.Outcome, t *taskResult) {
	o.ExitCode = -1
	if t.status != nil {
		o.ExitCode, o.WallSeconds = t.status.ExitCode, t.status.seconds()
		if t.status.Signal == "" || completeSummary(t) {
			ended(o, t)
			return
		}
	}
	if t.status == nil && (t.unknown != nil || active(t.state.State) || (t.state.State == "" && !t.gone)) {
		o.Status, o.Error = experiment.Unfinished, waiting(t)
		return
	}
	if len(t.summary) > 0 {
		// The figures tvla wrote as it stopped: lower bounds.
		if o.SetResult(3, t.summary) != nil {
			o.Summary, o.RawSummary = nil, nil
		}
	}
	o.Status, o.Error = stopped(t)
}

// completeSummary reports whether the task's tvla ended by itself,
// whatever signal came after (the time limit reached as it wrote its
// status, say).
func completeSummary(t *taskResult) bool {
	switch t.status.ExitCode {
	case 0, 1:
	default:
		return false
	}
	var sum struct {
		Incomplete bool `json:"incomplete"`
	}
	return json.Unmarshal(t.summary, &sum) == nil && !sum.Incomplete
}

// ended sets the outcome of a tvla run that ended with the status the
// task wrote.
func ended(o *experiment.Outcome, t *taskResult) {
	switch code := t.status.ExitCode; code {
	case 0, 1, 3:
		err := o.SetResult(code, t.summary)
		if err == nil {
			return
		}
		o.Status, o.Error = experiment.Failed, fmt.Sprintf("the JSON summary of tvla run does not read: %v; its errors: %s", err, t.errText)
	default:
		o.Status, o.Error = experiment.Failed, t.errText
		if o.Error == "" {
			o.Error = fmt.Sprintf("tvla run ended with exit status %d%s", code, logTail(t.log))
		}
	}
}

// waiting says why a task has no result yet.
func waiting(t *taskResult) string {
	switch {
	case t.unknown != nil:
		return "Slurm did not answer: " + firstLine(t.unknown.Error())
	case t.state.State == "":
		return "not listed by Slurm yet"
	case t.state.State == "RUNNING" && t.state.Reason != "":
		return "running on " + t.state.Reason
	case t.state.Reason != "" && t.state.Reason != "None":
		return strings.ToLower(t.state.State) + " (" + t.state.Reason + ")"
	}
	return strings.ToLower(t.state.State)
}

// slurmstepd writes "*** JOB 42 ON node CANCELLED AT 2026-01-02T03:04:05
// DUE TO TIME LIMIT ***" into a task's output when Slurm stops it.
var stepdCancel = regexp.MustCompile(`\*\*\* JOB \S+ ON \S+ CANCELLED AT (\S+)( DUE TO [A-Z ]+?)? \*\*\*`)

// stopped says how a task that left no result of tvla's own ended: by
// Slurm's state, or when Slurm no longer knows the task, by its log.
func stopped(t *taskResult) (experiment.Status, string) {
	switch st := t.state.State; st {
	case "TIMEOUT":
		return experiment.TimedOut, "Slurm's time limit"
	case "DEADLINE":
		return experiment.TimedOut, "Slurm's deadline"
	case "CANCELLED":
		return experiment.Cancelled, "in Slurm"
	case "PREEMPTED":
		return experiment.Cancelled, "preempted by Slurm"
	case "OUT_OF_MEMORY":
		return experiment.Failed, "Slurm: out of memory (the task's --mem)" + logTail(t.log)
	case "FAILED", "NODE_FAIL", "BOOT_FAIL", "REVOKED", "SPECIAL_EXIT":
		return experiment.Failed, "Slurm: " + st + logTail(t.log)
	}
	if m := stepdCancel.FindStringSubmatch(t.log); m != nil {
		switch strings.TrimSpace(m[2]) {
		case "DUE TO TIME LIMIT":
			return experiment.TimedOut, "Slurm's time limit, at " + m[1]
		case "":
			return experiment.Cancelled, "in Slurm at " + m[1]
		}
		return experiment.Cancelled, "by Slurm at " + m[1] + ", " + strings.ToLower(strings.TrimSpace(m[2]))
	}
	switch {
	case strings.Contains(t.log, "oom-kill") || strings.Contains(t.log, "oom_kill"):
		return experiment.Failed, "Slurm: out of memory (the task's --mem)" + logTail(t.log)
	case t.status != nil && t.status.Signal != "":
		return experiment.Cancelled, "ended by SIG" + t.status.Signal
	case t.status == nil && t.log == "" && t.gone:
		return experiment.Cancelled, "never started, and Slurm no longer knows the task (cancelled while queued?)"
	}
	return experiment.Failed, "the task ended without tvla's exit status" + logTail(t.log)
}

// logTail is the last lines of a task's log, for an error.
func logTail(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return "; its log ends: " + strings.Join(lines, " / ")
}
