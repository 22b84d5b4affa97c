package algc

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// Memory reuse (docs/algorithms.md, "Memory reuse"). `free x` marks x's
// node freed(v) and changes nothing else: every pointer to it, the
// freeing thread's and other threads', is left dangling and its fields
// keep their values. When the program frees, `x = new T` has a second
// outcome beside a fresh node: some freed node, chosen in two steps of
// one atomic step (reuse_pick marks one freed node, Focus materialises
// it, then x takes it and it is no longer freed). A tagged shared
// pointer S carries a counter incremented by every write of S; a
// thread's snapshot x of S (x = S) is stale[S,x](t) once S has been
// written after it, and a cas on S with x succeeds only when S == x and
// the snapshot is not stale.

// reuseSymbols records what the program frees and tags.
func (s *symbols) reuseSymbols(prog *alg.Program, e *errs) {
	s.snap = alg.TaggedSnapshots(prog)
	s.fsnap = alg.TaggedFieldSnapshots(prog)
	s.tagged = map[string]bool{}
	for _, v := range prog.Shared {
		if v.Tagged {
			s.tagged[v.Name] = true
		}
	}
	for _, op := range prog.Ops {
		walkStmts(op.Body, func(st alg.Stmt) {
			if f, ok := st.(*alg.FreeStmt); ok {
				if len(prog.Types) > 1 && !s.frees {
					e.add(f.Pos, "free in a program with several node types is not supported yet: a freed node could be reused as another type")
				}
				s.frees = true
			}
		})
	}
}

// staleName is the predicate of x's snapshot of the tagged S.
func staleName(shared, x string) string { return fmt.Sprintf("stale[%s,%s]", shared, x) }

func (c *compiler) emitReuse() {
	w := c.w
	if c.s.frees {
		w.text("// Memory reuse: freed(v), the node has been freed (pointers to it dangle);")
		w.text("// reuse_pick(v), the freed node a new is about to reuse (within that step only).")
		w.text("%%p freed(v)\n%%p reuse_pick(v) unique")
	}
	for _, x := range sortedKeys(c.s.snap) {
		w.text("// %s(t): %s's counter has changed since t's snapshot %s of it.", staleName(c.s.snap[x], x), c.s.snap[x], x)
		w.text("%%p %s(v) THREAD_PRED", staleName(c.s.snap[x], x))
	}
	for _, x := range sortedKeys(c.s.fsnap) {
		fs := c.s.fsnap[x]
		w.text("// %s(t): the counter of %s.%s has changed since t's snapshot %s of it.", staleName(fs.Field, x), fs.Base, fs.Field, x)
		w.text("%%p %s(v) THREAD_PRED", staleName(fs.Field, x))
	}
}

// freeStmt compiles free x: x's node is marked freed.
func (b *builder) freeStmt(st *alg.FreeStmt, next *loc) *loc {
	l := b.newLoc(st.Pos, "")
	s := b.newStep(l, next, st.Pos, "free "+source(st.X))
	b.focusAndReads(s, st.X)
	s.updates = append(s.updates, update{"freed(v)", "freed(v) | " + sched(b.g.val(st.X, "ts", "v"))})
	if x, ok := st.X.(*alg.Name); ok {
		s.frees = append(s.frees, x.Name)
	}
	return l
}

// reuseSteps adds to x = new T, at l, the outcome that reuses a freed
// node: a step that picks one (to an internal location) and a step that
// assigns it.
func (b *builder) reuseSteps(l *loc, st *alg.AssignStmt, after *loc) {
	x, ok := st.LHS.(*alg.Name)
	if !ok || !b.s.frees || !b.s.isThread(x.Name) {
		return
	}
	mid := b.newLoc(st.Pos, "_reuse")
	mid.internal = true
	text := source(st.LHS) + " = " + source(st.RHS)
	pick := b.newStep(l, mid, st.Pos, text+" reuses a freed node")
	pick.pre = "E(w) freed(w)"
	pick.updates = append(pick.updates, update{"reuse_pick(v)", "freed(v) & 1/2"})
	take := b.newStep(mid, after, st.Pos, text+" takes the freed node")
	take.focus = append(take.focus, "reuse_pick(v)")
	take.pre = "E(w) reuse_pick(w)"
	take.updates = append(take.updates, update{"freed(v)", "freed(v) & !reuse_pick(v)"}, update{"reuse_pick(v)", "0"})
	if b.spec.relation && b.spec.queue() && b.spec.gen.has("rcommutes") {
		// A queue linked newest to oldest frees the node whose value it
		// returned, still related to Head_S (docs/lms-queue.md): reused,
		// the node stands for no specification node until its enqueue's
		// linearisation point relates it anew.
		take.updates = append(take.updates, update{"spec(v_1, v_2)", "spec(v_1, v_2) & !reuse_pick(v_1)"})
	}
	if b.spec.claims {
		// A reused node has had no removal linearised for it; one still
		// owed for it could no longer be told from a removal of the new
		// incarnation (claim.go).
		owed := "(E(w) reuse_pick(w) & owed_S(w))"
		take.pre += " & !" + owed
		take.updates = append(take.updates, update{"lin_S(v)", "lin_S(v) & !reuse_pick(v)"})
		lost := b.newStep(mid, nil, st.Pos, text+" reuses a node whose removal is owed")
		lost.focus = take.focus
		lost.pre = owed
		lost.msgs = []message{{owed, "linearisability: a node is reused while the removal linearised for it has not been taken " + fmt.Sprintf("(%s, line %d)", b.opName(), st.Pos.Line)}}
	}
	take.writes[x.Name] = true
	b.staleOnRebase(take, x.Name)
	take.assigns = append(take.assigns, &threadAssign{name: x.Name, val: "reuse_pick(v_2)", reuse: true})
}

// staleOnWrite records that s writes the tagged S (staleUpdates makes
// the updates once liveness is known).
func (b *builder) staleOnWrite(s *step, shared string) {
	if b.s.tagged[shared] {
		s.tagWrite = shared
	}
}

// staleUpdates: a write of the tagged S makes every live snapshot of it
// stale, on every thread: those of the threads at a location where the
// snapshot variable is live, and the writer's own if it stays live.
// Dead snapshots stay unset, so that threads without one look alike.
func (c *compiler) staleUpdates(st *step) []update {
	return append(c.staleSharedUpdates(st), c.staleFieldUpdates(st)...)
}

// staleSharedUpdates: the updates of the snapshots of the tagged shared
// pointer st writes.
func (c *compiler) staleSharedUpdates(st *step) []update {
	if st.tagWrite == "" {
		return nil
	}
	var out []update
	for _, x := range sortedKeys(c.s.snap) {
		if c.s.snap[x] != st.tagWrite {
			continue
		}
		p := staleName(st.tagWrite, x)
		others := p + "(v)"
		if at := c.liveAt(x); at != "" {
			others = "(" + p + "(v) | " + at + ")"
		}
		self := "0"
		if st.to != nil && c.live[st.to][x] {
			self = "1"
		}
		out = append(out, update{p + "(v)", fmt.Sprintf("(tr_scheduled(v) ? %s : %s)", self, others)})
	}
	return out
}

// liveAt is the disjunction of at[L](v) over the thread locations where
// x is live ("" if there is none).
func (c *compiler) liveAt(x string) string {
	var at []string
	for _, l := range c.b.locs {
		if l.thread && c.live[l][x] {
			at = append(at, "at["+l.name+"](v)")
		}
	}
	return strings.Join(at, " | ")
}

// staleOnRead: x = S takes S's counter, x = b.f the counter of b's f:
// the thread's snapshot is fresh.
func (b *builder) staleOnRead(s *step, x string, rhs alg.Expr) {
	p := ""
	switch r := rhs.(type) {
	case *alg.Name:
		if b.s.snap[x] != "" && b.s.snap[x] == r.Name {
			p = staleName(r.Name, x)
		}
	case *alg.Field:
		if base, ok := r.X.(*alg.Name); ok && b.s.fsnap[x] == (alg.FieldSnap{Base: base.Name, Field: r.Name}) {
			p = staleName(r.Name, x)
		}
	}
	if p != "" {
		s.updates = append(s.updates, update{p + "(v)", p + "(v) & !tr_scheduled(v)"})
	}
}

// casTag is the extra condition of a cas on a tagged S: the snapshot is
// not stale.
func (b *builder) casTag(c *alg.CAS) string {
	if tag := b.casFieldTag(c); tag != "" {
		return tag
	}
	loc, ok1 := c.Loc.(*alg.Name)
	old, ok2 := c.Old.(*alg.Name)
	if !ok1 || !ok2 || !b.s.tagged[loc.Name] || b.s.snap[old.Name] != loc.Name {
		return ""
	}
	return " & !" + staleName(loc.Name, old.Name) + "(ts)"
}

// staleCleared: a cleared snapshot variable's stale flag is reset, so
// that threads that hold no snapshot look alike.
func (c *compiler) staleCleared(x string) (update, bool) {
	p := ""
	if c.s.snap[x] != "" {
		p = staleName(c.s.snap[x], x)
	} else if fs, ok := c.s.fsnap[x]; ok {
		p = staleName(fs.Field, x)
	}
	if p == "" {
		return update{}, false
	}
	return update{p + "(v)", p + "(v) & !tr_scheduled(v)"}, true
}

// snapshotFact is what a thread v's snapshot x of a tagged shared S says
// of the node u that v's x points to: wherever x is live (and so set by
// x = S, the only assignment of it the checker allows) and not stale, S
// has not been written since, so u is S's node. As a formula, true in
// every reachable state: stale[S,x](v) | !live[x](v) | S(u). "" when x
// is no such snapshot.
//
// Other threads' facts about x's node change under an overwrite of a
// field of node w only where x(v, w) may hold; with this fact conjoined,
// a thread whose snapshot is current is left alone when w is not S's
// node (a reused node being initialised, say). On a summary thread it
// still evaluates to 1/2, but finite differencing of a conditional soft
// invariant "at L, !stale[S,x] implies p" then finds the contradiction
// (logic.PropagateUnits), which is what keeps the tagged stack's pop
// from losing the value of its snapshot when threads are collapsed.
func (c *compiler) snapshotFact(x, v, u string) string {
	s := c.s.snap[x]
	if s == "" {
		return ""
	}
	at := c.liveAt(x)
	if at == "" {
		return ""
	}
	at = strings.ReplaceAll(at, "(v)", "("+v+")")
	return fmt.Sprintf("(%s(%s) | !(%s) | %s(%s))", staleName(s, x), v, at, s, u)
}

// snapshotFacts are the snapshot facts of the atoms x(v, u) of def.
func (c *compiler) snapshotFacts(def *conj) []string {
	var out []string
	for _, a := range def.atoms {
		if a.neg || len(a.args) != 2 || a.args[0] != "v" {
			continue
		}
		if f := c.snapshotFact(a.pred, "v", a.args[1]); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// staleRE finds the scheduled thread's stale flags a precondition tests.
var staleRE = regexp.MustCompile(`stale\[[^\]]*\]\(ts\)`)

// staleFocus makes a step whose precondition tests the scheduled thread's
// stale flag (a cas with a snapshot, a tagged comparison) focus on it:
// with collapsed threads the flag of a thread taken from the summary is
// 1/2, and the precondition 1/2 would let the step run without deciding
// it, so that a conditional soft invariant about threads whose snapshot
// is current ("at L, !stale[S,x] implies p") never applies to the thread
// that passes the test. Bounded runs keep each thread apart and its flag
// definite; there it changes nothing.
func (c *compiler) staleFocus() {
	for _, st := range c.b.steps {
		seen := map[string]bool{}
		for _, f := range st.focus {
			seen[f] = true
		}
		for _, m := range staleRE.FindAllString(st.pre, -1) {
			f := "tr_scheduled(v) & " + strings.TrimSuffix(m, "(ts)") + "(v)"
			if !seen[f] {
				seen[f] = true
				st.focus = append(st.focus, f)
			}
		}
	}
}

// emitSnapshotRules: with collapsed threads, the snapshot fact of every
// snapshot x of a tagged shared S (snapshotFact) is also a consistency
// rule, in both of its useful forms: where x is live and not stale, x's
// node is S's; where x is live and points to a node that is not S's, x is
// stale. Both are vacuous while x is null, so they hold on a path that
// has not assigned x yet too. Without them a thread taken from the
// summary could pass a test of x == S as false (the tagged comparison
// focuses on the flag, not on the pointers) with a current snapshot of
// a node S has left, which no run of the program reaches: the queue's
// dequeue at its empty linearisation point then went on as if the
// queue were not empty. Bounded runs are left as they were.
func (c *compiler) emitSnapshotRules() {
	var rules []string
	for _, x := range sortedKeys(c.s.snap) {
		s := c.s.snap[x]
		at := strings.ReplaceAll(c.liveAt(x), "(v)", "(v_1)")
		if at == "" {
			continue
		}
		p := staleName(s, x)
		rules = append(rules,
			fmt.Sprintf("%%r (%s) & !%s(v_1) & %s(v_1, v_2) ==> %s(v_2)", at, p, x, s),
			fmt.Sprintf("%%r (%s) & %s(v_1, v_2) & !%s(v_2) ==> %s(v_1)", at, x, s, p))
	}
	if len(rules) == 0 {
		return
	}
	c.w.text("// A current snapshot of a tagged shared pointer points where it does.")
	c.w.text("#ifdef COLLAPSE_THREADS")
	for _, r := range rules {
		c.w.text("%s", r)
	}
	c.w.text("#endif")
}
