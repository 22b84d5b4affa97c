package engine

import (
	"fmt"
	"os"
	"time"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/tvl"
)

// The abstract join modes apply an action to a stored structure by one
// pipeline, TVLA's: Focus ▶ Coerce ▶ precondition ▶ messages ▶ update ▶
// messages ▶ Coerce ▶ Blur (the engine's action order may leave out
// Focus and either Coerce). A mode chooses its Focus and what follows an
// update (focusSteps); the rest is the same for all of them.

// focusSteps are the steps of the pipeline that differ between abstract
// join modes.
type focusSteps interface {
	// focus makes the action's focus formulas definite on s (which it
	// must not change), refining what it splits. It returns the
	// structures to go on with and which of them need no Coerce before
	// the precondition, refined already (s itself never needs one).
	focus(w *worker, act *abstraction.Action, s *tvl.Structure, o *outcome) (work []*tvl.Structure, coerced map[*tvl.Structure]bool, err error)
	// settle readies an updated structure for the messages and the
	// Coerce after the update; all reports that every constraint must
	// be checked there.
	settle(post *tvl.Structure, changed []*tvl.Pred) (settled *tvl.Structure, stillChanged []*tvl.Pred, all bool)
	// coerceAfterUpdate enforces the constraints on post, the update of
	// t whose update formulas read pre.
	coerceAfterUpdate(w *worker, t, pre, post *tvl.Structure, changed []*tvl.Pred, all bool) abstraction.CoerceResult
}

// applyAbstract runs one action on one stored structure through the
// pipeline, with the mode's steps.
func (w *worker) applyAbstract(t task, steps focusSteps) (o outcome) {
	e, act, s := w.e, t.act, t.pending.Structure
	if !act.Applicable(s, w.bounds) {
		return o
	}
	// Focus never writes the structure it is given (a split clones), so
	// the stored one serves as it is.
	work := []*tvl.Structure{s}
	var coerced map[*tvl.Structure]bool
	if e.order.focus {
		t0 := time.Now()
		var err error
		if work, coerced, err = steps.focus(w, act, s, &o); err != nil {
			o.err = fmt.Errorf("action %s at %s: %w", act.Title(), t.loc, err)
			return o
		}
		o.stats.FocusTime += time.Since(t0)
	}
	if e.order.coerceBefore {
		work = w.coerceUnrefined(work, s, coerced, &o)
	}
	for _, u := range work {
		u.Freeze()
		for _, b := range act.PreconditionBindings(u, w.bounds) {
			w.updateAndBlur(t, steps, u, b, &o)
		}
	}
	return o
}

// coerceUnrefined coerces the structures of work that Focus did not
// refine, dropping those found inconsistent. The stored structure itself
// needs none: it was coerced before it was stored.
func (w *worker) coerceUnrefined(work []*tvl.Structure, stored *tvl.Structure, coerced map[*tvl.Structure]bool, o *outcome) []*tvl.Structure {
	t0 := time.Now()
	kept := work[:0]
	for _, u := range work {
		if u == stored || coerced[u] {
			kept = append(kept, u)
			continue
		}
		r := w.coerce.Coerce(u, nil)
		o.stats.Breaches += r.Breaches
		if r.Consistent {
			kept = append(kept, u)
		}
	}
	o.stats.CoerceTime += time.Since(t0)
	return kept
}

// updateAndBlur applies the action to the focused structure u under one
// binding of its precondition: messages, the update, messages, Coerce
// and Blur, adding what it makes to o. A constraint breached after the
// update ends the run when the engine says so (o.broken), but only after
// this application: its other results still count, as in TVLA.
func (w *worker) updateAndBlur(t task, steps focusSteps, u *tvl.Structure, b abstraction.Binding, o *outcome) {
	e, act := w.e, t.act
	for _, text := range act.PreMessagesIf(u, b, w.keepMsg) {
		o.messages = append(o.messages, raised{text: text, structure: u})
	}
	t0 := time.Now()
	post, changed, pre := act.UpdateFrom(u, b, w.bounds)
	post, changed, all := steps.settle(post, changed)
	o.stats.UpdateTime += time.Since(t0)
	for _, text := range act.PostMessagesIf(post, b, w.keepMsg) {
		o.messages = append(o.messages, raised{text: text, structure: u})
	}
	if e.order.coerceAfter && (len(changed) > 0 || all) {
		t0 := time.Now()
		r := steps.coerceAfterUpdate(w, u, pre, post, changed, all)
		o.stats.Breaches += r.Breaches
		o.stats.CoerceTime += time.Since(t0)
		if !r.Consistent {
			if e.opts.BreakIfCoerceAfterUpdateFailed {
				// Stop, as TVLA does: the update formulas are wrong or
				// the state was invalid. It is reported as a message
				// (TVLA only prints it), so the verdict is "not
				// verified".
				o.messages = append(o.messages, raised{text: "a constraint is breached after the update: " + r.Violated, structure: u, breach: true})
				o.broken = fmt.Sprintf("Coerce found a structure inconsistent after the update of action %s at %s: "+
					"constraint %s is breached (set tvla.engine.breakIfCoerceAfterUpdateFailed=false to drop such structures instead)",
					act.Title(), t.loc, r.Violated)
			}
			return
		}
	}
	t0 = time.Now()
	blurred, _ := abstraction.Blur(post, e.abs)
	blurred.Freeze()
	o.stats.BlurTime += time.Since(t0)
	for _, text := range e.watchMessages(blurred, act) {
		o.messages = append(o.messages, raised{text: text, structure: u})
	}
	o.results = append(o.results, blurred)
}

// splittingFocus is Lev-Ami's general Focus (abstraction.Focuser): split
// until each focus formula is definite, Coerce as it splits. The partial
// and relational joins use it.
type splittingFocus struct {
	// skip, when set, marks the tuples Focus leaves alone
	// (abstraction.Focuser.WithSkip).
	skip func(p *tvl.Pred, args []int) bool
}

func (sf splittingFocus) focus(w *worker, act *abstraction.Action, s *tvl.Structure, o *outcome) ([]*tvl.Structure, map[*tvl.Structure]bool, error) {
	// Focus coerces the structures its splits make, as it goes; those
	// need no second Coerce. A structure Focus did not split is the
	// stored one, unchanged: Coerce is semi-naive, and nothing changed,
	// so it is skipped too (as in TVLA; Coerce only ever sharpens, so
	// skipping it costs precision at most, and on the reference examples
	// it costs none).
	coerced := map[*tvl.Structure]bool{}
	refine := func(t *tvl.Structure, changed []*tvl.Pred) bool {
		if w.interrupted() {
			return false // the outcome is dropped (Run)
		}
		// Focus and Coerce only refine a structure, and the precondition
		// cannot become potentially true on a refinement of a structure
		// where it is 0: such a split is dropped before the cost of
		// Coerce and of further splits.
		if !act.Applicable(t, w.bounds) {
			return false
		}
		r := w.coerce.Coerce(t, refineChanged(changed))
		o.stats.Breaches += r.Breaches
		if r.Consistent {
			coerced[t] = true
		}
		return r.Consistent
	}
	work := []*tvl.Structure{s}
	for _, fo := range act.Focusers() {
		if sf.skip != nil {
			fo = fo.WithSkip(sf.skip)
		}
		var next []*tvl.Structure
		for _, t := range work {
			parts, err := fo.Focus(t, refine, w.bounds)
			if err != nil {
				return nil, nil, err
			}
			next = append(next, parts...)
		}
		work = next
	}
	return work, coerced, nil
}

func (splittingFocus) settle(post *tvl.Structure, changed []*tvl.Pred) (*tvl.Structure, []*tvl.Pred, bool) {
	return post, changed, false
}

func (splittingFocus) coerceAfterUpdate(w *worker, _, _, post *tvl.Structure, changed []*tvl.Pred, _ bool) abstraction.CoerceResult {
	return w.coerce.Coerce(post, changed)
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
