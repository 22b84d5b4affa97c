package algc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// The specification library in TVP (docs/algorithms.md). The
// specification's state is a second list of nodes of the algorithm's
// list type, from Head_S (and, for a queue, with a dummy node, to
// Tail_S), linked by the same link field and holding values in the same
// data field; spec(n, s) relates an implementation node to its
// specification node (Friggens 2013, Sec. 7.3). A linearisation point is
// a step that changes the specification list, guarded by what the
// specification requires; its companion step raises the thesis'
// "linearisability:" messages when the guard fails.

type specLib struct {
	name string
	s    *symbols
	g    *fgen
	// emptyLPs: some operation linearises as returning empty (doneELP).
	emptyLPs bool
	// relation: spec(n, s) is maintained (an operation allocates the
	// node of its value).
	relation bool
	gen      *instruments
	// claims: some point is decided later (@lp(v) for x); takers are the
	// operations with a point that takes such a removal (claim.go).
	claims bool
	takers map[string]bool
}

func (sp *specLib) queue() bool { return sp.name == "queue" }

func (sp *specLib) deque() bool { return sp.name == "deque" }

// right: the operation works at a deque's right end (Tail_S).
func (sp *specLib) right(op *alg.OpDecl) bool {
	o := alg.Specs[sp.name].Op(op.Name)
	return o != nil && o.End == "right"
}

// heads are the specification's pointers.
func (sp *specLib) heads() []string {
	if sp.queue() || sp.deque() {
		return []string{"Head_S", "Tail_S"}
	}
	return []string{"Head_S"}
}

func (sp *specLib) empty() string {
	if sp.queue() {
		return "(E(w) Head_S(w) & Tail_S(w))"
	}
	return "!(E(w) Head_S(w))"
}

// first is the formula over x of the node whose value op's removal returns.
func (sp *specLib) first(op *alg.OpDecl, x string) string {
	if sp.queue() {
		return fmt.Sprintf("(E(w) Head_S(w) & %s(w, %s))", sp.s.link, x)
	}
	if sp.deque() && sp.right(op) {
		return "Tail_S(" + x + ")"
	}
	return "Head_S(" + x + ")"
}

func (sp *specLib) lpSteps(b *builder, m *alg.LPMark, at, next *loc, pos alg.Pos) {
	op := b.op
	switch {
	case op.Result == nil:
		sp.insertSteps(b, at, next, pos)
	case m.Empty:
		sp.emptySteps(b, at, next, pos)
	case m.Partner != nil:
		sp.partnerSteps(b, m, at, next, pos)
	case m.Claim != nil && m.Claim.Take:
		sp.takeSteps(b, m, at, next, pos)
	case m.Claim != nil:
		sp.forSteps(b, m, at, next, pos)
	default:
		sp.removeSteps(b, m.Value, at, next, pos)
	}
}

const done = "(E(ts) tr_scheduled(ts) & doneLP(ts))"

func (sp *specLib) where(b *builder, pos alg.Pos) string {
	return fmt.Sprintf("(%s, line %d)", b.op.Name, pos.Line)
}

func (sp *specLib) insertSteps(b *builder, at, next *loc, pos alg.Pos) {
	op := b.op
	param := ""
	for _, p := range op.Params {
		if p.Kind.Name == "data" && param == "" {
			param = p.Name
		}
	}
	L, D := sp.s.link, sp.s.value
	st := b.newStep(at, next, pos, fmt.Sprintf("linearisation point: the specification's %s(%s)", op.Name, param))
	st.pre = "!" + done
	st.news = true
	st.flags = map[string]bool{"doneLP": true}
	st.reads[param] = true
	up := []update{{"is_node(v)", "is_node(v) | isNew(v)"}, {"is_spec(v)", "is_spec(v) | isNew(v)"}}
	if sp.deque() {
		up = append(up, sp.dequePush(sp.right(op))...)
	} else if sp.queue() {
		up = append(up, update{"Tail_S(v)", "isNew(v)"},
			update{L + "(v_1, v_2)", L + "(v_1, v_2) | Tail_S(v_1) & isNew(v_2)"})
	} else {
		up = append(up, update{"Head_S(v)", "isNew(v)"},
			update{L + "(v_1, v_2)", L + "(v_1, v_2) | isNew(v_1) & Head_S(v_2)"})
	}
	up = append(up, update{D + "(v_1, v_2)", D + "(v_1, v_2) | isNew(v_1) & " + sched(param+"(ts, v_2)")})
	// The new node has the operation's value, and a successor unless it
	// is the stack's only node.
	up = append(up, update{"has[" + D + "](v)", "has[" + D + "](v) | isNew(v)"})
	if sp.deque() {
		// dequePush gave the old end its link.
	} else if sp.queue() {
		up = append(up, update{"has[" + L + "](v)", "has[" + L + "](v) | Tail_S(v)"})
	} else {
		up = append(up, update{"has[" + L + "](v)", "has[" + L + "](v) | isNew(v) & (E(w) Head_S(w))"})
	}
	// The new node is in no cycle, and in the specification's list.
	up = append(up, update{"circ(v)", "circ(v)"}, update{"reach[Head_S](v)", "reach[Head_S](v) | isNew(v)"})
	if n := sp.s.alloc[op.Name]; n != "" && sp.relation {
		st.reads[n] = true
		node := sched(n + "(ts, v_1)")
		up = append(up, update{"spec(v_1, v_2)", "spec(v_1, v_2) | " + node + " & isNew(v_2)"})
		st.focus = append(st.focus, sched(n+"(ts, v)"))
		if sp.queue() && sp.gen.has("has_T[spec]") {
			// n's node is related to the new Tail_S.
			up = append(up, update{"has_T[spec](v)", sched(n + "(ts, v)")})
			up = append(up, sp.rcommutesInsert(n)...)
		}
		if sp.gen.has(fmt.Sprintf("opval[%s]", n)) {
			// n's node holds the value: its new specification node
			// matches it.
			up = append(up, update{"matching(v)", fmt.Sprintf("matching(v) | %s & (E(ts) tr_scheduled(ts) & opval[%s](ts))", sched(n+"(ts, v)"), n)})
		}
		if sp.gen.has("commutes") && !sp.deque() {
			up = append(up, update{"commutes(v)", sp.commutesOnInsert(n)})
		}
	}
	st.updates = up
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s fails", op.Name))
	fails.pre = done
	fails.msgs = []message{{done, fmt.Sprintf("linearisability: %s linearises twice %s", op.Name, sp.where(b, pos))}}
}

// removalGuard is what a removal's specification step with value needs:
// the formula "the specification's end holds another value" and the
// step's focus.
func (sp *specLib) removalGuard(b *builder, value alg.Expr) (differs string, focus []string) {
	op := b.op
	L, D := sp.s.link, sp.s.value
	differs = fmt.Sprintf("(E(w_v, dd) %s & %s(w_v, dd) & !%s)", sp.first(op, "w_v"), D, sched(b.g.val(value, "ts", "dd")))
	focus = []string{sp.first(op, "v"), fmt.Sprintf("(E(w_v) %s & %s(w_v, v))", sp.first(op, "w_v"), D)}
	if v, ok := value.(*alg.Name); ok && sp.s.isThread(v.Name) {
		focus = append(focus, sched(v.Name+"(ts, v)"))
	}
	// The node that becomes the end: the successor of the head, or a
	// deque's node before its right end.
	focus[0] = fmt.Sprintf("(E(w) Head_S(w) & %s(w, v))", L)
	if sp.deque() && sp.right(op) {
		focus[0] = fmt.Sprintf("(E(w) Tail_S(w) & %s(v, w))", L)
	}
	return differs, focus
}

// what names the end a removal takes, for messages.
func (sp *specLib) what(op *alg.OpDecl) string {
	switch {
	case sp.queue():
		return "first value"
	case sp.deque():
		return sp.Spec().Op(op.Name).End + " end"
	}
	return "top"
}

func (sp *specLib) removeSteps(b *builder, value alg.Expr, at, next *loc, pos alg.Pos) {
	op := b.op
	L := sp.s.link
	differs, focus := sp.removalGuard(b, value)
	st := b.newStep(at, next, pos, fmt.Sprintf("linearisation point: the specification's %s() returns %s", op.Name, source(value)))
	st.pre = fmt.Sprintf("!%s & !%s & !%s", done, sp.empty(), differs)
	st.focus = focus
	if sp.queue() && sp.gen.has("first_S") {
		// The node that becomes the first value, kept apart by first_S.
		st.focus = append(append([]string(nil), focus...), fmt.Sprintf("(E(w, w_1) Head_S(w) & %s(w, w_1) & %s(w_1, v))", L, L))
	}
	st.flags = map[string]bool{"doneLP": true}
	b.g.threadVarsRead(value, st.reads)
	sp.witnessReads(b, st.reads)
	wf := sp.witnessFocus(st.reads, st.focus)
	st.focus = append(append([]string(nil), st.focus...), wf...)
	focus = append(append([]string(nil), focus...), wf...)
	st.updates = sp.removeUpdates(op)
	st.retain = "!gone_S(v)"
	what := sp.what(op)
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of %s fails", op.Name))
	fails.pre = fmt.Sprintf("%s | %s | %s", done, sp.empty(), differs)
	fails.focus = focus
	b.g.threadVarsRead(value, fails.reads)
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises twice %s", op.Name, sp.where(b, pos))},
		{sp.empty(), fmt.Sprintf("linearisability: %s of a value while the specification %s is empty %s", op.Name, sp.name, sp.where(b, pos))},
		{differs, fmt.Sprintf("linearisability: %s returns a value other than the specification's %s %s", op.Name, what, sp.where(b, pos))},
	}
}

// Spec is the library entry.
func (sp *specLib) Spec() *alg.Spec { return alg.Specs[sp.name] }

// removeUpdates: a removal at the head (a stack's pop, a queue's
// dequeue, a deque's popLeft) moves Head_S on and drops the old head; a
// deque's popRight is dequePopRight.
func (sp *specLib) removeUpdates(op *alg.OpDecl) []update {
	L := sp.s.link
	if sp.deque() && sp.right(op) {
		return sp.dequePopRight()
	}
	up := []update{
		{"spec(v_1, v_2)", "spec(v_1, v_2) & !Head_S(v_2)"},
		{"Head_S(v)", fmt.Sprintf("E(w) Head_S(w) & %s(w, v)", L)},
		{"reach[Head_S](v)", "reach[Head_S](v) & !Head_S(v)"},
		// The node related to the old head loses what the relation gave it.
		{"r_by[spec](v)", "r_by[spec](v) & !Head_S(v)"},
		{"matching(v)", "matching(v) & !(E(w) spec(v, w) & Head_S(w))"},
		// So does a node whose successor's specification node is the old
		// head (none while the lists agree; a faulty algorithm's may not).
		{"commutes(v)", fmt.Sprintf("commutes(v) & !(E(w) spec(v, w) & Head_S(w)) & !(E(w, w_1) %s(v, w_1) & spec(w_1, w) & Head_S(w))", L)},
		{"has_S[spec](v)", fmt.Sprintf("E(w, w_1) Head_S(w) & %s(w, w_1) & spec(v, w_1)", L)},
		// The old head is garbage nothing points to (its implementation
		// node's relation is cut above): dropped, it cannot merge with
		// the implementation's garbage, which would let the abstraction
		// link implementation nodes to specification nodes.
		{"gone_S(v)", "Head_S(v)"},
	}
	if sp.queue() {
		up = append(up, sp.rcommutesRemoval()...)
	}
	if sp.deque() {
		// The deque's only node was both ends.
		up = append(up, update{"Tail_S(v)", "Tail_S(v) & !Head_S(v)"})
		if sp.sawEmpty() {
			up = append(up, sp.sawEmptyRemoval())
		}
	}
	return up
}

func (sp *specLib) emptySteps(b *builder, at, next *loc, pos alg.Pos) {
	op := b.op
	st := b.newStep(at, next, pos, fmt.Sprintf("linearisation point: the specification's %s() returns empty", op.Name))
	empty := sp.empty()
	if sp.sawEmpty() {
		empty = fmt.Sprintf("(%s | %s)", empty, sched("sawEmpty(ts)"))
	}
	st.pre = fmt.Sprintf("!%s & %s", done, empty)
	st.flags = map[string]bool{"doneELP": true}
	fails := b.newStep(at, nil, pos, fmt.Sprintf("linearisation point of an empty %s fails", op.Name))
	fails.pre = fmt.Sprintf("%s | !%s", done, empty)
	notEmpty := fmt.Sprintf("linearisability: %s returns empty but the specification %s is not empty %s", op.Name, sp.name, sp.where(b, pos))
	if sp.sawEmpty() {
		notEmpty = fmt.Sprintf("linearisability: %s returns empty but the specification %s was not empty at any moment of the call %s", op.Name, sp.name, sp.where(b, pos))
	}
	fails.msgs = []message{
		{done, fmt.Sprintf("linearisability: %s linearises as empty after linearising with a value %s", op.Name, sp.where(b, pos))},
		{"!" + empty, notEmpty},
	}
}

// witnessReads adds to reads the operation's variables its value was
// loaded through, where the generator records the load as a fact: d =
// x.val with opval[x,d] requested ties x, x = p.next with succ[p,x]
// requested ties p, transitively. The value check at the linearisation
// point relates the value to the specification's list through these
// facts (d is x's value, x's node the successor of p's, p's node related
// to the specification's head), so the variables must not be cleared as
// dead before it: a lock-based pop that last reads its node (lv =
// ss.val) before moving the shared pointer (Top = ssnext @lp(lv)) would
// lose the only fact that ties lv to the node the specification removes.
func (sp *specLib) witnessReads(b *builder, reads map[string]bool) {
	if sp.gen == nil {
		return
	}
	loads := opLoads(b.op, sp.s)
	for changed := true; changed; {
		changed = false
		for _, ld := range loads {
			if !reads[ld.dst] || reads[ld.base] {
				continue
			}
			var fact string
			switch ld.field {
			case sp.s.value:
				fact = sp.opvalOf(ld.base, ld.dst)
			case sp.s.link:
				fact = "succ[" + ld.base + "," + ld.dst + "]"
			default:
				fact = "succ[" + ld.base + "," + ld.dst + "," + ld.field + "]"
			}
			if fact != "" && sp.gen.has(fact) {
				reads[ld.base] = true
				changed = true
			}
		}
	}
}

// witnessFocus is the focus on the scheduled thread's node of every node
// variable in reads that the focus list does not name yet, in name order.
// The value check follows the chain of facts witnessReads kept (lv is x's
// value, x's node p's successor, p's node related to the specification's
// head) only where each link is definite; with collapsed threads a
// partial join at the scheduling point before the linearisation point
// may have merged a thread's current snapshot with a stale one (shann's
// dequeue: front at FRONT's cell or at the cell before it), and the
// check then sees x's node possibly after either, so possibly not the
// specification's first.
func (sp *specLib) witnessFocus(reads map[string]bool, have []string) []string {
	seen := map[string]bool{}
	for _, f := range have {
		seen[f] = true
	}
	var vars []string
	for v := range reads {
		if isNode(sp.s.thread[v]) {
			vars = append(vars, v)
		}
	}
	sort.Strings(vars)
	var out []string
	for _, v := range vars {
		if f := sched(v + "(ts, v)"); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// opvalOf is the name of the requested opval instrument of node variable
// x and data variable d, or "".
func (sp *specLib) opvalOf(x, d string) string {
	for _, in := range sp.gen.list {
		if in.dataVar == d && (in.name == "opval["+x+"]" || in.name == "opval["+x+","+d+"]") {
			return in.name
		}
	}
	return ""
}

// load is an assignment dst = base.field between thread-local variables.
type load struct{ dst, base, field string }

// opLoads lists an operation's loads.
func opLoads(op *alg.OpDecl, s *symbols) []load {
	var out []load
	walkStmts(op.Body, func(st alg.Stmt) {
		a, ok := st.(*alg.AssignStmt)
		if !ok {
			return
		}
		dst, ok1 := a.LHS.(*alg.Name)
		f, ok2 := a.RHS.(*alg.Field)
		if !ok1 || !ok2 {
			return
		}
		if base, ok := f.X.(*alg.Name); ok && s.isThread(dst.Name) && s.isThread(base.Name) {
			out = append(out, load{dst.Name, base.Name, f.Name})
		}
	})
	return out
}

// initStep makes the specification's initial state where it has one (a
// queue's dummy node, related to the node init allocated).
func (sp *specLib) initStep(b *builder, at, next *loc, pos alg.Pos, initAlloc string) bool {
	if !sp.queue() {
		return false
	}
	st := b.newStep(at, next, pos, "the specification's initial state")
	st.news = true
	st.updates = []update{{"is_node(v)", "is_node(v) | isNew(v)"}, {"is_spec(v)", "is_spec(v) | isNew(v)"}, {"Head_S(v)", "isNew(v)"}, {"Tail_S(v)", "isNew(v)"},
		{"reach[Head_S](v)", "reach[Head_S](v) | isNew(v)"}, {"circ(v)", "circ(v)"}}
	if initAlloc != "" && sp.relation {
		st.reads[initAlloc] = true
		st.updates = append(st.updates, update{"spec(v_1, v_2)", "spec(v_1, v_2) | " + sched(initAlloc+"(ts, v_1)") + " & isNew(v_2)"})
	}
	return true
}

// specName is the library name with its article, for messages.
func specName(s string) string { return strings.ToLower(s) }

// commutesOnInsert is commutes after an insertion's specification step:
// the new node (every predicate 0 on it before the step) gains a spec
// edge from n's node and one link, so the only nodes that can start to
// commute are n's predecessor whose specification node was Tail_S (a
// queue) or n's node when its successor's specification node was Head_S
// (a stack); nothing stops commuting. Finite differencing derives the
// same value, but as a formula with three nested quantifiers over the
// whole structure, which was the costliest update of the compiled
// queues.
func (sp *specLib) commutesOnInsert(n string) string {
	L := sp.s.link
	if sp.queue() {
		return fmt.Sprintf("commutes(v) | (E(w, w_1) %s & %s(v, w) & spec(v, w_1) & Tail_S(w_1))", sched(n+"(ts, w)"), L)
	}
	return fmt.Sprintf("commutes(v) | %s & (E(w, w_1) %s(v, w) & spec(w, w_1) & Head_S(w_1))", sched(n+"(ts, v)"), L)
}
