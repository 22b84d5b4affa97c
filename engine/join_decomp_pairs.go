package engine

import (
	"github.com/tvla-go/tvla/tvl"
)

// pairsFit reports whether the revealed part parts[k], of name
// names[k], is Compatible (abstraction.MembershipCache.Compatible) with
// each part chosen before it: the parts at positions l with set(l). A
// combination with an incompatible pair composes to nothing, so the
// feasibility checks and the tasks skip every combination that holds
// the pair without composing it (on linearization_tlq/unbounded, 99% of
// the compositions the checks tried found no matching at all).
func (d *decomposing) pairsFit(fz feasibility, names []int, parts []*tvl.Structure, k int, set func(l int) bool) bool {
	for l, p := range parts {
		if l == k || p == nil || !set(l) {
			continue
		}
		if !fz.members.Compatible(parts[k], p, d.comps[names[k]], d.comps[names[l]], d.outside) {
			return false
		}
	}
	return true
}

// comboFits is pairsFit for comboTasks' combination of entries (not
// revealed yet): combo[k] against the entries before it and the fixed
// one at position at. It is true when framed, for a disjunct whose
// names a frame changes (join_decomp_frame.go): its composition is of
// other parts, and its parts run alone too.
func (d *decomposing) comboFits(fz feasibility, framed bool, names []int, combo []symEntry, k, at int) bool {
	if framed {
		return true
	}
	for l, c := range combo {
		if l == k || (l > k && l != at) {
			continue
		}
		a, b := fz.reveal(d, names[k], combo[k].s), fz.reveal(d, names[l], c.s)
		if !fz.members.Compatible(a, b, d.comps[names[k]], d.comps[names[l]], d.outside) {
			return false
		}
	}
	return true
}
