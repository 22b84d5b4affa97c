package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
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

// JoinConcrete runs the program on two-valued structures, without Blur,
// keeping every structure up to isomorphism: "conc", TVLA's name.
const JoinConcrete = "conc"

type concrete struct{}

func (concrete) prepare(*Engine) error { return nil }

func (concrete) concrete() bool { return true }

func (concrete) joiner(*Engine) joiner { return concreteJoin{} }

func (concrete) apply(w *worker, t task) outcome { return w.applyConcrete(t.act, t.pending.Structure) }

// concreteJoin keeps every structure up to isomorphism; concrete
// structures are not blurred, so their individuals are in no canonical
// order.
type concreteJoin struct{}

func (concreteJoin) key(s *tvl.Structure) uint64 { return s.Hash() }

func (concreteJoin) join(old, s *tvl.Structure) (*tvl.Structure, bool, bool) {
	if _, iso := tvl.Isomorphic(old, s); iso {
		return old, false, true
	}
	return nil, false, false
}

func (concreteJoin) inPlace() bool { return false }

// explore runs from two-valued inputs, breadth first.
func (concrete) explore(ctx context.Context, st *state, inputs []*tvl.Structure) (*Result, error) {
	e := st.e
	if _, err := e.definitions(); err != nil {
		return nil, err
	}
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
		st.seed(entry, i, s, false)
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
		if r, err := st.runBatch(ctx, tasks, nil); r != nil || err != nil {
			return r, err
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

// twoValued reports whether s has no summary individual and no value 1/2.
func twoValued(s *tvl.Structure) bool {
	for _, p := range s.Vocabulary().Preds() {
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			if s.Get(p, t...) == logic.Unknown {
				return false
			}
		}
	}
	return true
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
func (w *worker) applyConcrete(act *abstraction.Action, s *tvl.Structure) (o outcome) {
	truth := w.e.truth
	for _, b := range act.PreconditionBindings(s, nil) {
		for _, text := range act.PreMessages(s, b) {
			o.messages = append(o.messages, raised{text: text, structure: s})
		}
		t0 := time.Now()
		post, _ := act.Update(s, b, nil)
		o.stats.UpdateTime += time.Since(t0)
		succ := func(next *tvl.Structure) []*tvl.Pred {
			for _, text := range act.PostMessages(next, b) {
				o.messages = append(o.messages, raised{text: text, structure: s})
			}
			changed, wrong := truth.fix(next, post, s, act.Changes())
			for _, p := range wrong {
				o.messages = append(o.messages, raised{text: fmt.Sprintf("%s%s disagrees with its definition", WrongUpdate, p.Name), structure: s})
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
			r := w.coerce.Coerce(next.Clone(), append(changed, act.Changes()...))
			o.stats.CoerceTime += time.Since(t0)
			if !r.Consistent {
				// The message shows the state that breaks the rule.
				o.messages = append(o.messages, raised{text: BrokenRule + r.Violated, structure: next})
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
		co, _ := w.coerce.Holding(s)
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
			o.messages = append(o.messages, raised{text: ConcreteCheck + "no choice of the values 1/2 the update writes satisfies the constraints", structure: s})
		}
		for _, next := range nexts {
			succ(next)
			next.Freeze()
			o.results = append(o.results, next)
		}
	}
	return o
}
