package model

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
)

// FocusSoftConditions adds to every action leaving a CFG location L
// that is also a soft-invariant location (the name the location pattern's
// * matches) a focus on the condition of each conditional soft invariant
// at L, on the scheduled thread:
//
//	tr_scheduled(v) & at[L](v) & q(v)
//
// A thread taken out of the summary of collapsed threads at L gets
// if[L,q,p] from the summary, but q and p may both be 1/2 on it: the
// soft invariant is then the only thing that says how they go together,
// and the step that moves the thread to its next location L' makes
// if[L',q,p] 1/2 (at'[L'] & q -> p, with q and p at 1/2). Split on q,
// the rule of if[L,q,p] makes p definite where q holds, and the step
// carries the implication on. The guard of a guarded pair is focused
// on too. A program without the scheduled-thread marker, or whose CFG
// locations are not its soft-invariant locations, is left as it is.
func (p *Program) FocusSoftConditions() {
	set := p.SoftInvariants
	if set == nil || p.Vocabulary.Lookup(predicates.ScheduledName) == nil {
		return
	}
	const x logic.Var = "v"
	byLoc := map[string][]logic.Formula{}
	seen := map[string]bool{}
	add := func(loc string, at, q *predicates.Predicate) {
		key := loc + "\x00" + q.Name
		if seen[key] {
			return
		}
		seen[key] = true
		byLoc[loc] = append(byLoc[loc], logic.NewAnd(logic.NewAtom(predicates.ScheduledName, x), logic.NewAtom(at.Name, x), logic.NewAtom(q.Name, x)))
	}
	for _, inv := range set.Invariants {
		if inv.Cond == nil {
			continue
		}
		add(inv.Location, inv.At, inv.Cond)
		if inv.Guard != nil {
			add(inv.Location, inv.At, inv.Guard)
		}
	}
	if len(byLoc) == 0 {
		return
	}
	done := map[*Action]map[string]bool{}
	for _, e := range p.Edges {
		fs := byLoc[e.From]
		if len(fs) == 0 {
			continue
		}
		if done[e.Action] == nil {
			done[e.Action] = map[string]bool{}
		}
		if done[e.Action][e.From] {
			continue
		}
		done[e.Action][e.From] = true
		e.Action.Focus = append(e.Action.Focus, fs...)
	}
}
