package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// state is one run in progress.
type state struct {
	e    *Engine
	sets map[string]*StructureSet
	// unpacked keeps the structures the run touched last unpacked.
	unpacked *unpackedCache
	out      map[string][]*model.Edge
	rpo      map[string]int
	messages map[string][]Message
	msgSeen  map[string]bool
	stats    Stats
	start    time.Time
	arrivals *arrivalLog
	// source is the stored structure being processed, for messages.
	source    slotRef
	workers   []*worker
	discarded []DiscardedInput
	// slots is fold's scratch: the slots an application's results went
	// to.
	slots []int
	// spill is the run's spill file (nil: the run does not spill);
	// clock counts the iterations, for the sets' record of use.
	spill *spillFile
	clock uint32
	// checkpoints writes the run's checkpoints (nil: none asked for);
	// current is the iteration in progress, which they record.
	checkpoints *checkpointer
	current     *iteration
}

// Run explores the program from the input structures (placed at the
// first location of the CFG) until a fixpoint, a limit or ctx's end, the
// way the join mode explores.
func (e *Engine) Run(ctx context.Context, inputs []*tvl.Structure) (r *Result, err error) {
	return e.RunCheckpointed(ctx, inputs, CheckpointOptions{})
}

// RunCheckpointed is Run that writes checkpoints, or goes on from one,
// as co asks (checkpoint.go): only the abstract join modes other than
// graph decomposition can.
func (e *Engine) RunCheckpointed(ctx context.Context, inputs []*tvl.Structure, co CheckpointOptions) (r *Result, err error) {
	st := e.newState()
	if co.Path != "" || co.Resume != nil {
		if why := e.checkpointRefused(); why != "" {
			return nil, errors.New(why)
		}
		st.checkpoints = &checkpointer{opts: co, last: time.Now(), fingerprint: e.Fingerprint()}
	}
	for _, w := range st.workers {
		w.ctx = ctx
	}
	if err := st.startSpill(); err != nil {
		return nil, err
	}
	defer recoverSpill(&err)
	return e.mode.explore(ctx, st, inputs)
}

// newState prepares a run: a set per location, the CFG's out-edges, the
// location order and the workers.
func (e *Engine) newState() *state {
	st := &state{e: e, sets: map[string]*StructureSet{}, out: map[string][]*model.Edge{},
		messages: map[string][]Message{}, msgSeen: map[string]bool{}, start: time.Now(),
		arrivals: newArrivalLog(), unpacked: newUnpackedCache(cacheBytes)}
	for i, l := range e.prog.Locations {
		st.sets[l] = newStructureSet(e.mode.joiner(e), e.voc.Tvl())
		st.sets[l].cache, st.sets[l].id = st.unpacked, int32(i)
		st.sets[l].skipSuperseded = e.opts.SkipSuperseded
	}
	for _, ed := range e.prog.Edges {
		st.out[ed.From] = append(st.out[ed.From], ed)
	}
	st.rpo = e.reversePostOrder(st.out)
	n := e.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	for i := 0; i < n; i++ {
		st.workers = append(st.workers, &worker{e: e, coerce: e.coerce.Fork(), bounds: abstraction.Bindings{}})
	}
	st.stats.Workers = n
	return st
}

// abstractMode is what the abstract join modes share: nothing to
// prepare, the worklist, and the pipeline with the splitting Focus.
type abstractMode struct{}

func (abstractMode) prepare(*Engine) error { return nil }

func (abstractMode) explore(ctx context.Context, st *state, inputs []*tvl.Structure) (*Result, error) {
	return st.worklist(ctx, inputs)
}

func (abstractMode) apply(w *worker, t task) outcome { return w.applyAbstract(t, splittingFocus{}) }

func (abstractMode) concrete() bool { return false }

// worklist is the abstract modes' exploration: the inputs, coerced and
// blurred, at the entry location; then, while some location has pending
// structures, the one first in the CFG's order has every outgoing edge's
// action applied to each of them, and the results joined into the
// edges' targets.
func (st *state) worklist(ctx context.Context, inputs []*tvl.Structure) (*Result, error) {
	e := st.e
	if len(e.prog.Locations) == 0 {
		return st.result("", false), nil
	}
	var work map[string]bool
	if st.checkpoints != nil && st.checkpoints.opts.Resume != nil {
		var b *iteration
		var err error
		if work, b, err = st.restore(st.checkpoints.opts.Resume); err != nil {
			return nil, err
		}
		if b != nil {
			// The iteration the checkpoint was written in goes on from
			// its first task not joined in.
			if r, err := st.runIteration(ctx, b, work); r != nil || err != nil {
				return r, err
			}
		}
	} else {
		entry := e.prog.Locations[0]
		for i, in := range inputs {
			st.seed(entry, i, in.Clone(), true)
		}
		work = map[string]bool{entry: true}
	}
	for len(work) > 0 {
		if err := ctx.Err(); err != nil {
			return st.finish(st.result(StopReason(ctx), true)), nil
		}
		loc := st.next(work)
		delete(work, loc)
		st.stats.Iterations++
		st.clock++
		st.maybeSpill(true)
		b := &iteration{loc: loc, pending: st.sets[loc].TakePending()}
		if r, err := st.runIteration(ctx, b, work); r != nil || err != nil {
			return r, err
		}
		if st.stats.Iterations%64 == 0 {
			st.progress(work)
		}
	}
	return st.result("", false), nil
}

// runIteration applies every outgoing edge's action to each of b's
// pending versions, from its task b.done on, and joins the results in.
// Every (edge, pending structure) application reads only its own
// structure, so they run in parallel; their outcomes are joined in the
// sequential order, which keeps the result independent of the number of
// workers. It returns a result when the run ends here, or an error.
func (st *state) runIteration(ctx context.Context, b *iteration, work map[string]bool) (*Result, error) {
	var tasks []task
	for _, ed := range st.out[b.loc] {
		for _, pd := range b.pending {
			tasks = append(tasks, task{loc: b.loc, edge: ed, act: st.e.actions[ed.Action], pending: pd})
		}
	}
	st.current = b
	r, err := st.runBatch(ctx, tasks[b.done:], work)
	if r != nil {
		r = st.finish(r)
	}
	st.current = nil
	return r, err
}

// progress tells the options' Progress how the run goes.
func (st *state) progress(work map[string]bool) {
	if st.e.opts.Progress == nil {
		return
	}
	st.stats.Worklist = len(work)
	st.stats.Elapsed = time.Since(st.start)
	st.stats.Stored = st.stored()
	st.e.opts.Progress(st.stats)
}

// runBatch applies one iteration's tasks and folds their outcomes into
// the run in order, marking in work the locations whose sets changed. It
// returns a result when the run ends here (a limit, a breach, an
// interrupt) or an error.
func (st *state) runBatch(ctx context.Context, tasks []task, work map[string]bool) (*Result, error) {
	b := st.startBatch(tasks)
	for i, t := range tasks {
		o := b.wait(i)
		if ctx.Err() != nil {
			// An application cut short by the interrupt (its Focus
			// dropped the splits it had left) is not folded in.
			b.cancel()
			return st.result(StopReason(ctx), true), nil
		}
		if o.err != nil {
			b.cancel()
			return nil, o.err
		}
		st.fold(t, o, work)
		if st.current != nil {
			st.current.done++
		}
		st.maybeSpill(false)
		st.maybeCheckpoint()
		if i%1024 == 1023 {
			// A large model's iteration takes minutes.
			st.progress(work)
		}
		if o.broken != "" {
			b.cancel()
			r := st.result(o.broken, true)
			r.StoppedOnMessage, r.StoppedOnBreach = true, true
			return r, nil
		}
		if r := st.stopAtLimit(); r != nil {
			b.cancel()
			return r, nil
		}
		if ctx.Err() != nil {
			b.cancel()
			return st.result(StopReason(ctx), true), nil
		}
	}
	return nil, nil
}

// fold adds one application's outcome to the run: its statistics, its
// messages, and its results joined into the target location (marked in
// work when its set changed; work may be nil).
func (st *state) fold(t task, o outcome, work map[string]bool) {
	st.foldMessages(t, o)
	st.foldResults(t, o, work)
}

// foldMessages adds an application's statistics and messages to the run.
func (st *state) foldMessages(t task, o outcome) {
	st.source = slotRef{t.loc, t.pending.Slot}
	st.stats.Breaches += o.stats.Breaches
	st.stats.FocusTime += o.stats.FocusTime
	st.stats.CoerceTime += o.stats.CoerceTime
	st.stats.UpdateTime += o.stats.UpdateTime
	st.stats.BlurTime += o.stats.BlurTime
	// Messages are recorded one by one: once the message limit is
	// reached, the application's other messages are not recorded (the
	// run stops with exactly MaxMessages of them), but its results are
	// still joined, as after a breach.
	for _, m := range o.messages {
		if st.messageLimitReached() {
			break
		}
		st.message(t.loc, t.act, m)
	}
}

// foldResults joins an application's results into the target location
// (marked in work when its set changed; work may be nil).
func (st *state) foldResults(t task, o outcome, work map[string]bool) {
	st.source = slotRef{t.loc, t.pending.Slot}
	target := st.sets[t.edge.To]
	slots := st.slots[:0]
	for i, r := range o.results {
		st.stats.Examined++
		t0 := time.Now()
		to, changed := target.addKeyed(r, o.packed[i], o.keys[i])
		st.stats.JoinTime += time.Since(t0)
		if changed && work != nil {
			work[t.edge.To] = true
		}
		slots = append(slots, to)
	}
	st.arrivals.add(t.edge.To, st.source, t.act.Title(), slots)
	st.slots = slots
}

// seed coerces input structure i (a copy, which it may change) and
// stores it at the entry location, blurred first unless the run is
// concrete: how every run starts. An input Coerce finds inconsistent is
// counted, recorded with the constraint it breaks, and dropped.
func (st *state) seed(entry string, i int, s *tvl.Structure, blur bool) {
	r := st.e.coerce.Coerce(s, nil)
	st.stats.Breaches += r.Breaches
	st.stats.Inputs++
	if !r.Consistent {
		st.stats.InputsDiscarded++
		st.discarded = append(st.discarded, DiscardedInput{Input: i, Violated: r.Violated})
		return
	}
	if blur {
		s, _ = abstraction.Blur(s, st.e.abs)
	}
	s.Freeze()
	slot, _ := st.sets[entry].Add(s)
	st.arrivals.add(entry, slotRef{slot: -1}, "", []int{slot})
}

func (st *state) stored() int {
	n := 0
	for _, s := range st.sets {
		n += s.Len()
	}
	return n
}

// next picks the pending location earliest in reverse post order.
func (st *state) next(work map[string]bool) string {
	best, bestRank := "", -1
	for l := range work {
		r := st.rpo[l]
		if bestRank < 0 || r < bestRank || (r == bestRank && l < best) {
			best, bestRank = l, r
		}
	}
	return best
}

// reversePostOrder numbers locations by a depth-first search from the
// entry following edges in program order; unreachable locations come last
// in order of appearance.
func (e *Engine) reversePostOrder(out map[string][]*model.Edge) map[string]int {
	visited := map[string]bool{}
	var post []string
	var dfs func(l string)
	dfs = func(l string) {
		visited[l] = true
		// Successors are explored last edge first, which is the order
		// that gives TVLA's iteration counts.
		edges := out[l]
		for i := len(edges) - 1; i >= 0; i-- {
			if ed := edges[i]; !visited[ed.To] {
				dfs(ed.To)
			}
		}
		post = append(post, l)
	}
	if len(e.prog.Locations) > 0 {
		dfs(e.prog.Locations[0])
	}
	rank := map[string]int{}
	for i := len(post) - 1; i >= 0; i-- {
		rank[post[i]] = len(post) - 1 - i
	}
	next := len(post)
	for _, l := range e.prog.Locations {
		if !visited[l] {
			rank[l] = next
			next++
		}
	}
	return rank
}

// message records a message once per location, text and structure, or,
// when slotBound, once per location, text and stored structure (st.source).
func (st *state) message(loc string, act *abstraction.Action, m raised) {
	text, s, slotBound := m.text, m.structure, m.slotBound
	key := fmt.Sprintf("%s\x00%s\x00%x", loc, text, s.OrderedHash())
	if slotBound {
		key = fmt.Sprintf("%s\x00%s\x00slot %d", loc, text, st.source.slot)
	}
	if st.msgSeen[key] {
		return
	}
	st.msgSeen[key] = true
	st.messages[loc] = append(st.messages[loc], Message{Location: loc, Action: act.Title(), Text: text, Structure: s, Breach: m.breach, source: st.source, slotBound: slotBound})
	if !m.breach {
		st.stats.Messages++
	}
}

// ScheduledPredicate is the name of the predicate that marks the thread
// taking the current step, as the thesis and TVLA's concurrent models
// write it.
const ScheduledPredicate = "tr_scheduled"

// unscheduled counts the stored structures in which no individual has the
// scheduled-thread predicate at 1.
func (st *state) unscheduled() int {
	p := st.e.voc.Tvl().Lookup(ScheduledPredicate)
	if p == nil || p.Arity != 1 {
		return 0
	}
	n := 0
	for _, set := range st.sets {
		for i := range set.items.len() {
			if !set.items.get(i).UnaryTrue(set.voc, p.Index) {
				n++
			}
		}
	}
	return n
}

func (st *state) result(reason string, incomplete bool) *Result {
	st.unpacked.drop()
	for _, set := range st.sets {
		set.dropUnpacked()
	}
	r := &Result{Incomplete: incomplete, StopReason: reason, DiscardedInputs: st.discarded, sets: st.sets, arrivals: st.arrivals}
	for _, l := range st.e.prog.Locations {
		lr := &LocationResult{Label: l, Messages: st.messages[l]}
		for i, m := range lr.Messages {
			if m.slotBound {
				lr.Messages[i].Structure = st.sets[l].At(m.source.slot)
			}
		}
		if set := st.sets[l]; set != nil {
			lr.Structures = set.Structures()
		}
		r.Locations = append(r.Locations, lr)
	}
	st.stats.Stored = st.stored()
	st.stats.Unscheduled = st.unscheduled()
	if st.spill != nil {
		st.stats.Spill.Reads = st.spill.reads.Load()
	}
	st.stats.Elapsed = time.Since(st.start)
	r.Stats = st.stats
	return r
}
