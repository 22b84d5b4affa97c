package abstraction

import (
	"fmt"
	"math/bits"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// headKind says what a constraint's head demands.
type headKind uint8

const (
	headAtom    headKind = iota // p(args) must be 1
	headNotAtom                 // p(args) must be 0
	headEq                      // a == b must be 1
	headNeq                     // a != b must be 1
	headFalse                   // the body must never be 1
	headTrue                    // never breached
)

// constraint is a predicates.Constraint compiled for one vocabulary.
//
// Its body is evaluated as a join: the body's conjuncts (outer existential
// quantifiers become loop variables too, since the body is 1 exactly when
// some witness makes every conjunct 1) are checked as soon as the loop has
// bound their variables, and the head as soon as its variables are bound,
// skipping assignments where it already holds. Most assignments are cut
// off after one or two variables, instead of enumerating all n^k.
type constraint struct {
	src  predicates.Constraint
	kind headKind
	pred *tvl.Pred
	args []int // positions in loop order of the head's variables
	// repeats: the positions of variables the head names twice (p(v, v)).
	repeats []int
	// loop is the order variables are bound in; checks[i] are the
	// conjuncts whose variables are all bound at level i (checks[-1] is
	// pre: conjuncts without variables).
	loop   []logic.Var
	pre    []*tvl.Compiled
	checks [][]*tvl.Compiled
	// checkArgs[i][j] says where checks[i][j]'s arguments are in an
	// assignment: each conjunct is compiled over its own free variables,
	// not the whole loop, so that a body of thousands of variables (a
	// deep formula relativized for --join ind) compiles and binds in time
	// linear in its size.
	checkArgs [][]checkArgs
	headLevel int // the level after which the head's variables are bound
	// gens[i] says how level i finds candidate values: all individuals,
	// or only those a positive atom there can hold for.
	gens []generator
	// reads lists the predicates whose change can break the constraint.
	reads []*tvl.Pred
	// up and down list the predicates of the body a sharpening to 1
	// (up) or to 0 (down) can make 1 where it was 1/2: those it reads
	// positively, negatively (polarity.go).
	up, down []*tvl.Pred
	// usesEq: the constraint reads equality, so sm changes matter.
	usesEq bool
	// word is the word-parallel form, for constraints over one variable
	// and unary predicates (bitwise.go); nil for the others.
	word *wordConstraint
	// simple: the body as written has no quantifier and no transitive
	// closure (CoerceSimple).
	simple bool
	// conjInfo describes the body's conjuncts, for CoerceDelta.
	conjInfo []conjunctInfo
	// definition: the constraint comes from an instrumentation
	// predicate's definition.
	definition bool
}

// Coercer enforces a program's constraints on structures (thesis
// §4.3.2): where a body is 1 it sharpens a 1/2 head, discards the
// structure when the head is 0, and makes a summary individual
// non-summary when an equality head needs it. A Coercer is used by one
// goroutine at a time.
type Coercer struct {
	voc  *tvl.Vocabulary
	cons []*constraint
	// byPred lists, per predicate ID, the constraints that read it;
	// byUp and byDown those whose body a sharpening of it to 1, to 0, can
	// make 1 (with equality's, for sm, in both).
	byPred, byUp, byDown [][]int
	// Polar makes a sharpening wake only the constraints whose body it
	// can make 1 (polarity.go) instead of every constraint reading the
	// sharpened predicate. That is enough only when the structures given
	// to Coerce satisfy every constraint not reading a changed predicate,
	// and the engine's do not quite: Focus leaves an unsplit structure
	// uncoerced and Blur may leave a rule applicable, and the wider
	// wake-ups repair some of that (on the Snark deque with one thread,
	// Polar stores 9,871 structures instead of 8,026). So it is off
	// unless TVLA_POLAR_COERCE is set, for experiments; results then
	// stay sound (Coerce only sharpens) but may be less precise.
	Polar bool
	// scratch[i] is constraint i's evaluation state, reused from one
	// application to the next; it is why a Coercer serves one goroutine
	// at a time (Fork gives another goroutine its own).
	scratch []*constraintScratch
	// active and touched are Coerce's sets of constraints to apply and
	// of predicates sharpened, reused from call to call.
	active  []uint64 // a bit per constraint
	touched touchSet
	ones    onesSeen
	// guards[i] are up to two of constraint i's word form's required
	// predicates (-1: none), kept apart from the constraints so that
	// Coerce passes over the constraints they rule out without reading
	// them.
	guards [][2]int32
	// unaryIndex is the table index of each unary predicate, by ID.
	unaryIndex []int32
	// rows, lits and formulas are the word constraints laid out flat
	// (bitwise.go): rows[i] is constraint i's.
	rows     []wordRow
	lits     []wordLit
	formulas []wordNodes
	// closures are the transitive closures of the binary tables the
	// structures coerced share, computed once for every constraint.
	closures *tvl.ClosureCache
	// Trace, when set, is told of every sharpening and discard (for
	// debugging a model's constraints).
	Trace func(constraint string, what string)
}

// constraintScratch is the mutable part of applying a constraint.
type constraintScratch struct {
	pre   []*tvl.Bound
	bound [][]*tvl.Bound
	asg   []int
	cargs []int // a check's arguments gathered from asg (checkArgs)
	hargs []int
	run   constraintRun
}

// Fork returns a Coercer with the same constraints and its own evaluation
// state, for use by another goroutine.
func (c *Coercer) Fork() *Coercer {
	f := *c
	f.scratch = make([]*constraintScratch, len(c.cons))
	f.active, f.touched, f.ones = nil, nil, onesSeen{}
	f.closures = new(tvl.ClosureCache)
	return &f
}

// NewCoercer compiles constraints over voc.
func NewCoercer(voc *tvl.Vocabulary, cons []predicates.Constraint) (*Coercer, error) {
	var ks []*constraint
	for _, src := range cons {
		k, err := compileConstraint(voc, src)
		if err != nil {
			return nil, fmt.Errorf("constraint %s (%s): %w", src, src.Origin, err)
		}
		ks = append(ks, k)
	}
	return newCoercer(voc, ks), nil
}

// newCoercer indexes compiled constraints by the predicates they read.
func newCoercer(voc *tvl.Vocabulary, ks []*constraint) *Coercer {
	n := len(voc.Preds())
	c := &Coercer{voc: voc, cons: ks, byPred: make([][]int, n), byUp: make([][]int, n), byDown: make([][]int, n),
		scratch: make([]*constraintScratch, len(ks)), closures: new(tvl.ClosureCache)}
	c.guards = make([][2]int32, len(ks))
	c.unaryIndex = make([]int32, n)
	for _, p := range voc.OfArity(1) {
		c.unaryIndex[p.ID] = int32(p.Index)
	}
	sm := voc.Summary().ID
	for i, k := range ks {
		c.addWordRow(k)
		c.guards[i] = [2]int32{-1, -1}
		if k.word != nil {
			for j, p := range k.word.required {
				if j < 2 {
					c.guards[i][j] = int32(p.ID)
				}
			}
		}
		for _, p := range k.reads {
			c.byPred[p.ID] = append(c.byPred[p.ID], i)
		}
		for _, p := range k.up {
			c.byUp[p.ID] = append(c.byUp[p.ID], i)
		}
		for _, p := range k.down {
			c.byDown[p.ID] = append(c.byDown[p.ID], i)
		}
		if k.usesEq {
			c.byPred[sm] = append(c.byPred[sm], i)
			c.byUp[sm] = append(c.byUp[sm], i)
			c.byDown[sm] = append(c.byDown[sm], i)
		}
	}
	return c
}

// Len is the number of constraints.
func (c *Coercer) Len() int { return len(c.cons) }

// touchSet records, per predicate ID, the sharpenings of one pass of
// Coerce: touchUp when a value of it was made 1, touchDown when 0.
type touchSet []uint8

const (
	touchUp uint8 = 1 << iota
	touchDown
)

// mark records a sharpening of p to v (both ways for sm, whose change
// makes an equality 1 or 0).
func (t touchSet) mark(p *tvl.Pred, v logic.Kleene) {
	switch v {
	case logic.True:
		t[p.ID] |= touchUp
	case logic.False:
		t[p.ID] |= touchDown
	default:
		t[p.ID] |= touchUp | touchDown
	}
}

// CoerceResult reports what Coerce did.
type CoerceResult struct {
	// Consistent is false when the structure violates a constraint that
	// cannot be repaired: it represents no concrete state.
	Consistent bool
	// Breaches counts sharpened values and the discard, if any.
	Breaches int
	// Violated is the constraint that discarded the structure.
	Violated string
}

// Coerce sharpens s in place until every constraint holds, or finds it
// inconsistent. changed lists the predicates that may have changed since
// s last satisfied the constraints; nil means check everything. Only
// constraints reading a changed predicate are evaluated (semi-naive), and
// each sharpening schedules the constraints that read what it changed.
func (c *Coercer) Coerce(s *tvl.Structure, changed []*tvl.Pred) CoerceResult {
	return c.coerce(s, changed, nil, nil)
}

// CoerceDelta is Coerce incremental on tuples: only the assignments of a
// constraint that involve a tuple of d (which sharpenings add to) are
// looked at; simpleOnly restricts it to the simple constraints
// (CoerceSimple). It is how TVLA 3 coerces under the single-structure
// join (delta.go).
func (c *Coercer) CoerceDelta(s *tvl.Structure, d *Delta, simpleOnly bool) CoerceResult {
	var only func(*constraint) bool
	if simpleOnly {
		only = isSimple
	}
	return c.coerce(s, d.Preds(c.voc), only, d)
}

// CoerceAfterUpdate is CoerceDelta after an update under the
// single-structure join: as TVLA 3 does, a rule with a quantifier or a
// closure (a "complex constraint", which it says it cannot compute
// incrementally) is not checked again; simple rules and the constraints
// of instrumentation definitions are.
func (c *Coercer) CoerceAfterUpdate(s *tvl.Structure, d *Delta) CoerceResult {
	return c.coerce(s, d.Preds(c.voc), incremental, d)
}

func isSimple(k *constraint) bool { return k.simple }

// incremental says which constraints CoerceAfterUpdate checks.
func incremental(k *constraint) bool { return k.simple || k.definition }

// CoerceSimple is Coerce with only the simple constraints (no quantifier
// or transitive closure in the body as written) that read a changed
// predicate: what TVLA 3 checks when Focus, under the single-structure
// join, settles the existence of an individual of an atom.
func (c *Coercer) CoerceSimple(s *tvl.Structure, changed []*tvl.Pred) CoerceResult {
	return c.coerce(s, changed, isSimple, nil)
}

// coerce enforces the constraints only accepts (all when nil) among those
// reading a changed predicate, looking only at the assignments that
// touch d when it is not nil.
func (c *Coercer) coerce(s *tvl.Structure, changed []*tvl.Pred, only func(*constraint) bool, d *Delta) CoerceResult {
	if d != nil && len(changed) == 0 {
		return CoerceResult{Consistent: true}
	}
	res := CoerceResult{Consistent: true}
	words := (len(c.cons) + 63) / 64
	if c.active == nil {
		c.active = make([]uint64, words)
		c.touched = make(touchSet, len(c.byPred))
	}
	active, touched := c.active, c.touched
	clear(active)
	c.ones.reset(len(c.byPred))
	if changed == nil {
		for i := range c.cons {
			active[i/64] |= 1 << uint(i%64)
		}
	} else {
		for _, p := range changed {
			c.activate(c.byPred[p.ID])
		}
	}
	lenient := !c.Polar || d != nil
	for {
		clear(touched)
		// The constraints active now, in their order; those a sharpening
		// activates wait for the next pass.
		for w := range active {
			for m := active[w]; m != 0; m &= m - 1 {
				i := w*64 + bits.TrailingZeros64(m)
				if g := c.guards[i]; g[0] >= 0 && (!c.ones.has(s, g[0], c.unaryIndex[g[0]]) || g[1] >= 0 && !c.ones.has(s, g[1], c.unaryIndex[g[1]])) {
					continue
				}
				if r := &c.rows[i]; r.word && only == nil {
					// The common case, without reading the constraint.
					if !c.applyWord(s, i, r, touched, &res, d) {
						res.Consistent = false
						return res
					}
					continue
				}
				k := c.cons[i]
				if only != nil && !only(k) {
					continue
				}
				if !c.apply(s, i, k, touched, &res, d) {
					res.Consistent = false
					return res
				}
			}
			active[w] = 0
		}
		any := false
		for id, t := range touched {
			switch {
			case t == 0:
				continue
			case lenient:
				c.activate(c.byPred[id])
			default:
				if t&touchUp != 0 {
					c.activate(c.byUp[id])
				}
				if t&touchDown != 0 {
					c.activate(c.byDown[id])
				}
			}
			any = true
		}
		if !any {
			return res
		}
	}
}

// activate marks the constraints of list for checking.
func (c *Coercer) activate(list []int) {
	for _, i := range list {
		c.active[i/64] |= 1 << uint(i%64)
	}
}

// apply enforces one constraint over every assignment; it returns false
// when the structure must be discarded.
func (c *Coercer) apply(s *tvl.Structure, idx int, k *constraint, touched touchSet, res *CoerceResult, d *Delta) bool {
	if k.kind == headTrue {
		return true
	}
	if k.word != nil {
		return c.applyWord(s, idx, &c.rows[idx], touched, res, d)
	}
	sc := c.bindScratch(s, idx, k)
	clear(sc.asg)
	for _, p := range sc.pre {
		if p.Eval() != logic.True {
			return true
		}
	}
	r := &sc.run
	*r = constraintRun{c: c, k: k, s: s, touched: touched, res: res, d: d,
		checks: sc.bound, asg: sc.asg, cargs: sc.cargs, args: sc.hargs, ok: true}
	ok := true
	if r.k.headLevel >= 0 || !r.satisfied() {
		r.run(0)
		ok = r.ok
	}
	*r = constraintRun{} // hold on to no structure between applications
	return ok
}

// bindScratch returns constraint idx's evaluation state bound to s: made
// on first use, rebound after.
func (c *Coercer) bindScratch(s *tvl.Structure, idx int, k *constraint) *constraintScratch {
	sc := c.scratch[idx]
	if sc == nil {
		sc = &constraintScratch{bound: make([][]*tvl.Bound, len(k.checks)),
			asg: make([]int, len(k.loop)), cargs: make([]int, len(k.loop)), hargs: make([]int, len(k.args))}
		for _, p := range k.pre {
			b := p.Bind(s)
			b.ShareClosures(c.closures)
			sc.pre = append(sc.pre, b)
		}
		for i, cs := range k.checks {
			for _, cc := range cs {
				b := cc.Bind(s)
				b.ShareClosures(c.closures)
				sc.bound[i] = append(sc.bound[i], b)
			}
		}
		c.scratch[idx] = sc
		return sc
	}
	for _, b := range sc.pre {
		b.Rebind(s)
	}
	for _, bs := range sc.bound {
		for _, b := range bs {
			b.Rebind(s)
		}
	}
	return sc
}

// constraintRun is one application of a constraint to a structure: the
// nested loop over assignments (bound level by level, each conjunct
// checked as soon as its variables are), and the head enforced on the
// assignments that make the body 1. It lives in the constraint's scratch,
// so an application allocates nothing.
type constraintRun struct {
	c       *Coercer
	k       *constraint
	s       *tvl.Structure
	touched touchSet
	res     *CoerceResult
	d       *Delta
	checks  [][]*tvl.Bound
	asg     []int
	cargs   []int
	args    []int
	// ok turns false when the structure is found inconsistent.
	ok bool
}

// run binds the variables from level on, and enforces the head on every
// complete assignment that makes the body 1.
func (r *constraintRun) run(level int) {
	if level == len(r.asg) {
		r.enforce()
		return
	}
	g := r.k.gens[level]
	switch g.kind {
	case genUnary:
		r.s.NonZeroUnary(g.index, func(u int) bool { return r.try(level, u) })
	case genRow:
		r.s.NonZeroRow(g.index, r.asg[g.other], func(u int) bool { return r.try(level, u) })
	case genColumn:
		r.s.NonZeroColumn(g.index, r.asg[g.other], func(u int) bool { return r.try(level, u) })
	default:
		for u := 0; u < r.s.Size() && r.ok; u++ {
			r.try(level, u)
		}
	}
}

// try binds level's variable to u and goes on unless a conjunct or the
// head already decides; it reports whether the loop should go on.
func (r *constraintRun) try(level, u int) bool {
	r.asg[level] = u
	for j, b := range r.checks[level] {
		if b.Eval(r.checkArgs(level, j)...) != logic.True {
			return r.ok
		}
	}
	if level == r.k.headLevel && r.satisfied() {
		return r.ok
	}
	r.run(level + 1)
	return r.ok
}

// checkArgs are the positions in the loop of a conjunct's free variables,
// in the loop's order; inPlace when they are 0, 1, ..., the common case.
type checkArgs struct {
	pos     []int
	inPlace bool
}

// checkArgs returns the arguments of check j at level: its variables'
// values under asg, read in place when they start the loop.
func (r *constraintRun) checkArgs(level, j int) []int {
	a := &r.k.checkArgs[level][j]
	if a.inPlace {
		return r.asg[:len(a.pos)]
	}
	args := r.cargs[:len(a.pos)]
	for i, p := range a.pos {
		args[i] = r.asg[p]
	}
	return args
}

// headArgs fills args with the head's individuals under asg.
func (r *constraintRun) headArgs() {
	for i, a := range r.k.args {
		r.args[i] = r.asg[a]
	}
}

// satisfied reports whether the head already holds, so that the
// assignment needs no further look.
func (r *constraintRun) satisfied() bool {
	r.headArgs()
	args, s := r.args, r.s
	switch r.k.kind {
	case headAtom:
		return s.Get(r.k.pred, args...) == logic.True
	case headNotAtom:
		return s.Get(r.k.pred, args...) == logic.False
	case headEq:
		return args[0] == args[1] && !s.IsSummary(args[0])
	case headNeq:
		return args[0] != args[1]
	}
	return false
}

// enforce makes the head hold on a complete assignment whose body is 1:
// sharpens a 1/2, or finds the structure inconsistent.
func (r *constraintRun) enforce() {
	k := r.k
	if r.d != nil && !k.touches(r.asg, r.d, r.c.voc.Summary()) {
		return
	}
	r.headArgs()
	args := r.args
	switch k.kind {
	case headFalse:
		r.ok = false
	case headAtom, headNotAtom:
		want := logic.True
		if k.kind == headNotAtom {
			want = logic.False
		}
		switch cur := r.s.Get(k.pred, args...); {
		case cur == want:
		case cur == logic.Unknown:
			if r.repeatsSummary() {
				return
			}
			r.sharpen(k.pred, want, args, func() { r.s.Set(k.pred, want, args...) },
				func() string { return fmt.Sprintf("%s%v := %v", k.pred.Name, args, want) })
		default:
			r.ok = false
		}
	case headEq:
		u, w := args[0], args[1]
		switch {
		case u != w:
			r.ok = false
		case r.s.IsSummary(u):
			sm := r.c.voc.Summary()
			r.sharpen(sm, logic.Unknown, []int{u}, func() { r.s.SetSummary(u, false) },
				func() string { return fmt.Sprintf("u%d made non-summary", u) })
		}
	case headNeq:
		if args[0] == args[1] {
			r.ok = false
		}
	}
	if !r.ok {
		r.res.Breaches++
		r.res.Violated = k.src.String() + " (" + k.src.Origin + ")"
	}
}

// repeatsSummary: the head names one variable twice (p(v, v)) and the
// assignment binds it to a summary individual. The tuple (u, u) then
// also stands for p between two distinct members of u, about which the
// body says nothing, so the 1/2 must stay (as in TVLA 3: a list segment
// summarised with n(s, s) = 1/2 and self(v) = n(v, v) 0 on s keeps the
// segment's links).
func (r *constraintRun) repeatsSummary() bool {
	for _, v := range r.k.repeats {
		if r.s.IsSummary(r.asg[v]) {
			return true
		}
	}
	return false
}

// sharpen applies one sharpening of p's tuple args (set), records it,
// and starts the conjuncts' evaluation afresh, since the structure
// changed under them.
func (r *constraintRun) sharpen(p *tvl.Pred, v logic.Kleene, args []int, set func(), what func() string) {
	set()
	r.touched.mark(p, v)
	r.c.ones.set(p, v)
	if r.d != nil {
		r.d.AddTuple(p, args)
	}
	r.res.Breaches++
	if r.c.Trace != nil {
		r.c.Trace(r.k.src.String()+" ("+r.k.src.Origin+")", what())
	}
	for _, bs := range r.checks {
		for _, b := range bs {
			b.Reset()
		}
	}
}

// Holding returns a Coercer with only the constraints that the
// two-valued structure s satisfies, and whether s breaks any (c itself
// when it breaks none).
func (c *Coercer) Holding(s *tvl.Structure) (*Coercer, bool) {
	x := s.Clone()
	c.ones.reset(len(c.byPred))
	var keep []*constraint
	var res CoerceResult
	for i, k := range c.cons {
		if c.apply(x, i, k, make(touchSet, len(c.byPred)), &res, nil) {
			keep = append(keep, k)
		}
	}
	if len(keep) == len(c.cons) {
		return c, false
	}
	h := newCoercer(c.voc, keep)
	h.Polar = c.Polar
	return h, true
}
