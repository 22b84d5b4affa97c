package alg

// The checks of a linearisation point decided later (docs/algorithms.md,
// "Linearisation decided later"): "@lp(v) for x" linearises a removal now
// on behalf of whichever thread later takes it, "@lp(v) from x" takes it;
// x's node ties the two.

// Word is the claim's keyword: "for" or "from".
func (cl *Claim) Word() string {
	if cl.Take {
		return "from"
	}
	return "for"
}

// claim checks the "for x" or "from x" of m in the current operation.
func (c *checker) claim(m *LPMark) {
	cl := m.Claim
	if cl == nil {
		return
	}
	if c.op.Result == nil || m.Empty {
		c.e.add(cl.Pos, "only a linearisation point with a value, @lp(VALUE), can be decided later (%s)", cl.Word())
		return
	}
	k := c.expr(cl.X)
	switch {
	case k == "":
	case k == "null":
		c.e.add(cl.X.exprPos(), "%s null: the node that ties the removal to its taker must be a node, not null", cl.Word())
	case c.types[k] == nil:
		c.e.add(cl.X.exprPos(), "%s %s: %s is %s, not a pointer to a node", cl.Word(), describe(cl.X), describe(cl.X), kindOf(k))
	}
}

// claimsPaired: a removal linearised for a node's taker ("for") needs a
// point that takes it ("from"), and the other way round.
func (c *checker) claimsPaired() {
	var first [2]*Claim
	for _, op := range c.prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			if m := stmtLP(s); m != nil && m.Claim != nil {
				i := 0
				if m.Claim.Take {
					i = 1
				}
				if first[i] == nil {
					first[i] = m.Claim
				}
			}
		})
	}
	switch {
	case first[0] != nil && first[1] == nil:
		c.e.add(first[0].Pos, "@lp(...) for %s linearises a removal for the thread that takes it, but no linearisation point takes one (@lp(VALUE) from X)", describe(first[0].X))
	case first[1] != nil && first[0] == nil:
		c.e.add(first[1].Pos, "@lp(...) from %s takes a removal linearised for it, but no linearisation point linearises one (@lp(VALUE) for X)", describe(first[1].X))
	}
}

// stmtLP is a statement's linearisation-point mark, if any.
func stmtLP(s Stmt) *LPMark {
	switch s := s.(type) {
	case *AssignStmt:
		return s.LP
	case *ExprStmt:
		return s.LP
	case *IfStmt:
		return s.LP
	}
	return nil
}
