package engine

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// JoinIndependent keeps one structure per location and valuation of the
// nullary predicates (all of them, abstraction or not): TVLA's
// single-structure join, "ind". Structures with different individuals
// merge by canonical name; an individual that only some of them have may
// not exist, which the predicate inac records (1/2 there, 1 where the
// individual certainly exists). Formulas range over existing individuals
// only (logic.Relativize).
//
// The mode copies TVLA 3, quirks included, as observed on the reference
// as a black box: it joins into the stored structure in place; the
// structures Focus leaves raise the messages, and that Focus walks the
// formula instead of splitting until it is definite
// (abstraction.WalkingFocuser); its Coerce is incremental on the tuples
// that changed (abstraction.Delta).
const JoinIndependent = "ind"

type independent struct {
	abstractMode
	exists *tvl.Pred
}

// prepare relativizes the constraints and the actions' formulas to the
// individuals that exist, and makes %new and %clone's individuals exist.
func (m *independent) prepare(e *Engine) error {
	m.exists = e.voc.Tvl().Lookup(predicates.InacName)
	if m.exists == nil || m.exists.Arity != 1 {
		return fmt.Errorf("the single-structure join needs the unary built-in predicate %s", predicates.InacName)
	}
	name := m.exists.Name
	e.existence = m.exists
	e.constraints = predicates.Relativize(e.constraints, name)
	e.actionOptions.Restrict = func(f logic.Formula) logic.Formula { return logic.Relativize(f, name) }
	e.actionOptions.MarkNew = []*tvl.Pred{m.exists}
	return nil
}

func (m *independent) joiner(e *Engine) joiner {
	return &independentJoin{absUn: e.abs, nullary: e.voc.Tvl().OfArity(0), exists: m.exists}
}

// explore is the worklist, from inputs whose individuals exist unless
// they say they may not.
func (m *independent) explore(ctx context.Context, st *state, inputs []*tvl.Structure) (*Result, error) {
	ready := make([]*tvl.Structure, len(inputs))
	for i, in := range inputs {
		s := in.Clone()
		for u := 0; u < s.Size(); u++ {
			if s.Unary(m.exists.Index, u) == logic.False {
				s.Set(m.exists, logic.True, u)
			}
		}
		ready[i] = s
	}
	return st.worklist(ctx, ready)
}

// apply runs the pipeline with TVLA's walking Focus. A message raised on
// the stored structure itself (Focus did not split it) belongs to its
// slot, whatever version of it: TVLA joins into the stored structure in
// place, so the message stays one and shows the structure as it ends.
func (m *independent) apply(w *worker, t task) outcome {
	o := w.applyAbstract(t, m)
	for i := range o.messages {
		o.messages[i].slotBound = o.messages[i].structure == t.pending.Structure
	}
	return o
}

// focus walks each focus formula as TVLA 3 does; the structures it
// leaves are refined as it went, and what does not exist is removed, so
// they need no Coerce.
func (m *independent) focus(w *worker, act *abstraction.Action, s *tvl.Structure, o *outcome) ([]*tvl.Structure, map[*tvl.Structure]bool, error) {
	refine := func(t *tvl.Structure, d *abstraction.Delta, simpleOnly bool) bool {
		if w.interrupted() {
			return false
		}
		if !act.Applicable(t, w.bounds) {
			return false
		}
		var r abstraction.CoerceResult
		if d == nil {
			r = w.coerce.Coerce(t, nil)
		} else {
			r = w.coerce.CoerceDelta(t, d, simpleOnly)
		}
		o.stats.Breaches += r.Breaches
		return r.Consistent
	}
	work := []*tvl.Structure{s}
	for _, fo := range act.Focusers() {
		walker := abstraction.NewWalkingFocuser(fo, m.exists)
		var next []*tvl.Structure
		for _, t := range work {
			parts, err := walker.Focus(t, refine)
			if err != nil {
				return nil, nil, err
			}
			next = append(next, parts...)
		}
		work = next
	}
	coerced := make(map[*tvl.Structure]bool, len(work))
	for _, t := range work {
		coerced[t] = true
	}
	return work, coerced, nil
}

// settle removes the individuals an update made not exist (a program
// that writes inac); then every constraint is checked.
func (m *independent) settle(post *tvl.Structure, changed []*tvl.Pred) (*tvl.Structure, []*tvl.Pred, bool) {
	if d := abstraction.RemoveNonexistent(post, m.exists); d != post {
		return d, nil, true
	}
	return post, changed, false
}

// coerceAfterUpdate is incremental on the tuples that changed, as TVLA's
// is; the individuals %new and %clone made count as changed on every
// tuple.
func (m *independent) coerceAfterUpdate(w *worker, t, pre, post *tvl.Structure, changed []*tvl.Pred, all bool) abstraction.CoerceResult {
	if !all && pre.Size() == post.Size() {
		return w.coerce.CoerceAfterUpdate(post, abstraction.UpdateDelta(pre, post, t.Size(), changed))
	}
	return w.coerce.Coerce(post, changed)
}

// independentJoin merges the structures with the same values of the
// nullary predicates, their individuals matched by canonical name.
type independentJoin struct {
	absUn   []*tvl.Pred // unary abstraction predicates: the names
	nullary []*tvl.Pred // every nullary predicate: the key
	exists  *tvl.Pred
}

func (j *independentJoin) key(s *tvl.Structure) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, p := range j.nullary {
		h = h*31 + uint64(s.Nullary(p.Index))
	}
	return h
}

func (j *independentJoin) join(old, s *tvl.Structure) (*tvl.Structure, bool, bool) {
	for _, p := range j.nullary {
		if old.Nullary(p.Index) != s.Nullary(p.Index) {
			return nil, false, false
		}
	}
	joined, grew := j.joinByName(old, s)
	return joined, grew, true
}

func (j *independentJoin) inPlace() bool { return true }

// joinByName joins two blurred structures whose individuals are in
// increasing order of canonical name: individuals with the same name
// correspond, and the result has the union of the names, in order.
func (j *independentJoin) joinByName(a, b *tvl.Structure) (*tvl.Structure, bool) {
	var fromA, fromB []int
	i, k := 0, 0
	for i < a.Size() || k < b.Size() {
		c := 0
		switch {
		case i == a.Size():
			c = 1
		case k == b.Size():
			c = -1
		default:
			c = bytes.Compare(abstraction.CanonicalName(a, j.absUn, i), abstraction.CanonicalName(b, j.absUn, k))
		}
		switch {
		case c < 0:
			fromA, fromB = append(fromA, i), append(fromB, -1)
			i++
		case c > 0:
			fromA, fromB = append(fromA, -1), append(fromB, k)
			k++
		default:
			fromA, fromB = append(fromA, i), append(fromB, k)
			i, k = i+1, k+1
		}
	}
	return tvl.JoinIndependent(a, b, fromA, fromB, j.exists)
}
