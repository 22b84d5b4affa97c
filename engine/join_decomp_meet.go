package engine

import (
	"slices"
	"strconv"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/tvl"
)

// meetShared makes what an edge's applications store of a name that two
// or more of the action's %compose disjuncts designate: the results of
// that name made from one component of it (the same stored entry, a
// slot's version or one of its images) by two or more disjuncts are
// replaced by their meets (Compose of two components of the one name),
// one result of each such disjunct met, the consistent ones; results
// that one disjunct alone gives are stored as they are. Observed on
// TVLA 3's dtvla engine (engine/join_decomp_meet_test.go): with
// %compose x(v1) & m(v2) | x(v1) & z(v2), the first disjunct giving x's
// component with d 0 on its node and the second with d 1/2, the
// reference stores the first only; when the first gives d 0 and f 1/2
// and the second d 1/2 and f 0, it stores one component with both 0,
// which neither disjunct made. set_pldi08/dcas/dcas's updateNext
// (t1 & t2 | t1 & member) so drops a t1 component that the compositions
// with t2 give and those with member do not (docs/decomposition.md).
// shareTasks makes sure that every disjunct's compositions with such a
// component are among the edge's applications.
//
// tasks are an edge's tasks and outs their outcomes, in order. The
// meets are appended to the outcome of the last application that gave
// a result met.
func (d *decomposing) meetShared(st *state, tasks []task, outs []outcome) {
	// byPart[key][disjunct] are the results of one name the disjuncts
	// gave from compositions with one component of it (key: the name
	// and the component's entry).
	byPart := map[[2]int]map[int][]resultRef{}
	var order [][2]int
	for i, t := range tasks {
		o := &outs[i]
		if t.names == nil || len(o.names) != len(o.results) {
			continue
		}
		for at, n := range o.names {
			pos := slices.Index(t.names, n)
			if n < 0 || pos < 0 || pos >= len(t.ids) {
				continue
			}
			key := [2]int{n, t.ids[pos]}
			if byPart[key] == nil {
				byPart[key] = map[int][]resultRef{}
				order = append(order, key)
			}
			byPart[key][t.disjunct] = append(byPart[key][t.disjunct], resultRef{i, at})
		}
	}
	drop := map[resultRef]bool{}
	for _, key := range order {
		if perDis := byPart[key]; len(perDis) >= 2 {
			d.meetPart(st, tasks, outs, key[0], perDis, drop)
		}
	}
	if len(drop) == 0 {
		return
	}
	for i := range outs {
		o := &outs[i]
		var kept outcome
		for at := range o.results {
			if drop[resultRef{i, at}] {
				continue
			}
			kept.results = append(kept.results, o.results[at])
			kept.keys = append(kept.keys, o.keys[at])
			kept.packed = append(kept.packed, o.packed[at])
			if len(o.names) == len(o.results) {
				kept.names = append(kept.names, o.names[at])
			}
		}
		o.results, o.keys, o.packed, o.names = kept.results, kept.keys, kept.packed, kept.names
	}
}

// resultRef is one result of an edge's outcomes: outs[task].results[at].
type resultRef struct{ task, at int }

// meetPart replaces the results of name n that two or more disjuncts
// gave from one component of it (perDis, by disjunct) by their meets,
// one result of each disjunct met, appended to the outcome of the last
// application among them; the results replaced are added to drop.
func (d *decomposing) meetPart(st *state, tasks []task, outs []outcome, n int, perDis map[int][]resultRef, drop map[resultRef]bool) {
	dis := make([]int, 0, len(perDis))
	for k := range perDis {
		dis = append(dis, k)
	}
	slices.Sort(dis)
	last := -1
	var acc []*tvl.Structure
	for k, di := range dis {
		var these []*tvl.Structure
		for _, r := range perDis[di] {
			these = append(these, outs[r.task].results[r.at])
			drop[r] = true
			last = max(last, r.task)
		}
		these = distinct(these)
		if k == 0 {
			acc = these
			continue
		}
		var next []*tvl.Structure
		for _, a := range acc {
			for _, b := range these {
				next = append(next, d.meetOne(st.e, a, b)...)
			}
		}
		acc = distinct(next)
	}
	o := &outs[last]
	target := st.sets[tasks[last].edge.To]
	for _, s := range acc {
		o.results = append(o.results, s)
		o.names = append(o.names, n)
		o.keys = append(o.keys, target.key(s))
		o.packed = append(o.packed, s.Pack())
	}
}

// meetOne is the meet of a and b, two components of one name (its
// representative's, as stored): Compose of the two, cut into the name
// again, blurred and renamed to its orbit's representative; none when
// they contradict each other.
func (d *decomposing) meetOne(e *Engine, a, b *tvl.Structure) []*tvl.Structure {
	n := d.markerOf(a)
	if n < 0 || d.markerOf(b) != n {
		return nil
	}
	name := []abstraction.Component{d.comps[n]}
	var out []*tvl.Structure
	for _, c := range abstraction.Compose([]*tvl.Structure{a, b}, []abstraction.Component{d.comps[n], d.comps[n]}, d.outside, d.options(e)) {
		for _, s := range d.decompose(e, c, name) {
			out = append(out, d.canonical(e, s))
		}
	}
	return out
}

// distinct is ss without repetitions (the same packing).
func distinct(ss []*tvl.Structure) []*tvl.Structure {
	seen := map[string]bool{}
	var out []*tvl.Structure
	for _, s := range ss {
		k := s.Pack().Encoding()
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// comboTasks appends the compositions of disjunct di of base's action
// with fixed, an entry of the disjunct's name at position at, and every
// combination of stored entries of its other names (each combination
// once per iteration: seen), as far as they are feasible.
func (d *decomposing) comboTasks(tasks []task, st *state, base task, plan *composePlan, di, at int, fixed symEntry, byName [][]symEntry, seen map[string]bool, fz feasibility) []task {
	names := plan.disjuncts[di]
	combo := make([]symEntry, len(names))
	framed := plan.frames[namesKey(names)] != nil
	combo[at] = fixed // before the names ahead of it, for comboFits
	var key []byte
	var rec func(k int)
	rec = func(k int) {
		if k == len(names) {
			key = strconv.AppendInt(key[:0], int64(di), 10)
			key = append(key, ':')
			for _, c := range combo {
				key = strconv.AppendInt(key, int64(c.id), 10)
				key = append(key, ' ')
			}
			if seen[string(key)] {
				return
			}
			seen[string(key)] = true
			t := base
			t.names, t.disjunct = names, di
			t.parts = make([]*tvl.Structure, len(names))
			t.ids = make([]int, len(names))
			for j, c := range combo {
				t.parts[j], t.ids[j] = c.s, c.id
			}
			for j, part := range t.parts {
				if !fz.feasible(d, st, plan, di, names[j], part, byName) {
					return
				}
			}
			var ok bool
			if t.shared, ok = fz.sharedFilters(d, st, plan, di, t.parts, byName); !ok {
				return
			}
			tasks = append(tasks, t)
			return
		}
		if k == at {
			combo[k] = fixed
			rec(k + 1)
			return
		}
		for _, c := range byName[names[k]] {
			combo[k] = c
			if d.comboFits(fz, framed, names, combo, k, at) {
				rec(k + 1)
			}
		}
	}
	rec(0)
	return tasks
}

// shareCtx is what an iteration's edge composes with: the stored entries
// by name, the combinations made, the feasibility checks.
type shareCtx struct {
	byName [][]symEntry
	seen   map[string]bool
	fz     feasibility
}

// shareTasks are the compositions an edge's applications (tasks, with
// their outcomes outs) lack for meetShared: for each composition that
// gave a result of a name another disjunct designates too, that
// disjunct's compositions with the same component of the name, with
// every combination of stored entries of its other names, those the
// iteration has not made (the reference keeps no component of
// set_pldi08/dcas/dcas's updateNext that the compositions of a t1
// component with t2 give, when those with member, made in an earlier
// iteration, do not give it). A composition that gave no result of the
// name needs none: the other disjuncts' results of it, made before,
// are stored already.
func (d *decomposing) shareTasks(st *state, tasks []task, outs []outcome) []task {
	var extra []task
	for i, t := range tasks {
		if t.parts == nil || t.disjunct < 0 {
			continue
		}
		sc := d.shareCtx[t.edge]
		plan := d.plans[t.act.Source()]
		if sc == nil || !sharesName(plan) {
			continue
		}
		for j, m := range t.names {
			if !slices.Contains(outs[i].names, m) {
				continue
			}
			for dj, other := range plan.disjuncts {
				if pos := slices.Index(other, m); dj != t.disjunct && pos >= 0 {
					extra = d.comboTasks(extra, st, t, plan, dj, pos, symEntry{t.parts[j], t.ids[j]}, sc.byName, sc.seen, sc.fz)
				}
			}
		}
	}
	return extra
}

// sharesName reports whether two of plan's disjuncts designate one name.
func sharesName(plan *composePlan) bool {
	seen := map[int]bool{}
	for _, names := range plan.disjuncts {
		for _, n := range names {
			if seen[n] {
				return true
			}
		}
		for _, n := range names {
			seen[n] = true
		}
	}
	return false
}
