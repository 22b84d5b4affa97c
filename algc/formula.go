package algc

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// Expressions become TVP formulas over the scheduled thread. val(x, t, w)
// holds when w is the value of x for thread t (a node or a data value;
// nothing for null); cond(x, t) is a boolean expression's truth for t.
// Bound variables are w_1, w_2, ...: TVLA's finite differencing needs
// update formulas to use names other than the definitions' (u, u_1, ...).

type fgen struct {
	s *symbols
	n int
}

func (g *fgen) fresh() string {
	g.n++
	return fmt.Sprintf("w_%d", g.n)
}

// val is the formula "w is the value of x for thread t".
func (g *fgen) val(x alg.Expr, t, w string) string {
	switch x := x.(type) {
	case *alg.Name:
		if g.s.isThread(x.Name) {
			return fmt.Sprintf("%s(%s, %s)", x.Name, t, w)
		}
		return fmt.Sprintf("%s(%s)", x.Name, w)
	case *alg.Field:
		u := g.fresh()
		return fmt.Sprintf("(E(%s) %s & %s(%s, %s))", u, g.val(x.X, t, u), x.Name, u, w)
	case *alg.Lit:
		if x.Value == "any" {
			// Some data value: as a data parameter is chosen.
			return "is_data(" + w + ") & 1/2"
		}
	}
	return "0" // null
}

// cond is the truth of a boolean expression for thread t.
func (g *fgen) cond(x alg.Expr, t string) string {
	switch x := x.(type) {
	case *alg.Name:
		if g.s.isThread(x.Name) {
			return fmt.Sprintf("%s(%s)", x.Name, t)
		}
		return x.Name + "()"
	case *alg.Field:
		u := g.fresh()
		return fmt.Sprintf("(E(%s) %s & %s(%s))", u, g.val(x.X, t, u), x.Name, u)
	case *alg.Lit:
		if x.Value == "true" {
			return "1"
		}
		return "0"
	case *alg.Unary:
		return "!" + g.cond(x.X, t)
	case *alg.Binary:
		switch x.Op {
		case "&&":
			return "(" + g.cond(x.X, t) + " & " + g.cond(x.Y, t) + ")"
		case "||":
			return "(" + g.cond(x.X, t) + " | " + g.cond(x.Y, t) + ")"
		case "==", "!=":
			eq := g.eq(x.X, x.Y, t)
			if tag := g.tagEq(x.X, x.Y, t); tag != "" {
				eq = "(" + eq + tag + ")"
			}
			if x.Op == "!=" {
				return "!" + eq
			}
			return eq
		}
	}
	return "0"
}

// eq is the formula for a == b.
func (g *fgen) eq(a, b alg.Expr, t string) string {
	ka, kb := g.s.kind(a), g.s.kind(b)
	if ka == "bool" {
		return "(" + g.cond(a, t) + " <-> " + g.cond(b, t) + ")"
	}
	if ka == "null" && kb == "null" {
		return "1"
	}
	if ka == "null" {
		a, b = b, a
	}
	if ka == "null" || kb == "null" {
		w := g.fresh()
		return fmt.Sprintf("!(E(%s) %s)", w, g.val(a, t, w))
	}
	w := g.fresh()
	return fmt.Sprintf("(A(%s) (%s <-> %s))", w, g.val(a, t, w), g.val(b, t, w))
}

// sched wraps a formula over thread ts: "for the scheduled thread".
func sched(f string) string { return "(E(ts) tr_scheduled(ts) & " + f + ")" }

// postOrder calls visit on every subexpression of x, each after its
// operands.
func postOrder(x alg.Expr, visit func(alg.Expr)) {
	switch y := x.(type) {
	case *alg.Field:
		postOrder(y.X, visit)
	case *alg.Unary:
		postOrder(y.X, visit)
	case *alg.Binary:
		postOrder(y.X, visit)
		postOrder(y.Y, visit)
	case *alg.CAS:
		postOrder(y.Loc, visit)
		postOrder(y.Old, visit)
		postOrder(y.New, visit)
	}
	visit(x)
}

// derefs lists the pointer expressions x dereferences (the X of each
// X.f), innermost first.
func derefs(x alg.Expr) []alg.Expr {
	var out []alg.Expr
	postOrder(x, func(e alg.Expr) {
		if f, ok := e.(*alg.Field); ok {
			out = append(out, f.X)
		}
	})
	return out
}

// pointers lists the node-valued subexpressions of x that are not shared
// variables (those are unique and need no focus), nor null.
func (g *fgen) pointers(x alg.Expr) []alg.Expr {
	var out []alg.Expr
	postOrder(x, func(e alg.Expr) {
		switch y := e.(type) {
		case *alg.Name:
			if isNode(g.s.kind(y)) && g.s.isThread(y.Name) {
				out = append(out, y)
			}
		case *alg.Field:
			if isNode(g.s.kind(y)) {
				out = append(out, y)
			}
		}
	})
	return out
}

// focusOn is the focus formula (free variable v) of a node expression.
func (g *fgen) focusOn(x alg.Expr) string { return sched(g.val(x, "ts", "v")) }

// threadVarsRead lists the thread-local variables an expression reads.
func (g *fgen) threadVarsRead(x alg.Expr, into map[string]bool) {
	switch x := x.(type) {
	case *alg.Name:
		if g.s.isThread(x.Name) {
			into[x.Name] = true
		}
	case *alg.Field:
		g.threadVarsRead(x.X, into)
	case *alg.Unary:
		g.threadVarsRead(x.X, into)
	case *alg.Binary:
		g.threadVarsRead(x.X, into)
		g.threadVarsRead(x.Y, into)
	case *alg.CAS:
		g.threadVarsRead(x.Loc, into)
		g.threadVarsRead(x.Old, into)
		g.threadVarsRead(x.New, into)
	}
}

// source is an expression as written, for titles and comments.
func source(x alg.Expr) string { return alg.ExprString(x) }

// quote makes a TVP string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `'`).Replace(s) + `"`
}
