package engine

import (
	"fmt"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
)

// An action's %frame_pre ψ (before %compose) and %frame ψ (after it).
// TVLA 3's dtvla engine reads each as an equivalence p(v) <-> φ whose
// left side is an atom, or a disjunction of such (set_pldi08's
// |/{otrnm(v) <-> ... : otrnm in Threads-{trnm}}), and fails with an
// internal error on any other shape (a bare atom, a conjunction of
// equivalences, a disjunction or a negation on the left); its classic
// engine runs such programs. (A %frame whose disjuncts' atoms hold in
// the same structure stops it too, "Multiple matches for framer", when
// the action runs; we do not.) Every well-formed frame we tried
// changed nothing the reference prints (docs/decomposition.md, "%frame_pre
// and %frame"): on programs of ours (frames on the composed names, on a
// name no %compose atom designates, by 0, 1, an atom), every structure
// of its -tvs output the same up to isomorphism, with set_pldi08's
// properties and without; on set_pldi08/cas/nolin/g, with its one
// %frame_pre taken out, the same 2,778 components at every location and
// the same breach. So the decomposing engine refuses the shapes the
// reference fails on and otherwise ignores the clauses (the loader
// warns that it does).

// checkFrameClauses refuses a %frame_pre or %frame that is not an
// equivalence with an atom on its left.
func checkFrameClauses(a *model.Action) error {
	for _, c := range []struct {
		name string
		f    logic.Formula
	}{{"%frame_pre", a.FramePre}, {"%frame", a.Frame}} {
		if c.f == nil {
			continue
		}
		for _, dis := range disjuncts(c.f) {
			if !frameShaped(dis) {
				return fmt.Errorf("%s %s: the decomposing engine reads a frame as p(v) <-> φ, an atom on the left, or a disjunction of such (TVLA 3 fails on other shapes)", c.name, logic.String(c.f))
			}
		}
	}
	return nil
}

// frameShaped reports whether f is p(v) <-> φ with an atom on the left.
func frameShaped(f logic.Formula) bool {
	b, ok := f.(*logic.Binary)
	if !ok || b.Op != logic.Iff {
		return false
	}
	_, ok = b.Left.(*logic.Atom)
	return ok
}
