package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// worker applies actions to structures for one goroutine: it owns the
// mutable evaluation state (a Coercer of its own).
type worker struct {
	e      *Engine
	coerce *abstraction.Coercer
	bounds abstraction.Bindings
	// ctx is the run's: a Focus that splits for long (thousands of
	// splits on some inputs of the single-structure join) stops when it
	// ends, so that --timeout and Ctrl-C are prompt.
	ctx context.Context
	// keepMsg, when set, says which of an action's messages the task
	// at hand checks (the decomposing engine's, join_decomp.go).
	keepMsg func(*model.Message) bool
	// forks are the decomposing engine's Coercers of this worker, per
	// set of names composed (join_decomp.go, coercerFor).
	forks map[string]*abstraction.Coercer
}

// interrupted reports whether the run was stopped.
func (w *worker) interrupted() bool { return w.ctx != nil && w.ctx.Err() != nil }

// task is one application of an edge's action to a pending structure.
type task struct {
	loc     string
	edge    *model.Edge
	act     *abstraction.Action
	pending Pending
	// parts and names are a decomposing run's composition: the stored
	// components to compose (pending's among them) and their names
	// (join_decomp.go); nil otherwise.
	parts []*tvl.Structure
	names []int
	// shared restricts a decomposing run's compositions by the other
	// disjuncts that share names with the task's (join_decomp_feasible.go).
	shared []sharedFilter
	// disjunct is the index of the %compose disjunct a decomposing run's
	// composition is made by, -1 for a component alone; ids are its
	// parts' entries (slot and image, symEntry.id), the pending one's
	// alone.
	disjunct int
	ids      []int
	// perm is, for a decomposing run with %pset members, the instance
	// of the action the task stands for: 0 the first member's, q+1 the
	// one symmetry.perms[q] makes of it (join_decomp_sym.go).
	perm int
}

// raised is a message an application raised, before the engine records
// it (and drops it when already seen).
type raised struct {
	text      string
	structure *tvl.Structure
	// slotBound: raised on the stored structure itself under a join in
	// place, so the message belongs to its slot (Message.slotBound).
	slotBound bool
	// breach: the constraint breached after an update (Message.Breach).
	breach bool
}

// outcome is what one application produced. Only the engine's goroutine
// folds outcomes into the run, in task order.
type outcome struct {
	results []*tvl.Structure
	// keys are the results' join keys in the target location's set, and
	// packed their packings, computed on the worker to take them off the
	// engine's serial path.
	keys     []uint64
	packed   []tvl.Packed
	messages []raised
	// broken is set when an update broke a constraint and the run must
	// stop (TVLA's breakIfCoerceAfterUpdateFailed).
	broken string
	// stats holds this application's breaches and phase times.
	stats phaseStats
	err   error
	// names are, under the decomposing join, the name (an index of its
	// %dnames) each result was cut into, before it is renamed to its
	// orbit's representative; -1 for a composed structure
	// (join_decomp_meet.go).
	names []int
}

// phaseStats are what an application adds to the run's Stats: its
// breaches and phase times (an outcome per task of a batch waits to be
// folded: the whole Stats would be three times its size).
type phaseStats struct {
	Breaches                                    int
	FocusTime, CoerceTime, UpdateTime, BlurTime time.Duration
}

// batch runs a location's tasks on the workers. Workers take tasks in
// ascending order, so the one the engine waits for next is always being
// worked on or done (or the engine takes it itself).
type batch struct {
	tasks []task
	outs  []outcome
	// ready[i] is set once outs[i] is; waiting is the task the engine
	// sleeps on (-1: none), woken through cond. Flags rather than a
	// channel per task: a run has millions of tasks.
	ready   []atomic.Bool
	waiting atomic.Int64
	mu      sync.Mutex
	cond    *sync.Cond
	next    atomic.Int64
	stop    atomic.Bool
	wg      sync.WaitGroup
	// inline: one worker, or one task; tasks are then applied lazily by
	// wait, on the engine's goroutine.
	inline *worker
	// engine is the worker the engine's goroutine applies tasks with.
	engine *worker
	st     *state
}

// applyTask unpacks the task's structure, applies its action, as the
// join mode does, and computes its results' join keys and packings. It
// reads the target set's configuration only, which never changes.
func (st *state) applyTask(w *worker, t task) outcome {
	t.pending.unpack(st.e.voc.Tvl())
	o := st.e.mode.apply(w, t)
	target := st.sets[t.edge.To]
	for _, r := range o.results {
		o.keys = append(o.keys, target.key(r))
		o.packed = append(o.packed, r.Pack())
	}
	return o
}

// startBatch begins applying tasks.
func (st *state) startBatch(tasks []task) *batch {
	b := &batch{tasks: tasks, outs: make([]outcome, len(tasks)), st: st}
	n := min(len(st.workers), len(tasks))
	if n <= 1 {
		b.inline = st.workers[0]
		return b
	}
	b.ready = make([]atomic.Bool, len(tasks))
	b.waiting.Store(-1)
	b.cond = sync.NewCond(&b.mu)
	// The engine's goroutine is one of the n: while the outcome it needs
	// next is not ready it applies tasks itself (wait), so n goroutines,
	// not n+1, compete for the cores, and the engine is not left runnable
	// behind a worker that woke it.
	b.engine = st.workers[0]
	b.wg.Add(n - 1)
	for _, w := range st.workers[1:n] {
		go func() {
			defer b.wg.Done()
			for !b.stop.Load() && b.applyNext(w) {
			}
		}()
	}
	return b
}

// applyNext applies the next task nobody has taken, with worker w, and
// reports whether there was one.
func (b *batch) applyNext(w *worker) bool {
	i := int(b.next.Add(1) - 1)
	if i >= len(b.tasks) {
		return false
	}
	b.outs[i] = b.st.applyTask(w, b.tasks[i])
	b.ready[i].Store(true)
	// The engine stores waiting before it checks ready: one of the two
	// sees the other's store, and the broadcast, under the lock the
	// engine holds until it sleeps, cannot come between its check and
	// its sleep.
	if b.waiting.Load() == int64(i) {
		b.mu.Lock()
		b.cond.Broadcast()
		b.mu.Unlock()
	}
	return true
}

// wait returns task i's outcome once it is ready.
func (b *batch) wait(i int) outcome {
	if b.inline != nil {
		t := b.tasks[i]
		return b.st.applyTask(b.inline, t)
	}
	for !b.ready[i].Load() {
		if b.applyNext(b.engine) {
			continue
		}
		b.mu.Lock()
		b.waiting.Store(int64(i))
		for !b.ready[i].Load() {
			b.cond.Wait()
		}
		b.waiting.Store(-1)
		b.mu.Unlock()
	}
	o := b.outs[i]
	b.outs[i] = outcome{} // let the structures go once folded in
	return o
}

// cancel stops the workers after the tasks they are on and waits for
// them.
func (b *batch) cancel() {
	if b.inline != nil {
		return
	}
	b.stop.Store(true)
	b.wg.Wait()
}
