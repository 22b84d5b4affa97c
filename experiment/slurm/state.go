package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/internal/atomicfile"
)

// Commands runs Slurm's tools (sbatch, squeue, sacct): Installed runs
// the installed ones; the tests give answers of their own.
type Commands interface {
	// Output runs name with args and returns its standard output; an
	// error holds what it wrote on standard error.
	Output(ctx context.Context, name string, args ...string) ([]byte, error)
}

// Installed runs Slurm's tools from the PATH.
type Installed struct{}

// Output runs the command and returns its standard output, or an error
// with its standard error.
func (Installed) Output(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, fmt.Errorf("%s: %s", name, msg)
		}
		return out, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// taskState is what Slurm says of a task: its state (PENDING, RUNNING,
// COMPLETED, TIMEOUT, CANCELLED, ...) and squeue's reason or node list.
type taskState struct {
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// active reports whether a task in state st may still run: Slurm's
// states but the final ones.
func active(st string) bool {
	switch st {
	case "", "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
		"DEADLINE", "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT":
		return false
	}
	return true
}

// query is what Slurm says of a job array's tasks.
type query struct {
	// states by task index; a task Slurm does not list is not in it.
	states map[int]taskState
	// gone is set when Slurm lists no task of the job: it ended long
	// enough ago to be forgotten (without accounting), or never was.
	gone bool
	// err is set when squeue did not answer: nothing is known.
	err error
}

// query asks Slurm about the tasks of job: sacct first, where the
// cluster keeps accounting (its record outlives the queue's), then
// squeue, whose answer on the tasks still queued or running, and on
// those ended in the last minutes, is always there.
func (b *Backend) query(ctx context.Context, job string) query {
	q := query{states: map[int]taskState{}}
	if !b.noSacct {
		out, err := b.commands().Output(ctx, "sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State")
		switch {
		case ctx.Err() != nil:
			return query{err: ctx.Err()}
		case err != nil:
			// Accounting is off on many small clusters: squeue alone then.
			b.noSacct = true
			b.logf("experiment: no accounting (%s): the tasks' states from squeue\n", firstLine(err.Error()))
		default:
			parseSacct(out, job, q.states)
		}
	}
	out, err := b.commands().Output(ctx, "squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%K|%T|%R")
	switch {
	case err != nil && strings.Contains(err.Error(), "Invalid job id"):
	case err != nil:
		q.err = err
		return q
	default:
		parseSqueue(out, q.states)
	}
	q.gone = len(q.states) == 0
	return q
}

// parseSqueue reads `squeue -h -r -o %K|%T|%R` lines: task index, state,
// reason or nodes. squeue's answer wins over sacct's (it is the newer).
func parseSqueue(out []byte, states map[int]taskState) {
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(strings.TrimSpace(line), "|", 3)
		if len(f) < 2 {
			continue
		}
		task, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		st := taskState{State: f[1]}
		if len(f) == 3 {
			st.Reason = strings.Trim(f[2], "()")
		}
		states[task] = st
	}
}

// parseSacct reads `sacct -n -P -X -o JobID,State` lines of job: JOB_N,
// or JOB_[N-M,...] for tasks not started, and states like "CANCELLED by
// 1000".
func parseSacct(out []byte, job string, states map[int]taskState) {
	for _, line := range strings.Split(string(out), "\n") {
		id, state, ok := strings.Cut(strings.TrimSpace(line), "|")
		if !ok {
			continue
		}
		tasks, ok := strings.CutPrefix(id, job+"_")
		if !ok {
			continue
		}
		state, _, _ = strings.Cut(state, " ")
		for _, t := range taskList(tasks) {
			states[t] = taskState{State: state}
		}
	}
}

// taskList reads an array's task list: "7", or "[0-3,5%2]".
func taskList(s string) []int {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	s, _, _ = strings.Cut(s, "%")
	var tasks []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				continue
			}
		}
		for t := a; t <= b; t++ {
			tasks = append(tasks, t)
		}
	}
	return tasks
}

// The waiting tvla records the last state it saw of each task in
// states.json, so that a later Collect knows how a task ended after
// Slurm has forgotten it (without accounting, a few minutes after).

func readStates(sd string) map[int]taskState {
	states := map[int]taskState{}
	data, err := os.ReadFile(filepath.Join(sd, "states.json"))
	if err == nil {
		var byName map[string]taskState
		if json.Unmarshal(data, &byName) == nil {
			for k, st := range byName {
				if t, err := strconv.Atoi(k); err == nil {
					states[t] = st
				}
			}
		}
	}
	return states
}

func writeStates(sd string, states map[int]taskState) error {
	byName := map[string]taskState{}
	for t, st := range states {
		byName[strconv.Itoa(t)] = st
	}
	data, err := json.MarshalIndent(byName, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(sd, "states.json"), append(data, '\n'), false)
}

// merge completes q with the final states recorded earlier, for the
// tasks Slurm no longer lists.
func (q *query) merge(recorded map[int]taskState) {
	for t, st := range recorded {
		if _, ok := q.states[t]; !ok && !active(st.State) {
			q.states[t] = st
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
