package engine

import (
	"context"
	"slices"
)

// runIteration applies an iteration's tasks (d.tasks: grouped by edge,
// in the order of the location's edges) and folds their outcomes into
// the run in order, as runBatch does, but for when results are stored:
// an edge's results are joined into its target only once every
// application of the edge is done, and a breach after an update stops
// the run with none of that edge's results stored. The messages of the
// edge's applications up to the one that breached are kept, and so are
// the results of the location's earlier edges. Observed on the reference
// (tvla.engine.type = dtvla; engine/join_decomp_breach_test.go): a
// component breaching after its update leaves the target of the edge
// empty although components before it were updated and blurred (their
// messages counted), and the target of an edge listed before it holds
// its results, that of an edge listed after it nothing.
// set_pldi08/dcas/nomember stops so: 8 components at li_3, where
// folding each application's results at once stored 30.
func (d *decomposing) runIteration(ctx context.Context, st *state, tasks []task, work map[string]bool) (*Result, error) {
	b := st.startBatch(tasks)
	var edge []outcome // the current edge's outcomes, not folded yet
	for i, t := range tasks {
		o := b.wait(i)
		if ctx.Err() != nil {
			b.cancel()
			return st.result(StopReason(ctx), true), nil
		}
		if o.err != nil {
			b.cancel()
			return nil, o.err
		}
		st.foldMessages(t, o)
		if o.broken != "" {
			b.cancel()
			r := st.result(o.broken, true)
			r.StoppedOnMessage, r.StoppedOnBreach = true, true
			return r, nil
		}
		edge = append(edge, o)
		if i+1 < len(tasks) && tasks[i+1].edge == t.edge {
			continue
		}
		first := i + 1 - len(edge)
		all := tasks[first : i+1 : i+1]
		extra, outs, r, err := d.runShared(ctx, st, all, edge)
		if r != nil || err != nil {
			b.cancel()
			return r, err
		}
		all, edge = append(all, extra...), append(edge, outs...)
		d.meetShared(st, all, edge)
		for j, o := range edge {
			st.foldResults(all[j], o, work)
			st.maybeSpill(false)
		}
		edge = edge[:0]
		if r := st.stopAtLimit(); r != nil {
			b.cancel()
			return r, nil
		}
	}
	return nil, nil
}

// byName orders pending components for an edge as the reference applies
// them: name by name, in the order the %dname declarations come (a
// composed structure, of several names, after them), in their pending
// order within a name. Observed (join_decomp_breach_test.go): the
// messages the reference raises before a breach are those of every
// component of the first name, then of the second name's up to the one
// that breached.
func (d *decomposing) byName(pending []Pending) []Pending {
	out := slices.Clone(pending)
	key := func(p Pending) int {
		n := d.markerOf(p.Structure)
		if n < 0 {
			return len(d.comps)
		}
		return n
	}
	slices.SortStableFunc(out, func(a, b Pending) int { return key(a) - key(b) })
	return out
}

// runShared applies the compositions shareTasks adds to an edge's
// applications (tasks, with their outcomes outs), as runIteration
// applies the others: a breach stops the run (r), messages are folded.
func (d *decomposing) runShared(ctx context.Context, st *state, tasks []task, outs []outcome) ([]task, []outcome, *Result, error) {
	extra := d.shareTasks(st, tasks, outs)
	if len(extra) == 0 {
		return nil, nil, nil, nil
	}
	// Applied on the engine's goroutine with its worker: the iteration's
	// batch is still running on the other workers, and a worker is not
	// safe for two goroutines at once.
	got := make([]outcome, 0, len(extra))
	for _, t := range extra {
		o := st.applyTask(st.workers[0], t)
		if ctx.Err() != nil {
			return nil, nil, st.result(StopReason(ctx), true), nil
		}
		if o.err != nil {
			return nil, nil, nil, o.err
		}
		st.foldMessages(t, o)
		if o.broken != "" {
			r := st.result(o.broken, true)
			r.StoppedOnMessage, r.StoppedOnBreach = true, true
			return nil, nil, r, nil
		}
		got = append(got, o)
	}
	return extra, got, nil, nil
}
