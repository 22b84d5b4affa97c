package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Under the single-structure join Coerce is incremental the way TVLA 3's
// is: it looks only at the assignments of a constraint that involve a
// tuple that changed (a Delta), not at every assignment of the
// constraints that read a changed predicate. The two differ there because
// TVLA's Focus does not coerce after settling the existence of some
// individuals, so a structure may carry a violation that no later change
// touches; TVLA then keeps it (observed on it: a structure with two
// individuals at 1 of a unique predicate goes through an update that
// changes other tuples), and so must we, for its messages.

// Delta is the set of tuples that changed since Coerce last ran.
type Delta struct {
	// all lists the predicates (by ID) taken to have changed on every
	// tuple.
	all map[int]bool
	// tuples holds the changed tuples of the other predicates.
	tuples map[int]map[tvl.TupleKey]bool
}

// NewDelta returns an empty delta.
func NewDelta() *Delta {
	return &Delta{all: map[int]bool{}, tuples: map[int]map[tvl.TupleKey]bool{}}
}

// AddTuple records that p changed on args.
func (d *Delta) AddTuple(p *tvl.Pred, args []int) {
	m := d.tuples[p.ID]
	if m == nil {
		m = map[tvl.TupleKey]bool{}
		d.tuples[p.ID] = m
	}
	m[tvl.KeyOf(args)] = true
}

// AddAll records that p may have changed anywhere.
func (d *Delta) AddAll(p *tvl.Pred) { d.all[p.ID] = true }

// Preds lists the predicates with changes, for scheduling constraints.
func (d *Delta) Preds(voc *tvl.Vocabulary) []*tvl.Pred {
	var out []*tvl.Pred
	for _, p := range voc.Preds() {
		if d.all[p.ID] || len(d.tuples[p.ID]) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func (d *Delta) hasPred(p *tvl.Pred) bool { return d.all[p.ID] || len(d.tuples[p.ID]) > 0 }

func (d *Delta) has(p *tvl.Pred, args []int) bool {
	if d.all[p.ID] {
		return true
	}
	m := d.tuples[p.ID]
	return m != nil && m[tvl.KeyOf(args)]
}

// hasIndividual reports whether p changed on a unary tuple (u).
func (d *Delta) hasIndividual(p *tvl.Pred, u int) bool { return d.has(p, []int{u}) }

// DiffDelta is the delta from a to b, two structures with the same
// universe, over the predicates preds.
func DiffDelta(a, b *tvl.Structure, preds []*tvl.Pred) *Delta {
	d := NewDelta()
	for _, p := range preds {
		for t := range tvl.Tuples(b.Size(), p.Arity) {
			if a.Get(p, t...) != b.Get(p, t...) {
				d.AddTuple(p, t)
			}
		}
	}
	return d
}

// conjunctInfo says what a constraint's conjunct reads, for deciding
// whether an assignment involves a changed tuple: a literal's tuple, or,
// for anything else, the predicates it reads (any change of them counts).
type conjunctInfo struct {
	pred    *tvl.Pred // a literal's predicate, nil for other conjuncts
	args    []int     // the literal's arguments, as loop positions
	reads   []*tvl.Pred
	usesEq  bool
	eqSlots []int // an equality literal's two loop positions
}

// conjunctInfos describes conjuncts over the loop variables.
func conjunctInfos(voc *tvl.Vocabulary, conjs []logic.Formula, loop []logic.Var) []conjunctInfo {
	slot := func(v logic.Var) int {
		for i, w := range loop {
			if w == v {
				return i
			}
		}
		return -1
	}
	var out []conjunctInfo
	for _, c := range conjs {
		lit := c
		if n, ok := lit.(*logic.Not); ok {
			lit = n.Sub
		}
		var ci conjunctInfo
		switch g := lit.(type) {
		case *logic.Atom:
			if p := voc.Lookup(g.Pred); p != nil && p.Arity == len(g.Args) {
				ci.pred = p
				for _, v := range g.Args {
					ci.args = append(ci.args, slot(v))
				}
				out = append(out, ci)
				continue
			}
		case *logic.Equal:
			ci.usesEq = true
			ci.eqSlots = []int{slot(g.Left), slot(g.Right)}
			out = append(out, ci)
			continue
		}
		for _, name := range logic.Preds(c) {
			if p := voc.Lookup(name); p != nil {
				ci.reads = append(ci.reads, p)
			}
		}
		ci.usesEq = logic.UsesEquality(c)
		out = append(out, ci)
	}
	return out
}

// touches reports whether the constraint's assignment asg involves a
// changed tuple of d: a body literal's or the head's tuple, a predicate
// another conjunct reads, or the summary-ness an equality reads.
func (k *constraint) touches(asg []int, d *Delta, sm *tvl.Pred) bool {
	args := make([]int, 0, 4)
	for _, ci := range k.conjInfo {
		switch {
		case ci.pred != nil:
			args = args[:0]
			for _, a := range ci.args {
				args = append(args, asg[a])
			}
			if d.has(ci.pred, args) {
				return true
			}
		case ci.eqSlots != nil:
			for _, a := range ci.eqSlots {
				if a >= 0 && d.hasIndividual(sm, asg[a]) {
					return true
				}
			}
		default:
			for _, p := range ci.reads {
				if d.hasPred(p) {
					return true
				}
			}
			if ci.usesEq && d.hasPred(sm) {
				return true
			}
		}
	}
	if k.pred != nil {
		args = args[:0]
		for _, a := range k.args {
			args = append(args, asg[a])
		}
		if d.has(k.pred, args) {
			return true
		}
	}
	if k.kind == headEq || k.kind == headNeq {
		for _, a := range k.args {
			if d.hasIndividual(sm, asg[a]) {
				return true
			}
		}
	}
	return false
}

// touchedMask is, for a word constraint over one variable, the
// individuals of word w on which a predicate it reads changed.
func (k *constraint) touchedMask(d *Delta, w int) uint64 {
	var m uint64
	for _, p := range k.reads {
		if d.all[p.ID] {
			return ^uint64(0)
		}
		if p.Arity != 1 && len(d.tuples[p.ID]) > 0 {
			return ^uint64(0)
		}
		for key := range d.tuples[p.ID] {
			u := key.At(0)
			if u/64 == w {
				m |= 1 << uint(u%64)
			}
		}
	}
	if k.pred != nil && d.all[k.pred.ID] {
		return ^uint64(0)
	}
	return m
}

// UpdateDelta is the delta of an update from pre to post (the same
// universe, individuals from old on new): the tuples of the changed
// predicates that differ, and every tuple of a new individual.
func UpdateDelta(pre, post *tvl.Structure, old int, changed []*tvl.Pred) *Delta {
	d := DiffDelta(pre, post, changed)
	if post.Size() == old {
		return d
	}
	for _, p := range post.Vocabulary().Preds() {
		for t := range tvl.Tuples(post.Size(), p.Arity) {
			for _, u := range t {
				if u >= old {
					d.AddTuple(p, t)
					break
				}
			}
		}
	}
	return d
}
