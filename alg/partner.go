package alg

// The checks of a partner linearisation point, "@lp(v) after OP(x ==
// e)": the step linearises another thread's operation OP and then its
// own, as a push and a pop that eliminate each other (docs/elimination.md).

// opVars lists an operation's parameters and locals, by name.
func opVars(op *OpDecl) map[string]*VarDecl {
	vars := map[string]*VarDecl{}
	for _, p := range op.Params {
		vars[p.Name] = p
	}
	walkBlock(op.Body, func(s Stmt) {
		if l, ok := s.(*LocalStmt); ok {
			for _, v := range l.Vars {
				vars[v.Name] = v
			}
		}
	})
	return vars
}

// partnerOp finds the operation a partner mark names.
func (c *checker) partnerOp(name string) *OpDecl {
	for _, op := range c.prog.Ops {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// partner checks the "after OP(x == e)" of m in the current operation.
func (c *checker) partner(m *LPMark) {
	pt := m.Partner
	if pt == nil {
		return
	}
	k := c.expr(pt.Expr)
	op := c.op
	if c.spec != nil && c.spec.Name != "stack" {
		c.e.add(pt.Pos, "a partner's operation is linearised only with the stack specification (a push followed at once by a pop leaves a stack unchanged), not %s", c.spec.Name)
		return
	}
	if op.Result == nil || m.Empty {
		c.e.add(pt.Pos, "only a linearisation point with a value, @lp(VALUE), linearises a partner's operation before its own")
		return
	}
	other := c.partnerOp(pt.Op)
	switch {
	case other == nil:
		c.e.add(pt.Pos, "after %s: no operation %s", pt.Op, pt.Op)
		return
	case other == op:
		c.e.add(pt.Pos, "after %s: the partner's operation must be another than %s", pt.Op, op.Name)
		return
	case other.Result != nil || len(other.Params) == 0 || other.Params[0].Kind.Name != "data":
		c.e.add(pt.Pos, "after %s: the partner's operation must insert a value (a data parameter, no result)", pt.Op)
		return
	}
	for _, g := range c.prog.Locals {
		if g.Name == pt.Var.Name {
			c.e.add(pt.Var.Pos, "%s is a variable of every operation: the partner's variable must belong to %s only", pt.Var.Name, pt.Op)
			return
		}
	}
	v := opVars(other)[pt.Var.Name]
	if v == nil {
		c.e.add(pt.Var.Pos, "%s is not a thread-local variable of %s", pt.Var.Name, pt.Op)
		return
	}
	if !v.Kind.IsPointer() {
		c.e.add(pt.Var.Pos, "the partner's variable %s is %s, not a pointer", pt.Var.Name, kindOf(v.Kind.Name))
		return
	}
	// Variables of one name share their predicate across operations: the
	// partner is told by its variable only if no other operation has it.
	for _, o := range c.prog.Ops {
		if o != other && opVars(o)[pt.Var.Name] != nil {
			c.e.add(pt.Var.Pos, "%s is a variable of %s too: the partner's variable must belong to %s only", pt.Var.Name, o.Name, pt.Op)
			return
		}
	}
	if k != "" && k != v.Kind.Name {
		c.e.add(pt.Expr.exprPos(), "the partner's %s is %s, %s is %s", pt.Var.Name, kindOf(v.Kind.Name), describe(pt.Expr), kindOf(k))
	}
}
