package abstraction

import (
	"fmt"
	"sync"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// maxFocusSteps bounds the splits one Focus may make: past it, the
// formula is taken not to become definite in finitely many structures.
const maxFocusSteps = 20000

// Focuser makes one formula definite (Lev-Ami's general Focus): while the
// formula is 1/2 under some assignment, it finds a predicate tuple at 1/2
// responsible for that and splits the structure on it — the tuple set to
// 1, set to 0, and, when the tuple holds one summary individual, that
// individual bifurcated into a part where the tuple is 1 and a part where
// it is 0.
type Focuser struct {
	voc     *tvl.Vocabulary
	formula logic.Formula
	vars    []logic.Var
	root    *tvl.Compiled
	subs    *subformulas
	// skip, when set, marks tuples Focus must not split (WithSkip).
	skip func(p *tvl.Pred, args []int) bool
	// whole, when set, is the written formula this one is a step of
	// (InSequence), its outer quantifiers dropped; wholeVars its free
	// variables.
	whole     logic.Formula
	wholeVars []logic.Var
}

// InSequence is fo as one step of the focus sequence of the written
// formula (ConjunctionFocus): with WithSkip, an assignment is left as it
// is when the written formula, not only this step, is 1/2 through a
// skipped tuple under it, as TVLA 3's dtvla engine decides before it
// walks the formula (engine/join_decomp_alone_test.go).
func (fo *Focuser) InSequence(written logic.Formula) *Focuser {
	c := *fo
	c.whole, c.wholeVars = stripQuantifiers(written, logic.FreeVars(written))
	return &c
}

// WithSkip is fo, but leaving as they are the assignments under which
// the formula is 1/2 through a tuple for which skip is true (a literal at
// 1/2 in any part of the formula at 1/2, even where another literal
// could be split): TVLA 3's dtvla engine does so on a component's
// opened values (engine/join_decomp_alone_test.go).
func (fo *Focuser) WithSkip(skip func(p *tvl.Pred, args []int) bool) *Focuser {
	c := *fo
	c.skip = skip
	return &c
}

// subformulas caches the compiled subformulas of one focus formula, for
// Focus and for the walk of a WalkingFocuser; workers share it. Focus
// looks its subformulas up by identity (they are parts of the formula);
// the walk compiles them relativized, and also conjunctions it builds as
// it goes, so it looks them up by text.
type subformulas struct {
	mu         sync.RWMutex
	byFormula  map[logic.Formula]*tvl.Compiled
	byText     map[string]*tvl.Compiled
	vocabulary *tvl.Vocabulary
}

// compiled returns g compiled over its free variables.
func (c *subformulas) compiled(g logic.Formula) *tvl.Compiled {
	c.mu.RLock()
	k, ok := c.byFormula[g]
	c.mu.RUnlock()
	if ok {
		return k
	}
	k = c.compile(g, logic.FreeVars(g))
	c.mu.Lock()
	c.byFormula[g] = k
	c.mu.Unlock()
	return k
}

// compiledAs returns g, rewritten by restrict, compiled over vars; key
// names the rewriting.
func (c *subformulas) compiledAs(g logic.Formula, vars []logic.Var, key string, restrict func(logic.Formula) logic.Formula) *tvl.Compiled {
	text := key + "\x00" + logic.String(g)
	for _, v := range vars {
		text += "\x00" + string(v)
	}
	c.mu.RLock()
	k, ok := c.byText[text]
	c.mu.RUnlock()
	if ok {
		return k
	}
	k = c.compile(restrict(g), vars)
	c.mu.Lock()
	c.byText[text] = k
	c.mu.Unlock()
	return k
}

func (c *subformulas) compile(g logic.Formula, vars []logic.Var) *tvl.Compiled {
	k, err := tvl.Compile(g, c.vocabulary, vars)
	if err != nil {
		// Subformulas of a compiled formula always compile.
		panic(err)
	}
	return k
}

// NewFocuser compiles f over voc.
func NewFocuser(voc *tvl.Vocabulary, f logic.Formula) (*Focuser, error) {
	vars := logic.FreeVars(f)
	root, err := tvl.Compile(f, voc, vars)
	if err != nil {
		return nil, err
	}
	subs := &subformulas{byFormula: map[logic.Formula]*tvl.Compiled{}, byText: map[string]*tvl.Compiled{}, vocabulary: voc}
	return &Focuser{voc: voc, formula: f, vars: vars, root: root, subs: subs}, nil
}

// Formula returns the formula focused on.
func (fo *Focuser) Formula() logic.Formula { return fo.formula }

// FocusError says that Focus cannot make a formula definite.
type FocusError struct {
	Formula string
	Reason  string
}

func (e *FocusError) Error() string {
	return fmt.Sprintf("cannot focus on %s: %s", e.Formula, e.Reason)
}

// Focus returns structures that together represent what s represents and
// in each of which the formula is definite under every assignment — except
// where only an equality on a summary individual keeps it at 1/2, which no
// finite split can change; those structures are returned as they are. s
// itself is not changed.
//
// When refine is not nil it is applied to every structure a split
// produces, with the predicates the split changed, before Focus looks at
// it again: it sharpens the structure in
// place (Coerce) or reports it inconsistent, and such structures are
// dropped. Refining as it goes is what lets Focus end: setting n(u, w) to
// 1 makes w non-summary under a function property, after which t[n](w, w)
// is definite instead of a summary individual related to itself.
func (fo *Focuser) Focus(s *tvl.Structure, refine func(t *tvl.Structure, changed []*tvl.Pred) bool, bs Bindings) ([]*tvl.Structure, error) {
	var out []*tvl.Structure
	work := []*tvl.Structure{s}
	// made holds the structures this call made: a split may reuse one
	// as a part, as nothing else refers to it; s is the caller's.
	made := map[*tvl.Structure]bool{}
	steps := 0
	for len(work) > 0 {
		t := work[0]
		work = work[1:]
		lit, err := fo.unknownLiteral(t, bs)
		if err != nil {
			return nil, err
		}
		if lit == nil {
			out = append(out, t)
			continue
		}
		steps++
		if steps > maxFocusSteps {
			return nil, &FocusError{Formula: logic.String(fo.formula), Reason: fmt.Sprintf("no result after %d splits; the formula does not become definite", maxFocusSteps)}
		}
		parts, err := fo.split(t, lit, made[t])
		if err != nil {
			return nil, err
		}
		delete(made, t)
		if len(lit.args) == 0 {
			// A nullary predicate: TVLA 3 takes the part at 1 first
			// (for a tuple of individuals, the part at 0).
			parts[0], parts[1] = parts[1], parts[0]
		}
		// A split changes the focused predicate's tuple and, in the third
		// part (which bifurcates an individual), summary-ness and
		// equality.
		var kept []*tvl.Structure
		for i, p := range parts {
			changed := []*tvl.Pred{lit.pred}
			if i == 2 {
				changed = append(changed, t.Vocabulary().Summary())
			}
			made[p] = true
			if refine == nil || refine(p, changed) {
				kept = append(kept, p)
			}
		}
		// Depth first: a part is focused to the end before the next
		// part. The order of the results is the order in which the
		// engine takes them on, which decides what the partial join
		// merges and where a run stops; this is TVLA 3's order (found
		// black box: docs/reference-differences.md).
		work = append(kept, work...)
	}
	return out, nil
}

// literal is a predicate tuple at 1/2.
type literal struct {
	pred *tvl.Pred
	args []int
	// atomArgs is, for the existence of an individual of an atom (in a
	// WalkingFocuser's walk), the atom's tuple.
	atomArgs []int
}

// unknownLiteral finds, for the first assignment (in lexicographic order)
// under which the formula is 1/2 and can be focused, a responsible tuple.
func (fo *Focuser) unknownLiteral(t *tvl.Structure, bs Bindings) (*literal, error) {
	var found *literal
	var ferr error
	env := map[logic.Var]int{}
	bs.bind(fo.root, t).ForEachNonZero(func(asg []int, v logic.Kleene) bool {
		if v != logic.Unknown {
			return true
		}
		for i, x := range fo.vars {
			env[x] = asg[i]
		}
		if fo.skip != nil && fo.openedAssignment(t, bs, env) {
			return true
		}
		found, ferr = fo.find(t, bs, fo.formula, env)
		return found == nil && ferr == nil
	})
	return found, ferr
}

// openedAssignment reports whether the assignment env is left as it is:
// the formula (or the written one it is a step of, under some value of
// the variables this step does not bind) is 1/2 through a skipped tuple.
func (fo *Focuser) openedAssignment(t *tvl.Structure, bs Bindings, env map[logic.Var]int) bool {
	if fo.whole == nil {
		return fo.opened(t, bs, fo.formula, env)
	}
	inner := copyEnv(env)
	var missing []logic.Var
	for _, v := range fo.wholeVars {
		if _, ok := env[v]; !ok {
			missing = append(missing, v)
		}
	}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(missing) {
			return fo.eval(t, bs, fo.whole, inner) == logic.Unknown && fo.opened(t, bs, fo.whole, inner)
		}
		for u := range t.Size() {
			inner[missing[i]] = u
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// eval evaluates subformula g under env.
func (fo *Focuser) eval(t *tvl.Structure, bs Bindings, g logic.Formula, env map[logic.Var]int) logic.Kleene {
	c := fo.subs.compiled(g)
	var buf [4]int
	asg := buf[:0]
	for _, v := range c.Free() {
		asg = append(asg, env[v])
	}
	return bs.bind(c, t).Eval(asg...)
}

// find returns a tuple at 1/2 that makes g (which is 1/2 under env) 1/2,
// or nil when only equalities on summary individuals do.
func (fo *Focuser) find(t *tvl.Structure, bs Bindings, g logic.Formula, env map[logic.Var]int) (*literal, error) {
	switch h := g.(type) {
	case *logic.Atom:
		p := fo.voc.Lookup(h.Pred)
		args := make([]int, len(h.Args))
		for i, v := range h.Args {
			args[i] = env[v]
		}
		if fo.skip != nil && fo.skip(p, args) {
			return nil, nil
		}
		return &literal{pred: p, args: args}, nil
	case *logic.Equal, *logic.Const:
		return nil, nil
	case *logic.Not:
		return fo.find(t, bs, h.Sub, env)
	case *logic.Binary:
		for _, side := range []logic.Formula{h.Left, h.Right} {
			if fo.eval(t, bs, side, env) != logic.Unknown {
				continue
			}
			if lit, err := fo.find(t, bs, side, env); lit != nil || err != nil {
				return lit, err
			}
		}
		return nil, nil
	case *logic.If:
		for _, part := range []logic.Formula{h.Cond, h.Then, h.Else} {
			if fo.eval(t, bs, part, env) != logic.Unknown {
				continue
			}
			if lit, err := fo.find(t, bs, part, env); lit != nil || err != nil {
				return lit, err
			}
		}
		return nil, nil
	case *logic.Quant:
		return fo.findQuant(t, bs, h, env, 0)
	case *logic.Closure:
		p := fo.voc.Lookup(h.Pred)
		step := func(a, b int) logic.Kleene { return t.Binary(p.Index, a, b) }
		a, b, ok := halfEdgeOnPath(t.Size(), step, env[h.From], env[h.To])
		if !ok || (fo.skip != nil && fo.skip(p, []int{a, b})) {
			return nil, nil
		}
		return &literal{pred: p, args: []int{a, b}}, nil
	case *logic.TC:
		inner := copyEnv(env)
		step := func(a, b int) logic.Kleene {
			inner[h.Sub1], inner[h.Sub2] = a, b
			return fo.eval(t, bs, h.Body, inner)
		}
		a, b, ok := halfEdgeOnPath(t.Size(), step, env[h.From], env[h.To])
		if !ok {
			return nil, nil
		}
		inner[h.Sub1], inner[h.Sub2] = a, b
		return fo.find(t, bs, h.Body, inner)
	}
	return nil, nil
}

// opened reports whether g, 1/2 under env, is 1/2 through a tuple that
// fo.skip marks: a literal at 1/2 in a part of g at 1/2 (every such
// part, not only the first, as find takes).
func (fo *Focuser) opened(t *tvl.Structure, bs Bindings, g logic.Formula, env map[logic.Var]int) bool {
	switch h := g.(type) {
	case *logic.Atom:
		args := make([]int, len(h.Args))
		for i, v := range h.Args {
			args[i] = env[v]
		}
		return fo.skip(fo.voc.Lookup(h.Pred), args)
	case *logic.Not:
		return fo.opened(t, bs, h.Sub, env)
	case *logic.Binary:
		return fo.openedAny(t, bs, env, h.Left, h.Right)
	case *logic.If:
		return fo.openedAny(t, bs, env, h.Cond, h.Then, h.Else)
	case *logic.Quant:
		return fo.openedQuant(t, bs, h, copyEnv(env), 0)
	case *logic.Closure:
		p := fo.voc.Lookup(h.Pred)
		for a := range t.Size() {
			for b := range t.Size() {
				if t.Binary(p.Index, a, b) == logic.Unknown && fo.skip(p, []int{a, b}) {
					return true
				}
			}
		}
	case *logic.TC:
		inner := copyEnv(env)
		for a := range t.Size() {
			for b := range t.Size() {
				inner[h.Sub1], inner[h.Sub2] = a, b
				if fo.eval(t, bs, h.Body, inner) == logic.Unknown && fo.opened(t, bs, h.Body, inner) {
					return true
				}
			}
		}
	}
	return false
}

// openedAny is opened for any of parts at 1/2 under env.
func (fo *Focuser) openedAny(t *tvl.Structure, bs Bindings, env map[logic.Var]int, parts ...logic.Formula) bool {
	for _, part := range parts {
		if fo.eval(t, bs, part, env) == logic.Unknown && fo.opened(t, bs, part, env) {
			return true
		}
	}
	return false
}

// openedQuant is opened for q's body under every assignment of its
// variables from the i-th on.
func (fo *Focuser) openedQuant(t *tvl.Structure, bs Bindings, q *logic.Quant, env map[logic.Var]int, i int) bool {
	if i == len(q.Vars) {
		return fo.eval(t, bs, q.Body, env) == logic.Unknown && fo.opened(t, bs, q.Body, env)
	}
	for u := range t.Size() {
		env[q.Vars[i]] = u
		if fo.openedQuant(t, bs, q, env, i+1) {
			return true
		}
	}
	return false
}

func (fo *Focuser) findQuant(t *tvl.Structure, bs Bindings, q *logic.Quant, env map[logic.Var]int, i int) (*literal, error) {
	if i == len(q.Vars) {
		if fo.eval(t, bs, q.Body, env) != logic.Unknown {
			return nil, nil
		}
		return fo.find(t, bs, q.Body, env)
	}
	inner := copyEnv(env)
	for u := 0; u < t.Size(); u++ {
		inner[q.Vars[i]] = u
		if lit, err := fo.findQuant(t, bs, q, inner, i+1); lit != nil || err != nil {
			return lit, err
		}
	}
	return nil, nil
}

func copyEnv(env map[logic.Var]int) map[logic.Var]int {
	c := make(map[logic.Var]int, len(env)+2)
	for k, v := range env {
		c[k] = v
	}
	return c
}

// halfEdgeOnPath finds a shortest path of one or more steps from 'from' to
// 'to' whose steps are all 1 or 1/2, and returns its first 1/2 step.
func halfEdgeOnPath(n int, step func(a, b int) logic.Kleene, from, to int) (int, int, bool) {
	prev := make([]int, n)
	for i := range prev {
		prev[i] = -1
	}
	queue := []int{}
	for b := 0; b < n; b++ {
		if step(from, b) != logic.False {
			prev[b] = from
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 && prev[to] < 0 {
		a := queue[0]
		queue = queue[1:]
		for b := 0; b < n; b++ {
			if prev[b] < 0 && step(a, b) != logic.False {
				prev[b] = a
				queue = append(queue, b)
			}
		}
	}
	if prev[to] < 0 {
		return 0, 0, false
	}
	// Walk back from 'to' collecting the path, then take its first 1/2 step.
	var path [][2]int
	b := to
	for {
		a := prev[b]
		path = append(path, [2]int{a, b})
		if a == from {
			break
		}
		b = a
		if len(path) > n {
			break
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		if step(path[i][0], path[i][1]) == logic.Unknown {
			return path[i][0], path[i][1], true
		}
	}
	return 0, 0, false
}

// split returns the structures that refine t on lit: lit at 1, lit at 0,
// and, when lit's tuple involves one summary individual once, that
// individual bifurcated. When reuse is set, t is the caller's to change,
// and becomes the part with lit at 0.
func (fo *Focuser) split(t *tvl.Structure, lit *literal, reuse bool) ([]*tvl.Structure, error) {
	summary := -1
	count := 0
	for _, u := range lit.args {
		if t.IsSummary(u) {
			if summary >= 0 && summary != u {
				return nil, &FocusError{Formula: logic.String(fo.formula),
					Reason: fmt.Sprintf("%s would have to split two summary individuals", tupleString(lit))}
			}
			summary = u
			count++
		}
	}
	if count > 1 {
		return nil, &FocusError{Formula: logic.String(fo.formula),
			Reason: fmt.Sprintf("%s relates a summary individual to itself", tupleString(lit))}
	}
	one := t.Clone()
	one.Set(lit.pred, logic.True, lit.args...)
	var both *tvl.Structure
	if summary >= 0 {
		both = t.Clone() // before t may become zero
	}
	zero := t
	if !reuse {
		zero = t.Clone()
	}
	zero.Set(lit.pred, logic.False, lit.args...)
	out := []*tvl.Structure{zero, one}
	if summary >= 0 {
		c := both.Duplicate(summary)
		other := append([]int(nil), lit.args...)
		for i, u := range other {
			if u == summary {
				other[i] = c
			}
		}
		both.Set(lit.pred, logic.True, lit.args...)
		both.Set(lit.pred, logic.False, other...)
		out = append(out, both)
	}
	return out, nil
}

func tupleString(lit *literal) string {
	s := lit.pred.Name + "("
	for i, a := range lit.args {
		if i > 0 {
			s += ", "
		}
		s += tvl.IndividualName(a)
	}
	return s + ")"
}
