package algc

import (
	"fmt"

	"github.com/tvla-go/tvla/alg"
)

// The step graph. Each statement that does something gets a thread
// location named after its operation and source line (push23), the
// location where a thread about to run it is; a step is one TVP action
// from a location to the next, taken by the scheduled thread. Statements
// are compiled backwards: a statement is given the location that follows
// it and returns its own entry.

type loc struct {
	name string
	// thread locations have an at[L] predicate; init's and the CFG's own
	// (yield) do not.
	thread bool
	// sched: a thread at this location may be descheduled (restricted
	// interleaving: idle, after yield, at a lock).
	sched bool
	// internal: inside an atomic block or a linearisation-point group;
	// never a scheduling point.
	internal bool
	lock     bool
	// lp: inside a linearisation-point group, which keeps the thread's
	// variables until the specification step has related them.
	lp bool
	// alias: a loop head placeholder resolves to the loop body's entry.
	alias *loc
	pos   alg.Pos
	// op is the operation the thread location belongs to ("" for idle
	// and init's).
	op string
}

func (l *loc) final() *loc {
	for l.alias != nil {
		l = l.alias
	}
	return l
}

type update struct{ lhs, rhs string }

type message struct{ cond, text string }

// step is one TVP action.
type step struct {
	from, to    *loc // to nil: the CFG location error
	name, title string
	pos         alg.Pos
	pre         string
	focus       []string
	news        bool
	updates     []update
	// retain is the step's %retain formula ("" keeps every individual).
	retain string
	msgs   []message
	reads  map[string]bool
	writes map[string]bool
	// clearAll: every thread-local variable is cleared (begin, end).
	clearAll bool
	clear    []string
	// move: the thread's at[from] becomes at[to] (not in init).
	move bool
	// change describes a write to a shared pointer or the link field,
	// for the explicit reachability updates (reach.go).
	change *ptrChange
	// flags are the thread flags (doneLP, doneELP) the step sets or
	// clears: name -> true (set) / false (clear).
	flags map[string]bool
	// assigns are the writes to thread-local variables, stores those to
	// fields.
	assigns []*threadAssign
	stores  []*fieldStore
	// compared are the thread-local node variables a condition compares
	// with another pointer (pairfocus.go).
	compared []string
	// ites are the overwrites of fields (guarded.go).
	ites []*ite
	// allocs are the variables the step points at a new node; publishes
	// those whose node it stores where others can reach it (private.go).
	allocs, publishes []string
	// storeBase is the thread variable whose node a field store writes;
	// private says that node is still the thread's own (private.go).
	storeBase string
	private   bool
	// owned says the stored node is the thread's own, though it may have
	// been reused (private.go, ownership); frees are the variables whose
	// node the step frees.
	owned bool
	frees []string
	// lockOf is the lock a lock or unlock statement names (its source
	// text); unlock says which of the two it is (locks.go).
	lockOf string
	unlock bool
	// tagWrite is the tagged shared pointer the step writes (reuse.go).
	tagWrite string
	// tagField is the tagged field the step writes, tagNode the node it
	// writes it in (a formula over @W@ for the scheduled thread);
	// rebased are the field snapshots whose base variable it assigns.
	tagField, tagNode string
	rebased           []string
	// collapsedFocus are focus formulas emitted only with collapsed
	// threads (staleFieldFocus).
	collapsedFocus []string
}

// ptrChange is a write to a shared node pointer (shared != "") or to the
// link field of the node node(w) (set-only when the field was null).
type ptrChange struct {
	shared  string
	node    string // formula over @N@: the node whose link field changes
	target  string // formula over @T@: the new value (node), "0" for null
	setOnly bool
	// cut: the link field is set to null.
	cut bool
}

type loopCtx struct{ head, exit *loc }

type builder struct {
	s      *symbols
	g      *fgen
	e      *errs
	spec   *specLib
	full   bool
	locs   []*loc
	names  map[string]bool
	steps  []*step
	op     *alg.OpDecl
	prefix string
	inInit bool
	atomic int
	loops  []loopCtx
	// end and endEmpty are the operation's response locations.
	end, endEmpty *loc
	idle, yield   *loc
	nsteps        int
	// partners: per operation another's linearisation point names as
	// its partner, the variables to keep live (partner.go).
	partners map[string][]string
	// partnerLPs are the partner steps, whose focus on the partner's
	// location is added once every operation is built (partner.go).
	partnerLPs []partnerLP
	// claimSteps are the steps of "@lp(v) for x" points whose formulas
	// name the threads that may take the removal (claim.go).
	claimSteps []*step
}

func (b *builder) newLoc(pos alg.Pos, suffix string) *loc {
	base := fmt.Sprintf("%s%d%s", b.prefix, pos.Line, suffix)
	name := base
	for i := 2; b.names[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	b.names[name] = true
	l := &loc{name: name, thread: !b.inInit, internal: b.atomic > 0, pos: pos}
	if !b.inInit && b.op != nil {
		l.op = b.op.Name
	}
	b.locs = append(b.locs, l)
	return l
}

func (b *builder) newStep(from, to *loc, pos alg.Pos, title string) *step {
	b.nsteps++
	st := &step{from: from, to: to, pos: pos, move: !b.inInit && to != nil,
		name: fmt.Sprintf("%s_%d", b.opName(), b.nsteps), reads: map[string]bool{}, writes: map[string]bool{}}
	st.title = fmt.Sprintf("%s, line %d: %s", b.opName(), pos.Line, title)
	b.steps = append(b.steps, st)
	return st
}

func (b *builder) opName() string {
	if b.op == nil {
		return "init"
	}
	return b.op.Name
}

func (b *builder) stmts(list []alg.Stmt, next *loc) *loc {
	for i := len(list) - 1; i >= 0; i-- {
		next = b.stmt(list[i], next)
	}
	return next
}

func (b *builder) stmt(st alg.Stmt, next *loc) *loc {
	switch st := st.(type) {
	case *alg.Block:
		return b.stmts(st.Stmts, next)
	case *alg.LocalStmt, *alg.BadStmt:
		return next
	case *alg.YieldStmt:
		if b.atomic > 0 {
			b.e.add(st.Pos, "yield inside an atomic block: the block runs as one step")
		} else if !b.full {
			next.sched = true
		}
		return next
	case *alg.AssignStmt:
		return b.assignStmt(st, next)
	case *alg.ExprStmt:
		l := b.newLoc(st.Pos, "")
		b.casSteps(l, st.X.(*alg.CAS), st.LP, nil, next, next, st.Pos)
		return l
	case *alg.IfStmt:
		return b.ifStmt(st, next)
	case *alg.LoopStmt:
		return b.loopStmt(st, next)
	case *alg.BranchStmt:
		if len(b.loops) == 0 {
			return next
		}
		if st.Tok == "break" {
			return b.loops[len(b.loops)-1].exit
		}
		return b.loops[len(b.loops)-1].head
	case *alg.ReturnStmt:
		if st.Empty {
			return b.endEmpty
		}
		return b.end
	case *alg.AtomicStmt:
		return b.atomicStmt(st, next)
	case *alg.FreeStmt:
		return b.freeStmt(st, next)
	case *alg.LockStmt:
		l := b.newLoc(st.Pos, "")
		l.lock = true
		b.lockStep(l, st, next)
		return l
	}
	return next
}

func (b *builder) atomicStmt(st *alg.AtomicStmt, next *loc) *loc {
	first := len(b.locs)
	b.atomic++
	entry := b.stmts(st.Body.Stmts, next).final()
	b.atomic--
	for _, l := range b.locs[first:] {
		if l == entry && b.atomic == 0 {
			l.internal = false
		}
	}
	return entry
}

func (b *builder) ifStmt(st *alg.IfStmt, next *loc) *loc {
	thenEntry := b.stmts(st.Then.Stmts, next)
	elseEntry := next
	if st.Else != nil {
		elseEntry = b.stmt(st.Else, next)
	}
	l := b.newLoc(st.Pos, "")
	cond := st.Cond
	if u, ok := cond.(*alg.Unary); ok {
		if c, ok := u.X.(*alg.CAS); ok {
			b.casSteps(l, c, st.LP, nil, elseEntry, thenEntry, st.Pos)
			return l
		}
	}
	if c, ok := cond.(*alg.CAS); ok {
		b.casSteps(l, c, st.LP, nil, thenEntry, elseEntry, st.Pos)
		return l
	}
	b.condSteps(l, cond, thenEntry, elseEntry, "if "+source(cond))
	return l
}

func (b *builder) loopStmt(st *alg.LoopStmt, next *loc) *loc {
	if st.Cond != nil {
		head := b.newLoc(st.Pos, "")
		b.loops = append(b.loops, loopCtx{head: head, exit: next})
		body := b.stmts(st.Body.Stmts, head)
		b.loops = b.loops[:len(b.loops)-1]
		b.condSteps(head, st.Cond, body, next, "while "+source(st.Cond))
		return head
	}
	head := &loc{pos: st.Pos}
	b.loops = append(b.loops, loopCtx{head: head, exit: next})
	body := b.stmts(st.Body.Stmts, head)
	b.loops = b.loops[:len(b.loops)-1]
	if body.final() == head {
		b.e.add(st.Pos, "a loop whose body does nothing never ends")
		head.alias = next
		return next
	}
	head.alias = body
	if head.sched {
		body.final().sched = true
	}
	return body
}

// condSteps tests a condition: one step where it holds, one where not.
func (b *builder) condSteps(l *loc, cond alg.Expr, yes, no *loc, title string) {
	c := sched(b.g.cond(cond, "ts"))
	t := b.newStep(l, yes, alg.ExprPos(cond), title)
	t.pre = c
	f := b.newStep(l, no, t.pos, title+" (false)")
	f.pre = "!" + c
	cmp := b.comparedNodes(cond)
	for _, st := range []*step{t, f} {
		b.focusAndReads(st, cond)
		st.compared = cmp
	}
	b.nullChecks(l, t.pos, cond)
}

// comparedNodes lists the thread-local node variables of the comparisons
// x == y and x != y in cond, x and y thread-local or shared pointers (not
// null).
func (b *builder) comparedNodes(cond alg.Expr) []string {
	var out []string
	var walk func(alg.Expr)
	walk = func(e alg.Expr) {
		switch e := e.(type) {
		case *alg.Unary:
			walk(e.X)
		case *alg.Binary:
			if e.Op == "&&" || e.Op == "||" {
				walk(e.X)
				walk(e.Y)
				return
			}
			x, okx := e.X.(*alg.Name)
			y, oky := e.Y.(*alg.Name)
			if !okx || !oky {
				return
			}
			node := func(n string) bool { return isNode(b.s.thread[n]) || isNode(b.s.shared[n]) }
			if !node(x.Name) || !node(y.Name) {
				return
			}
			for _, n := range []string{x.Name, y.Name} {
				if isNode(b.s.thread[n]) {
					out = append(out, n)
				}
			}
		}
	}
	walk(cond)
	return out
}

func (b *builder) focusAndReads(st *step, xs ...alg.Expr) {
	seen := map[string]bool{}
	for _, x := range xs {
		if x == nil {
			continue
		}
		b.g.threadVarsRead(x, st.reads)
		for _, p := range b.g.pointers(x) {
			f := b.g.focusOn(p)
			if !seen[f] {
				seen[f] = true
				st.focus = append(st.focus, f)
			}
		}
	}
}

// nullChecks adds, for each pointer the statement dereferences, an
// action that reports the dereference of null.
func (b *builder) nullChecks(l *loc, pos alg.Pos, xs ...alg.Expr) {
	seen := map[string]bool{}
	for _, x := range xs {
		if x == nil {
			continue
		}
		for _, d := range derefs(x) {
			if seen[source(d)] {
				continue
			}
			seen[source(d)] = true
			st := b.newStep(l, nil, pos, source(d)+" is null")
			w := b.g.fresh()
			st.pre = "!" + sched(fmt.Sprintf("(E(%s) %s)", w, b.g.val(d, "ts", w)))
			st.msgs = append(st.msgs, message{st.pre, fmt.Sprintf("null dereference: %s is null (%s, line %d)", source(d), b.opName(), pos.Line)})
			b.focusAndReads(st, d)
		}
	}
}
