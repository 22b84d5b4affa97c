package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Which sharpenings can wake a constraint. Coerce sharpens a 1/2 to 1 or
// to 0, and a formula's value only grows more definite with it: a body
// that was 0 or 1 stays so, and one that was 1/2 can become 1 only when
// the sharpening raises it in the order 0 < 1/2 < 1. Every connective
// but negation is monotone in that order (&, |, quantifiers, transitive
// closure, the branches of an if-then-else), so a sharpening of p to 1
// can make the body 1 only where p occurs positively (under an even
// number of negations, counting the left of -> as one), and a sharpening
// to 0 only where it occurs negatively; <-> and an if's condition read
// both ways. A constraint whose body stays as it was keeps holding (its
// head, definite where its body is 1, cannot change), so a sharpening
// need not check it again.

// polarities returns the predicates f reads positively (up) and
// negatively (down), each once, in the order of first appearance.
func polarities(voc *tvl.Vocabulary, f logic.Formula) (up, down []*tvl.Pred) {
	seen := map[*tvl.Pred]uint8{}
	var walk func(f logic.Formula, pos, neg bool)
	add := func(name string, pos, neg bool) {
		p := voc.Lookup(name)
		if p == nil {
			return
		}
		if pos && seen[p]&touchUp == 0 {
			seen[p] |= touchUp
			up = append(up, p)
		}
		if neg && seen[p]&touchDown == 0 {
			seen[p] |= touchDown
			down = append(down, p)
		}
	}
	walk = func(f logic.Formula, pos, neg bool) {
		switch g := f.(type) {
		case *logic.Atom:
			add(g.Pred, pos, neg)
		case *logic.Closure:
			add(g.Pred, pos, neg)
		case *logic.Not:
			walk(g.Sub, neg, pos)
		case *logic.Binary:
			switch g.Op {
			case logic.Implies:
				walk(g.Left, neg, pos)
				walk(g.Right, pos, neg)
			case logic.Iff:
				walk(g.Left, true, true)
				walk(g.Right, true, true)
			default:
				walk(g.Left, pos, neg)
				walk(g.Right, pos, neg)
			}
		case *logic.If:
			walk(g.Cond, true, true)
			walk(g.Then, pos, neg)
			walk(g.Else, pos, neg)
		case *logic.Quant:
			walk(g.Body, pos, neg)
		case *logic.TC:
			walk(g.Body, pos, neg)
		}
	}
	walk(f, true, false)
	return up, down
}
