package algc

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// Guarded re-evaluation. A step that overwrites a field or a variable
// (f(x, y) becomes NEW(x, y) where COND(x), else stays) changes an
// instrumentation predicate p(v) defined by a conjunction E(u...) a_1 &
// ... & a_k only where some witness uses a changed f tuple. So
//
//	p(v) = G(v) ? def'(v) : p(v)
//
// with def' the definition over the updated relations and G(v) the
// definition with one f atom replaced by COND of its first argument (the
// others widened to old-or-changed). Where G is 0 — the usual case: the
// overwritten field belongs to a node that p(v) does not look at — p
// keeps its stored value exactly, which finite differencing of an
// existential over an overwrite does not achieve on summary nodes
// (Friggens writes such frame facts, "commutes(v) = commutes(v)", by hand).
// Where the overwrite sets a boolean field to a constant and p reads it
// with one sign only, p can only lose (or only gain) tuples, and the
// update says so: p & (G ? def' : 1), or p | (G ? def' : 0).

// ite is an overwrite f(x, y) := cond(x) ? val(x, y) : f(x, y).
type ite struct {
	pred  string
	arity int
	cond  func(x string) string
	val   func(x, y string) string
	// sets is 1 when the new value is the constant true (a flag set,
	// Shann's cas(x.taken, false, true)), -1 when it is false, else 0.
	sets int
}

// conj is a definition E(vars) atoms.
type conj struct {
	vars  []string
	atoms []atom
}

type atom struct {
	neg  bool
	pred string // "" for an (in)equality
	args []string
	text string
}

var atomRE = regexp.MustCompile(`^(!?)([A-Za-z_][A-Za-z0-9_\[\],]*)\(([a-z0-9_, ]*)\)$`)

// parseConj reads the definition of one of the generator's %i lines, or
// returns nil for one that is not a plain conjunction.
func parseConj(decl string) *conj {
	i := strings.Index(decl, ") = ")
	if i < 0 {
		return nil
	}
	body := strings.TrimSpace(decl[i+4:])
	body = strings.TrimSuffix(strings.TrimSuffix(body, " THREAD_PRED"), " nonabs")
	c := &conj{}
	if strings.HasPrefix(body, "E(") {
		j := strings.Index(body, ")")
		for _, v := range strings.Split(body[2:j], ",") {
			c.vars = append(c.vars, strings.TrimSpace(v))
		}
		body = strings.TrimSpace(body[j+1:])
	}
	for _, part := range strings.Split(body, " & ") {
		part = strings.TrimSpace(part)
		if strings.Contains(part, "==") || strings.Contains(part, "!=") {
			if strings.ContainsAny(part, "()") {
				return nil
			}
			c.atoms = append(c.atoms, atom{text: part})
			continue
		}
		m := atomRE.FindStringSubmatch(part)
		if m == nil {
			return nil
		}
		a := atom{neg: m[1] == "!", pred: m[2], text: part}
		for _, x := range strings.Split(m[3], ",") {
			a.args = append(a.args, strings.TrimSpace(x))
		}
		c.atoms = append(c.atoms, a)
	}
	return c
}

func (c *conj) quantify(body []string) string {
	f := strings.Join(body, " & ")
	if len(c.vars) == 0 {
		return "(" + f + ")"
	}
	return fmt.Sprintf("(E(%s) %s)", strings.Join(c.vars, ", "), f)
}

// guarded returns p's guarded update for the overwrites, or false when
// p does not read an overwritten predicate.
func guarded(name string, c *conj, ites map[string]*ite, mine string) (update, bool) {
	var guards, post []string
	touched := false
	// down (up): every overwritten atom can only become false (true),
	// so p can only lose (gain) tuples.
	down, up := true, true
	for i, a := range c.atoms {
		it := ites[a.pred]
		if it == nil || len(a.args) != it.arity {
			post = append(post, a.text)
			continue
		}
		touched = true
		sign := it.sets
		if a.neg {
			sign = -sign
		}
		down, up = down && sign < 0, up && sign > 0
		var now string
		if it.arity == 1 {
			now = fmt.Sprintf("(%s ? %s : %s(%s))", it.cond(a.args[0]), it.val(a.args[0], ""), a.pred, a.args[0])
		} else {
			now = fmt.Sprintf("(%s ? %s : %s(%s, %s))", it.cond(a.args[0]), it.val(a.args[0], a.args[1]), a.pred, a.args[0], a.args[1])
		}
		if a.neg {
			now = "!" + now
		}
		post = append(post, now)
		var g []string
		for j, b := range c.atoms {
			jt := ites[b.pred]
			switch {
			case j == i:
				g = append(g, changed(it, a))
			case jt != nil && len(b.args) == jt.arity:
				g = append(g, fmt.Sprintf("(%s | %s)", b.text, jt.cond(b.args[0])))
			default:
				g = append(g, b.text)
			}
		}
		if mine != "" {
			// A private node: only the scheduled thread's facts change.
			g = append(g, mine)
		}
		guards = append(guards, c.quantify(g))
	}
	if !touched {
		return update{}, false
	}
	lhs := name + "(v)"
	g := strings.Join(guards, " | ")
	switch {
	case down:
		// Written as p & ψ, which finite differencing reads as "p only
		// loses": a fact derived from !p (a soft invariant nif[L,p] on
		// the collapsed threads' summary) is kept where the guard is
		// 1/2, as it is concretely.
		return update{lhs, fmt.Sprintf("%s & ((%s) ? %s : 1)", lhs, g, c.quantify(post))}, true
	case up:
		return update{lhs, fmt.Sprintf("%s | ((%s) ? %s : 0)", lhs, g, c.quantify(post))}, true
	}
	return update{lhs, fmt.Sprintf("((%s) ? %s : %s)", g, c.quantify(post), lhs)}, true
}

// changed says where the overwrite changes atom a's tuple: under the
// condition, and where the new value differs from the old. A field that
// was null and gets a node (a successful cas on a null next) changes no
// tuple a witness of the old definition used, so only the facts the new
// tuple can make are re-evaluated.
func changed(it *ite, a atom) string {
	if it.arity == 1 {
		x := a.args[0]
		return fmt.Sprintf("%s & (%s ? !%s(%s) : %s(%s))", it.cond(x), it.val(x, ""), a.pred, x, a.pred, x)
	}
	x, y := a.args[0], a.args[1]
	return fmt.Sprintf("%s & (%s ? !%s(%s, %s) : %s(%s, %s))", it.cond(x), it.val(x, y), a.pred, x, y, a.pred, x, y)
}

// guardedUpdates are the guarded updates of the generated predicates
// that read what the step overwrites.
func (c *compiler) guardedUpdates(ites map[string]*ite, st *step) []update {
	if len(ites) == 0 {
		return nil
	}
	private := st.private
	var stored func(u string) string
	if st.owned && !private {
		stored = func(u string) string { return sched(c.g.val(&alg.Name{Name: st.storeBase}, "ts", u)) }
	}
	var out []update
	for _, in := range c.gen.list {
		def := parseConj(in.decl)
		if def == nil {
			continue
		}
		mine := ""
		if private && c.threadDef(def) {
			mine = "tr_scheduled(v)"
		} else if facts := append(c.snapshotFacts(def), c.ownerFacts(def, stored)...); len(facts) > 0 {
			mine = strings.Join(facts, " & ")
		}
		if u, ok := guarded(in.name, def, ites, mine); ok {
			out = append(out, u)
		}
	}
	return out
}

// threadDef says whether a definition describes a thread v: it reads a
// thread-local variable of v.
func (c *compiler) threadDef(def *conj) bool {
	for _, a := range def.atoms {
		if c.s.isThread(a.pred) && len(a.args) > 0 && a.args[0] == "v" {
			return true
		}
	}
	return false
}
