package abstraction

import (
	"fmt"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// headKind says what a constraint's head demands.
type headKind uint8

const (
	headAtom    headKind = iota // p(args) must be 1
	headNotAtom                 // p(args) must be 0
	headEq                      // a == b must be 1
	headNeq                     // a != b must be 1
	headFalse                   // the body must never be 1
	headTrue                    // never breached
)

// constraint is a predicates.Constraint compiled for one vocabulary.
type constraint struct {
	src  predicates.Constraint
	body *tvl.Compiled
	kind headKind
	pred *tvl.Pred
	args []int // positions in src.Vars of the head's variables
	// reads lists the predicates whose change can break the constraint.
	reads []*tvl.Pred
	// usesEq: the constraint reads equality, so sm changes matter.
	usesEq bool
}

// Coercer enforces a program's constraints on structures (thesis
// §4.3.2): where a body is 1 it sharpens a 1/2 head, discards the
// structure when the head is 0, and makes a summary individual
// non-summary when an equality head needs it.
type Coercer struct {
	voc  *tvl.Vocabulary
	cons []*constraint
	// byPred lists, per predicate ID, the constraints that read it.
	byPred [][]int
}

// NewCoercer compiles constraints over voc.
func NewCoercer(voc *tvl.Vocabulary, cons []predicates.Constraint) (*Coercer, error) {
	c := &Coercer{voc: voc, byPred: make([][]int, len(voc.Preds()))}
	for _, src := range cons {
		k, err := compileConstraint(voc, src)
		if err != nil {
			return nil, fmt.Errorf("constraint %s (%s): %w", src, src.Origin, err)
		}
		idx := len(c.cons)
		c.cons = append(c.cons, k)
		for _, p := range k.reads {
			c.byPred[p.ID] = append(c.byPred[p.ID], idx)
		}
		if k.usesEq {
			sm := voc.Summary().ID
			c.byPred[sm] = append(c.byPred[sm], idx)
		}
	}
	return c, nil
}

// Len is the number of constraints.
func (c *Coercer) Len() int { return len(c.cons) }

func compileConstraint(voc *tvl.Vocabulary, src predicates.Constraint) (*constraint, error) {
	body, err := tvl.Compile(src.Body, voc, src.Vars)
	if err != nil {
		return nil, err
	}
	k := &constraint{src: src, body: body}
	slot := func(v logic.Var) int {
		for i, w := range src.Vars {
			if w == v {
				return i
			}
		}
		return -1
	}
	head := src.Head
	neg := false
	if n, ok := head.(*logic.Not); ok {
		head, neg = n.Sub, true
	}
	switch h := head.(type) {
	case *logic.Atom:
		k.pred = voc.Lookup(h.Pred)
		if k.pred == nil {
			return nil, fmt.Errorf("undeclared predicate %s", h.Pred)
		}
		if k.pred.Arity != len(h.Args) {
			return nil, fmt.Errorf("predicate %s has arity %d, head gives %d arguments", h.Pred, k.pred.Arity, len(h.Args))
		}
		for _, v := range h.Args {
			k.args = append(k.args, slot(v))
		}
		k.kind = headAtom
		if neg {
			k.kind = headNotAtom
		}
	case *logic.Equal:
		k.args = []int{slot(h.Left), slot(h.Right)}
		k.kind = headEq
		if neg {
			k.kind = headNeq
		}
		k.usesEq = true
	case *logic.Const:
		v := h.Value
		if neg {
			v = v.Not()
		}
		switch v {
		case logic.False:
			k.kind = headFalse
		case logic.True:
			k.kind = headTrue
		default:
			return nil, fmt.Errorf("a head cannot be 1/2")
		}
	default:
		return nil, fmt.Errorf("head %s is not a literal", logic.String(src.Head))
	}
	seen := map[string]bool{}
	for _, name := range logic.Preds(logic.NewAnd(src.Body, src.Head)) {
		if p := voc.Lookup(name); p != nil && !seen[name] {
			seen[name] = true
			k.reads = append(k.reads, p)
		}
	}
	if logic.UsesEquality(src.Body) {
		k.usesEq = true
	}
	return k, nil
}

// predSet is a set of predicate IDs.
type predSet []bool

// CoerceResult reports what Coerce did.
type CoerceResult struct {
	// Consistent is false when the structure violates a constraint that
	// cannot be repaired: it represents no concrete state.
	Consistent bool
	// Breaches counts sharpened values and the discard, if any.
	Breaches int
	// Violated is the constraint that discarded the structure.
	Violated string
}

// Coerce sharpens s in place until every constraint holds, or finds it
// inconsistent. changed lists the predicates that may have changed since
// s last satisfied the constraints; nil means check everything. Only
// constraints reading a changed predicate are evaluated (semi-naive), and
// each sharpening schedules the constraints that read what it changed.
func (c *Coercer) Coerce(s *tvl.Structure, changed []*tvl.Pred) CoerceResult {
	res := CoerceResult{Consistent: true}
	active := make([]bool, len(c.cons))
	if changed == nil {
		for i := range active {
			active[i] = true
		}
	} else {
		for _, p := range changed {
			for _, i := range c.byPred[p.ID] {
				active[i] = true
			}
		}
	}
	sm := c.voc.Summary()
	for {
		touched := make(predSet, len(c.byPred))
		any := false
		for i, k := range c.cons {
			if !active[i] {
				continue
			}
			active[i] = false
			ok := c.apply(s, k, touched, &res)
			if !ok {
				res.Consistent = false
				return res
			}
		}
		for id, t := range touched {
			if !t {
				continue
			}
			any = true
			for _, i := range c.byPred[id] {
				active[i] = true
			}
		}
		_ = sm
		if !any {
			return res
		}
	}
}

// apply enforces one constraint over every assignment; it returns false
// when the structure must be discarded.
func (c *Coercer) apply(s *tvl.Structure, k *constraint, touched predSet, res *CoerceResult) bool {
	if k.kind == headTrue {
		return true
	}
	b := k.body.Bind(s)
	ok := true
	args := make([]int, len(k.args))
	b.ForEach(func(asg []int, v logic.Kleene) bool {
		if v != logic.True {
			return true
		}
		for i, a := range k.args {
			args[i] = asg[a]
		}
		switch k.kind {
		case headFalse:
			ok = false
		case headAtom, headNotAtom:
			want := logic.True
			if k.kind == headNotAtom {
				want = logic.False
			}
			switch cur := s.Get(k.pred, args...); {
			case cur == want:
			case cur == logic.Unknown:
				s.Set(k.pred, want, args...)
				touched[k.pred.ID] = true
				res.Breaches++
				b.Reset()
			default:
				ok = false
			}
		case headEq:
			u, w := args[0], args[1]
			switch {
			case u != w:
				ok = false
			case s.IsSummary(u):
				s.SetSummary(u, false)
				touched[c.voc.Summary().ID] = true
				res.Breaches++
				b.Reset()
			}
		case headNeq:
			if args[0] == args[1] {
				ok = false
			}
		}
		if !ok {
			res.Breaches++
			res.Violated = k.src.String() + " (" + k.src.Origin + ")"
		}
		return ok
	})
	return ok
}
