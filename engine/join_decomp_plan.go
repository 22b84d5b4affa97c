package engine

import (
	"fmt"
	"slices"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
)

// What an action's %compose and %decompose clauses ask of the
// decomposing engine: the names each disjunct composes, those framed,
// and the name a %decompose formula cuts into.

// composePlan is what an action's %compose and %decompose ask for.
type composePlan struct {
	// disjuncts are the names each disjunct of %compose designates, two
	// or more (a disjunct of fewer composes nothing).
	disjuncts [][]int
	involved  []bool
	// alone are the names a disjunct designates with no other name but
	// names it frames by 0 (away): their components run alone, and the
	// names framed away are involved (their components do not run
	// alone, nor compose).
	alone     []bool
	decompose bool
	// into are the names the results are cut into (sorted indices):
	// those %decompose p(v) <-> ψ designates by its left side, nil for a
	// bare %decompose or none (the names composed, or the component's
	// own name).
	into []int
	// msgNames are, per bracketed composition of a message (the
	// formula), the names it designates (sorted): the message is
	// checked on those composed only.
	msgNames map[logic.Formula][]int
	// frames are, per disjunct's names (namesKey), the frame of each
	// name an equivalence of the disjunct frames (join_decomp_frame.go).
	frames map[string]map[int]*frame
}

// plan reads an action's %compose, %decompose and message brackets.
func (d *decomposing) plan(prog *model.Program, a *model.Action) (*composePlan, error) {
	if err := checkFrameClauses(a); err != nil {
		return nil, err
	}
	p := &composePlan{involved: make([]bool, len(d.comps)), alone: make([]bool, len(d.comps)), decompose: a.Decompose != nil, msgNames: map[logic.Formula][]int{}, frames: map[string]map[int]*frame{}}
	if c, ok := a.Decompose.(*logic.Const); a.Decompose != nil && !(ok && c.Value == logic.True) {
		names, _, err := d.designated(prog, a.Decompose)
		if err != nil {
			return nil, fmt.Errorf("%%decompose: %w", err)
		}
		if len(names) != 1 {
			// The reference: "Decomposition formula - Target name
			// should be a singleton, but got []".
			return nil, fmt.Errorf("%%decompose %s must designate one %%dname, its target, not %d", logic.String(a.Decompose), len(names))
		}
		p.into = names
	}
	if a.Compose != nil {
		for _, dis := range disjuncts(a.Compose) {
			names, away, err := d.designated(prog, dis)
			if err != nil {
				return nil, err
			}
			if len(names) == 1 && len(away) > 0 {
				p.alone[names[0]] = true
				names = append(names, away...)
				for _, n := range names {
					p.involved[n] = true
				}
				continue
			}
			if len(names) < 2 {
				continue
			}
			p.disjuncts = append(p.disjuncts, names)
			fr, err := d.frames(prog, dis)
			if err != nil {
				return nil, err
			}
			if fr != nil {
				p.frames[namesKey(names)] = fr
			}
			for _, n := range names {
				p.involved[n] = true
			}
		}
	}
	for _, ms := range [][]model.Message{a.PreMessages, a.PostMessages} {
		for i := range ms {
			if ms[i].Compose == nil {
				continue
			}
			names, _, err := d.designated(prog, ms[i].Compose)
			if err != nil {
				return nil, err
			}
			p.msgNames[ms[i].Compose] = names
		}
	}
	return p, nil
}

// disjuncts splits a formula at its top-level disjunctions.
func disjuncts(f logic.Formula) []logic.Formula {
	if b, ok := f.(*logic.Binary); ok && b.Op == logic.Or {
		return append(disjuncts(b.Left), disjuncts(b.Right)...)
	}
	return []logic.Formula{f}
}

// designated returns, sorted, the names a disjunct of %compose
// designates: an atom p(v) designates every name whose formula has p in
// a positive position (observed on the reference). A disjunct is a
// conjunction of atoms, negated atoms and equivalences: an atom under a
// negation designates nothing, and an equivalence designates by its
// left side. set_pldi08's models write
// trnm(v1) <-> (trnm(v1) | r_by[x,trnm](v1)) & !at[l](v1) & otrnm(v2),
// which composes trnm's component with otrnm's; the reference frames
// trnm's component by the rest first (docs/decomposition.md), which we
// do not. (Designating by every atom of the equivalence gives the same
// counts on our handoff program, where slot(v1) is in every thread's
// name, but composes all threads at once: 54,000 structures examined
// with three threads instead of 4,000.)
// A disjunction inside a conjunction is refused (the reference fails on
// it with an internal error).
func (d *decomposing) designated(prog *model.Program, f logic.Formula) (names, away []int, err error) {
	var atoms, awayAtoms []string
	var walk func(f logic.Formula, pos bool) error
	walk = func(f logic.Formula, pos bool) error {
		switch g := f.(type) {
		case *logic.Binary:
			switch g.Op {
			case logic.And:
				if err := walk(g.Left, pos); err != nil {
					return err
				}
				return walk(g.Right, pos)
			case logic.Iff:
				// p(v1) <-> ψ: the frame ψ of p's component. Framed by
				// 0 (cas/nolin/g's RtoG: tid[R](v1) & (tid[G](v2) <->
				// 0)), the component keeps nothing: the disjunct runs
				// on the others' components as if p were not named
				// (observed: one result per R component, as R's alone).
				if c, ok := g.Right.(*logic.Const); ok && c.Value == logic.False {
					if a, ok := g.Left.(*logic.Atom); ok && pos {
						awayAtoms = append(awayAtoms, a.Pred)
					}
					return nil
				}
				return walk(g.Left, pos)
			}
		case *logic.Not:
			return walk(g.Sub, !pos)
		case *logic.Atom:
			if pos {
				atoms = append(atoms, g.Pred)
			}
			return nil
		case *logic.Const:
			return nil
		}
		return fmt.Errorf("a %%compose disjunct must be a conjunction of atoms, negated atoms and equivalences, not %s", logic.String(f))
	}
	if err := walk(f, true); err != nil {
		return nil, nil, err
	}
	names, away = designatedBy(prog, atoms), designatedBy(prog, awayAtoms)
	away = slices.DeleteFunc(away, func(n int) bool { return slices.Contains(names, n) })
	return names, away, nil
}

// designatedBy are the names (sorted indices) whose %dname formula has
// one of atoms in a positive position.
func designatedBy(prog *model.Program, atoms []string) []int {
	var names []int
	for i, n := range prog.DecompNames {
		pos := positivePreds(n.Formula)
		for _, a := range atoms {
			if pos[a] && !slices.Contains(names, i) {
				names = append(names, i)
			}
		}
	}
	slices.Sort(names)
	return names
}

// positivePreds are the predicates a formula uses outside a negation.
func positivePreds(f logic.Formula) map[string]bool {
	out := map[string]bool{}
	var walk func(f logic.Formula, pos bool)
	walk = func(f logic.Formula, pos bool) {
		switch g := f.(type) {
		case *logic.Atom:
			if pos {
				out[g.Pred] = true
			}
		case *logic.Not:
			walk(g.Sub, !pos)
		case *logic.Binary:
			walk(g.Left, pos)
			walk(g.Right, pos)
		case *logic.Quant:
			walk(g.Body, pos)
		}
	}
	walk(f, true)
	return out
}
