package algc

import (
	"fmt"

	"github.com/tvla-go/tvla/alg"
)

// lpifFamily is lpif[op], for collapsed threads only (a bounded model
// keeps its abstraction): the condition of op's conditional
// linearisation point (`@lp(...) if C`) holds for the thread now. An
// empty linearisation point taken where C held sets doneELP, and the
// operation returns empty later, after tests that imply C held then;
// what ties the two is a fact of three or more thread predicates (in
// the Ladan-Mozes–Shavit queue, head == tail, head == Head and head's
// node a dummy), which the generated conditional soft invariants,
// pairs of thread predicates, cannot state. As one thread predicate the
// condition makes it a pair, "at L, lpif[op] implies doneELP", which the
// soft-invariant rounds find and keep (docs/lms-queue.md).
//
// The definition is C over the thread v, with one difference: a
// comparison x == y of two pointers reads "x and y point to the same
// node" (E(u) x(v, u) & y(v, u)), which is 0 where both are null where C
// would be 1; conjunctive, so that Coerce gets the rules of its Horn
// closure. Any definition is sound; this one is what a test that has
// just made its pointers definite evaluates exactly.
func (c *compiler) lpifFamily(name string, args []string) (*instrument, string) {
	if len(args) != 1 {
		return nil, "lpif takes an operation's name: lpif[op]"
	}
	var op *alg.OpDecl
	for _, o := range c.s.prog.Ops {
		if o.Name == args[0] {
			op = o
		}
	}
	if op == nil {
		return nil, fmt.Sprintf("%s: %s is not an operation", name, args[0])
	}
	var conds []alg.Expr
	walkStmts(op.Body, func(st alg.Stmt) {
		if m := lpOf(st); m != nil && m.Cond != nil {
			conds = append(conds, m.Cond)
		}
	})
	if len(conds) != 1 {
		return nil, fmt.Sprintf("%s: %s has %d conditional linearisation points; lpif needs exactly one", name, op.Name, len(conds))
	}
	g := &lpifGen{s: c.s}
	body := g.cond(conds[0])
	return &instrument{name: name, collapsed: true, decl: fmt.Sprintf("%%i %s(v) = %s nonabs", name, body)}, ""
}

// lpifGen writes a condition over thread v with its own bound variables
// (u_1, u_2, ...: a definition's, as the other families' are).
type lpifGen struct {
	s *symbols
	n int
}

func (g *lpifGen) fresh() string {
	g.n++
	return fmt.Sprintf("u_%d", g.n)
}

// val is "w is the value of x for thread v" (nothing for null).
func (g *lpifGen) val(x alg.Expr, w string) string {
	switch x := x.(type) {
	case *alg.Name:
		if g.s.isThread(x.Name) {
			return fmt.Sprintf("%s(v, %s)", x.Name, w)
		}
		return fmt.Sprintf("%s(%s)", x.Name, w)
	case *alg.Field:
		u := g.fresh()
		return fmt.Sprintf("(E(%s) %s & %s(%s, %s))", u, g.val(x.X, u), x.Name, u, w)
	}
	return "0"
}

// cond is the truth of a boolean expression for thread v, pointer
// equality read as "the same node".
func (g *lpifGen) cond(x alg.Expr) string {
	switch x := x.(type) {
	case *alg.Name:
		if g.s.isThread(x.Name) {
			return fmt.Sprintf("%s(v)", x.Name)
		}
		return x.Name + "()"
	case *alg.Field:
		u := g.fresh()
		return fmt.Sprintf("(E(%s) %s & %s(%s))", u, g.val(x.X, u), x.Name, u)
	case *alg.Lit:
		if x.Value == "true" {
			return "1"
		}
		return "0"
	case *alg.Unary:
		return "!" + g.cond(x.X)
	case *alg.Binary:
		switch x.Op {
		case "&&":
			return "(" + g.cond(x.X) + " & " + g.cond(x.Y) + ")"
		case "||":
			return "(" + g.cond(x.X) + " | " + g.cond(x.Y) + ")"
		case "==", "!=":
			eq := g.eq(x.X, x.Y)
			if x.Op == "!=" {
				return "!" + eq
			}
			return eq
		}
	}
	return "0"
}

func (g *lpifGen) eq(a, b alg.Expr) string {
	ka, kb := g.s.kind(a), g.s.kind(b)
	if ka == "bool" {
		return "(" + g.cond(a) + " <-> " + g.cond(b) + ")"
	}
	if ka == "null" && kb == "null" {
		return "1"
	}
	if ka == "null" {
		a, b = b, a
	}
	w := g.fresh()
	if ka == "null" || kb == "null" {
		return fmt.Sprintf("!(E(%s) %s)", w, g.val(a, w))
	}
	return fmt.Sprintf("(E(%s) %s & %s)", w, g.val(a, w), g.val(b, w))
}
