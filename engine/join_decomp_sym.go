package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// Symmetry of a decomposing run over a program's %pset members
// (docs/decomposition.md, "%pset under the decomposing engine"). The
// members of a %pset are thread names, and the program is written the
// same for each (its predicates, rules and %dname components
// instantiated per member by foreach): a structure with the names
// permuted stands for the same states up to the threads' identities.
// TVLA 3's decomposing engine runs an action parametrised by %param x in
// S for every member and identifies the components that differ by such a
// permutation (its statistics print a "Permute time"): per location it
// stores the component of the first member only (observed on
// linearization/cons: every stored component has dname[t1]; instantiated
// for every member without the identification, the counts and messages
// are exactly twice its own). It does not identify the components of a
// name no permutation moves (a rest of the heap), which may keep a
// member's predicate at 1/2 (linearization_nbq/unbounded/nbq). We store
// one representative per orbit of a member's component, and a fixed
// name's components as they are; an action's first-member instance runs
// on every member of a pending component's orbit, with the members'
// stored components' orbits and the fixed names' stored components as
// partners, and the other members' instances on what involves a fixed
// name (memberInstanceTasks): the action of member m on a structure is
// the first member's action on the structure permuted, permuted back.
type symmetry struct {
	// perms are the non-identity permutations, each as the predicate
	// renaming it induces (a bijection of the vocabulary's predicates).
	perms []map[*tvl.Pred]*tvl.Pred
	// images caches, by a stored component's packing, its orbit (itself
	// first, then its distinct images).
	images map[string][]*tvl.Structure
	// inv[q] is the index in perms of perms[q]'s inverse.
	inv []int
	// fixed[n] is set when every permutation maps name n (an index of
	// the engine's components) to itself: a name no member owns, such
	// as a program's rest of the heap.
	fixed []bool
}

// maxSymImages bounds the orbit cache; past it the cache starts over.
const maxSymImages = 1 << 16

// newSymmetry builds the permutations of prog's %psets (their product,
// when there are several) as predicate renamings; nil when the program
// declares no %pset of two or more members. A predicate is renamed by
// replacing each member in its name, as a whole word (t1, r_by[x,t1],
// dname[t1]); a predicate whose renamed name is not declared with its
// arity breaks the symmetry, an error (TVLA 3 stops with an internal
// error on such a program).
func newSymmetry(prog *model.Program, voc *tvl.Vocabulary) (*symmetry, error) {
	var maps []map[string]string
	maps = append(maps, map[string]string{})
	for _, ps := range prog.PSets {
		if len(ps.Members) < 2 {
			continue
		}
		// The transpositions of the first member with each other
		// generate the permutations: each must rename every predicate
		// to a declared one.
		for _, x := range ps.Members[1:] {
			swap := map[string]string{ps.Members[0]: x, x: ps.Members[0]}
			for _, p := range voc.Preds() {
				name := renameMembers(p.Name, swap)
				if q := voc.Lookup(name); name != p.Name && (q == nil || q.Arity != p.Arity) {
					return nil, fmt.Errorf("%s: %%pset %s: predicate %s has no counterpart %s of arity %d, so the members are not interchangeable (the decomposing engine identifies components up to a permutation of them)", ps.Origin, ps.Name, p.Name, name, p.Arity)
				}
			}
		}
		var next []map[string]string
		for _, m := range maps {
			for _, p := range permutations(ps.Members) {
				c := map[string]string{}
				for k, v := range m {
					c[k] = v
				}
				for i, x := range ps.Members {
					if p[i] != x {
						c[x] = p[i]
					}
				}
				next = append(next, c)
			}
		}
		maps = next
	}
	sym := &symmetry{images: map[string][]*tvl.Structure{}}
	for _, m := range maps {
		if len(m) == 0 {
			continue
		}
		r := map[*tvl.Pred]*tvl.Pred{}
		for _, p := range voc.Preds() {
			name := renameMembers(p.Name, m)
			if name == p.Name {
				continue
			}
			r[p] = voc.Lookup(name)
		}
		if len(r) > 0 {
			sym.perms = append(sym.perms, r)
		}
	}
	if len(sym.perms) == 0 {
		return nil, nil
	}
	sym.inv = make([]int, len(sym.perms))
	for q, r := range sym.perms {
		sym.inv[q] = -1
		for q2, r2 := range sym.perms {
			inverse := true
			for a, b := range r {
				if r2[b] != a {
					inverse = false
					break
				}
			}
			if inverse {
				sym.inv[q] = q2
				break
			}
		}
	}
	return sym, nil
}

// fixNames records which of the components' names no permutation moves.
func (sym *symmetry) fixNames(comps []abstraction.Component) {
	sym.fixed = make([]bool, len(comps))
	for n, c := range comps {
		sym.fixed[n] = true
		for _, r := range sym.perms {
			if m, ok := r[c.Marker]; ok && m != c.Marker {
				sym.fixed[n] = false
			}
		}
	}
}

// image is s permuted by perms[q], blurred (which only reorders the
// individuals) and frozen.
func (sym *symmetry) image(e *Engine, s *tvl.Structure, q int) *tvl.Structure {
	img, _ := abstraction.Blur(s.Renamed(sym.perms[q]), e.abs)
	img.Freeze()
	return img
}

// permutations lists the orderings of xs, xs itself first.
func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{slices.Clone(xs)}
	}
	var out [][]string
	for i := range xs {
		rest := append(slices.Clone(xs[:i]), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// renameMembers replaces in a predicate name every word (a run of
// characters other than brackets, commas and spaces) that m maps.
func renameMembers(name string, m map[string]string) string {
	var b strings.Builder
	word := func(w string) {
		if r, ok := m[w]; ok {
			w = r
		}
		b.WriteString(w)
	}
	start := 0
	for i, c := range name {
		if c == '[' || c == ']' || c == ',' || c == ' ' {
			word(name[start:i])
			b.WriteRune(c)
			start = i + 1
		}
	}
	word(name[start:])
	return b.String()
}

// orbit returns s (blurred, frozen) and its distinct images under the
// permutations, each blurred (which only reorders the individuals) and
// frozen; s first.
func (sym *symmetry) orbit(e *Engine, s *tvl.Structure) []*tvl.Structure {
	out := []*tvl.Structure{s}
	seen := map[string]bool{s.Pack().Encoding(): true}
	for _, r := range sym.perms {
		img, _ := abstraction.Blur(s.Renamed(r), e.abs)
		img.Freeze()
		k := img.Pack().Encoding()
		if !seen[k] {
			seen[k] = true
			out = append(out, img)
		}
	}
	return out
}

// cachedOrbit is orbit for a stored component, cached by its packing.
// Only the engine's goroutine calls it.
func (sym *symmetry) cachedOrbit(e *Engine, s *tvl.Structure) []*tvl.Structure {
	k := s.Pack().Encoding()
	if o, ok := sym.images[k]; ok {
		return o
	}
	if len(sym.images) >= maxSymImages {
		sym.images = map[string][]*tvl.Structure{}
	}
	o := sym.orbit(e, s)
	sym.images[k] = o
	return o
}

// canonical is the representative of s's orbit that is stored: the
// image whose name (d.markerOf) comes first, the first member's
// component for a member's, and among those (a composed structure, or
// a name the permutations leave alone) the least packing.
func (d *decomposing) canonical(e *Engine, s *tvl.Structure) *tvl.Structure {
	if d.sym == nil {
		return s
	}
	rank := func(x *tvl.Structure) int {
		if n := d.markerOf(x); n >= 0 {
			return n
		}
		return len(d.comps)
	}
	best, bestRank, bestKey := s, rank(s), ""
	if bestRank < len(d.comps) && d.sym.fixed[bestRank] {
		return s
	}
	for _, img := range d.sym.orbit(e, s)[1:] {
		r := rank(img)
		if r > bestRank {
			continue
		}
		if bestKey == "" {
			bestKey = best.Pack().Encoding()
		}
		k := img.Pack().Encoding()
		if r < bestRank || k < bestKey {
			best, bestRank, bestKey = img, r, k
		}
	}
	return best
}

// symEntry is a stored component as a partner of a composition: a
// slot's version or one of its images (id slot*k + image).
type symEntry struct {
	s  *tvl.Structure
	id int
}

// entries are, per name, the stored components of loc's set that a
// composition may take: for a member's name, the images of each under
// the permutations included; for a fixed name, the components as
// stored.
func (d *decomposing) entries(st *state, loc string) [][]symEntry {
	set := st.sets[loc]
	d.refreshNames(st, loc)
	byName := make([][]symEntry, len(d.comps))
	k := d.orbitSize()
	for slot, n := range d.names[loc] {
		if n < 0 {
			continue
		}
		if d.sym == nil {
			byName[n] = append(byName[n], symEntry{set.current(slot), slot})
			continue
		}
		if d.sym.fixed[n] {
			byName[n] = append(byName[n], symEntry{set.current(slot), slot * k})
			continue
		}
		for j, img := range d.sym.cachedOrbit(st.e, set.current(slot)) {
			m := d.markerOf(img)
			if m >= 0 {
				byName[m] = append(byName[m], symEntry{img, slot*k + j})
			}
		}
	}
	return byName
}

// orbitSize bounds the number of images of a structure, itself
// included.
func (d *decomposing) orbitSize() int {
	if d.sym == nil {
		return 1
	}
	return len(d.sym.perms) + 1
}

// pendingImages are the structures an action runs on for a pending
// component: its orbit when the action is a %pset member's (one
// instance stands for every member's), the component alone otherwise
// (an action the same for every member).
func (d *decomposing) pendingImages(e *Engine, act *model.Action, s *tvl.Structure) []*tvl.Structure {
	if d.sym == nil || len(act.PSets) == 0 {
		return []*tvl.Structure{s}
	}
	if n := d.markerOf(s); n >= 0 && d.sym.fixed[n] {
		return []*tvl.Structure{s}
	}
	return d.sym.cachedOrbit(e, s)
}

// memberInstanceTasks are the applications of the other members'
// instances of a member's action on edge ed that differ from the first
// member's: those that compose or open a component of a fixed name
// (those of members' names only give members' components, identified
// anyway). Member q's instance on stored X is the first member's on X
// permuted by q's inverse, its results permuted by q (task.perm): the
// members' names' entries are their orbits, as the first member's, and
// a fixed name's are the stored components' images under q's inverse.
func (d *decomposing) memberInstanceTasks(st *state, loc string, ed *model.Edge, act *abstraction.Action, plan *composePlan, now []Pending, byName [][]symEntry) []task {
	k := d.orbitSize()
	hasFixed := func(names []int) bool {
		return slices.ContainsFunc(names, func(n int) bool { return n >= 0 && d.sym.fixed[n] })
	}
	set := st.sets[loc]
	var out []task
	for q := range d.sym.perms {
		inv := d.sym.inv[q]
		byQ := make([][]symEntry, len(byName))
		copy(byQ, byName)
		for n := range byQ {
			if d.sym.fixed[n] {
				byQ[n] = nil
			}
		}
		for slot, n := range d.names[loc] {
			if n >= 0 && d.sym.fixed[n] {
				byQ[n] = append(byQ[n], symEntry{d.sym.image(st.e, set.current(slot), inv), slot * k})
			}
		}
		seen := map[string]bool{}
		fz := newFeasibility(map[*tvl.Structure]*tvl.Structure{}, abstraction.NewMembershipCache())
		for _, pd := range d.byName(now) {
			images := d.pendingImages(st.e, ed.Action, pd.Structure)
			if n := d.markerOf(pd.Structure); n >= 0 && d.sym.fixed[n] {
				images = []*tvl.Structure{d.sym.image(st.e, pd.Structure, inv)}
			}
			for j, img := range images {
				p := pd
				p.Structure = img
				out = d.appendTasks(out, st, task{loc: loc, edge: ed, act: act, pending: p, perm: q + 1}, plan, pd.Slot*k+j, byQ, seen, fz, hasFixed)
			}
		}
	}
	return out
}
