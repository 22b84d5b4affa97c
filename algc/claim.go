package algc

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// A linearisation decided later (docs/algorithms.md, "Linearisation
// decided later"). "@lp(v) for x" is a removal's specification step
// taken now on behalf of whichever thread later takes it; "@lp(v) from x"
// is where a thread takes it, and that thread's operation is the one
// linearised at the first step. x's node is the token between the two:
//
//   - lin_S(n): a removal has been linearised for node n (once per node:
//     a later "for" point on n changes nothing);
//   - owed_S(n): ... and no thread has taken it yet;
//   - owedval_S(n, d): the value that removal returned;
//   - elig_S(t, n): thread t may take n's removal: at the "for" step t
//     was inside a call that had not linearised with a value, of an
//     operation that takes removals ("from") and whose own removal would
//     have been that step (the same operation, or a deque's other pop on
//     a one-node deque); the flag goes when t's call returns, so a taker's
//     call spans the step;
//   - creator_S(t, n): t's "for" step linearised n's removal, which no
//     thread has taken yet. The creator must not have linearised itself
//     (it is then eligible, and stays so while it owes the removal).
//
// The take checks the debt, the taker's eligibility and the value, sets
// the taker's doneLP and clears the debt. The creator answers for its
// removal: it may not return, nor linearise another for a node, before
// some thread has taken it (in a complete history every removal is then
// returned by exactly one operation whose call spans the step). A removal
// not taken when its creator returns is reported, and so each thread has
// at most one owed removal, which Coerce uses: a summary of threads
// materialised as one cannot own two of them.

// eligMark stands, in a "for" step's formulas, for the eligibility of
// the thread free in it (variable @T@) for operation @OP@'s removal; the
// operations' locations are known only once every operation is built
// (claimFixups).
const eligMark = "@ELIG:"

// claimOps lists the operations with a point that takes a removal.
func claimOps(prog *alg.Program) map[string]bool {
	out := map[string]bool{}
	for _, op := range prog.Ops {
		walkStmts(op.Body, func(st alg.Stmt) {
			if m := lpOf(st); m != nil && m.Claim != nil && m.Claim.Take {
				out[op.Name] = true
			}
		})
	}
	return out
}

// claimVars lists the thread-local variables named by "for" and "from".
func claimVars(prog *alg.Program) []string {
	seen := map[string]bool{}
	for _, op := range prog.Ops {
		walkStmts(op.Body, func(st alg.Stmt) {
			if m := lpOf(st); m != nil && m.Claim != nil {
				if n, ok := m.Claim.X.(*alg.Name); ok {
					seen[n.Name] = true
				}
			}
		})
	}
	return sortedKeys(seen)
}

func (c *compiler) emitClaims() {
	if !c.spec.claims {
		return
	}
	w := c.w
	w.text("// A linearisation decided later (@lp(v) for x / from x): lin_S(n), a removal was")
	w.text("// linearised for node n; owed_S(n), no thread has taken it yet; owedval_S(n, d), its")
	w.text("// value; elig_S(t, n), thread t may take it (docs/algorithms.md).")
	w.text("// creator_S(t, n): t linearised n's owed removal (t may not return before it is taken).")
	w.text("%%p lin_S(v)\n%%p owed_S(v)\n%%p owedval_S(v_1, v_2) function\n%%p elig_S(v_1, v_2)\n%%p creator_S(v_1, v_2) function invfunction")
	w.text("%%r owed_S(v) ==> lin_S(v)")
	w.text("%%r creator_S(v_1, v_2) ==> owed_S(v_2)")
	w.text("%%r creator_S(v_1, v_2) ==> elig_S(v_1, v_2)")
	w.text("%%r owed_S(v_2) & isthread(v_1) & !(E(v_3) v_3 != v_1 & creator_S(v_3, v_2)) ==> creator_S(v_1, v_2)")
	w.text("%%r owedval_S(v_1, v_2) ==> owed_S(v_1)")
	w.text("%%r elig_S(v_1, v_2) ==> owed_S(v_2)")
	w.text("%%r elig_S(v_1, v_2) ==> isthread(v_1)")
	// Which threads may take a removal is a fact of the thread itself,
	// so that the partial join does not merge a thread that may take
	// one with a thread in the same state that may not.
	w.text("// eligible_S(t): t may take some owed removal.")
	w.text("%%i eligible_S(v) = E(u) elig_S(v, u)%s", threadPred)
	w.text("%%r !eligible_S(v_1) ==> !elig_S(v_1, v_2)")
	// The same per claim variable x: whether t may take, or created, the
	// removal of x's node. The partial join merges structures that differ
	// only in which thread's x points to which owed node; these keep
	// apart a thread that may take its node's removal and one that may not.
	for _, x := range claimVars(c.s.prog) {
		w.text("%%i elig_S[%s](v) = E(u) %s(v, u) & elig_S(v, u)%s", x, x, threadPred)
		w.text("%%r elig_S[%s](v_1) & %s(v_1, v_2) ==> elig_S(v_1, v_2)", x, x)
		w.text("%%r !elig_S[%s](v_1) & %s(v_1, v_2) ==> !elig_S(v_1, v_2)", x, x)
		w.text("%%i creator_S[%s](v) = E(u) %s(v, u) & creator_S(v, u)%s", x, x, threadPred)
		w.text("%%r creator_S[%s](v_1) & %s(v_1, v_2) ==> creator_S(v_1, v_2)", x, x)
		w.text("%%r !creator_S[%s](v_1) & %s(v_1, v_2) ==> !creator_S(v_1, v_2)", x, x)
	}
	D := c.s.value
	w.text("// owedsame_S(n): the value owed for n is n's own %s (ties owedval_S to %s where", D, D)
	w.text("// the data values are summarised).")
	w.text("%%i owedsame_S(v) = E(u) owedval_S(v, u) & %s(v, u)", D)
	w.text("%%r owedsame_S(v_1) & owedval_S(v_1, v_2) ==> %s(v_1, v_2)", D)
	w.text("%%r owedsame_S(v_1) & %s(v_1, v_2) ==> owedval_S(v_1, v_2)", D)
}

// forSteps: the removal is linearised now unless x's node has had one
// (then nothing happens); its guard is a removal's, and some thread must
// be able to take it.
func (sp *specLib) forSteps(b *builder, m *alg.LPMark, at, next *loc, pos alg.Pos) {
	op, x, value := b.op, m.Claim.X, m.Value
	node := func(v string) string { return sched(b.g.val(x, "ts", v)) }
	w := b.g.fresh()
	lin := fmt.Sprintf("(E(%s) %s & lin_S(%s))", w, node(w), w)
	t := b.g.fresh()
	some := fmt.Sprintf("(E(%s) %s%s:%s@)", t, eligMark, op.Name, t)
	w = b.g.fresh()
	owes := sched(fmt.Sprintf("(E(%s) creator_S(ts, %s))", w, w))
	differs, focus := sp.removalGuard(b, value)
	focus = append([]string{b.g.focusOn(x)}, focus...)
	title := fmt.Sprintf("linearisation point for the taker of %s's node: the specification's %s() returns %s", source(x), op.Name, source(value))
	st := b.newStep(at, next, pos, title)
	st.pre = fmt.Sprintf("!%s & !%s & !%s & !%s & %s & !%s", lin, done, sp.empty(), differs, some, owes)
	st.focus = focus
	b.g.threadVarsRead(value, st.reads)
	b.g.threadVarsRead(x, st.reads)
	sp.witnessReads(b, st.reads)
	st.updates = append(st.updates,
		update{"lin_S(v)", "lin_S(v) | " + node("v")},
		update{"owed_S(v)", "owed_S(v) | " + node("v")},
		update{"creator_S(v_1, v_2)", "creator_S(v_1, v_2) | tr_scheduled(v_1) & " + node("v_2")},
		update{"owedval_S(v_1, v_2)", fmt.Sprintf("owedval_S(v_1, v_2) | %s & %s", node("v_1"), sched(b.g.val(value, "ts", "v_2")))},
		update{"elig_S(v_1, v_2)", fmt.Sprintf("elig_S(v_1, v_2) | %s & %s%s:v_1@", node("v_2"), eligMark, op.Name)},
		update{"owedsame_S(v)", fmt.Sprintf("owedsame_S(v) | %s & %s", node("v"), sched(fmt.Sprintf("(E(d_o) %s & %s(v, d_o))", b.g.val(value, "ts", "d_o"), sp.s.value)))})
	st.updates = append(st.updates, sp.removeUpdates(op)...)
	st.retain = "!gone_S(v)"
	again := b.newStep(at, next, pos, fmt.Sprintf("%s's node has had its removal linearised: nothing to do", source(x)))
	again.pre = lin
	again.focus = []string{b.g.focusOn(x)}
	b.g.threadVarsRead(x, again.reads)
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s for the taker of %s's node fails", op.Name, source(x)))
	fails.pre = fmt.Sprintf("!%s & (%s | %s | %s | !%s | %s)", lin, done, sp.empty(), differs, some, owes)
	fails.focus = focus
	b.g.threadVarsRead(value, fails.reads)
	b.g.threadVarsRead(x, fails.reads)
	where := sp.where(b, pos)
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises a removal for the taker of %s's node after linearising %s", op.Name, source(x), where)},
		{sp.empty(), fmt.Sprintf("linearisability: %s of a value while the specification %s is empty %s", op.Name, sp.name, where)},
		{differs, fmt.Sprintf("linearisability: %s returns a value other than the specification's %s %s", op.Name, sp.what(op), where)},
		{"!" + some, fmt.Sprintf("linearisability: %s linearises a removal for the taker of %s's node, but no thread in a call could take it %s", op.Name, source(x), where)},
		{owes, fmt.Sprintf("linearisability: %s linearises a removal for the taker of %s's node before the one it linearised earlier was taken %s", op.Name, source(x), where)},
	}
	b.claimSteps = append(b.claimSteps, st, fails)
}

// takeSteps: the scheduled thread takes the removal owed for x's node.
func (sp *specLib) takeSteps(b *builder, m *alg.LPMark, at, next *loc, pos alg.Pos) {
	op, x, value := b.op, m.Claim.X, m.Value
	node := func(v string) string { return b.g.val(x, "ts", v) }
	w := b.g.fresh()
	owed := sched(fmt.Sprintf("(E(%s) %s & owed_S(%s))", w, node(w), w))
	w = b.g.fresh()
	elig := sched(fmt.Sprintf("(E(%s) %s & elig_S(ts, %s))", w, node(w), w))
	w, d := b.g.fresh(), b.g.fresh()
	same := sched(fmt.Sprintf("(E(%s, %s) %s & owedval_S(%s, %s) & %s)", w, d, node(w), w, d, b.g.val(value, "ts", d)))
	st := b.newStep(at, next, pos, fmt.Sprintf("linearisation point: %s() takes the removal linearised for %s's node, returning %s", op.Name, source(x), source(value)))
	st.pre = fmt.Sprintf("!%s & %s & %s & %s", done, owed, elig, same)
	w = b.g.fresh()
	st.focus = []string{b.g.focusOn(x), sched(fmt.Sprintf("(E(%s) %s & owedval_S(%s, v))", w, node(w), w))}
	if v, ok := value.(*alg.Name); ok && sp.s.isThread(v.Name) {
		st.focus = append(st.focus, sched(v.Name+"(ts, v)"))
	}
	st.flags = map[string]bool{"doneLP": true}
	b.g.threadVarsRead(value, st.reads)
	b.g.threadVarsRead(x, st.reads)
	st.updates = []update{
		{"owed_S(v)", "owed_S(v) & !" + sched(node("v"))},
		{"owedval_S(v_1, v_2)", "owedval_S(v_1, v_2) & !" + sched(node("v_1"))},
		{"owedsame_S(v)", "owedsame_S(v) & !" + sched(node("v"))},
		{"elig_S(v_1, v_2)", fmt.Sprintf("elig_S(v_1, v_2) & !%s & !tr_scheduled(v_1)", sched(node("v_2")))},
		{"creator_S(v_1, v_2)", "creator_S(v_1, v_2) & !" + sched(node("v_2"))},
	}
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s from %s's node fails", op.Name, source(x)))
	fails.pre = fmt.Sprintf("%s | !%s | !%s | !%s", done, owed, elig, same)
	fails.focus = st.focus
	for r := range st.reads {
		fails.reads[r] = true
	}
	where := sp.where(b, pos)
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises twice %s", op.Name, where)},
		{"!" + owed, fmt.Sprintf("linearisability: %s takes a removal for %s's node, but none is owed (none was linearised for it, or another thread took it) %s", op.Name, source(x), where)},
		{owed + " & !" + elig, fmt.Sprintf("linearisability: %s takes the removal linearised for %s's node, but could not have made it (its call began later, had linearised, or would have removed another node) %s", op.Name, source(x), where)},
		{owed + " & !" + same, fmt.Sprintf("linearisability: %s returns a value other than the one removed for %s's node %s", op.Name, source(x), where)},
	}
}

// claimEnd adds to a response step end, and its failing twin fails, the
// end of the thread's eligibility and the check that the removal it
// linearised for a node's taker, if any, has been taken.
func (sp *specLib) claimEnd(end, fails *step, op *alg.OpDecl) {
	if !sp.claims {
		return
	}
	owes := sched("(E(w_o) creator_S(ts, w_o))")
	end.pre = fmt.Sprintf("(%s) & !%s", end.pre, owes)
	end.updates = append(end.updates, update{"elig_S(v_1, v_2)", "elig_S(v_1, v_2) & !tr_scheduled(v_1)"})
	fails.pre = fmt.Sprintf("(%s) | %s", fails.pre, owes)
	fails.msgs = append(fails.msgs, message{owes, fmt.Sprintf("linearisability: %s returns before any thread took the removal it linearised for a node's taker", op.Name)})
}

// claimFixups writes, into the "for" steps, which threads may take the
// removal: those inside a call of an operation with a "from" point that
// have not linearised with a value, where the operation is the step's
// own or a deque's other pop and the deque has one node (both pops then
// remove the same node).
func (c *compiler) claimFixups() {
	b := c.b
	if len(b.claimSteps) == 0 {
		return
	}
	in := map[string][]string{}
	for _, l := range b.locs {
		if l.thread && l.op != "" && c.spec.takers[l.op] {
			in[l.op] = append(in[l.op], "at["+l.name+"](@T@)")
		}
	}
	elig := func(op, t string) string {
		var alts []string
		for _, o := range sortedKeys(c.spec.takers) {
			if len(in[o]) == 0 {
				continue
			}
			at := "(" + strings.Join(in[o], " | ") + ")"
			switch {
			case o == op:
				alts = append(alts, at)
			case c.spec.deque():
				alts = append(alts, at+" & (E(w_e) Head_S(w_e) & Tail_S(w_e))")
			}
		}
		if len(alts) == 0 {
			return "0"
		}
		return strings.ReplaceAll(fmt.Sprintf("(!doneLP(@T@) & (%s))", strings.Join(alts, " | ")), "@T@", t)
	}
	fix := func(s string) string {
		for {
			i := strings.Index(s, eligMark)
			if i < 0 {
				return s
			}
			j := i + len(eligMark)
			k := strings.Index(s[j:], "@")
			parts := strings.SplitN(s[j:j+k], ":", 2)
			s = s[:i] + elig(parts[0], parts[1]) + s[j+k+1:]
		}
	}
	for _, st := range b.claimSteps {
		st.pre = fix(st.pre)
		for i := range st.updates {
			st.updates[i].rhs = fix(st.updates[i].rhs)
		}
		for i := range st.msgs {
			st.msgs[i].cond = fix(st.msgs[i].cond)
		}
	}
}
