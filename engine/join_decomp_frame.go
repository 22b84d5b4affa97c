package engine

import (
	"slices"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// A %compose disjunct of set_pldi08's style frames a name's component:
// in (trnm(v1) <-> ψ) & !a(v1) & ... & otrnm(v2) the name trnm
// designates takes part in the composition with only the individuals
// where ψ and the negated atoms hold. Observed on TVLA 3's dtvla engine
// (docs/decomposition.md, engine/join_decomp_frame_test.go):
//
//   - the framed part is the component cut again (Decompose) by the
//     frame F = ψ & !a(v) & ..., as if F were the name's %dname formula;
//     the predicates F uses only negated are hidden (0 in the part, read
//     as 1/2 in the composition), and so are those the name hides: the
//     composition the reference prints at set_pldi08/dcas/othread's
//     breach has the thread's other locations at 1/2 and its variables
//     but the framed ones at 1/2 on the list, and on a program of ours
//     (two threads, each with its own pointer predicates) a framed thread
//     composes with the other thread's individuals as the same node;
//   - the action also runs on the framed name's component alone (its
//     outside individual opened, as for a component of a name no
//     disjunct designates), once; bracketed messages are checked there
//     and not on the framed compositions, unbracketed ones on both;
//   - each component of the framed name cut from a framed composition's
//     result is unframed: cut by F again, its values on F's individuals
//     kept only for the predicates the action updates (and F's own
//     atoms), and met (Compose) with each result of the run alone; the
//     consistent meets, not coerced, are the results. Meeting with
//     everything the framed result holds kept 1,444 components on
//     set_pldi08/dcas/othread, the reference's 1,384 now.
//
// The components of the other names are stored from the framed
// composition's results as they are.

// frame is a framed name of a disjunct: its component cut by the frame
// formula, and what unframing keeps of a framed result.
type frame struct {
	// comp is the frame as a component: membership F, hidden the
	// predicates F uses only negated and those the name hides.
	comp abstraction.Component
	// keep are the predicates whose values on the frame's individuals a
	// framed result does not give up when unframed, besides the action's
	// updated ones: F's atoms, the predicates F hides, outside.
	keep map[*tvl.Pred]bool
}

// frames reads a %compose disjunct's frames: for a conjunct p(v) <-> ψ,
// every name p designates is framed by ψ conjoined with the disjunct's
// negated atoms over v. Nil when the disjunct frames nothing.
func (d *decomposing) frames(prog *model.Program, dis logic.Formula) (map[int]*frame, error) {
	voc := prog.Vocabulary.Tvl()
	var conj []logic.Formula
	var walk func(f logic.Formula)
	walk = func(f logic.Formula) {
		if b, ok := f.(*logic.Binary); ok && b.Op == logic.And {
			walk(b.Left)
			walk(b.Right)
			return
		}
		conj = append(conj, f)
	}
	walk(dis)
	var out map[int]*frame
	for _, c := range conj {
		b, ok := c.(*logic.Binary)
		if !ok || b.Op != logic.Iff {
			continue
		}
		a, ok := b.Left.(*logic.Atom)
		if !ok || len(a.Args) != 1 {
			continue
		}
		if c, ok := b.Right.(*logic.Const); ok && c.Value == logic.False {
			// Framed by 0: the name is left out of the disjunct
			// (designated's away), not framed.
			continue
		}
		v, f := a.Args[0], b.Right
		for _, o := range conj {
			if n, ok := o.(*logic.Not); ok {
				if at, ok := n.Sub.(*logic.Atom); ok && len(at.Args) == 1 && at.Args[0] == v {
					f = &logic.Binary{Op: logic.And, Left: f, Right: o}
				}
			}
		}
		names, _, err := d.designated(prog, a)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			dn := prog.DecompNames[n]
			comp, err := abstraction.NewComponent(dn.Name, dn.Marker.Pred, f, v, voc)
			if err != nil {
				return nil, err
			}
			fr := &frame{keep: map[*tvl.Pred]bool{d.outside: true}}
			for _, p := range comp.Hidden {
				fr.keep[p] = true
			}
			for name := range positivePreds(f) {
				if p := voc.Lookup(name); p != nil {
					fr.keep[p] = true
				}
			}
			for _, h := range d.comps[n].Hidden {
				if !slices.Contains(comp.Hidden, h) {
					comp.Hidden = append(comp.Hidden, h)
				}
			}
			fr.comp = comp
			if out == nil {
				out = map[int]*frame{}
			}
			out[n] = fr
		}
	}
	return out, nil
}

// reframe cuts a component (or a result's component) again by a frame,
// blurred.
func (d *decomposing) reframe(e *Engine, s *tvl.Structure, fr *frame) *tvl.Structure {
	s = s.Clone()
	for u := range s.Size() {
		s.Set(d.outside, logic.False, u)
	}
	c := abstraction.Decompose(s, []abstraction.Component{fr.comp}, d.outside, d.options(e))[0]
	b, _ := abstraction.Blur(c, e.abs)
	b.Freeze()
	return b
}

// framedParts prepares a composition task's framed parts: for each part
// of a framed name, the action's results on it alone (their messages
// and statistics added to o) and the part cut by its frame. fr is nil
// when the task's disjunct frames nothing; ok is false when the run
// alone stopped (o says why).
func (d *decomposing) framedParts(w *worker, t task, parts []*tvl.Structure, names []abstraction.Component, o *outcome) (fparts []*tvl.Structure, fnames []abstraction.Component, fr map[int]*frame, alone map[int][]*tvl.Structure, ok bool) {
	fr = d.plans[t.act.Source()].frames[namesKey(t.names)]
	if fr == nil {
		return parts, names, nil, nil, true
	}
	fparts, fnames = slices.Clone(parts), slices.Clone(names)
	alone = map[int][]*tvl.Structure{}
	for j, n := range t.names {
		f := fr[n]
		if f == nil {
			continue
		}
		a := t
		a.parts, a.names, a.shared = nil, []int{n}, nil
		a.pending.Structure = parts[j]
		ao := d.applyRaw(w, a, true)
		o.messages = append(o.messages, ao.messages...)
		o.stats.add(ao.stats)
		if ao.err != nil || ao.broken != "" {
			o.err, o.broken = ao.err, ao.broken
			return nil, nil, nil, nil, false
		}
		alone[n] = ao.results
		fparts[j] = d.reframe(w.e, parts[j], f)
		fnames[j] = f.comp
	}
	return fparts, fnames, fr, alone, true
}

// unframe turns b, a component of name n cut from a framed
// composition's result, into the name's components: b cut by the
// frame, its values on the frame's individuals given up but for the
// predicates the action updates and those the frame keeps, met with
// each result of the action on the component alone (consistent meets
// only; the meets are not coerced).
func (d *decomposing) unframe(w *worker, act *model.Action, alone []*tvl.Structure, b *tvl.Structure, n int, fr *frame) []*tvl.Structure {
	updated := map[*tvl.Pred]bool{}
	for _, u := range act.Updates {
		updated[u.Pred.Pred] = true
	}
	bf := d.forget(d.reframe(w.e, b, fr), fr, func(p *tvl.Pred) bool { return !updated[p] && !fr.keep[p] })
	var out []*tvl.Structure
	for _, a := range alone {
		for _, c := range abstraction.Compose([]*tvl.Structure{a, bf}, []abstraction.Component{d.comps[n], fr.comp}, d.outside, d.options(w.e)) {
			if r := d.aloneCoercer(w, n).Coerce(c.Clone(), nil); !r.Consistent {
				continue
			}
			out = append(out, d.decompose(w.e, c, []abstraction.Component{d.comps[n]})...)
		}
	}
	return out
}

// forget makes unknown, on s's individuals in the frame, the unary
// values of the predicates drop says, and their binary values between
// two such individuals.
func (d *decomposing) forget(s *tvl.Structure, fr *frame, drop func(*tvl.Pred) bool) *tvl.Structure {
	bound := fr.comp.In.Bind(s)
	var in []int
	for u := range s.Size() {
		if bound.Eval(u) == logic.True {
			in = append(in, u)
		}
	}
	out := s.Clone()
	voc := s.Vocabulary()
	for _, p := range voc.OfArity(1) {
		if p == voc.Summary() || !drop(p) {
			continue
		}
		for _, u := range in {
			out.Set(p, logic.Unknown, u)
		}
	}
	for _, p := range voc.OfArity(2) {
		if !drop(p) {
			continue
		}
		for _, u := range in {
			for _, v := range in {
				out.Set(p, logic.Unknown, u, v)
			}
		}
	}
	return out
}

// cut cuts a result of t's action into its names' components (a
// composition's without %decompose stays whole), unframing those of a
// framed name (fr, alone: framedParts).
func (d *decomposing) cut(w *worker, t task, names []abstraction.Component, decompose bool, fr map[int]*frame, alone map[int][]*tvl.Structure, res *tvl.Structure) []*tvl.Structure {
	if len(names) > 1 && !decompose {
		return []*tvl.Structure{res}
	}
	var out []*tvl.Structure
	for k, c := range d.decompose(w.e, res, names) {
		if f := fr[t.names[k]]; f != nil {
			out = append(out, d.unframe(w, t.act.Source(), alone[t.names[k]], c, t.names[k], f)...)
			continue
		}
		out = append(out, c)
	}
	return out
}
