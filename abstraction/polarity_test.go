package abstraction

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// randomConstraint is a constraint with a random body over testgen's
// vocabulary and a random literal head over the body's variables.
func randomConstraint(r *rand.Rand) predicates.Constraint {
	// A conjunction, as most constraints' bodies are, so that it is not
	// 1 too often.
	body := testgen.Formula(r, 2)
	for k := r.IntN(3); k > 0; k-- {
		body = logic.NewAnd(body, testgen.Formula(r, 1))
	}
	vars := logic.FreeVars(body)
	if len(vars) == 0 {
		vars = []logic.Var{testgen.Vars[0]}
	}
	v := func() logic.Var { return vars[r.IntN(len(vars))] }
	var head logic.Formula
	switch r.IntN(6) {
	case 0:
		head = &logic.Const{Value: logic.False}
	case 1:
		head = logic.Eq(v(), v())
	case 2, 3:
		head = logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], v())
	default:
		head = logic.NewAtom([]string{"n", "m"}[r.IntN(2)], v(), v())
	}
	if r.IntN(2) == 0 {
		head = logic.NewNot(head)
	}
	return predicates.Constraint{Body: body, Head: head, Vars: logic.FreeVars(logic.NewAnd(body, head)), Origin: "test"}
}

// literalConstraint is a conjunction of unary literals over v1 (and
// sometimes n(v1, v2) or nullary b) implying a unary literal: the shape
// of the thread models' soft invariants, whose sharpenings cascade.
func literalConstraint(r *rand.Rand) predicates.Constraint {
	lit := func(v logic.Var) logic.Formula {
		f := logic.Formula(logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], v))
		if r.IntN(2) == 0 {
			f = logic.NewNot(f)
		}
		return f
	}
	body := lit("v1")
	for k := r.IntN(3); k > 0; k-- {
		switch r.IntN(5) {
		case 0:
			body = logic.NewAnd(body, logic.NewAtom("n", "v1", "v2"), lit("v2"))
		case 1:
			body = logic.NewAnd(body, logic.NewAtom("b"))
		default:
			body = logic.NewAnd(body, lit("v1"))
		}
	}
	head := lit("v1")
	return predicates.Constraint{Body: body, Head: head, Vars: logic.FreeVars(logic.NewAnd(body, head)), Origin: "test"}
}

// Waking only the constraints whose body a sharpening can make 1 gives
// what waking every constraint that reads the sharpened predicate gives
// (Coercer.Polar off): the same verdict and, when consistent, the same
// structure, on random constraints and three-valued structures, coerced
// whole and then again after some values were made definite.
func TestPolarActivationAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	voc := testgen.Vocabulary()
	preds := voc.Preds()
	cascades, discards := 0, 0
	for i := 0; i < 3000; i++ {
		var cons []predicates.Constraint
		for j := 0; j < 2+r.IntN(6); j++ {
			if i%2 == 0 {
				cons = append(cons, literalConstraint(r))
			} else {
				cons = append(cons, randomConstraint(r))
			}
		}
		polar, err := NewCoercer(voc, cons)
		if err != nil {
			t.Fatal(err)
		}
		polar.Polar = true
		lenient, _ := NewCoercer(voc, cons)
		s := testgen.Structure(r, voc, 1+r.IntN(5), false)
		changed := []*tvl.Pred(nil)
		for round := 0; round < 3; round++ {
			a, b := s.Clone(), s.Clone()
			ra, rb := polar.Coerce(a, changed), lenient.Coerce(b, changed)
			if ra.Consistent != rb.Consistent {
				t.Fatalf("case %d round %d: consistent %v, lenient %v (constraints %v)", i, round, ra.Consistent, rb.Consistent, cons)
			}
			if !ra.Consistent {
				discards++
				break
			}
			if !tvl.Equal(a, b) {
				t.Fatalf("case %d round %d: the two activations sharpen differently (constraints %v)", i, round, cons)
			}
			if ra.Breaches > 1 {
				cascades++
			}
			// Make a few 1/2 values definite, as Focus does, and coerce
			// again from the predicates changed.
			s, changed = a, nil
			for k := 0; k < 1+r.IntN(3); k++ {
				p := preds[r.IntN(len(preds))]
				if p == voc.Summary() || s.Size() == 0 {
					continue
				}
				args := make([]int, p.Arity)
				for x := range args {
					args[x] = r.IntN(s.Size())
				}
				if s.Get(p, args...) == logic.Unknown {
					s.Set(p, logic.Of(r.IntN(2) == 0), args...)
					changed = append(changed, p)
				}
			}
			if changed == nil {
				break
			}
		}
	}
	if cascades < 50 || discards < 200 {
		t.Errorf("too few cascades (%d) or discards (%d)", cascades, discards)
	}
}
