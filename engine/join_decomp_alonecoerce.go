package engine

import (
	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/predicates"
)

// A component alone (of a name no disjunct designates, or a framed
// name's run alone, join_decomp_frame.go) is coerced without the closed
// constraints (no free variable) that read a predicate its name hides,
// and so are the meets that unframe a framed composition's results.
// Observed on TVLA 3's dtvla engine (engine/join_decomp_alonecoerce_test.go):
// a thread's component that holds every node has no individual for the
// other thread, whose predicate its name hides, and A(v) !t2(v) ==> 0
// then leaves it no heap to stand for; the reference runs actions on it
// all the same, alone and framed, and keeps their results.
// set_pldi08/dcas/dcas has 8 such components at ls_check: isNotNull
// (framed) carries them to ls_check_1 and isChoice (alone) on, 32
// components of its 903. Leaving out every constraint that reads a
// hidden predicate is too much: on a thread's component the other
// thread's name predicate t1 is hidden, and without t1(v) ==> !t2(v) the
// thread itself may be t1 (set_pldi08/dcas/dcas then stops at a breach
// after 54 components).

// aloneKey is the coercers' entry of name n's components alone
// (namesKey's keys are digits and spaces).
func aloneKey(n int) string { return "alone " + namesKey([]int{n}) }

// aloneCoercers makes, for every name, the coercer of its components
// alone (an entry only where it leaves a constraint out).
func (d *decomposing) aloneCoercers(e *Engine) error {
	closed := func(c predicates.Constraint) bool { return len(c.Vars) == 0 }
	for n := range d.comps {
		if err := d.coercerWithout(e, aloneKey(n), []int{n}, closed); err != nil {
			return err
		}
	}
	return nil
}

// aloneCoercer is w's Coercer for name n's components alone: w.coerce
// when no constraint is left out.
func (d *decomposing) aloneCoercer(w *worker, n int) *abstraction.Coercer {
	return d.coercerByKey(w, aloneKey(n))
}
