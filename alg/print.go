package alg

import (
	"fmt"
	"strings"
)

// Print renders a program in the canonical layout: one declaration group
// per kind, tabs for indentation, parentheses only where needed, no
// comments. Its output parses to the same program (positions aside).
func Print(p *Program) string {
	w := &printer{}
	w.line(0, "algorithm %s;", p.Name)
	if p.Spec != nil {
		w.line(0, "spec %s;", p.Spec.Name)
	}
	if p.Garbage != nil {
		w.line(0, "garbage %s;", p.Garbage.Mode)
	}
	if p.Interleaving != nil {
		w.line(0, "interleaving %s;", p.Interleaving.Mode)
	}
	for _, t := range p.Types {
		w.blank()
		w.line(0, "type %s {", t.Name)
		for _, f := range t.Fields {
			w.line(1, "%s: %s;", f.Name, kindString(f))
		}
		w.line(0, "}")
	}
	if len(p.Shared)+len(p.Locals) > 0 {
		w.blank()
	}
	for _, v := range p.Shared {
		w.line(0, "shared %s: %s;", v.Name, kindString(v))
	}
	for _, v := range p.Locals {
		w.line(0, "local %s: %s;", v.Name, kindString(v))
	}
	if len(p.Instrument) > 0 {
		w.blank()
	}
	for _, d := range p.Instrument {
		mode := "add"
		if d.Off {
			mode = "off"
		} else if d.NonAbs {
			mode = "nonabs"
		}
		names := make([]string, len(d.Names))
		for i, n := range d.Names {
			names[i] = n.String()
		}
		w.line(0, "instrument %s %s;", mode, strings.Join(names, ", "))
	}
	for _, d := range p.TVP {
		w.blank()
		w.line(0, "tvp `%s`;", d.Text)
	}
	if p.Init != nil {
		w.blank()
		w.line(0, "init {")
		w.stmts(1, p.Init.Body.Stmts)
		w.line(0, "}")
	}
	for _, op := range p.Ops {
		w.blank()
		params := make([]string, len(op.Params))
		for i, v := range op.Params {
			params[i] = v.Name + ": " + kindString(v)
		}
		res := ""
		if op.Result != nil {
			res = ": " + op.Result.Name
		}
		w.line(0, "op %s(%s)%s {", op.Name, strings.Join(params, ", "), res)
		w.stmts(1, op.Body.Stmts)
		w.line(0, "}")
	}
	return w.b.String()
}

// String renders a predicate name as written: succ[ss,ssnext].
func (n *PredName) String() string {
	if len(n.Args) == 0 {
		return n.Name
	}
	args := make([]string, len(n.Args))
	for i, a := range n.Args {
		args[i] = a.String()
	}
	return n.Name + "[" + strings.Join(args, ",") + "]"
}

type printer struct{ b strings.Builder }

func (w *printer) line(depth int, format string, args ...any) {
	w.b.WriteString(strings.Repeat("\t", depth))
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

func (w *printer) blank() { w.b.WriteByte('\n') }

func (w *printer) stmts(d int, ss []Stmt) {
	for _, s := range ss {
		w.stmt(d, s)
	}
}

func (w *printer) stmt(d int, s Stmt) {
	switch s := s.(type) {
	case *Block:
		w.line(d, "{")
		w.stmts(d+1, s.Stmts)
		w.line(d, "}")
	case *LocalStmt:
		// The parser gives every variable of one statement the same kind.
		names := make([]string, len(s.Vars))
		for i, v := range s.Vars {
			names[i] = v.Name
		}
		w.line(d, "local %s: %s;", strings.Join(names, ", "), kindString(s.Vars[0]))
	case *AssignStmt:
		w.line(d, "%s = %s%s;", ExprString(s.LHS), ExprString(s.RHS), lpString(s.LP))
	case *ExprStmt:
		w.line(d, "%s%s;", ExprString(s.X), lpString(s.LP))
	case *IfStmt:
		w.ifStmt(d, s, "")
		w.line(d, "}")
	case *LoopStmt:
		if s.Cond == nil {
			w.line(d, "loop {")
		} else {
			w.line(d, "while %s {", ExprString(s.Cond))
		}
		w.stmts(d+1, s.Body.Stmts)
		w.line(d, "}")
	case *BranchStmt:
		w.line(d, "%s;", s.Tok)
	case *ReturnStmt:
		switch {
		case s.Empty:
			w.line(d, "return empty;")
		case s.Value != nil:
			w.line(d, "return %s;", ExprString(s.Value))
		default:
			w.line(d, "return;")
		}
	case *AtomicStmt:
		w.line(d, "atomic {")
		w.stmts(d+1, s.Body.Stmts)
		w.line(d, "}")
	case *LockStmt:
		word := "lock"
		if s.Unlock {
			word = "unlock"
		}
		w.line(d, "%s %s;", word, ExprString(s.X))
	case *FreeStmt:
		w.line(d, "free %s;", ExprString(s.X))
	case *YieldStmt:
		w.line(d, "yield;")
	case *BadStmt:
		w.line(d, "/* bad statement */;")
	}
}

// ifStmt prints an if and its else-if chain, leaving the last } to the
// caller.
func (w *printer) ifStmt(d int, s *IfStmt, prefix string) {
	w.line(d, "%sif %s%s {", prefix, ExprString(s.Cond), lpString(s.LP))
	w.stmts(d+1, s.Then.Stmts)
	switch e := s.Else.(type) {
	case *IfStmt:
		w.ifStmt(d, e, "} else ")
	case *Block:
		w.line(d, "} else {")
		w.stmts(d+1, e.Stmts)
	}
}

func lpString(m *LPMark) string {
	if m == nil {
		return ""
	}
	s := " @lp"
	switch {
	case m.Empty:
		s += "(empty)"
	case m.Value != nil:
		s += "(" + ExprString(m.Value) + ")"
	}
	if pt := m.Partner; pt != nil {
		s += " after " + pt.Op + "(" + pt.Var.Name + " == " + ExprString(pt.Expr) + ")"
	}
	if cl := m.Claim; cl != nil {
		s += " " + cl.Word() + " " + ExprString(cl.X)
	}
	if m.Cond != nil {
		s += " if " + ExprString(m.Cond)
	}
	return s
}

// Precedence levels: || 1, && 2, == != 3, ! 4, primaries 5.
func prec(x Expr) int {
	switch x := x.(type) {
	case *Binary:
		switch x.Op {
		case "||":
			return 1
		case "&&":
			return 2
		}
		return 3
	case *Unary:
		return 4
	}
	return 5
}

// ExprString renders an expression with the parentheses its structure
// needs.
func ExprString(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeSub(b *strings.Builder, x Expr, min int) {
	if prec(x) < min {
		b.WriteByte('(')
		writeExpr(b, x)
		b.WriteByte(')')
		return
	}
	writeExpr(b, x)
}

func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *Name:
		b.WriteString(x.Name)
	case *Field:
		writeSub(b, x.X, 5)
		b.WriteString("." + x.Name)
	case *Lit:
		b.WriteString(x.Value)
	case *New:
		b.WriteString("new " + x.Type)
	case *CAS:
		b.WriteString("cas(")
		writeExpr(b, x.Loc)
		b.WriteString(", ")
		writeExpr(b, x.Old)
		b.WriteString(", ")
		writeExpr(b, x.New)
		b.WriteString(")")
	case *Unary:
		b.WriteString("!")
		writeSub(b, x.X, 4)
	case *Binary:
		p := prec(x)
		// Left-associative || and &&; comparisons do not chain.
		writeSub(b, x.X, p+btoi(p == 3))
		b.WriteString(" " + x.Op + " ")
		writeSub(b, x.Y, p+1)
	default:
		b.WriteString("/* bad expression */")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kindString is a declaration's kind as written, with "tagged".
func kindString(v *VarDecl) string {
	if v.Tagged {
		return v.Kind.Name + " tagged"
	}
	return v.Kind.Name
}
