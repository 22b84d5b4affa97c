package algc

import (
	"fmt"
	"strings"

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

// partnerSteps are the steps of "@lp(value) after OP(x == e)" on a
// statement other than a cas: a step after it, in its atomic group.
func (sp *specLib) partnerSteps(b *builder, m *alg.LPMark, at, next *loc, pos alg.Pos) {
	pt := m.Partner
	title := fmt.Sprintf("linearisation point: the specification's %s(%s) of the thread whose %s is %s, then %s() returns %s",
		pt.Op, opNamed(sp.s.prog, pt.Op).Params[0].Name, pt.Var.Name, source(pt.Expr), b.op.Name, source(m.Value))
	st := b.newStep(at, next, pos, title)
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s after %s fails", b.op.Name, pt.Op))
	sp.partnerInto(b, m, st, fails, pos)
}

// partnerCAS puts the partner linearisation point m of a cas into its
// success step ok, one action: a step after the cas would see the
// shared pointer already moved, and between the two the partner's
// variable would no longer be where the cas found it (the soft
// invariants that tie the partner's doneLP to it would fail there).
// fails is the step from the cas's location where it would succeed but
// the specification's guard fails.
func (sp *specLib) partnerCAS(b *builder, m *alg.LPMark, ok *step, l *loc, pos alg.Pos) {
	pt := m.Partner
	ok.title += fmt.Sprintf("; linearisation point: the specification's %s of the thread whose %s is %s, then %s() returns %s",
		pt.Op, pt.Var.Name, source(pt.Expr), b.op.Name, source(m.Value))
	fails := b.newStep(l, nil, pos, fmt.Sprintf("linearisation point of %s after %s fails", b.op.Name, pt.Op))
	fails.pre = ok.pre
	fails.focus = append(fails.focus, ok.focus...)
	for x := range ok.reads {
		fails.reads[x] = true
	}
	sp.partnerInto(b, m, ok, fails, pos)
}

// partnerInto adds to st the guard and update of the partner
// linearisation point m, and to fails, a step from the same location
// with the same precondition, its failure and messages.
func (sp *specLib) partnerInto(b *builder, m *alg.LPMark, st, fails *step, pos alg.Pos) {
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
	// e's node first: the partner's variable points to it.
	focus := []string{b.g.focusOn(pt.Expr), partner("v"), fmt.Sprintf("(E(%s) %s & %s(%s, v))", tp, partner(tp), param, tp)}
	if v, ok := m.Value.(*alg.Name); ok && sp.s.isThread(v.Name) {
		focus = append(focus, sched(v.Name+"(ts, v)"))
	}
	and := func(pre, f string) string {
		if pre == "" {
			return f
		}
		return "(" + pre + ") & (" + f + ")"
	}
	for _, x := range []*step{st, fails} {
		have := map[string]bool{}
		for _, f := range x.focus {
			have[f] = true
		}
		for i, f := range focus {
			if i == 2 {
				b.partnerLPs = append(b.partnerLPs, partnerLP{x, partner, len(x.focus)})
			}
			if !have[f] {
				x.focus = append(x.focus, f)
			}
		}
		b.g.threadVarsRead(m.Value, x.reads)
		b.g.threadVarsRead(pt.Expr, x.reads)
	}
	st.pre = and(st.pre, fmt.Sprintf("!%s & %s & !%s & !%s", done, some, twice, differs))
	st.updates = append(st.updates, update{"doneLP(v)", "doneLP(v) | tr_scheduled(v) | " + partner("v")})
	fails.pre = and(fails.pre, fmt.Sprintf("%s | !%s | %s | %s", done, some, twice, differs))
	where := sp.where(b, pos)
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises twice %s", op.Name, where)},
		{"!" + some, fmt.Sprintf("linearisability: %s linearises after a %s, but no thread's %s has %s == %s %s", op.Name, pt.Op, pt.Op, pt.Var.Name, source(pt.Expr), where)},
		{twice, fmt.Sprintf("linearisability: %s linearises twice (eliminated again by %s, line %d)", pt.Op, op.Name, pos.Line)},
		{differs, fmt.Sprintf("linearisability: %s returns a value other than its partner %s's %s", op.Name, pt.Op, where)},
	}
}

// partnerInstruments: a partner's variable x has shared[x] (two threads'
// x point to the node), and the rule that where it is false the threads
// whose x points to a node are one: a summary thread whose x points to
// the node the step names becomes a single partner (without it, Focus
// leaves the partner a summary individual of threads, and its
// parameter 1/2).
func (c *compiler) partnerInstruments(in *instruments) {
	seen := map[string]bool{}
	for _, vars := range partnerVars(c.s.prog) {
		x := vars[0]
		if seen[x] {
			continue
		}
		seen[x] = true
		name := "shared[" + x + "]"
		in.add(&instrument{name: name, decl: fmt.Sprintf("%%i %s(v) = E(u_1, u_2) %s(u_1, v) & %s(u_2, v) & u_1 != u_2", name, x, x)})
		i := in.byName[name]
		i.rules = append(i.rules, fmt.Sprintf("%%r !%s(v) & %s(v_1, v) & %s(v_2, v) ==> v_1 == v_2", name, x, x))
	}
}

// partnerLP is a partner step and the formula of its partner thread.
type partnerLP struct {
	st      *step
	partner func(t string) string
	// at is where in st's focus the partner's location goes (after e's
	// node and the partner, before the values).
	at int
}

// partnerFocus makes a partner step focus on the partner's location:
// with collapsed threads the partner is materialised from the summary
// thread with every location 1/2, and only its location's facts (the
// generated soft invariants: at push41 every thread has lv and
// opval[n]; at pop69 none has n) give its parameter back or rule the
// case out. Every thread location is focused on, not only the partner
// operation's: the summary also holds threads of other operations.
func (c *compiler) partnerFocus() {
	b := c.b
	for _, p := range b.partnerLPs {
		var at []string
		for _, l := range b.locs {
			if l.thread {
				at = append(at, fmt.Sprintf("%s & at[%s](v)", p.partner("v"), l.name))
			}
		}
		p.st.focus = append(p.st.focus[:p.at:p.at], append(at, p.st.focus[p.at:]...)...)
	}
}

// somewhereRule: under collapsed threads, with partner steps, every
// thread is at one of the thread locations. The partner step focuses on
// the partner's location (partnerFocus); the case where it is at none,
// which no concrete state has, is then dropped by Coerce.
func (c *compiler) somewhereRule() {
	if len(c.b.partnerLPs) == 0 {
		return
	}
	var lhs []string
	last := ""
	for _, l := range c.b.locs {
		if !l.thread {
			continue
		}
		if last != "" {
			lhs = append(lhs, "!at["+last+"](v)")
		}
		last = l.name
	}
	c.w.text("// Every thread is at a location (a partner linearisation point focuses on its partner's).")
	c.w.text("%%r isthread(v) & %s ==> at[%s](v)", strings.Join(lhs, " & "), last)
}
