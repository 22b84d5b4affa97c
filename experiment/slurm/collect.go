package slurm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tvla-go/tvla/experiment"
	"github.com/tvla-go/tvla/internal/atomicfile"
)

// manifestFormat names the layout of manifest.json.
const manifestFormat = "tvla-experiment-slurm/1"

// manifest is a submission: what Collect needs to read the results
// folder back, with no other file (the cache may be elsewhere, or gone).
type manifest struct {
	Format string `json:"format"`
	// Spec is the spec's absolute path, for a person reading the file.
	Spec      string   `json:"spec"`
	JobID     string   `json:"job_id"`
	Submitted string   `json:"submitted,omitempty"`
	Sbatch    []string `json:"sbatch,omitempty"`
	// Cache is the cache folder the results are stored in ("": none).
	Cache string `json:"cache,omitempty"`
	// Timeout is the experiment's --timeout, part of the runs' commands.
	Timeout string `json:"timeout,omitempty"`
	// Collected is set once every task has ended and its result was
	// stored in the cache.
	Collected bool          `json:"collected"`
	Runs      []manifestRun `json:"runs"`
}

// manifestRun is a run of the spec, in the spec's order: its array task,
// or the result the cache held when it was submitted.
type manifestRun struct {
	Name    string          `json:"name"`
	Command []string        `json:"command"`
	Task    *int            `json:"task,omitempty"`
	Key     *experiment.Key `json:"key,omitempty"`
	Reused  *reusedResult   `json:"reused,omitempty"`
}

type reusedResult struct {
	ExitCode int             `json:"exit_code"`
	Summary  json.RawMessage `json:"summary"`
}

func (m *manifest) write(sd string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(sd, "manifest.json"), append(data, '\n'), true)
}

// readManifest reads sd/manifest.json; an error that os.IsNotExist
// recognizes when there is none.
func readManifest(sd string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(sd, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Format != manifestFormat {
		return nil, fmt.Errorf("%s is not the manifest of a tvla experiment submitted to Slurm", filepath.Join(sd, "manifest.json"))
	}
	return &m, nil
}

func (m *manifest) timeout() time.Duration {
	d, _ := time.ParseDuration(m.Timeout)
	return d
}

// matches checks that the submission is of s as it is now: the same runs
// with the same commands.
func (m *manifest) matches(s *experiment.Spec) error {
	rn := &experiment.Runner{Timeout: m.timeout()}
	var diffs []string
	for i, r := range s.Runs {
		switch {
		case i >= len(m.Runs):
			diffs = append(diffs, fmt.Sprintf("run %s was not submitted", r.Name))
		case m.Runs[i].Name != r.Name:
			diffs = append(diffs, fmt.Sprintf("run %d is %s in the spec, %s in the submission", i+1, r.Name, m.Runs[i].Name))
		case !slices.Equal(m.Runs[i].Command, rn.Command(s, r)):
			diffs = append(diffs, fmt.Sprintf("run %s was submitted as `%s`", r.Name, experiment.ShellLine(m.Runs[i].Command)))
		}
	}
	if len(m.Runs) > len(s.Runs) {
		diffs = append(diffs, fmt.Sprintf("the submission has %d runs, the spec %d", len(m.Runs), len(s.Runs)))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the results were submitted from another spec, or %s changed since (submitted from %s):\n  %s",
			s.File, m.Spec, strings.Join(diffs, "\n  "))
	}
	return nil
}

// taskStatus is what the batch script writes when tvla has ended.
type taskStatus struct {
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal"`
	Task     string `json:"task"`
	Node     string `json:"node"`
	// Started and Ended are the times (date +%s.%N) around tvla's run.
	Started string `json:"started"`
	Ended   string `json:"ended"`
}

// seconds is tvla's wall time in the task (0 when not known).
func (st *taskStatus) seconds() float64 {
	a, err1 := strconv.ParseFloat(st.Started, 64)
	b, err2 := strconv.ParseFloat(st.Ended, 64)
	if err1 != nil || err2 != nil || b < a {
		return 0
	}
	return b - a
}

// taskResult is what a task left in the results folder, with Slurm's
// word on it.
type taskResult struct {
	status  *taskStatus // nil: no status written (yet)
	summary []byte      // the JSON summary (nil: none)
	errText string      // tvla's error output
	log     string      // the task's Slurm output
	state   taskState   // Slurm's state ("": not known)
	gone    bool        // Slurm no longer knows the job
	unknown error       // Slurm did not answer
}

// result reads what task t (run name) left in sd.
func result(sd, name string, t int) *taskResult {
	r := &taskResult{}
	runs := filepath.Join(sd, "runs")
	if data, err := os.ReadFile(filepath.Join(runs, name+".status")); err == nil {
		var st taskStatus
		if json.Unmarshal(data, &st) == nil {
			r.status = &st
		}
	}
	if data, err := os.ReadFile(filepath.Join(runs, name+".json")); err == nil {
		r.summary = data
	}
	if data, err := os.ReadFile(filepath.Join(runs, name+".err")); err == nil {
		r.errText = strings.TrimSpace(string(data))
	}
	if data, err := os.ReadFile(filepath.Join(sd, "logs", strconv.Itoa(t)+".out")); err == nil {
		r.log = string(data)
	}
	return r
}

// outcomes reads the results of m's tasks, asks Slurm about those that
// left none, and returns every run's outcome, storing the new results in
// the cache.
func (b *Backend) outcomes(ctx context.Context, s *experiment.Spec, m *manifest) ([]*experiment.Outcome, error) {
	b.JobID = m.JobID
	sd := b.slurmDir()
	q := query{states: map[int]taskState{}}
	if m.JobID != "" {
		q = b.query(ctx, m.JobID)
		q.merge(readStates(sd))
	}
	out := m.outcomes(sd, s.Runs, &q)
	if m.Collected {
		return out, nil
	}
	if n := b.storeResults(m, out); n > 0 {
		b.logf("experiment: %d results stored in the cache\n", n)
	}
	if !slices.ContainsFunc(out, func(o *experiment.Outcome) bool { return o.Status == experiment.Unfinished }) {
		m.Collected = true
		if err := m.write(sd); err != nil {
			b.logf("experiment: %v\n", err)
		}
	}
	return out, nil
}

// outcomes are the outcomes of the runs (the spec's, or, with no spec,
// runs named as the manifest names them) from what the tasks left in sd
// and q.
func (m *manifest) outcomes(sd string, runs []experiment.Run, q *query) []*experiment.Outcome {
	out := make([]*experiment.Outcome, len(m.Runs))
	for i, mr := range m.Runs {
		r := experiment.Run{Name: mr.Name}
		if i < len(runs) {
			r = runs[i]
		}
		o := &experiment.Outcome{Run: r, Command: mr.Command, Status: experiment.NotRun}
		if mr.Key != nil {
			o.Key = mr.Key.Sum
		}
		switch {
		case mr.Reused != nil:
			if err := o.SetResult(mr.Reused.ExitCode, mr.Reused.Summary); err != nil {
				o.Status, o.Error = experiment.Failed, fmt.Sprintf("the reused result does not read: %v", err)
			}
			o.Reused = true
		case mr.Task != nil:
			t := result(sd, mr.Name, *mr.Task)
			if q != nil {
				t.state, t.gone, t.unknown = q.states[*mr.Task], q.gone, q.err
			}
			classify(o, t)
		}
		out[i] = o
	}
	return out
}

// results are the outcomes of an earlier submission's tasks, with no
// spec and without asking Slurm: enough to store those that ended.
func (m *manifest) results(sd string, runs []experiment.Run) []*experiment.Outcome {
	return m.outcomes(sd, runs, nil)
}

// storeResults stores the results of m's tasks in the cache (those the
// cache keeps: Cacheable), and returns how many it stored.
func (b *Backend) storeResults(m *manifest, out []*experiment.Outcome) int {
	c := b.Cache
	if c == nil && m.Cache != "" {
		c = &experiment.Cache{Dir: m.Cache}
	}
	if c == nil {
		return 0
	}
	n := 0
	for i, o := range out {
		k := m.Runs[i].Key
		if k == nil || o.Reused || m.Runs[i].Task == nil {
			continue
		}
		stored, err := c.Store(k, o)
		if err != nil {
			b.logf("experiment: cache: %s not stored: %v\n", o.Run.Name, err)
		}
		if stored {
			n++
		}
	}
	return n
}
