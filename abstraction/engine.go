package abstraction

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Options control an analysis run.
type Options struct {
	Join JoinKind
	// ActionOrder is TVLA's [f][c]pu[c]b: which of Focus, Coerce (before
	// and after the update) run. Empty means "fcpucb".
	ActionOrder string
	// MaxStructures stops the run once more structures are stored; 0
	// means no limit. MaxMessages likewise for messages.
	MaxStructures int
	MaxMessages   int
	// BreakIfCoerceAfterUpdateFailed stops the run when Coerce finds a
	// structure inconsistent right after an update (TVLA's default): a
	// consistent structure updated correctly stays consistent, so this
	// means the update formulas are wrong. Without it the structure is
	// dropped silently.
	BreakIfCoerceAfterUpdateFailed bool
	// Differencing derives update formulas for instrumentation predicates
	// that actions do not update by hand (TVLA's default,
	// tvla.differencing.difference); without it they keep their values.
	Differencing bool
	// Closure chooses which contrapositives of instrumentation
	// definitions Coerce enforces: the full closure (the zero value) or
	// TVLA 3's.
	Closure predicates.Closure
	// Workers is how many goroutines apply actions; 0 means one per
	// CPU. The result does not depend on it.
	Workers int
	// MaxDepth bounds a concrete run (JoinConcrete): structures more
	// than this many actions away from an input are not explored; 0
	// means no bound.
	MaxDepth int
	// Progress, when set, is called now and then with the statistics so
	// far.
	Progress func(Stats)
}

// Stats are the totals of a run, as TVLA reports them.
type Stats struct {
	Stored int // structures stored at the end, over all locations
	// Unscheduled counts the stored structures in which no thread is
	// scheduled (no individual has tr_scheduled at 1): the states between
	// atomic blocks, the thesis' "Uns." column. 0 for programs without
	// the predicate tr_scheduled.
	Unscheduled int
	Examined    int // structures produced by actions, before joining
	Breaches    int // Coerce sharpenings and discards
	Iterations  int // locations taken from the worklist
	Messages    int
	// Inputs is the number of input structures; InputsDiscarded those
	// Coerce found inconsistent (they represent no state).
	Inputs, InputsDiscarded int
	Worklist                int
	Elapsed                 time.Duration
	// Time per phase.
	FocusTime, CoerceTime, UpdateTime, BlurTime, JoinTime time.Duration
}

// Message is a message raised by an action at a location. Structure is
// the structure the action was looking at (after Focus and Coerce) when
// the message's formula held.
type Message struct {
	Location  string
	Action    string
	Text      string
	Structure *tvl.Structure
	// source is the stored structure the action started from.
	source slotRef
	// slotBound: the message was raised on the stored structure itself,
	// under the single-structure join, and shows it as it ends.
	slotBound bool
}

// slotRef names a stored structure: a location and a slot in its set.
type slotRef struct {
	loc  string
	slot int
}

// LocationResult is what the analysis found at one CFG location.
type LocationResult struct {
	Label      string
	Structures []*tvl.Structure
	Messages   []Message
}

// Result is the outcome of a run.
type Result struct {
	Locations []*LocationResult
	Stats     Stats
	// Incomplete is set when a limit or an interrupt ended the run early;
	// StopReason says which.
	Incomplete bool
	StopReason string
	// StoppedOnMessage is set when the run ended early because of a
	// message: the message limit, or an update that broke a constraint.
	// Its verdict (messages raised) stands, whatever the rest of the
	// state space holds.
	StoppedOnMessage bool
	sets             map[string]*StructureSet
	arrivals         *arrivalLog
}

// TraceStep is one step of an abstract trace: a structure at a location,
// and the action that led to it from the previous step ("" for the
// first step, an input structure).
type TraceStep struct {
	Location  string
	Action    string
	Structure *tvl.Structure
}

// Trace returns a shortest abstract trace that leads from an input
// structure to the message: the stored structures along the way (as they
// are at the end of the run, which may be more general than when the step
// was taken) and, last, the structure that raised the message.
func (r *Result) Trace(m Message) []TraceStep {
	// Breadth-first search backwards from the message's source to an
	// input.
	type node struct {
		at   slotRef
		next *node
		via  string // action from this node to next
	}
	start := &node{at: m.source}
	seen := map[slotRef]bool{m.source: true}
	queue := []*node{start}
	var found *node
	for len(queue) > 0 && found == nil {
		n := queue[0]
		queue = queue[1:]
		for _, a := range r.arrivals.arrivalsInto(n.at) {
			if a.from.slot < 0 {
				found = n
				break
			}
			if !seen[a.from] {
				seen[a.from] = true
				queue = append(queue, &node{at: a.from, next: n, via: a.action})
			}
		}
	}
	if found == nil {
		return []TraceStep{{Location: m.Location, Action: m.Action, Structure: m.Structure}}
	}
	var steps []TraceStep
	action := ""
	for n := found; n != nil; n = n.next {
		steps = append(steps, TraceStep{Location: n.at.loc, Action: action, Structure: r.sets[n.at.loc].At(n.at.slot)})
		action = n.via
	}
	return append(steps, TraceStep{Location: m.Location, Action: m.Action, Structure: m.Structure})
}

// Location returns the result at a label, or nil.
func (r *Result) Location(label string) *LocationResult {
	for _, l := range r.Locations {
		if l.Label == label {
			return l
		}
	}
	return nil
}

// Engine runs a loaded program.
type Engine struct {
	prog    *model.Program
	voc     *predicates.Vocabulary
	opts    Options
	coerce  *Coercer
	actions map[*model.Action]*Action
	abs     []*tvl.Pred
	absNull []*tvl.Pred
	// active is inac under the single-structure join, nil otherwise;
	// nullary lists every nullary predicate (that join's key).
	active  *tvl.Pred
	nullary []*tvl.Pred
	order   struct{ focus, coerceBefore, coerceAfter bool }
	// truth evaluates instrumentation definitions, for concrete runs.
	truth *definitions
}

// NewEngine compiles a program for analysis.
func NewEngine(prog *model.Program, opts Options) (*Engine, error) {
	if opts.ActionOrder == "" {
		opts.ActionOrder = "fcpucb"
	}
	e := &Engine{prog: prog, voc: prog.Vocabulary, opts: opts, actions: map[*model.Action]*Action{}}
	if err := e.parseOrder(opts.ActionOrder); err != nil {
		return nil, err
	}
	cons := predicates.ConstraintsWith(e.voc, opts.Closure)
	if opts.Join == JoinIndependent {
		e.active = e.voc.Tvl().Lookup(predicates.InacName)
		if e.active == nil || e.active.Arity != 1 {
			return nil, fmt.Errorf("the single-structure join needs the unary built-in predicate %s", predicates.InacName)
		}
		cons = predicates.Relativize(cons, e.active.Name)
		e.nullary = e.voc.Tvl().OfArity(0)
	}
	coercer, err := NewCoercer(e.voc.Tvl(), cons)
	if err != nil {
		return nil, err
	}
	e.coerce = coercer
	if os.Getenv("TVLA_TRACE_COERCE") != "" {
		coercer.Trace = func(c, what string) { fmt.Fprintf(os.Stderr, "coerce: %s by %s\n", what, c) }
	}
	for _, a := range prog.Actions {
		ca, err := CompileAction(e.voc, a, ActionOptions{Differencing: opts.Differencing, Active: e.active})
		if err != nil {
			return nil, err
		}
		e.actions[a] = ca
	}
	e.abs = e.voc.AbstractionPreds()
	for _, p := range e.voc.All() {
		if p.Arity == 0 && p.Abstraction() {
			e.absNull = append(e.absNull, p.Pred)
		}
	}
	return e, nil
}

func (e *Engine) parseOrder(s string) error {
	rest := s
	take := func(c byte) bool {
		if len(rest) > 0 && rest[0] == c {
			rest = rest[1:]
			return true
		}
		return false
	}
	e.order.focus = take('f')
	e.order.coerceBefore = take('c')
	if !take('p') || !take('u') {
		return fmt.Errorf("action order %q: want [f][c]pu[c]b", s)
	}
	e.order.coerceAfter = take('c')
	if !take('b') || rest != "" {
		return fmt.Errorf("action order %q: want [f][c]pu[c]b", s)
	}
	return nil
}

// Action returns the compiled form of a program action.
func (e *Engine) Action(a *model.Action) *Action { return e.actions[a] }

// Constraints is the number of constraints Coerce enforces.
func (e *Engine) Constraints() int { return e.coerce.Len() }

// state is one run in progress.
type state struct {
	e        *Engine
	sets     map[string]*StructureSet
	out      map[string][]*model.Edge
	rpo      map[string]int
	messages map[string][]Message
	msgSeen  map[string]bool
	stats    Stats
	start    time.Time
	arrivals *arrivalLog
	// source is the stored structure being processed, for messages.
	source  slotRef
	workers []*worker
}

// newState prepares a run: a set per location, the CFG's out-edges, the
// location order and the workers.
func (e *Engine) newState() *state {
	st := &state{e: e, sets: map[string]*StructureSet{}, out: map[string][]*model.Edge{},
		messages: map[string][]Message{}, msgSeen: map[string]bool{}, start: time.Now(),
		arrivals: newArrivalLog()}
	for _, l := range e.prog.Locations {
		if e.opts.Join == JoinIndependent {
			st.sets[l] = NewIndependentSet(e.abs, e.nullary, e.active)
			continue
		}
		st.sets[l] = NewStructureSet(e.opts.Join, e.abs, e.absNull)
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
		st.workers = append(st.workers, &worker{e: e, coerce: e.coerce.Fork(), bounds: bindings{}})
	}
	return st
}

// Run explores the program from the input structures (placed at the
// first location of the CFG) until a fixpoint, a limit or ctx's end.
func (e *Engine) Run(ctx context.Context, inputs []*tvl.Structure) (*Result, error) {
	if e.opts.Join == JoinConcrete {
		return e.runConcrete(ctx, inputs)
	}
	st := e.newState()
	for _, w := range st.workers {
		w.ctx = ctx
	}
	if len(e.prog.Locations) == 0 {
		return st.result("", false), nil
	}
	entry := e.prog.Locations[0]
	for _, in := range inputs {
		st.seed(entry, in.Clone(), true)
	}
	work := map[string]bool{entry: true}
	for len(work) > 0 {
		if err := ctx.Err(); err != nil {
			return st.result(StopReason(ctx), true), nil
		}
		loc := st.next(work)
		delete(work, loc)
		st.stats.Iterations++
		pending := st.sets[loc].TakePending()
		if e.opts.Join == JoinIndependent {
			// TVLA joins into the stored structure in place: a version
			// waiting to be processed is the structure as it is now.
			for i, pd := range pending {
				pending[i].Structure = st.sets[loc].At(pd.Slot)
			}
		}
		// Every (edge, pending structure) application of this iteration
		// reads only its own structure, so they run in parallel; their
		// outcomes are joined in the sequential order, which keeps the
		// result independent of the number of workers.
		var tasks []task
		for _, ed := range st.out[loc] {
			for _, pd := range pending {
				tasks = append(tasks, task{loc: loc, edge: ed, act: e.actions[ed.Action], pending: pd})
			}
		}
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
			st.source = slotRef{loc, t.pending.Slot}
			st.stats.Breaches += o.stats.Breaches
			st.stats.FocusTime += o.stats.FocusTime
			st.stats.CoerceTime += o.stats.CoerceTime
			st.stats.UpdateTime += o.stats.UpdateTime
			st.stats.BlurTime += o.stats.BlurTime
			ind := e.opts.Join == JoinIndependent
			for _, m := range o.messages {
				// Under the single-structure join a message raised on the
				// stored structure itself (Focus did not split it) belongs
				// to its slot, whatever version of it: TVLA joins into
				// the stored structure in place, so the message stays one
				// and shows the structure as it ends.
				st.message(loc, t.act, m.text, m.structure, ind && m.structure == t.pending.Structure)
			}
			target := st.sets[t.edge.To]
			for i, r := range o.results {
				st.stats.Examined++
				t0 := time.Now()
				to, changed := target.addKeyed(r, o.keys[i])
				st.stats.JoinTime += time.Since(t0)
				if changed {
					work[t.edge.To] = true
				}
				st.arrivals.add(slotRef{t.edge.To, to}, st.source, t.act.src.Title)
			}
			if o.broken != "" {
				b.cancel()
				r := st.result(o.broken, true)
				r.StoppedOnMessage = true
				return r, nil
			}
			if reason := st.limitReached(); reason != "" {
				b.cancel()
				r := st.result(reason, true)
				r.StoppedOnMessage = st.stats.Messages > 0 && st.e.opts.MaxMessages > 0 && st.stats.Messages >= st.e.opts.MaxMessages
				return r, nil
			}
			if ctx.Err() != nil {
				b.cancel()
				return st.result(StopReason(ctx), true), nil
			}
		}
		if e.opts.Progress != nil && st.stats.Iterations%64 == 0 {
			st.stats.Worklist = len(work)
			st.stats.Elapsed = time.Since(st.start)
			st.stats.Stored = st.stored()
			e.opts.Progress(st.stats)
		}
	}
	return st.result("", false), nil
}

// seed coerces an input structure (a copy, which it may change) and
// stores it at the entry location, blurred first unless the run is
// concrete: how every run starts. An input Coerce finds inconsistent is
// counted and dropped.
func (st *state) seed(entry string, s *tvl.Structure, blur bool) {
	if a := st.e.active; a != nil {
		// The individuals of an input exist, unless it says they may not.
		for u := 0; u < s.Size(); u++ {
			if s.Unary(a.Index, u) == logic.False {
				s.Set(a, logic.True, u)
			}
		}
	}
	r := st.e.coerce.Coerce(s, nil)
	st.stats.Breaches += r.Breaches
	st.stats.Inputs++
	if !r.Consistent {
		st.stats.InputsDiscarded++
		return
	}
	if blur {
		s, _ = Blur(s, st.e.abs)
	}
	s.Freeze()
	slot, _ := st.sets[entry].Add(s)
	st.arrivals.add(slotRef{entry, slot}, slotRef{slot: -1}, "")
}

func (st *state) stored() int {
	n := 0
	for _, s := range st.sets {
		n += s.Len()
	}
	return n
}

func (st *state) limitReached() string {
	o := st.e.opts
	if o.MaxMessages > 0 && st.stats.Messages >= o.MaxMessages {
		return fmt.Sprintf("the message limit (%d) was reached", o.MaxMessages)
	}
	if o.MaxStructures > 0 && st.stored() > o.MaxStructures {
		return fmt.Sprintf("the structure limit (%d) was exceeded", o.MaxStructures)
	}
	return ""
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

// refineChanged is what Focus's refinement re-checks: the predicates a
// split changed (semi-naive), or everything when
// TVLA_FULL_FOCUS_COERCE is set (a switch to compare the two).
func refineChanged(changed []*tvl.Pred) []*tvl.Pred {
	if fullFocusCoerce {
		return nil
	}
	return changed
}

var fullFocusCoerce = os.Getenv("TVLA_FULL_FOCUS_COERCE") != ""

// apply runs one action on one stored structure: Focus, Coerce,
// precondition, messages, update, Coerce, Blur.
func (w *worker) apply(act *Action, loc string, s *tvl.Structure) (o outcome) {
	e := w.e
	if e.opts.Join == JoinConcrete {
		return w.applyConcrete(act, s)
	}
	if !act.applicable(s, w.bounds) {
		return o
	}
	// Focus never writes the structure it is given (a split clones), so
	// the stored one serves as it is.
	work := []*tvl.Structure{s}
	coerced := map[*tvl.Structure]bool{}
	unsplit := work[0]
	if e.order.focus {
		t0 := time.Now()
		// Focus coerces the structures its splits make, as it goes;
		// those need no second Coerce below. A structure Focus did not
		// split is the stored one, unchanged: Coerce is semi-naive, and
		// nothing changed, so it is skipped too (as in TVLA; Coerce only
		// ever sharpens, so skipping it costs precision at most, and on
		// the reference examples it costs none).
		refine := func(t *tvl.Structure, changed []*tvl.Pred) bool {
			if w.interrupted() {
				return false // the outcome is dropped (Run)
			}
			// Focus and Coerce only refine a structure, and the
			// precondition cannot become potentially true on a
			// refinement of a structure where it is 0: such a split is
			// dropped before the cost of Coerce and of further splits.
			if !act.applicable(t, w.bounds) {
				return false
			}
			r := w.coerce.Coerce(t, refineChanged(changed))
			o.stats.Breaches += r.Breaches
			if r.Consistent {
				coerced[t] = true
			}
			return r.Consistent
		}
		refineInd := func(t *tvl.Structure, d *Delta, simpleOnly bool) bool {
			if w.interrupted() {
				return false
			}
			if !act.applicable(t, w.bounds) {
				return false
			}
			var r CoerceResult
			if d == nil {
				r = w.coerce.Coerce(t, nil)
			} else {
				r = w.coerce.CoerceDelta(t, d, simpleOnly)
			}
			o.stats.Breaches += r.Breaches
			return r.Consistent
		}
		for _, fo := range act.focus {
			var next []*tvl.Structure
			for _, t := range work {
				var parts []*tvl.Structure
				var err error
				if e.active != nil {
					parts, err = fo.FocusInd(t, refineInd)
				} else {
					parts, err = fo.Focus(t, refine, w.bounds)
				}
				if err != nil {
					o.err = fmt.Errorf("action %s at %s: %w", act.src.Title, loc, err)
					return o
				}
				next = append(next, parts...)
			}
			work = next
		}
		if e.active != nil {
			// Focus under the single-structure join refined what it
			// split as it went, and removed what does not exist: its
			// results are as Coerce left them.
			for _, t := range work {
				coerced[t] = true
			}
		}
		o.stats.FocusTime += time.Since(t0)
	}
	if e.order.coerceBefore {
		t0 := time.Now()
		kept := work[:0]
		for _, t := range work {
			if coerced[t] || t == unsplit {
				kept = append(kept, t)
				continue
			}
			r := w.coerce.Coerce(t, nil)
			o.stats.Breaches += r.Breaches
			if r.Consistent {
				kept = append(kept, t)
			}
		}
		work = kept
		o.stats.CoerceTime += time.Since(t0)
	}
	for _, t := range work {
		t.Freeze()
		for _, b := range act.preconditionBindings(t, w.bounds) {
			for _, text := range messages(act.preMsgs, t, b) {
				o.messages = append(o.messages, raised{text, t})
			}
			t0 := time.Now()
			post, changed, pre := act.updateFrom(t, b, w.bounds)
			all := false
			if d := dropInactive(post, e.active); d != post {
				// An update made an individual not exist (a program
				// that writes inac): every constraint is checked.
				post, changed, all = d, nil, true
			}
			o.stats.UpdateTime += time.Since(t0)
			for _, text := range messages(act.postMsgs, post, b) {
				o.messages = append(o.messages, raised{text, t})
			}
			if e.order.coerceAfter && (len(changed) > 0 || all) {
				t0 := time.Now()
				var r CoerceResult
				if e.active != nil && !all && pre.Size() == post.Size() {
					// Incremental on the tuples that changed, as TVLA is
					// (delta.go); the individuals %new and %clone made
					// count as changed on every tuple.
					r = w.coerce.CoerceAfterUpdate(post, updateDelta(pre, post, t.Size(), changed))
				} else {
					r = w.coerce.Coerce(post, changed)
				}
				o.stats.Breaches += r.Breaches
				o.stats.CoerceTime += time.Since(t0)
				if !r.Consistent {
					if e.opts.BreakIfCoerceAfterUpdateFailed {
						// Stop, as TVLA does: the update formulas are wrong or
						// the state was invalid. It is reported as a message
						// (TVLA only prints it), so the verdict is "not
						// verified".
						o.messages = append(o.messages, raised{"a constraint is breached after the update: " + r.Violated, t})
						o.broken = fmt.Sprintf("Coerce found a structure inconsistent after the update of action %s at %s: "+
							"constraint %s is breached (set tvla.engine.breakIfCoerceAfterUpdateFailed=false to drop such structures instead)",
							act.src.Title, loc, r.Violated)
						// The rest of this application's results still
						// count, as in TVLA; the run stops after them.
					}
					continue
				}
			}
			t0 = time.Now()
			blurred, _ := Blur(post, e.abs)
			blurred.Freeze()
			o.stats.BlurTime += time.Since(t0)
			o.results = append(o.results, blurred)
		}
	}
	return o
}

// message records a message once per location, text and structure, or,
// when slotBound, once per location, text and stored structure (st.source).
func (st *state) message(loc string, act *Action, text string, s *tvl.Structure, slotBound bool) {
	key := fmt.Sprintf("%s\x00%s\x00%x", loc, text, s.OrderedHash())
	if slotBound {
		key = fmt.Sprintf("%s\x00%s\x00slot %d", loc, text, st.source.slot)
	}
	if st.msgSeen[key] {
		return
	}
	st.msgSeen[key] = true
	st.messages[loc] = append(st.messages[loc], Message{Location: loc, Action: act.src.Title, Text: text, Structure: s, source: st.source, slotBound: slotBound})
	st.stats.Messages++
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
		for _, s := range set.Structures() {
			scheduled := false
			for u := 0; u < s.Size() && !scheduled; u++ {
				scheduled = s.Unary(p.Index, u) == logic.True
			}
			if !scheduled {
				n++
			}
		}
	}
	return n
}

func (st *state) result(reason string, incomplete bool) *Result {
	r := &Result{Incomplete: incomplete, StopReason: reason, sets: st.sets, arrivals: st.arrivals}
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
	st.stats.Elapsed = time.Since(st.start)
	r.Stats = st.stats
	return r
}
