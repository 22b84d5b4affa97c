package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// Binding is one assignment of the precondition's free variables.
type Binding []int

// PreconditionBindings returns the assignments under which the
// precondition is potentially satisfied (one empty binding for a closed
// precondition that is not 0, or when there is none).
func (a *Action) PreconditionBindings(s *tvl.Structure, bs Bindings) []Binding {
	if a.pre == nil {
		return []Binding{nil}
	}
	var out []Binding
	bs.bind(a.pre, s).ForEachNonZero(func(asg []int, _ logic.Kleene) bool {
		out = append(out, append(Binding(nil), asg...))
		return true
	})
	return out
}

// applicable reports whether the precondition is potentially satisfied
// (not 0) under some assignment.
func (a *Action) Applicable(s *tvl.Structure, bs Bindings) bool {
	if a.pre == nil {
		return true
	}
	return bs.bind(a.pre, s).AnyNonZero()
}

// PreMessages returns the texts of the messages checked before the update
// (global ones included) that are potentially satisfied on s under b.
func (a *Action) PreMessages(s *tvl.Structure, b Binding) []string {
	return messages(a.preMsgs, s, b, nil)
}

// PostMessages is PreMessages for the messages checked on the updated
// structure.
func (a *Action) PostMessages(post *tvl.Structure, b Binding) []string {
	return messages(a.postMsgs, post, b, nil)
}

// PreMessagesIf and PostMessagesIf check only the messages keep accepts
// (all when keep is nil): the decomposing engine checks a message
// %message [ψ] only on the composition ψ.
func (a *Action) PreMessagesIf(s *tvl.Structure, b Binding, keep func(*model.Message) bool) []string {
	return messages(a.preMsgs, s, b, keep)
}

// PostMessagesIf: see PreMessagesIf.
func (a *Action) PostMessagesIf(post *tvl.Structure, b Binding, keep func(*model.Message) bool) []string {
	return messages(a.postMsgs, post, b, keep)
}

// messages returns the texts of the messages keep accepts (nil: all)
// potentially satisfied on s under b.
func messages(ms []compiledMessage, s *tvl.Structure, b Binding, keep func(*model.Message) bool) []string {
	var out []string
	for i := range ms {
		m := &ms[i]
		if keep != nil && !keep(&m.src) {
			continue
		}
		if satisfiable(m.eval, s, b, m.own) {
			out = append(out, m.src.Text)
		}
	}
	return out
}

// satisfiable reports whether c is 1 or 1/2 for some values of its last
// own variables, the first ones fixed to b.
func satisfiable(c *tvl.Compiled, s *tvl.Structure, b Binding, own int) bool {
	bound := c.Bind(s)
	asg := make([]int, len(b)+own)
	copy(asg, b)
	for t := range tvl.Tuples(s.Size(), own) {
		copy(asg[len(b):], t)
		if bound.Eval(asg...) != logic.False {
			return true
		}
	}
	return false
}

// Update applies %new/%clone, the update formulas, the re-derivation of
// instrumentation predicates and %retain to s under b, returning the new
// structure and the predicates whose values may differ from s's (for the
// semi-naive Coerce after it). s is not changed.
func (a *Action) Update(s *tvl.Structure, b Binding, bs Bindings) (*tvl.Structure, []*tvl.Pred) {
	post, changed, _ := a.UpdateFrom(s, b, bs)
	return post, changed
}

// UpdateFrom is Update, also returning the pre-state the update formulas
// read (s, with the individuals of %new and %clone).
func (a *Action) UpdateFrom(s *tvl.Structure, b Binding, bs Bindings) (*tvl.Structure, []*tvl.Pred, *tvl.Structure) {
	// The update formulas read the pre-state, which only %new and %clone
	// change: otherwise s itself is read, and only post is a copy.
	pre := s
	if a.src.New || a.src.Clone {
		pre = s.Clone()
	}
	// New individuals join the pre-state: update formulas see them, with
	// every predicate 0 except isNew (and instance for copies), and the
	// instrumentation predicates the action does not update explicitly
	// as their definitions say (finite differencing reads them).
	if a.src.New {
		old := pre.Size()
		a.create(pre, a.newF, b, false)
		for _, in := range a.initNew {
			bound := bs.bind(in.def, pre)
			for t := range tvl.Tuples(pre.Size(), in.pred.Arity) {
				touchesNew := false
				for _, u := range t {
					if u >= old {
						touchesNew = true
					}
				}
				if touchesNew || !in.neutral {
					pre.Set(in.pred, bound.Eval(t...), t...)
				}
			}
		}
	}
	if a.src.Clone {
		a.create(pre, a.cloneF, b, true)
	}
	post := pre.Clone()
	var changed []*tvl.Pred
	var buf [8]int
	sv := a.newSharedValues(pre, bs)
	for _, u := range a.updates {
		if u.word != nil {
			if u.word.applyUpdate(pre, post, u.pred, u.coverID, b, sv) {
				changed = append(changed, u.pred)
			}
			continue
		}
		// Bound only once a tuple is covered: most derived updates of a
		// step cover none on most structures.
		var bound *tvl.Bound
		var asg []int
		k := u.pred.Arity
		differs := false
		u.where.tuples(pre, k, func(t []int) {
			if bound == nil {
				bound = bs.bind(u.eval, pre)
				if n := k + len(u.fromBinding); n <= len(buf) {
					asg = buf[:n]
				} else {
					asg = make([]int, n)
				}
				for i, j := range u.fromBinding {
					asg[k+i] = b[j]
				}
			}
			copy(asg, t)
			if v := bound.Eval(asg...); v != pre.Get(u.pred, t...) {
				post.Set(u.pred, v, t...)
				differs = true
			}
		})
		if differs {
			changed = append(changed, u.pred)
		}
	}
	if a.src.New || a.src.Clone || a.retain != nil {
		// The universe changed: every constraint the action can affect
		// is checked.
		changed = a.changes
	}
	if a.src.New || a.src.Clone {
		for u := 0; u < post.Size(); u++ {
			post.Set(a.isNew, logic.False, u)
			for w := 0; w < post.Size(); w++ {
				post.Set(a.instance, logic.False, u, w)
			}
		}
	}
	if a.retain != nil {
		bound := bs.bind(a.retain, post)
		asg := make([]int, len(b)+1)
		copy(asg, b)
		var keep []int
		for u := 0; u < post.Size(); u++ {
			asg[len(b)] = u
			if bound.Eval(asg...) != logic.False {
				keep = append(keep, u)
			}
		}
		if len(keep) < post.Size() {
			post = post.Project(keep)
			// Individuals left: a quantified constraint over any
			// predicate may now fail (TVLA's "nonNull[x]() ==> E(v)
			// x(v)" after free(x)), so Coerce checks every one.
			changed = a.every
		}
	}
	return post, changed, pre
}

// Bindings keeps one tvl.Bound per compiled formula, rebound to each
// structure in turn, for one goroutine: an application evaluates dozens of
// update formulas, and binding each afresh was a tenth of a run's
// allocation. A nil Bindings binds afresh.
type Bindings map[*tvl.Compiled]*tvl.Bound

func (bs Bindings) bind(c *tvl.Compiled, s *tvl.Structure) *tvl.Bound {
	if bs == nil {
		return c.Bind(s)
	}
	if b := bs[c]; b != nil {
		b.Rebind(s)
		return b
	}
	b := c.Bind(s)
	bs[c] = b
	return b
}

// create adds the individuals of %new or %clone: one, or with a formula
// a copy of each individual that potentially satisfies it, related to it
// by instance. Copies made by %clone carry the original's values.
func (a *Action) create(s *tvl.Structure, f *tvl.Compiled, b Binding, clone bool) {
	if f == nil {
		u := s.AddIndividual()
		s.Set(a.isNew, logic.True, u)
		for _, p := range a.markNew {
			s.Set(p, logic.True, u)
		}
		return
	}
	bound := f.Bind(s)
	asg := make([]int, len(b)+1)
	copy(asg, b)
	n := s.Size()
	var originals []int
	for u := 0; u < n; u++ {
		asg[len(b)] = u
		if bound.Eval(asg...) != logic.False {
			originals = append(originals, u)
		}
	}
	for _, u := range originals {
		var c int
		if clone {
			c = s.Duplicate(u)
			s.Set(a.instance, logic.False, c, c)
		} else {
			c = s.AddIndividual()
		}
		s.Set(a.isNew, logic.True, c)
		s.Set(a.isNew, logic.False, u)
		s.Set(a.instance, logic.True, c, u)
		for _, p := range a.markNew {
			s.Set(p, logic.True, c)
		}
	}
}
