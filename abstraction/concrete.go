package abstraction

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Concrete runs (JoinConcrete, TVLA's "conc") execute the program on
// two-valued structures: no Focus (every formula is already definite), no
// Blur, and structures kept up to isomorphism. They give the states the
// program really reaches from small concrete inputs, against which the
// abstract result can be checked (the Embedding Theorem, package
// soundness).
//
// The concrete semantics is the program's, not its abstraction's:
//   - After each update the instrumentation predicates are evaluated from
//     their definitions, whatever the action's update formulas (written or
//     derived) say. Where those formulas disagree with the definitions, the
//     run raises a message that starts with ConcreteCheck.
//   - Consistency rules are checked, not enforced: an input that breaks one
//     is not a valid input and is dropped, but a reached state that breaks
//     one is kept and a ConcreteCheck message names the rule; a later step
//     that chooses values (writes 1/2) is restricted only by the rules its
//     state satisfies. A wrong rule thus cannot hide the states it wrongly
//     excludes, nor their successors.
//
// The run proceeds breadth first, one depth at a time: the structures of
// depth d+1 are those first produced from depth d. MaxDepth and
// MaxStructures bound it; within a depth the order is fixed by the CFG, so
// the result does not depend on the number of workers.

// ConcreteCheck begins the text of the messages a concrete run raises
// about the program's own claims (update formulas, consistency rules), as
// opposed to the program's %message texts.
const ConcreteCheck = "concrete check: "

// The concrete checks that find a claim of the program false on a state
// it reaches begin with BrokenRule (a consistency rule, which Coerce takes
// as true of every concrete state) or WrongUpdate (an update formula
// whose definite value differs from its predicate's definition). The
// other concrete checks are notes.
const (
	BrokenRule  = ConcreteCheck + "a reached state breaks the constraint "
	WrongUpdate = ConcreteCheck + "the update of "
)

// StopReason says why ctx ended: the cause it was given (a time or
// memory limit), or "interrupted".
func StopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil, errors.Is(cause, context.Canceled):
		return "interrupted"
	case errors.Is(cause, context.DeadlineExceeded):
		return "the time limit was reached"
	}
	return cause.Error()
}

// definitions evaluates the instrumentation predicates from their
// definitions, each after those its definition uses.
type definitions struct {
	preds []*tvl.Pred
	defs  []*tvl.Compiled
	// reads lists, per definition, the IDs of the predicates it reads.
	reads [][]int
	// core are the other predicates but sm: those a concrete structure
	// chooses.
	core []*tvl.Pred
}

func compileDefinitions(voc *predicates.Vocabulary) (*definitions, error) {
	d := &definitions{core: corePreds(voc)}
	for _, p := range dependencyOrder(voc) {
		c, err := tvl.Compile(p.Def, voc.Tvl(), p.Params)
		if err != nil {
			return nil, fmt.Errorf("definition of %s: %w", p.Name, err)
		}
		var reads []int
		for _, name := range logic.Preds(p.Def) {
			if q := voc.Lookup(name); q != nil {
				reads = append(reads, q.ID)
			}
		}
		if logic.UsesEquality(p.Def) {
			reads = append(reads, voc.Tvl().Summary().ID)
		}
		d.preds = append(d.preds, p.Pred)
		d.defs = append(d.defs, c)
		d.reads = append(d.reads, reads)
	}
	return d, nil
}

// apply sets every instrumentation predicate of s to its definition's
// value. It returns the predicates it evaluated: all of them.
func (d *definitions) apply(s *tvl.Structure) []*tvl.Pred {
	return d.applyAfter(s, nil, nil)
}

// applyAfter is apply for a structure s that differs from pre, whose
// instrumentation values are right and which has the same individuals,
// at most in the predicates of moved: the definitions that read none of
// them, directly or through other definitions, take pre's values. With
// pre nil, every definition is evaluated. It returns the predicates it
// evaluated: the only ones that may differ from pre's.
func (d *definitions) applyAfter(s, pre *tvl.Structure, moved []*tvl.Pred) []*tvl.Pred {
	var evaluated []*tvl.Pred
	var dirty map[int]bool
	if pre != nil {
		dirty = map[int]bool{}
		for _, p := range moved {
			dirty[p.ID] = true
		}
	}
	for i, p := range d.preds {
		if pre != nil {
			stale := false
			for _, id := range d.reads[i] {
				stale = stale || dirty[id]
			}
			if !stale {
				s.CopyPred(p, pre)
				continue
			}
			dirty[p.ID] = true
		}
		bound := d.defs[i].Bind(s)
		type write struct {
			t []int
			v logic.Kleene
		}
		var ws []write
		eachTuple(s.Size(), p.Arity, func(t []int) bool {
			if v := bound.Eval(t...); v != s.Get(p, t...) {
				ws = append(ws, write{append([]int(nil), t...), v})
			}
			return true
		})
		for _, w := range ws {
			s.Set(p, w.v, w.t...)
		}
		evaluated = append(evaluated, p)
	}
	return evaluated
}

func (e *Engine) definitions() (*definitions, error) {
	if e.truth == nil {
		d, err := compileDefinitions(e.voc)
		if err != nil {
			return nil, err
		}
		e.truth = d
	}
	return e.truth, nil
}

// twoValued reports whether s has no summary individual and no value 1/2.
func twoValued(s *tvl.Structure) bool {
	for _, p := range s.Vocabulary().Preds() {
		found := false
		eachTuple(s.Size(), p.Arity, func(t []int) bool {
			found = s.Get(p, t...) == logic.Unknown
			return !found
		})
		if found {
			return false
		}
	}
	return true
}

// runConcrete explores the program from two-valued inputs, breadth first.
func (e *Engine) runConcrete(ctx context.Context, inputs []*tvl.Structure) (*Result, error) {
	if _, err := e.definitions(); err != nil {
		return nil, err
	}
	st := e.newState()
	if len(e.prog.Locations) == 0 {
		return st.result("", false), nil
	}
	entry := e.prog.Locations[0]
	for i, in := range inputs {
		if !twoValued(in) {
			return nil, fmt.Errorf("input structure %d is not two-valued (a summary individual or a value 1/2): a concrete run needs concrete inputs (Engine.Concretize makes them)", i+1)
		}
		s := in.Clone()
		e.truth.apply(s)
		st.seed(entry, s, false)
	}
	locs := append([]string(nil), e.prog.Locations...)
	sort.SliceStable(locs, func(i, j int) bool { return st.rpo[locs[i]] < st.rpo[locs[j]] })
	for depth := 0; ; depth++ {
		if ctx.Err() != nil {
			return st.result(StopReason(ctx), true), nil
		}
		// This depth's structures: those stored since the last one began.
		var tasks []task
		for _, loc := range locs {
			pending := st.sets[loc].TakePending()
			for _, ed := range st.out[loc] {
				for _, pd := range pending {
					tasks = append(tasks, task{loc: loc, edge: ed, act: e.actions[ed.Action], pending: pd})
				}
			}
		}
		if len(tasks) == 0 {
			return st.result("", false), nil
		}
		if e.opts.MaxDepth > 0 && depth >= e.opts.MaxDepth {
			return st.result(fmt.Sprintf("the depth limit (%d) was reached", e.opts.MaxDepth), true), nil
		}
		st.stats.Iterations++
		b := st.startBatch(tasks)
		for i, t := range tasks {
			o := b.wait(i)
			if o.err != nil {
				b.cancel()
				return nil, o.err
			}
			st.source = slotRef{t.loc, t.pending.Slot}
			st.stats.UpdateTime += o.stats.UpdateTime
			st.stats.CoerceTime += o.stats.CoerceTime
			for _, m := range o.messages {
				st.message(t.loc, t.act, m.text, m.structure, false)
			}
			target := st.sets[t.edge.To]
			for _, r := range o.results {
				st.stats.Examined++
				t0 := time.Now()
				to, _ := target.Add(r)
				st.stats.JoinTime += time.Since(t0)
				st.arrivals.add(slotRef{t.edge.To, to}, st.source, t.act.src.Title)
			}
			if reason := st.limitReached(); reason != "" {
				b.cancel()
				r := st.result(reason, true)
				r.StoppedOnMessage = st.stats.Messages > 0 && e.opts.MaxMessages > 0 && st.stats.Messages >= e.opts.MaxMessages
				return r, nil
			}
			if ctx.Err() != nil {
				b.cancel()
				return st.result(StopReason(ctx), true), nil
			}
		}
		if e.opts.Progress != nil {
			st.stats.Elapsed = time.Since(st.start)
			st.stats.Stored = st.stored()
			st.stats.Worklist = 0
			for _, l := range locs {
				if st.sets[l].HasPending() {
					st.stats.Worklist++
				}
			}
			e.opts.Progress(st.stats)
		}
	}
}

// applyConcrete runs one action on a two-valued structure: for each
// binding of the precondition, messages, the update, the instrumentation
// predicates from their definitions, and a check of the consistency
// rules.
//
// An update may write 1/2 on purpose, TVLA's way of choosing a value
// (lv(t, d) = is_data(d) & 1/2: "some data value"). Its concrete meaning
// is every choice of 0 or 1 for those values that satisfies the
// constraints, as in the abstract semantics, where Coerce and Focus make
// the choice: so a step that writes 1/2 gives one successor per such
// choice, and the constraints do restrict it. A step that writes no 1/2
// gives one successor, which is kept whatever the constraints say.
func (w *worker) applyConcrete(act *Action, s *tvl.Structure) (o outcome) {
	truth := w.e.truth
	for _, b := range act.preconditionBindings(s, nil) {
		for _, text := range messages(act.preMsgs, s, b) {
			o.messages = append(o.messages, raised{text, s})
		}
		t0 := time.Now()
		post, _ := act.update(s, b, nil)
		o.stats.UpdateTime += time.Since(t0)
		succ := func(next *tvl.Structure) []*tvl.Pred {
			for _, text := range messages(act.postMsgs, next, b) {
				o.messages = append(o.messages, raised{text, s})
			}
			changed, wrong := truth.fix(next, post, s, act.changes)
			for _, p := range wrong {
				o.messages = append(o.messages, raised{fmt.Sprintf("%s%s disagrees with its definition", WrongUpdate, p.Name), s})
			}
			return changed
		}
		if p, _ := firstUnknown(post, truth.core); p == nil {
			next := post.Clone()
			changed := succ(next)
			t0 = time.Now()
			// Only the constraints that read what the step changed can
			// have become false (those that were false before were
			// reported when that state was reached).
			r := w.coerce.Coerce(next.Clone(), append(changed, act.changes...))
			o.stats.CoerceTime += time.Since(t0)
			if !r.Consistent {
				// The message shows the state that breaks the rule.
				o.messages = append(o.messages, raised{BrokenRule + r.Violated, next})
			}
			next.Freeze()
			o.results = append(o.results, next)
			continue
		}
		// A choice: every completion that satisfies the constraints, but
		// for those s already breaks (reported when s was reached): a
		// wrong rule must not hide the successors of the states it
		// wrongly excludes.
		t0 = time.Now()
		co, _ := w.coerce.holding(s)
		var nexts []*tvl.Structure
		x := post.Clone()
		if r := co.Coerce(x, nil); r.Consistent {
			complete(x, co, truth.core, func(c *tvl.Structure) bool {
				nexts = append(nexts, c)
				return true
			})
		}
		o.stats.CoerceTime += time.Since(t0)
		if len(nexts) == 0 {
			o.messages = append(o.messages, raised{ConcreteCheck + "no choice of the values 1/2 the update writes satisfies the constraints", s})
		}
		for _, next := range nexts {
			succ(next)
			next.Freeze()
			o.results = append(o.results, next)
		}
	}
	return o
}

// fix sets s's instrumentation predicates to their definitions' values,
// s being a successor of pre by an action that changed moved (pre may be
// nil). It returns those it evaluated, and those whose definite values in written
// (the state the update wrote, with the same individuals) differ from the
// definitions': an update formula that writes 1/2 claims nothing.
func (d *definitions) fix(s, written, pre *tvl.Structure, moved []*tvl.Pred) (evaluated, wrong []*tvl.Pred) {
	if pre != nil && pre.Size() == s.Size() {
		evaluated = d.applyAfter(s, pre, moved)
	} else {
		evaluated = d.apply(s)
	}
	for _, p := range d.preds {
		differs := false
		eachTuple(s.Size(), p.Arity, func(t []int) bool {
			v := written.Get(p, t...)
			differs = v != logic.Unknown && v != s.Get(p, t...)
			return !differs
		})
		if differs {
			wrong = append(wrong, p)
		}
	}
	return evaluated, wrong
}

// TraceTo returns a shortest trace from an input structure to the
// structure stored in a slot of a location (its index in the location's
// Structures).
func (r *Result) TraceTo(loc string, slot int) []TraceStep {
	steps := r.Trace(Message{Location: loc, source: slotRef{loc, slot}})
	if len(steps) <= 1 {
		// No recorded arrival: the structure alone.
		return []TraceStep{{Location: loc, Structure: r.sets[loc].At(slot)}}
	}
	return steps[:len(steps)-1]
}

// holding returns a Coercer with only the constraints that the
// two-valued structure s satisfies, and whether s breaks any (c itself
// when it breaks none).
func (c *Coercer) holding(s *tvl.Structure) (*Coercer, bool) {
	x := s.Clone()
	var keep []*constraint
	var res CoerceResult
	for i, k := range c.cons {
		if c.apply(x, i, k, make(predSet, len(c.byPred)), &res, nil) {
			keep = append(keep, k)
		}
	}
	if len(keep) == len(c.cons) {
		return c, false
	}
	h := &Coercer{voc: c.voc, cons: keep, byPred: make([][]int, len(c.byPred)), scratch: make([]*constraintScratch, len(keep))}
	sm := c.voc.Summary().ID
	for i, k := range keep {
		for _, p := range k.reads {
			h.byPred[p.ID] = append(h.byPred[p.ID], i)
		}
		if k.usesEq {
			h.byPred[sm] = append(h.byPred[sm], i)
		}
	}
	return h, true
}
