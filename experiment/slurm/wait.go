package slurm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tvla-go/tvla/experiment"
)

// wait follows m's tasks until each has ended, asking squeue (and sacct)
// every Poll: a line when a task starts running and when it ends (with
// its figures), and the counts of tasks queued, running and ended when
// they change. The states seen are recorded in states.json for a later
// Collect. It returns ctx's error when ctx ends first; the tasks go on.
func (b *Backend) wait(ctx context.Context, m *manifest) error {
	sd := b.slurmDir()
	var tasks []taskRun
	for i, mr := range m.Runs {
		if mr.Task != nil {
			tasks = append(tasks, taskRun{*mr.Task, i})
		}
	}
	seen := readStates(sd)
	reported := map[int]bool{}
	lastCounts, lastErr, grace := "", "", false
	for ctx.Err() == nil {
		q := b.query(ctx, m.JobID)
		if ctx.Err() != nil {
			break
		}
		if q.err != nil && q.err.Error() != lastErr {
			b.logf("experiment: %s; asking again every %s\n", firstLine(q.err.Error()), b.poll())
		}
		if q.err != nil {
			lastErr = q.err.Error()
		}
		pending, running, done := 0, 0, 0
		for _, tr := range tasks {
			t, i := tr.task, tr.run
			st, listed := q.states[t]
			res := result(sd, m.Runs[i].Name, t)
			if listed && st.State == "RUNNING" && seen[t].State != "RUNNING" {
				b.logf("[%d/%d] %s: running (task %s_%d on %s)\n", i+1, len(m.Runs), m.Runs[i].Name, m.JobID, t, st.Reason)
			}
			if listed {
				seen[t] = st
			}
			switch {
			case res.status != nil || (listed && !active(st.State)) || (q.gone && q.err == nil):
				done++
				// A status written on another node may show here a little
				// after Slurm has seen the task complete: not reported
				// without it before the last look.
				if !reported[t] && (res.status != nil || st.State != "COMPLETED" || grace) {
					reported[t] = true
					b.logEnd(m, i, res, st, q.gone)
				}
			case st.State == "RUNNING":
				running++
			default:
				pending++
			}
		}
		if err := writeStates(sd, seen); err != nil {
			b.logf("experiment: %s: %v\n", filepath.Join(sd, "states.json"), err)
		}
		if counts := fmt.Sprintf("%d queued, %d running, %d ended", pending, running, done); counts != lastCounts {
			b.logf("experiment: job array %s: %s\n", m.JobID, counts)
			lastCounts = counts
		}
		if done == len(tasks) {
			// A result file written on another node may show here a
			// little after Slurm has seen the task end: one more look.
			if grace || b.allWritten(m, tasks) {
				return nil
			}
			grace = true
		}
		select {
		case <-ctx.Done():
		case <-time.After(b.poll()):
		}
	}
	return ctx.Err()
}

// logEnd writes the progress line of a task that has ended.
func (b *Backend) logEnd(m *manifest, i int, res *taskResult, st taskState, gone bool) {
	o := &experiment.Outcome{Run: experiment.Run{Name: m.Runs[i].Name}}
	res.state, res.gone = st, gone
	classify(o, res)
	b.logf("[%d/%d] %s: %s (%.1fs)\n", i+1, len(m.Runs), o.Run.Name, o.Progress(), o.WallSeconds)
}

// taskRun is an array task and the index of its run in the spec.
type taskRun struct{ task, run int }

// allWritten reports whether every task has written its status.
func (b *Backend) allWritten(m *manifest, tasks []taskRun) bool {
	for _, tr := range tasks {
		if _, err := os.Stat(filepath.Join(b.slurmDir(), "runs", m.Runs[tr.run].Name+".status")); err != nil {
			return false
		}
	}
	return true
}
