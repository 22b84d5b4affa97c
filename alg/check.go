package alg

import (
	"fmt"
	"strings"
)

// The semantic checks that need no TVP: names declared once and before
// use, kinds of fields and variables, where break, continue, return, new,
// cas and linearisation points may stand, and the operations against the
// specification.

type varInfo struct {
	kind  string // "data", "bool", "lock" or a type name
	where string // "shared variable", "thread-local variable", "parameter"
	pos   Pos
}

type checker struct {
	e      *errs
	prog   *Program
	types  map[string]*TypeDecl
	fields map[string]map[string]*VarDecl
	global map[string]*varInfo // shared and program-wide locals
	scope  map[string]*varInfo // the operation's parameters and locals
	op     *OpDecl
	sop    *SpecOp
	spec   *Spec
	loops  int
	lps    int
}

func check(prog *Program, e *errs) {
	c := &checker{e: e, prog: prog, types: map[string]*TypeDecl{},
		fields: map[string]map[string]*VarDecl{}, global: map[string]*varInfo{}}
	if prog.Spec == nil {
		e.add(prog.Pos, "no spec declaration (one of: %s)", strings.Join(SpecNames(), ", "))
	} else if c.spec = Specs[prog.Spec.Name]; c.spec == nil {
		e.add(prog.Spec.Pos, "unknown specification %s (the library has: %s)", prog.Spec.Name, strings.Join(SpecNames(), ", "))
	}
	for _, t := range prog.Types {
		if old := c.types[t.Name]; old != nil {
			e.add(t.Pos, "type %s declared twice (first at %s)", t.Name, at(old.Pos))
			continue
		}
		c.types[t.Name] = t
		c.fields[t.Name] = map[string]*VarDecl{}
	}
	for _, t := range prog.Types {
		fs := c.fields[t.Name]
		if c.types[t.Name] != t {
			continue
		}
		for _, f := range t.Fields {
			c.kindOK(f.Kind, true)
			if old := fs[f.Name]; old != nil {
				e.add(f.Pos, "field %s of %s declared twice (first at %s)", f.Name, t.Name, at(old.Pos))
				continue
			}
			fs[f.Name] = f
		}
	}
	for _, v := range prog.Shared {
		c.kindOK(v.Kind, true)
		c.declare(c.global, v, "shared variable")
	}
	for _, v := range prog.Locals {
		c.localKind(v)
		c.declare(c.global, v, "thread-local variable")
	}
	if prog.Init != nil {
		c.checkInit(prog.Init)
	}
	ops := map[string]*OpDecl{}
	for _, op := range prog.Ops {
		if old := ops[op.Name]; old != nil {
			e.add(op.Pos, "operation %s declared twice (first at %s)", op.Name, at(old.Pos))
			continue
		}
		ops[op.Name] = op
		c.checkOp(op)
	}
	if len(prog.Ops) == 0 {
		e.add(prog.Pos, "the algorithm has no operations")
	}
	c.taggedDecls()
	c.taggedCASes()
	c.claimsPaired()
}

func at(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// kindOK checks that a kind names something declared.
func (c *checker) kindOK(k Kind, lockOK bool) bool {
	if k.Name == "lock" && !lockOK {
		return false
	}
	if k.IsPointer() && c.types[k.Name] == nil {
		c.e.add(k.Pos, "undeclared type %s", k.Name)
		return false
	}
	return true
}

func (c *checker) localKind(v *VarDecl) {
	if v.Kind.Name == "lock" {
		c.e.add(v.Kind.Pos, "a thread-local variable cannot be a lock (locks are shared variables or fields)")
		return
	}
	c.kindOK(v.Kind, false)
}

func (c *checker) declare(m map[string]*varInfo, v *VarDecl, where string) {
	if old := c.lookup(v.Name); old != nil {
		c.e.add(v.Pos, "%s declared twice (first as a %s at %s)", v.Name, old.where, at(old.pos))
		return
	}
	if c.types[v.Name] != nil {
		c.e.add(v.Pos, "%s is already the name of a type", v.Name)
		return
	}
	m[v.Name] = &varInfo{kind: v.Kind.Name, where: where, pos: v.Pos}
}

func (c *checker) lookup(name string) *varInfo {
	if c.scope != nil {
		if v := c.scope[name]; v != nil {
			return v
		}
	}
	return c.global[name]
}

func (c *checker) checkOp(op *OpDecl) {
	c.op, c.scope, c.loops, c.lps = op, map[string]*varInfo{}, 0, 0
	c.sop = nil
	if c.spec != nil {
		if c.sop = c.spec.Op(op.Name); c.sop == nil {
			names := make([]string, len(c.spec.Ops))
			for i, o := range c.spec.Ops {
				names[i] = o.Name
			}
			c.e.add(op.Pos, "specification %s has no operation %s (it has: %s)", c.spec.Name, op.Name, strings.Join(names, ", "))
		}
	}
	for _, p := range op.Params {
		c.localKind(p)
		c.declare(c.scope, p, "parameter")
	}
	if op.Result != nil {
		if op.Result.Name != "data" {
			c.e.add(op.Result.Pos, "an operation's result is data, not %s", op.Result.Name)
		}
	}
	if s := c.sop; s != nil {
		if len(op.Params) != len(s.Params) {
			c.e.add(op.Pos, "operation %s has %d parameter(s); the specification's has %d", op.Name, len(op.Params), len(s.Params))
		} else {
			for i, p := range op.Params {
				if p.Kind.Name != s.Params[i] {
					c.e.add(p.Kind.Pos, "parameter %s of %s is %s in the specification", p.Name, op.Name, s.Params[i])
				}
			}
		}
		if s.Result != "" && op.Result == nil {
			c.e.add(op.Pos, "operation %s returns %s in the specification: declare `: %s`", op.Name, s.Result, s.Result)
		}
		if s.Result == "" && op.Result != nil {
			c.e.add(op.Result.Pos, "operation %s has no result in the specification", op.Name)
		}
	}
	c.block(op.Body)
	if c.lps == 0 {
		c.e.add(op.Pos, "operation %s has no linearisation point (mark one with @lp)", op.Name)
	}
	c.scope, c.op = nil, nil
}

// checkInit allows local declarations and assignments without
// linearisation points or cas: the initial state is built by plain code.
func (c *checker) checkInit(d *InitDecl) {
	c.scope = map[string]*varInfo{}
	var walk func(b *Block)
	walk = func(b *Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *Block:
				walk(s)
			case *LocalStmt:
				c.stmt(s)
			case *AssignStmt:
				if s.LP != nil {
					c.e.add(s.LP.Pos, "no linearisation point in init")
				} else if _, ok := s.RHS.(*CAS); ok {
					c.e.add(s.RHS.exprPos(), "no cas in init: it runs before any thread")
				} else {
					c.assign(s)
				}
			case *BadStmt:
			default:
				c.e.add(s.stmtPos(), "init holds only local declarations and assignments")
			}
		}
	}
	walk(d.Body)
	c.scope = nil
}

func (c *checker) block(b *Block) {
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		c.block(s)
	case *LocalStmt:
		for _, v := range s.Vars {
			c.localKind(v)
			c.declare(c.scope, v, "thread-local variable")
		}
	case *AssignStmt:
		c.assign(s)
		c.lp(s.LP, s.RHS)
	case *ExprStmt:
		c.cas(s.X.(*CAS))
		c.lp(s.LP, s.X)
	case *IfStmt:
		c.cond(s.Cond, true)
		if s.LP != nil {
			if !isCAS(s.Cond) {
				c.e.add(s.LP.Pos, "a linearisation point on an if marks the success of its cas; this condition is not a cas")
			}
			c.lp(s.LP, s.Cond)
		}
		c.block(s.Then)
		if s.Else != nil {
			c.stmt(s.Else)
		}
	case *LoopStmt:
		if s.Cond != nil {
			c.cond(s.Cond, true)
		}
		c.loops++
		c.block(s.Body)
		c.loops--
	case *BranchStmt:
		if c.loops == 0 {
			c.e.add(s.Pos, "%s outside a loop", s.Tok)
		}
	case *ReturnStmt:
		c.ret(s)
	case *AtomicStmt:
		c.block(s.Body)
	case *LockStmt:
		if k := c.expr(s.X); k != "" && k != "lock" {
			c.e.add(s.X.exprPos(), "%s is %s, not a lock", describe(s.X), article(k))
		}
	case *FreeStmt:
		c.freeStmt(s)
	case *YieldStmt, *BadStmt:
	}
}

func isCAS(x Expr) bool {
	if u, ok := x.(*Unary); ok {
		x = u.X
	}
	_, ok := x.(*CAS)
	return ok
}

func (c *checker) assign(s *AssignStmt) {
	var lk string
	switch l := s.LHS.(type) {
	case *Name, *Field:
		lk = c.expr(l)
	default:
		c.e.add(s.LHS.exprPos(), "cannot assign to %s", describe(s.LHS))
		c.rhs(s.RHS)
		return
	}
	if lk == "lock" {
		c.e.add(s.Pos, "cannot assign a lock (use lock and unlock)")
		c.rhs(s.RHS)
		return
	}
	rk := c.rhs(s.RHS)
	if lk != "" && rk != "" && !compatible(lk, rk) {
		c.e.add(s.Pos, "cannot assign %s to %s, which is %s", kindOf(rk), describe(s.LHS), article(lk))
	}
}

// rhs checks an assignment's right-hand side, where new and cas may
// stand.
func (c *checker) rhs(x Expr) string {
	switch x := x.(type) {
	case *New:
		if c.types[x.Type] == nil {
			c.e.add(x.Pos, "undeclared type %s", x.Type)
			return ""
		}
		return x.Type
	case *CAS:
		c.cas(x)
		return "bool"
	case *Lit:
		if x.Value == "any" {
			return "data"
		}
	}
	return c.expr(x)
}

func (c *checker) cas(x *CAS) {
	lk := ""
	switch l := x.Loc.(type) {
	case *Name:
		lk = c.expr(l)
		if v := c.lookup(l.Name); v != nil && v.where != "shared variable" {
			c.e.add(l.Pos, "cas on %s, which is a %s: a cas works on a shared variable or a field", l.Name, v.where)
		}
	case *Field:
		lk = c.expr(l)
	default:
		c.e.add(x.Loc.exprPos(), "cas on %s: a cas works on a shared variable or a field", describe(x.Loc))
		c.expr(x.Loc)
	}
	if lk == "lock" {
		c.e.add(x.Loc.exprPos(), "cas on a lock (use lock and unlock)")
		lk = ""
	}
	for _, v := range []Expr{x.Old, x.New} {
		if k := c.expr(v); k != "" && lk != "" && !compatible(lk, k) {
			c.e.add(v.exprPos(), "cas on %s, which is %s, with %s", describe(x.Loc), article(lk), kindOf(k))
		}
	}
}

// cond checks a condition; top says whether a cas may stand there (as
// the whole condition or its negation).
func (c *checker) cond(x Expr, top bool) {
	if u, ok := x.(*Unary); ok && top {
		if cas, ok := u.X.(*CAS); ok {
			c.cas(cas)
			return
		}
	}
	if cas, ok := x.(*CAS); ok && top {
		c.cas(cas)
		return
	}
	if k := c.expr(x); k != "" && k != "bool" {
		c.e.add(x.exprPos(), "a condition must be a boolean, not %s", kindOf(k))
	}
}

func (c *checker) ret(s *ReturnStmt) {
	op := c.op
	switch {
	case s.Value == nil && !s.Empty && op.Result != nil:
		c.e.add(s.Pos, "operation %s must return a value or empty", op.Name)
	case (s.Value != nil || s.Empty) && op.Result == nil:
		c.e.add(s.Pos, "operation %s has no result: return without a value", op.Name)
		if s.Value != nil {
			c.expr(s.Value)
		}
	case s.Empty:
		if c.sop != nil && !c.sop.Empty {
			c.e.add(s.Pos, "operation %s of specification %s never returns empty", op.Name, c.spec.Name)
		}
	case s.Value != nil:
		if k := c.expr(s.Value); k != "" && k != op.Result.Name {
			c.e.add(s.Value.exprPos(), "operation %s returns %s, not %s", op.Name, op.Result.Name, kindOf(k))
		}
	}
}

// lp checks a linearisation-point mark on a statement whose effect is x.
func (c *checker) lp(m *LPMark, x Expr) {
	if m == nil {
		return
	}
	c.lps++
	op := c.op
	switch {
	case op.Result == nil && (m.Value != nil || m.Empty):
		c.e.add(m.Pos, "operation %s has no result: mark its linearisation point with @lp alone", op.Name)
	case op.Result != nil && m.Value == nil && !m.Empty:
		c.e.add(m.Pos, "operation %s returns a value: say which at its linearisation point, @lp(VALUE) or @lp(empty)", op.Name)
	case m.Empty && c.sop != nil && !c.sop.Empty:
		c.e.add(m.Pos, "operation %s of specification %s never returns empty", op.Name, c.spec.Name)
	case m.Value != nil:
		if k := c.expr(m.Value); k != "" && k != op.Result.Name {
			c.e.add(m.Value.exprPos(), "operation %s returns %s, not %s", op.Name, op.Result.Name, kindOf(k))
		}
	}
	c.partner(m)
	c.claim(m)
	if m.Cond != nil {
		c.cond(m.Cond, false)
	}
}

// expr gives an expression's kind ("" after an error, "null" for null).
func (c *checker) expr(x Expr) string {
	switch x := x.(type) {
	case *Name:
		v := c.lookup(x.Name)
		if v == nil {
			c.e.add(x.Pos, "undeclared name %s", x.Name)
			return ""
		}
		return v.kind
	case *Field:
		k := c.expr(x.X)
		if k == "" {
			return ""
		}
		if k == "null" || c.types[k] == nil {
			c.e.add(x.Pos, "%s is %s, not a pointer: it has no field %s", describe(x.X), article(k), x.Name)
			return ""
		}
		f := c.fields[k][x.Name]
		if f == nil {
			c.e.add(x.Pos, "type %s has no field %s", k, x.Name)
			return ""
		}
		return f.Kind.Name
	case *Lit:
		switch x.Value {
		case "null":
			return "null"
		case "any":
			c.e.add(x.Pos, "any (some data value) is allowed only as the right-hand side of an assignment")
			return ""
		}
		return "bool"
	case *New:
		c.e.add(x.Pos, "new is allowed only as the right-hand side of an assignment")
		return ""
	case *CAS:
		c.e.add(x.Pos, "cas is allowed only as a statement, an assignment's right-hand side or a whole if or while condition")
		return ""
	case *Unary:
		c.cond(x.X, false)
		return "bool"
	case *Binary:
		if x.Op == "&&" || x.Op == "||" {
			c.cond(x.X, false)
			c.cond(x.Y, false)
			return "bool"
		}
		a, b := c.expr(x.X), c.expr(x.Y)
		if a == "lock" || b == "lock" {
			c.e.add(x.Pos, "locks cannot be compared")
		} else if a != "" && b != "" && !compatible(a, b) && !compatible(b, a) {
			c.e.add(x.Pos, "cannot compare %s with %s", kindOf(a), kindOf(b))
		}
		return "bool"
	}
	return ""
}

// compatible says whether a value of kind from may be stored where kind
// to is expected.
func compatible(to, from string) bool {
	if to == from {
		return to != "null"
	}
	return from == "null" && to != "data" && to != "bool" && to != "lock" && to != "null"
}

func kindOf(k string) string {
	switch k {
	case "null":
		return "null"
	case "data", "bool", "lock":
		return "a " + k + " value"
	}
	return "a pointer to " + k
}

func article(k string) string {
	switch k {
	case "null":
		return "null"
	case "data", "bool", "lock":
		return k
	}
	return "a pointer to " + k
}

func describe(x Expr) string {
	switch x := x.(type) {
	case *Name:
		return x.Name
	case *Field:
		return describe(x.X) + "." + x.Name
	case *Lit:
		return x.Value
	case *New:
		return "new " + x.Type
	case *CAS:
		return "cas(...)"
	}
	return "this expression"
}
