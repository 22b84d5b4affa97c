package engine

import (
	"fmt"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// definitions evaluates the instrumentation predicates from their
// definitions, each after those its definition uses.
type definitions struct {
	preds []*tvl.Pred
	defs  []*tvl.Compiled
	// reads lists, per definition, the IDs of the predicates it reads.
	reads [][]int
	// core are the other predicates but sm: those a concrete structure
	// chooses.
	core []*tvl.Pred
}

func compileDefinitions(voc *predicates.Vocabulary) (*definitions, error) {
	d := &definitions{core: corePreds(voc)}
	for _, p := range voc.DependencyOrder() {
		c, err := tvl.Compile(p.Def, voc.Tvl(), p.Params)
		if err != nil {
			return nil, fmt.Errorf("definition of %s: %w", p.Name, err)
		}
		var reads []int
		for _, name := range logic.Preds(p.Def) {
			if q := voc.Lookup(name); q != nil {
				reads = append(reads, q.ID)
			}
		}
		if logic.UsesEquality(p.Def) {
			reads = append(reads, voc.Tvl().Summary().ID)
		}
		d.preds = append(d.preds, p.Pred)
		d.defs = append(d.defs, c)
		d.reads = append(d.reads, reads)
	}
	return d, nil
}

// apply sets every instrumentation predicate of s to its definition's
// value. It returns the predicates it evaluated: all of them.
func (d *definitions) apply(s *tvl.Structure) []*tvl.Pred {
	return d.applyAfter(s, nil, nil)
}

// applyAfter is apply for a structure s that differs from pre, whose
// instrumentation values are right and which has the same individuals,
// at most in the predicates of moved: the definitions that read none of
// them, directly or through other definitions, take pre's values. With
// pre nil, every definition is evaluated. It returns the predicates it
// evaluated: the only ones that may differ from pre's.
func (d *definitions) applyAfter(s, pre *tvl.Structure, moved []*tvl.Pred) []*tvl.Pred {
	var evaluated []*tvl.Pred
	var dirty map[int]bool
	if pre != nil {
		dirty = map[int]bool{}
		for _, p := range moved {
			dirty[p.ID] = true
		}
	}
	for i, p := range d.preds {
		if pre != nil {
			stale := false
			for _, id := range d.reads[i] {
				stale = stale || dirty[id]
			}
			if !stale {
				s.CopyPred(p, pre)
				continue
			}
			dirty[p.ID] = true
		}
		bound := d.defs[i].Bind(s)
		type write struct {
			t []int
			v logic.Kleene
		}
		var ws []write
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			if v := bound.Eval(t...); v != s.Get(p, t...) {
				ws = append(ws, write{append([]int(nil), t...), v})
			}
		}
		for _, w := range ws {
			s.Set(p, w.v, w.t...)
		}
		evaluated = append(evaluated, p)
	}
	return evaluated
}

func (e *Engine) definitions() (*definitions, error) {
	if e.truth == nil {
		d, err := compileDefinitions(e.voc)
		if err != nil {
			return nil, err
		}
		e.truth = d
	}
	return e.truth, nil
}

// fix sets s's instrumentation predicates to their definitions' values,
// s being a successor of pre by an action that changed moved (pre may be
// nil). It returns those it evaluated, and those whose definite values in written
// (the state the update wrote, with the same individuals) differ from the
// definitions': an update formula that writes 1/2 claims nothing.
func (d *definitions) fix(s, written, pre *tvl.Structure, moved []*tvl.Pred) (evaluated, wrong []*tvl.Pred) {
	if pre != nil && pre.Size() == s.Size() {
		evaluated = d.applyAfter(s, pre, moved)
	} else {
		evaluated = d.apply(s)
	}
	for _, p := range d.preds {
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			if v := written.Get(p, t...); v != logic.Unknown && v != s.Get(p, t...) {
				wrong = append(wrong, p)
				break
			}
		}
	}
	return evaluated, wrong
}
