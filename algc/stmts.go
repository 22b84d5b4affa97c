package algc

import (
	"fmt"

	"github.com/tvla-go/tvla/alg"
)

// threadAssign is a write to a thread-local variable; whether it can be
// written as "only sets" (the variable was null) is decided once
// liveness is known (emit.go).
type threadAssign struct {
	name string
	// val is the new value's formula over the thread v_1 and the value
	// v_2 (node or data); cond over v for a bool.
	val, cond string
	// src is the assigned expression (nil: a parameter's arbitrary
	// value); isNew: a new node.
	src   alg.Expr
	isNew bool
	// reuse: the node is a reused one, whose fields are old (reuse.go).
	reuse bool
}

// fieldStore is a write x.f := rhs, for the explicit updates of what the
// model knows about values (knowledge.go).
type fieldStore struct {
	field string
	base  alg.Expr
	rhs   alg.Expr
	isNew bool
}

func (b *builder) assignStmt(st *alg.AssignStmt, next *loc) *loc {
	l := b.newLoc(st.Pos, "")
	if c, ok := st.RHS.(*alg.CAS); ok {
		b.casSteps(l, c, st.LP, st.LHS, next, next, st.Pos)
		return l
	}
	after := next
	if st.LP != nil {
		after = b.lpGroup(st.LP, next, st.Pos)
	}
	s := b.newStep(l, after, st.Pos, source(st.LHS)+" = "+source(st.RHS))
	if isNewExpr(st.RHS) {
		b.reuseSteps(l, st, after)
	}
	b.store(s, st.LHS, st.RHS)
	b.focusAndReads(s, st.RHS)
	b.targetFocus(s, st.LHS)
	b.nullChecks(l, st.Pos, st.LHS, st.RHS)
	return l
}

// targetFocus focuses on the node whose field a store writes, and reads
// the variables that name it.
func (b *builder) targetFocus(s *step, lhs alg.Expr) {
	if f, ok := lhs.(*alg.Field); ok {
		b.focusAndReads(s, f.X)
	}
}

// store adds to s the update of lhs := rhs (rhs may be new T; a bool
// lhs takes rhs as a condition).
func (b *builder) store(s *step, lhs, rhs alg.Expr) {
	kind := b.s.kind(lhs)
	valOf := func(t, w string) string { return b.g.val(rhs, t, w) }
	if isNewExpr(rhs) {
		s.news = true
		s.updates = append(s.updates, update{"is_node(v)", "is_node(v) | isNew(v)"})
		valOf = func(_, w string) string { return "isNew(" + w + ")" }
	}
	if r, ok := rhs.(*alg.Name); ok && b.s.isThread(r.Name) && isNode(kind) {
		// Stored anywhere, or copied to another variable, its node is no
		// longer known to be private.
		s.publishes = append(s.publishes, r.Name)
	}
	switch l := lhs.(type) {
	case *alg.Name:
		if b.s.isThread(l.Name) {
			if isNewExpr(rhs) {
				s.allocs = append(s.allocs, l.Name)
			}
			s.writes[l.Name] = true
			b.staleOnRead(s, l.Name, rhs)
			b.staleOnRebase(s, l.Name)
			a := &threadAssign{name: l.Name, src: rhs, isNew: s.news && isNewExpr(rhs)}
			if kind == "bool" {
				a.cond = b.g.cond(rhs, "v")
			} else {
				a.val = valOf("v_1", "v_2")
			}
			s.assigns = append(s.assigns, a)
			return
		}
		if kind == "bool" {
			s.updates = append(s.updates, update{l.Name + "()", sched(b.g.cond(rhs, "ts"))})
			return
		}
		s.updates = append(s.updates, update{l.Name + "(v)", sched(valOf("ts", "v"))})
		b.staleOnWrite(s, l.Name)
		if isNode(kind) {
			s.change = &ptrChange{shared: l.Name, target: sched(valOf("ts", "@T@"))}
		}
	case *alg.Field:
		node := sched(b.g.val(l.X, "ts", "v_1"))
		base := l.X
		if bn, ok := base.(*alg.Name); ok && b.s.isThread(bn.Name) {
			s.storeBase = bn.Name
		}
		s.ites = append(s.ites, &ite{pred: l.Name, arity: 2,
			cond: func(x string) string { return sched(b.g.val(base, "ts", x)) },
			val:  func(_, y string) string { return sched(valOf("ts", y)) }})
		if kind == "bool" {
			it := s.ites[len(s.ites)-1]
			it.arity = 1
			it.val = func(string, string) string { return sched(b.g.cond(rhs, "ts")) }
			switch b.g.cond(rhs, "ts") {
			case "1":
				it.sets = 1
			case "0":
				it.sets = -1
			}
			node = sched(b.g.val(l.X, "ts", "v"))
			s.updates = append(s.updates, update{l.Name + "(v)", fmt.Sprintf("(%s ? %s : %s(v))", node, sched(b.g.cond(rhs, "ts")), l.Name)})
			return
		}
		s.stores = append(s.stores, &fieldStore{field: l.Name, base: l.X, rhs: rhs, isNew: isNewExpr(rhs)})
		b.staleOnFieldWrite(s, l)
		target := sched(valOf("ts", "v_2"))
		s.updates = append(s.updates, update{l.Name + "(v_1, v_2)", fmt.Sprintf("(%s ? %s : %s(v_1, v_2))", node, target, l.Name)})
		if l.Name == b.s.link {
			lit, isLit := rhs.(*alg.Lit)
			s.change = &ptrChange{node: sched(b.g.val(l.X, "ts", "@N@")), target: sched(valOf("ts", "@T@")), cut: isLit && lit.Value == "null"}
		}
	}
}

// casSteps compiles cas(loc, old, new): a step where it succeeds (with
// the linearisation point lp, if any, on that side), one where it fails.
// result, if not nil, is the bool variable the outcome is assigned to.
func (b *builder) casSteps(l *loc, c *alg.CAS, lp *alg.LPMark, result alg.Expr, succTo, failTo *loc, pos alg.Pos) {
	eq := sched("(" + b.g.eq(c.Loc, c.Old, "ts") + b.casTag(c) + ")")
	after := succTo
	if lp != nil && lp.Partner == nil {
		after = b.lpGroup(lp, succTo, pos)
	}
	text := source(c)
	ok := b.newStep(l, after, pos, text+" succeeds")
	ok.pre = eq
	b.store(ok, c.Loc, c.New)
	if ok.change != nil && ok.change.shared == "" {
		if lit, isLit := c.Old.(*alg.Lit); isLit && lit.Value == "null" {
			ok.change.setOnly = true
		}
	}
	fail := b.newStep(l, failTo, pos, text+" fails")
	fail.pre = "!" + eq
	for i, s := range []*step{ok, fail} {
		b.focusAndReads(s, c)
		if result != nil {
			lit := &alg.Lit{Value: []string{"true", "false"}[i]}
			b.store(s, result, lit)
		}
	}
	if lp != nil && lp.Partner != nil {
		b.spec.partnerCAS(b, lp, ok, l, pos)
	}
	b.nullChecks(l, pos, c)
}

func (b *builder) lockStep(l *loc, st *alg.LockStmt, next *loc) {
	verb := "lock "
	if st.Unlock {
		verb = "unlock "
	}
	s := b.newStep(l, next, st.Pos, verb+source(st.X))
	s.lockOf, s.unlock = source(st.X), st.Unlock
	b.focusAndReads(s, st.X)
	switch x := st.X.(type) {
	case *alg.Name:
		if st.Unlock {
			s.updates = append(s.updates, update{x.Name + "(v)", x.Name + "(v) & !tr_scheduled(v)"})
			return
		}
		s.pre = "!(E(w) " + x.Name + "(w))"
		s.updates = append(s.updates, update{x.Name + "(v)", x.Name + "(v) | tr_scheduled(v)"})
	case *alg.Field:
		node := sched(b.g.val(x.X, "ts", "v_1"))
		if st.Unlock {
			s.updates = append(s.updates, update{x.Name + "(v_1, v_2)", fmt.Sprintf("%s(v_1, v_2) & !(%s & tr_scheduled(v_2))", x.Name, node)})
			return
		}
		w, t := b.g.fresh(), b.g.fresh()
		s.pre = fmt.Sprintf("!(E(%s, %s) %s & %s(%s, %s))", w, t, sched(b.g.val(x.X, "ts", w)), x.Name, w, t)
		s.updates = append(s.updates, update{x.Name + "(v_1, v_2)", fmt.Sprintf("%s(v_1, v_2) | %s & tr_scheduled(v_2)", x.Name, node)})
		b.nullChecks(l, st.Pos, st.X)
	}
}

// lpGroup is the specification step of a linearisation point, after the
// marked statement and in the same atomic step; with "if COND", a test
// first.
func (b *builder) lpGroup(m *alg.LPMark, next *loc, pos alg.Pos) *loc {
	at := b.newLoc(pos, "_lp")
	at.internal, at.lp = true, true
	entry := at
	if m.Cond != nil {
		test := b.newLoc(pos, "_lpif")
		test.internal, test.lp = true, true
		b.condSteps(test, m.Cond, at, next, "@lp if "+source(m.Cond))
		entry = test
	}
	b.spec.lpSteps(b, m, at, next, pos)
	return entry
}

// compileOp builds an operation's steps: its begin step from idle, its
// body, and the response steps back to idle.
func (b *builder) compileOp(op *alg.OpDecl) {
	b.op, b.prefix, b.inInit = op, op.Name, false
	b.end = b.namedLoc(op.Name+"_end", op.Pos)
	b.endEmpty = b.namedLoc(op.Name+"_end_empty", op.Pos)
	first := len(b.steps)
	entry := b.stmts(op.Body.Stmts, b.end)
	b.partnerReads(first)
	begin := b.newStep(b.idle, entry, op.Pos, "begin "+op.Name)
	begin.clearAll = true
	begin.flags = map[string]bool{"doneLP": false}
	if b.spec.emptyLPs {
		begin.flags["doneELP"] = false
	}
	if b.spec.sawEmpty() {
		begin.updates = append(begin.updates, b.spec.sawEmptyBegin(op))
	}
	for _, p := range op.Params {
		begin.writes[p.Name] = true
		a := &threadAssign{name: p.Name}
		switch p.Kind.Name {
		case "data":
			a.val = "is_data(v_2) & 1/2"
		case "bool":
			a.cond = "1/2"
		default:
			a.val = "is_node(v_2) & 1/2"
		}
		begin.assigns = append(begin.assigns, a)
	}
	b.endSteps(b.end, "doneLP", "", "returns without linearising")
	b.endSteps(b.endEmpty, "doneELP", "doneLP", "returns empty without linearising as empty")
}

func (b *builder) namedLoc(name string, pos alg.Pos) *loc {
	for i := 2; b.names[name]; i++ {
		name = fmt.Sprintf("%s_%d", name, i)
	}
	b.names[name] = true
	l := &loc{name: name, thread: true, pos: pos}
	if b.op != nil && !b.inInit {
		l.op = b.op.Name
	}
	b.locs = append(b.locs, l)
	return l
}

// endSteps is the response: it needs flag (and not notFlag) set, and
// clears the thread's variables; else a linearisability message.
func (b *builder) endSteps(l *loc, flag, notFlag, what string) {
	good := sched(flag + "(ts)")
	if notFlag != "" {
		good = "(" + good + " & !" + sched(notFlag+"(ts)") + ")"
	}
	end := b.newStep(l, b.idle, b.op.Pos, "return from "+b.op.Name)
	end.pre = good
	end.clearAll = true
	end.flags = map[string]bool{"doneLP": false}
	if b.spec.emptyLPs {
		end.flags["doneELP"] = false
	}
	if b.spec.sawEmpty() {
		end.updates = append(end.updates, update{"sawEmpty(v)", "sawEmpty(v) & !tr_scheduled(v)"})
	}
	fails := b.newStep(l, nil, b.op.Pos, "return from "+b.op.Name+" fails")
	fails.pre = "!" + good
	fails.msgs = append(fails.msgs, message{"!" + sched(flag+"(ts)"), fmt.Sprintf("linearisability: %s %s", b.op.Name, what)})
	if notFlag != "" {
		fails.msgs = append(fails.msgs, message{sched(notFlag + "(ts)"), fmt.Sprintf("linearisability: %s returns empty after linearising with a value", b.op.Name)})
	}
	b.spec.claimEnd(end, fails, b.op)
}

func isNewExpr(x alg.Expr) bool {
	_, ok := x.(*alg.New)
	return ok
}
