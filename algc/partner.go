package algc

import (
	"fmt"

	"github.com/tvla-go/tvla/alg"
)

// A partner linearisation point, "@lp(v) after push(n == o)" on a pop
// (docs/elimination.md): one step of this thread linearises two
// operations, the push of the thread whose n points to the node this
// thread's o points to, and right after it this pop returning v (an
// elimination: the pair meets outside the stack). On a stack the
// specification's push followed at once by its pop leaves the list as it
// was and the pop returns the pushed value, so the step changes no
// specification node: it requires that neither operation has linearised
// and that v is the partner's parameter, and sets both threads' doneLP.

// partnerVars lists, per operation named as a partner, the variables a
// partner step reads in the partner thread: the variable that identifies
// it and its data parameter. Both are kept live in every step of that
// operation (partnerReads), since another thread may linearise it at any
// of its locations.
func partnerVars(prog *alg.Program) map[string][]string {
	out := map[string][]string{}
	for _, op := range prog.Ops {
		walkStmts(op.Body, func(st alg.Stmt) {
			m := lpOf(st)
			if m == nil || m.Partner == nil {
				return
			}
			if other := opNamed(prog, m.Partner.Op); other != nil && len(other.Params) > 0 {
				out[other.Name] = append(out[other.Name], m.Partner.Var.Name, other.Params[0].Name)
			}
		})
	}
	return out
}

func opNamed(prog *alg.Program, name string) *alg.OpDecl {
	for _, op := range prog.Ops {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// partnerReads makes the steps from first on (an operation's body) read
// the operation's partner variables.
func (b *builder) partnerReads(first int) {
	for _, x := range b.partners[b.op.Name] {
		for _, st := range b.steps[first:] {
			st.reads[x] = true
		}
	}
}

// partnerSteps are the steps of "@lp(value) after OP(x == e)".
func (sp *specLib) partnerSteps(b *builder, m *alg.LPMark, at, next *loc, pos alg.Pos) {
	op, pt := b.op, m.Partner
	param := opNamed(sp.s.prog, pt.Op).Params[0].Name
	// partner(t): t is another thread whose x points to e's node.
	partner := func(t string) string {
		w := b.g.fresh()
		return fmt.Sprintf("(!tr_scheduled(%s) & (E(%s) %s(%s, %s) & %s))", t, w, pt.Var.Name, t, w, sched(b.g.val(pt.Expr, "ts", w)))
	}
	tp, dd := b.g.fresh(), b.g.fresh()
	some := fmt.Sprintf("(E(%s) %s)", tp, partner(tp))
	tp = b.g.fresh()
	twice := fmt.Sprintf("(E(%s) %s & doneLP(%s))", tp, partner(tp), tp)
	tp = b.g.fresh()
	differs := fmt.Sprintf("(E(%s) %s & !(E(%s) %s(%s, %s) & %s))", tp, partner(tp), dd, param, tp, dd, sched(b.g.val(m.Value, "ts", dd)))
	tp = b.g.fresh()
	focus := []string{partner("v"), fmt.Sprintf("(E(%s) %s & %s(%s, v))", tp, partner(tp), param, tp)}
	if v, ok := m.Value.(*alg.Name); ok && sp.s.isThread(v.Name) {
		focus = append(focus, sched(v.Name+"(ts, v)"))
	}
	title := fmt.Sprintf("linearisation point: the specification's %s(%s) of the thread whose %s is %s, then %s() returns %s",
		pt.Op, param, pt.Var.Name, source(pt.Expr), op.Name, source(m.Value))
	st := b.newStep(at, next, pos, title)
	st.pre = fmt.Sprintf("!%s & %s & !%s & !%s", done, some, twice, differs)
	st.focus = focus
	st.updates = []update{{"doneLP(v)", "doneLP(v) | tr_scheduled(v) | " + partner("v")}}
	b.g.threadVarsRead(m.Value, st.reads)
	b.g.threadVarsRead(pt.Expr, st.reads)
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s after %s fails", op.Name, pt.Op))
	fails.pre = fmt.Sprintf("%s | !%s | %s | %s", done, some, twice, differs)
	fails.focus = focus
	b.g.threadVarsRead(m.Value, fails.reads)
	b.g.threadVarsRead(pt.Expr, fails.reads)
	where := sp.where(b, pos)
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises twice %s", op.Name, where)},
		{"!" + some, fmt.Sprintf("linearisability: %s linearises after a %s, but no thread's %s has %s == %s %s", op.Name, pt.Op, pt.Op, pt.Var.Name, source(pt.Expr), where)},
		{twice, fmt.Sprintf("linearisability: %s linearises twice (its partner %s %s)", pt.Op, op.Name, where)},
		{differs, fmt.Sprintf("linearisability: %s returns a value other than its partner %s's %s", op.Name, pt.Op, where)},
	}
}
