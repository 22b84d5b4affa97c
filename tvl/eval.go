package tvl

import (
	"fmt"

	"github.com/tvla-go/tvla/logic"
)

// Compiled is a formula prepared for evaluation over structures of one
// vocabulary: predicates are resolved to their tables and variables to
// slots of an assignment, once, so evaluation does no lookups by name.
type Compiled struct {
	formula logic.Formula
	free    []logic.Var
	slots   int
	tcs     int // closures whose matrix does not depend on the assignment
	root    evalNode
	plan    func() *freePlan // with free variables: where the formula is not 0
}

// evalNode evaluates one subformula in an evaluation state.
type evalNode func(st *state) Kleene

// state is what one evaluation reads: the structure, the assignment of
// every variable slot, and the closure matrices computed so far.
type state struct {
	s   *Structure
	env []int
	tc  []*closure
	// spare keeps each closure slot's matrices across Reset and Rebind,
	// to be refilled rather than allocated again (Coerce resets after
	// every sharpening).
	spare []*closure
	// shared, when set, holds the closures of tables no structure can
	// write any more, across bindings.
	shared *ClosureCache
}

// closureFor returns cache slot i's closure matrices sized for the
// current structure, contents unspecified.
func (st *state) closureFor(i int) *closure {
	size := st.s.n * st.s.stride
	m := st.spare[i]
	if m == nil || cap(m.def) < size {
		m = &closure{def: make([]uint64, size), pos: make([]uint64, size)}
		st.spare[i] = m
	}
	m.stride, m.def, m.pos = st.s.stride, m.def[:size], m.pos[:size]
	return m
}

// Compile prepares f for evaluation over structures of voc. free lists the
// variables an assignment gives values to, in order; a free variable of f
// missing from free is an error, as is an undeclared predicate or a
// predicate used with the wrong number of arguments.
func Compile(f logic.Formula, voc *Vocabulary, free []logic.Var) (*Compiled, error) {
	c := &compiler{voc: voc, scope: map[logic.Var]int{}}
	for _, v := range free {
		if _, dup := c.scope[v]; dup {
			return nil, fmt.Errorf("variable %s listed twice", v)
		}
		c.scope[v] = c.newSlot()
	}
	var root evalNode
	var plan func() *freePlan
	var err error
	if len(free) == 0 {
		root, err = c.compile(f)
	} else {
		root, plan, err = c.compileFree(f, free)
	}
	if err != nil {
		return nil, err
	}
	return &Compiled{formula: f, free: append([]logic.Var(nil), free...), slots: c.slots, tcs: c.tcs, root: root, plan: plan}, nil
}

// Formula returns the formula that was compiled.
func (c *Compiled) Formula() logic.Formula { return c.formula }

// Free returns the variables an assignment binds, in order.
func (c *Compiled) Free() []logic.Var { return c.free }

// Eval evaluates the formula on s with the free variables bound to asg
// (in the order given to Compile). It computes closures afresh; use Bind
// to evaluate many assignments on one structure.
func (c *Compiled) Eval(s *Structure, asg ...int) Kleene {
	return c.Bind(s).Eval(asg...)
}

// Bound is a compiled formula tied to one structure. It keeps the closure
// matrices it computes, so it must be dropped (or Reset) once the
// structure changes. It is not safe for concurrent use.
type Bound struct {
	c  *Compiled
	st state
	// Most formulas have a few variables and at most one closure: their
	// state fits here, and Bind makes one allocation, not four.
	envBuf [4]int
	tcBuf  [2]*closure
}

// Bind ties the formula to s for repeated evaluation.
func (c *Compiled) Bind(s *Structure) *Bound {
	b := &Bound{c: c}
	b.st.s = s
	if c.slots <= len(b.envBuf) {
		b.st.env = b.envBuf[:c.slots]
	} else {
		b.st.env = make([]int, c.slots)
	}
	if c.tcs == 1 {
		b.st.tc, b.st.spare = b.tcBuf[:1:1], b.tcBuf[1:2:2]
	} else if c.tcs > 1 {
		b.st.tc, b.st.spare = make([]*closure, c.tcs), make([]*closure, c.tcs)
	}
	return b
}

// Rebind ties the formula to another structure, reusing the evaluation
// state (no allocation): for callers that evaluate one formula on many
// structures in turn.
func (b *Bound) Rebind(s *Structure) {
	b.st.s = s
	clear(b.st.tc)
}

// ShareClosures makes b take the closures of binary predicates that the
// bound structure cannot write (tables it shares with other structures,
// frozen or interned ones) from cc, and put those it computes there:
// formulas bound in turn to the same structures (a Coercer's
// constraints) compute each such closure once.
func (b *Bound) ShareClosures(cc *ClosureCache) { b.st.shared = cc }

// Reset forgets cached closures, after the structure was changed.
func (b *Bound) Reset() {
	clear(b.st.tc)
}

// Eval evaluates under the assignment asg.
func (b *Bound) Eval(asg ...int) Kleene {
	if len(asg) != len(b.c.free) {
		panic(fmt.Sprintf("tvl: formula has %d free variables, got %d values", len(b.c.free), len(asg)))
	}
	for _, u := range asg {
		if u < 0 || u >= b.st.s.n {
			panic(fmt.Sprintf("tvl: individual %d out of range (universe of %d)", u, b.st.s.n))
		}
	}
	copy(b.st.env, asg)
	return b.c.root(&b.st)
}

// ForEach evaluates the formula under every assignment of its free
// variables, in lexicographic order, and calls visit with each assignment
// (valid only during the call, and not to be changed: it is the
// environment the formula reads) and value. visit returns false to stop.
func (b *Bound) ForEach(visit func(asg []int, v Kleene) bool) {
	// The assignments are walked in place in the environment's first
	// slots, the free variables': copying each into it was a quarter of
	// the time of a run whose preconditions have four free variables.
	k, n := len(b.c.free), b.st.s.n
	if k > 0 && n <= 0 {
		return
	}
	asg := b.st.env[:k]
	clear(asg)
	for {
		if !visit(asg, b.c.root(&b.st)) || !nextTuple(asg, n) {
			return
		}
	}
}

type compiler struct {
	voc   *Vocabulary
	scope map[logic.Var]int
	slots int
	tcs   int
	free  logic.FreeVarsMemo // of the subformulas, each computed once
	// splits remembers mightSplit per node and polarity (quant.go).
	splits map[splitKey]bool
}

func (c *compiler) newSlot() int {
	c.slots++
	return c.slots - 1
}

func (c *compiler) slot(v logic.Var) (int, error) {
	if s, ok := c.scope[v]; ok {
		return s, nil
	}
	return 0, fmt.Errorf("unbound variable %s", v)
}

func (c *compiler) slots2(a, b logic.Var) (int, int, error) {
	x, err := c.slot(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := c.slot(b)
	return x, y, err
}

// bind gives vs fresh slots for the duration of body's compilation.
func (c *compiler) bind(vs []logic.Var, body func([]int) (evalNode, error)) (evalNode, error) {
	saved := make([]struct {
		slot int
		ok   bool
	}, len(vs))
	slots := make([]int, len(vs))
	for i, v := range vs {
		saved[i].slot, saved[i].ok = c.scope[v]
		slots[i] = c.newSlot()
		c.scope[v] = slots[i]
	}
	n, err := body(slots)
	for i := len(vs) - 1; i >= 0; i-- {
		if saved[i].ok {
			c.scope[vs[i]] = saved[i].slot
		} else {
			delete(c.scope, vs[i])
		}
	}
	return n, err
}

func (c *compiler) pred(name string, arity int) (*Pred, error) {
	p := c.voc.Lookup(name)
	if p == nil {
		return nil, fmt.Errorf("undeclared predicate %s", name)
	}
	if p.Arity != arity {
		return nil, fmt.Errorf("predicate %s has arity %d but is applied to %d arguments", name, p.Arity, arity)
	}
	return p, nil
}

func (c *compiler) compile(f logic.Formula) (evalNode, error) {
	switch g := f.(type) {
	case *logic.Const:
		v := g.Value
		return func(*state) Kleene { return v }, nil
	case *logic.Atom:
		return c.atom(g)
	case *logic.Equal:
		a, b, err := c.slots2(g.Left, g.Right)
		if err != nil {
			return nil, err
		}
		sm := c.voc.sm.Index
		return func(st *state) Kleene {
			u := st.env[a]
			if u != st.env[b] {
				return logic.False
			}
			if getBit(st.s.unaryHalf(sm), u) {
				return logic.Unknown
			}
			return logic.True
		}, nil
	case *logic.Not:
		sub, err := c.compile(g.Sub)
		if err != nil {
			return nil, err
		}
		return func(st *state) Kleene { return sub(st).Not() }, nil
	case *logic.Binary:
		return c.binary(g)
	case *logic.If:
		cond, err := c.compile(g.Cond)
		if err != nil {
			return nil, err
		}
		then, err := c.compile(g.Then)
		if err != nil {
			return nil, err
		}
		els, err := c.compile(g.Else)
		if err != nil {
			return nil, err
		}
		return func(st *state) Kleene {
			switch cond(st) {
			case logic.True:
				return then(st)
			case logic.False:
				return els(st)
			}
			return then(st).Join(els(st))
		}, nil
	case *logic.Quant:
		return c.quant(g)
	case *logic.TC:
		return c.tc(g)
	case *logic.Closure:
		return c.closureNode(g)
	}
	return nil, fmt.Errorf("unknown formula %T", f)
}

func (c *compiler) atom(g *logic.Atom) (evalNode, error) {
	p, err := c.pred(g.Pred, len(g.Args))
	if err != nil {
		return nil, err
	}
	slots := make([]int, len(g.Args))
	for i, v := range g.Args {
		if slots[i], err = c.slot(v); err != nil {
			return nil, err
		}
	}
	idx := p.Index
	switch p.Arity {
	case 0:
		return func(st *state) Kleene { return st.s.nullary[idx] }, nil
	case 1:
		a := slots[0]
		return func(st *state) Kleene { return st.s.Unary(idx, st.env[a]) }, nil
	case 2:
		a, b := slots[0], slots[1]
		return func(st *state) Kleene {
			return kleeneAt(st.s.binary[idx], st.env[a]*st.s.stride*64+st.env[b])
		}, nil
	}
	k := p.Arity
	return func(st *state) Kleene {
		args := make([]int, k)
		for i, sl := range slots {
			args[i] = st.env[sl]
		}
		return st.s.kary[k][idx].vals[KeyOf(args)]
	}, nil
}

func (c *compiler) binary(g *logic.Binary) (evalNode, error) {
	l, err := c.compile(g.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(g.Right)
	if err != nil {
		return nil, err
	}
	switch g.Op {
	case logic.And:
		return func(st *state) Kleene {
			a := l(st)
			if a == logic.False {
				return a
			}
			return a.And(r(st))
		}, nil
	case logic.Or:
		return func(st *state) Kleene {
			a := l(st)
			if a == logic.True {
				return a
			}
			return a.Or(r(st))
		}, nil
	case logic.Implies:
		return func(st *state) Kleene {
			a := l(st)
			if a == logic.False {
				return logic.True
			}
			return a.Implies(r(st))
		}, nil
	}
	return func(st *state) Kleene { return l(st).Iff(r(st)) }, nil
}

// closure is the transitive closure of a three-valued binary relation as
// two boolean matrices: def holds where some path has every step at 1,
// pos where some path has every step at 1 or 1/2. The closure's value is
// 1 on def, 1/2 on pos minus def, 0 elsewhere (the maximum over paths of
// the minimum along each).
type closure struct {
	stride   int
	def, pos []uint64
}

func (m *closure) at(u, w int) Kleene {
	i := u*m.stride*64 + w
	if getBit(m.def, i) {
		return logic.True
	}
	if getBit(m.pos, i) {
		return logic.Unknown
	}
	return logic.False
}

// closeRows turns a boolean relation (n rows of stride words) into its
// transitive closure in place (Warshall's algorithm, a row at a time).
func closeRows(rows []uint64, n, stride int) {
	for k := 0; k < n; k++ {
		rk := rows[k*stride : (k+1)*stride]
		for i := 0; i < n; i++ {
			if !getBit(rows[i*stride:], k) {
				continue
			}
			ri := rows[i*stride : (i+1)*stride]
			for w := range ri {
				ri[w] |= rk[w]
			}
		}
	}
}

// closeTable computes into m the closure of a binary predicate's table.
func closeTable(m *closure, t *table, n, stride int) {
	copy(m.def, t.val)
	for i := range m.pos {
		m.pos[i] = t.val[i] | t.half[i]
	}
	closeRows(m.def, n, stride)
	closeRows(m.pos, n, stride)
}

func (c *compiler) closureNode(g *logic.Closure) (evalNode, error) {
	p, err := c.pred(g.Pred, 2)
	if err != nil {
		return nil, err
	}
	a, b, err := c.slots2(g.From, g.To)
	if err != nil {
		return nil, err
	}
	idx, cache, sm, refl := p.Index, c.tcs, c.voc.sm.Index, g.Reflexive
	c.tcs++
	return func(st *state) Kleene {
		m := st.tc[cache]
		if m == nil {
			if m = st.shared.lookup(st.s, idx); m == nil {
				m = st.closureFor(cache)
				closeTable(m, st.s.binary[idx], st.s.n, st.s.stride)
			}
			st.tc[cache] = m
		}
		u, w := st.env[a], st.env[b]
		v := m.at(u, w)
		if refl && u == w && v != logic.True {
			// p*(u, u) is u == u | p+(u, u).
			if getBit(st.s.unaryHalf(sm), u) {
				return logic.Unknown
			}
			return logic.True
		}
		return v
	}, nil
}

func (c *compiler) tc(g *logic.TC) (evalNode, error) {
	a, b, err := c.slots2(g.From, g.To)
	if err != nil {
		return nil, err
	}
	var s1, s2 int
	body, err := c.bind([]logic.Var{g.Sub1, g.Sub2}, func(slots []int) (evalNode, error) {
		s1, s2 = slots[0], slots[1]
		return c.compile(g.Body)
	})
	if err != nil {
		return nil, err
	}
	// The matrix depends on the assignment only through the body's other
	// free variables; without any it is computed once per structure.
	shared := true
	for _, v := range c.free.Of(g.Body) {
		if v != g.Sub1 && v != g.Sub2 {
			shared = false
		}
	}
	build := func(st *state, m *closure) *closure {
		n, stride := st.s.n, st.s.stride
		clear(m.def)
		clear(m.pos)
		for u := 0; u < n; u++ {
			for w := 0; w < n; w++ {
				st.env[s1], st.env[s2] = u, w
				switch body(st) {
				case logic.True:
					putBit(m.def, u*stride*64+w, true)
					putBit(m.pos, u*stride*64+w, true)
				case logic.Unknown:
					putBit(m.pos, u*stride*64+w, true)
				}
			}
		}
		closeRows(m.def, n, stride)
		closeRows(m.pos, n, stride)
		return m
	}
	if !shared {
		return func(st *state) Kleene {
			size := st.s.n * st.s.stride
			m := &closure{stride: st.s.stride, def: make([]uint64, size), pos: make([]uint64, size)}
			return build(st, m).at(st.env[a], st.env[b])
		}, nil
	}
	cache := c.tcs
	c.tcs++
	return func(st *state) Kleene {
		m := st.tc[cache]
		if m == nil {
			m = build(st, st.closureFor(cache))
			st.tc[cache] = m
		}
		return m.at(st.env[a], st.env[b])
	}, nil
}
