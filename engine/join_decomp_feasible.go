package engine

import (
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/tvl"
)

// feasibility caches, for an iteration and action, whether a component
// composes consistently with the stored components of a disjunct.
type feasibility struct {
	parts map[feasKey]bool
	// shared caches sharedFilters' projections (sharedKey).
	shared map[string]map[string]bool
	// revealed holds the components composed so far as Compose reads
	// them (abstraction.Reveal), kept for the iteration: a stored
	// component is composed with many others.
	revealed map[*tvl.Structure]*tvl.Structure
	// members keeps the revealed components' memberships for Compose,
	// for the iteration too (three quarters of
	// linearization_tlq/unbounded's time went to these compositions).
	members *abstraction.MembershipCache
}

func newFeasibility(revealed map[*tvl.Structure]*tvl.Structure, members *abstraction.MembershipCache) feasibility {
	return feasibility{parts: map[feasKey]bool{}, shared: map[string]map[string]bool{}, revealed: revealed, members: members}
}

// reveal is s, a component of name n, revealed (abstraction.Reveal),
// once per iteration.
func (fz feasibility) reveal(d *decomposing, n int, s *tvl.Structure) *tvl.Structure {
	r, ok := fz.revealed[s]
	if !ok {
		r = abstraction.Reveal(s, d.comps[n], d.outside)
		fz.revealed[s] = r
	}
	return r
}

type feasKey struct {
	s  *tvl.Structure
	di int
}

// feasible reports whether component s, of name n, composes consistently
// (Compose, then Coerce) with some combination of the stored components
// of every disjunct of plan other than di that designates n: a component
// that no such combination admits stands for no heap, and the reference
// applies the action to none of its compositions (observed on
// linearization_stack with two threads: a thread's component that left
// no room for the other thread composed with rest only in
// assignFromNextField, whose %compose has that disjunct alone, and it
// went no further).
func (fz feasibility) feasible(d *decomposing, st *state, plan *composePlan, di, n int, s *tvl.Structure, byName [][]symEntry) bool {
	for dj, names := range plan.disjuncts {
		at := slices.Index(names, n)
		if dj == di || at < 0 {
			continue
		}
		k := feasKey{s, dj}
		ok, known := fz.parts[k]
		if !known {
			ok = d.composable(st, fz, names, at, s, byName)
			fz.parts[k] = ok
		}
		if !ok {
			return false
		}
	}
	return true
}

// composable reports whether s, as names[at], has a consistent
// composition with some combination of stored components of the other
// names.
func (d *decomposing) composable(st *state, fz feasibility, names []int, at int, s *tvl.Structure, byName [][]symEntry) bool {
	comps := make([]abstraction.Component, len(names))
	for i, n := range names {
		comps[i] = d.comps[n]
	}
	parts := make([]*tvl.Structure, len(names))
	parts[at] = fz.reveal(d, names[at], s)
	co := d.coercers[namesKey(names)]
	if co == nil {
		co = st.e.coerce
	}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(names) {
			for _, c := range abstraction.ComposeRevealedWith(fz.members, parts, comps, d.outside, d.options(st.e)) {
				if co.Coerce(c.Structure, nil).Consistent {
					return true
				}
			}
			return false
		}
		if k == at {
			return rec(k + 1)
		}
		for _, c := range byName[names[k]] {
			parts[k] = fz.reveal(d, names[k], c.s)
			if d.pairsFit(fz, names, parts, k, func(l int) bool { return l < k || l == at }) && rec(k+1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// sharedFilter restricts the compositions of a task's disjunct by
// another disjunct that designates two or more of its names (S): pos
// are the positions of S's parts in the task's parts, allowed the
// projections onto them (sharedProjection) of the other disjunct's
// consistent compositions.
type sharedFilter struct {
	pos     []int
	allowed map[string]bool
}

// sharedFilters returns, for a task of disjunct di composing parts, a
// filter per other disjunct of plan that designates two or more of
// di's names; ok is false when one of them admits no composition at
// all (the task would make nothing). A composition of di is kept only
// when the way it matches the parts of the shared names, and whether
// some node is outside all of them, is the way of some consistent
// composition of the other disjunct with those same parts and stored
// components of its other names. Observed on the reference (a program
// of ours, after linearization_tlq's succLockField): with the
// disjuncts t1 & t2 & h1 and t1 & r & h1 (h1 designating a name L of
// the lock holders and the queue), where thread t2 holds a node that
// t1, r and L all leave outside, the composition of t1, r and L
// without an individual outside all three is dropped; it is kept when
// t2 holds no such node, or when the disjuncts share t1 only. With one
// shared name this is the feasibility above (every composition of a
// part has a node outside it when the part has an outside individual).
// It is an approximation: the reference does run the action on that
// composition, and drops the component it makes only when the other
// disjunct's compositions yield results too (docs/decomposition.md,
// "What remains different"); the components stored agree on every
// reference example, the messages and components of two programs of
// ours do not.
func (fz feasibility) sharedFilters(d *decomposing, st *state, plan *composePlan, di int, parts []*tvl.Structure, byName [][]symEntry) (filters []sharedFilter, ok bool) {
	names := plan.disjuncts[di]
	for dj, other := range plan.disjuncts {
		if dj == di {
			continue
		}
		var pos, at []int
		for j, n := range names {
			if k := slices.Index(other, n); k >= 0 {
				pos = append(pos, j)
				at = append(at, k)
			}
		}
		if len(pos) < 2 {
			continue
		}
		key := strconv.AppendInt(nil, int64(dj), 10)
		fixed := make([]*tvl.Structure, len(other))
		for i, j := range pos {
			fixed[at[i]] = parts[j]
			key = append(key, ' ')
			key = strconv.AppendUint(key, uint64(uintptr(unsafe.Pointer(parts[j]))), 16)
		}
		allowed, known := fz.shared[string(key)]
		if !known {
			allowed = d.projections(st, fz, other, fixed, at, byName)
			fz.shared[string(key)] = allowed
		}
		if len(allowed) == 0 {
			return nil, false
		}
		filters = append(filters, sharedFilter{pos: pos, allowed: allowed})
	}
	return filters, true
}

// projections composes names, with the parts of fixed where they are
// set and every combination of stored components of the other names,
// and returns the projections onto the positions at of the consistent
// compositions (Compose, then Coerce).
func (d *decomposing) projections(st *state, fz feasibility, names []int, fixed []*tvl.Structure, at []int, byName [][]symEntry) map[string]bool {
	comps := make([]abstraction.Component, len(names))
	for i, n := range names {
		comps[i] = d.comps[n]
	}
	co := d.coercers[namesKey(names)]
	if co == nil {
		co = st.e.coerce
	}
	out := map[string]bool{}
	parts := slices.Clone(fixed)
	for k, p := range parts {
		if p != nil {
			parts[k] = fz.reveal(d, names[k], p)
		}
	}
	var rec func(k int)
	rec = func(k int) {
		if k == len(names) {
			for _, c := range abstraction.ComposeRevealedWith(fz.members, parts, comps, d.outside, d.options(st.e)) {
				if co.Coerce(c.Structure, nil).Consistent {
					out[sharedProjection(c.Tuples, at)] = true
				}
			}
			return
		}
		if fixed[k] != nil {
			rec(k + 1)
			return
		}
		for _, c := range byName[names[k]] {
			parts[k] = fz.reveal(d, names[k], c.s)
			if d.pairsFit(fz, names, parts, k, func(l int) bool { return l < k || fixed[l] != nil }) {
				rec(k + 1)
			}
		}
	}
	rec(0)
	return out
}

// sharedProjection is a composition's matching seen from the parts at
// positions pos: the distinct tuples of their individuals (-1: outside
// that part) of its individuals, but those outside all of them, and
// whether it has such an individual.
func sharedProjection(tuples [][]int, pos []int) string {
	var seen []string
	outside := false
	var b []byte
	for _, t := range tuples {
		all := true
		b = b[:0]
		for _, p := range pos {
			all = all && t[p] < 0
			b = strconv.AppendInt(b, int64(t[p]), 10)
			b = append(b, ',')
		}
		if all {
			outside = true
			continue
		}
		seen = append(seen, string(b))
	}
	slices.Sort(seen)
	seen = slices.Compact(seen)
	return fmt.Sprint(outside, seen)
}

// sharedOnly returns the structures of comps that every filter admits.
func sharedOnly(comps []abstraction.Composed, filters []sharedFilter) []*tvl.Structure {
	var out []*tvl.Structure
	for _, c := range comps {
		ok := true
		for _, f := range filters {
			ok = ok && f.allowed[sharedProjection(c.Tuples, f.pos)]
		}
		if ok {
			out = append(out, c.Structure)
		}
	}
	return out
}
