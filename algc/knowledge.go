package algc

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// What the model knows about values, updated explicitly. Data values are
// one summary individual, so "x.val = lv" makes val(x, d) 1/2 and
// finite differencing could only say that the node may have a value;
// the thesis' models record such facts in has[f] and opval[x] and update
// them by hand from what the statement does (a copy has a value when its
// source has one; after n.val = lv, n's value is lv). These are the same
// updates, made from the statement.

// has is "the value of x for thread t is not null".
func (c *compiler) has(x alg.Expr, t string) string {
	switch x := x.(type) {
	case nil, *alg.New:
		return "1"
	case *alg.Name:
		if c.s.isThread(x.Name) {
			if c.gen.has("has[" + x.Name + "]") {
				return fmt.Sprintf("has[%s](%s)", x.Name, t)
			}
			return fmt.Sprintf("(E(w_k) %s(%s, w_k))", x.Name, t)
		}
		return fmt.Sprintf("(E(w_k) %s(w_k))", x.Name)
	case *alg.Field:
		u := c.g.fresh()
		if c.gen.has("has[" + x.Name + "]") {
			return fmt.Sprintf("(E(%s) %s & has[%s](%s))", u, c.g.val(x.X, t, u), x.Name, u)
		}
		return fmt.Sprintf("(E(%s, w_k) %s & %s(%s, w_k))", u, c.g.val(x.X, t, u), x.Name, u)
	case *alg.Lit:
		if x.Value == "any" {
			return "1"
		}
	}
	return "0"
}

// opvals lists the opval instruments as (name, node var, data var).
func (c *compiler) opvals() [][3]string {
	var out [][3]string
	for _, i := range c.gen.list {
		if !strings.HasPrefix(i.name, "opval[") {
			continue
		}
		args := strings.Split(strings.TrimSuffix(strings.TrimPrefix(i.name, "opval["), "]"), ",")
		d := i.dataVar
		out = append(out, [3]string{i.name, args[0], d})
	}
	return out
}

// knowledge returns the explicit updates of what the step tells: mine
// are of the scheduled thread's predicates (other threads keep their
// values there, unless an overwrite changes them: Compiler.updates),
// nodes those of node predicates after a store.
func (c *compiler) knowledge(st *step) (mine, nodes []update) {
	// What the step clears is false for the thread whatever else the
	// step does (an update listed first wins).
	out := c.clearedKnowledge(st)
	cleared := map[string]bool{}
	for _, x := range st.clear {
		cleared[x] = true
	}
	for _, a := range st.assigns {
		if cleared[a.name] || a.cond != "" {
			continue
		}
		if h := "has[" + a.name + "]"; c.gen.has(h) {
			src := c.has(a.src, "v")
			switch {
			case src == "1":
				out = append(out, update{h + "(v)", h + "(v) | tr_scheduled(v)"})
			case src == "0":
				out = append(out, update{h + "(v)", h + "(v) & !tr_scheduled(v)"})
			case c.setOnly(st, a):
				out = append(out, update{h + "(v)", fmt.Sprintf("%s(v) | tr_scheduled(v) & %s", h, src)})
			default:
				out = append(out, update{h + "(v)", fmt.Sprintf("(tr_scheduled(v) ? %s : %s(v))", src, h)})
			}
		}
		out = append(out, c.opvalOnAssign(a)...)
	}
	for _, fs := range st.stores {
		nodes = append(nodes, c.storeKnowledge(fs, st.private, st.owned)...)
	}
	return out, nodes
}

// opvalOnAssign: d = x.val makes opval[x,d] hold (when both have
// values); x = y copies opval[y,d]; x = new T clears it.
func (c *compiler) opvalOnAssign(a *threadAssign) []update {
	var out []update
	for _, o := range c.opvals() {
		name, x, d := o[0], o[1], o[2]
		var now string
		switch {
		case a.name == d && isFieldOf(a.src, x, c.s.value):
			now = fmt.Sprintf("%s & (E(w_k) %s(v, w_k) & has[%s](w_k))", c.has(&alg.Name{Name: x}, "v"), x, c.s.value)
		case a.name == x && a.isNew:
			now = "0"
		case a.name == x && isThreadName(c.s, a.src) && c.gen.has(fmt.Sprintf("opval[%s,%s]", a.src.(*alg.Name).Name, d)):
			now = fmt.Sprintf("opval[%s,%s](v)", a.src.(*alg.Name).Name, d)
		case a.name == x && isThreadName(c.s, a.src) && len(c.opvalsOf(a.src.(*alg.Name).Name, d)) > 0:
			now = c.opvalsOf(a.src.(*alg.Name).Name, d)[0] + "(v)"
		default:
			continue
		}
		out = append(out, update{name + "(v)", fmt.Sprintf("(tr_scheduled(v) ? %s : %s(v))", now, name)})
	}
	return out
}

func (c *compiler) opvalsOf(x, d string) []string {
	var out []string
	for _, o := range c.opvals() {
		if o[1] == x && o[2] == d {
			out = append(out, o[0])
		}
	}
	return out
}

func isFieldOf(x alg.Expr, base, field string) bool {
	f, ok := x.(*alg.Field)
	if !ok || f.Name != field {
		return false
	}
	n, ok := f.X.(*alg.Name)
	return ok && n.Name == base
}

func isThreadName(s *symbols, x alg.Expr) bool {
	n, ok := x.(*alg.Name)
	return ok && s.isThread(n.Name)
}

// storeKnowledge: after x.f = e, x's node has an f when e has a value;
// after x.val = d, opval[x,d] holds for the thread that stored, and the
// node's specification node may no longer match.
func (c *compiler) storeKnowledge(fs *fieldStore, private, owned bool) []update {
	node := sched(c.g.val(fs.base, "ts", "v"))
	var out []update
	if h := "has[" + fs.field + "]"; c.gen.has(h) {
		out = append(out, update{h + "(v)", fmt.Sprintf("(%s ? %s : %s(v))", node, sched(c.has(fs.rhs, "ts")), h)})
	}
	if fs.field != c.s.value {
		return out
	}
	at := func(v string) string { return sched(c.g.val(fs.base, "ts", v)) }
	for _, o := range c.opvals() {
		name, x, d := o[0], o[1], o[2]
		// Another thread's facts change only if its x may point to the
		// node, which a private node rules out.
		others := "1/2"
		if private {
			others = name + "(v)"
		}
		exact := fmt.Sprintf("(tr_scheduled(v) ? 1/2 : %s)", others)
		if b, ok := fs.base.(*alg.Name); ok && b.Name == x {
			if r, ok := fs.rhs.(*alg.Name); ok && r.Name == d {
				exact = fmt.Sprintf("(tr_scheduled(v) ? (has[%s](v) & %s) : %s)", x, c.has(r, "v"), others)
			}
		}
		where := fmt.Sprintf("%s(v, w_k) & %s", x, at("w_k"))
		if f := c.snapshotFact(x, "v", "w_k"); f != "" && !private {
			where += " & " + f
		} else if f := c.ownerFact(x, "v", "w_k", nil); f != "" && owned && !private {
			where += " & " + f
		}
		out = append(out, update{name + "(v)", fmt.Sprintf("((E(w_k) %s) ? %s : %s(v))", where, exact, name)})
	}
	if c.gen.has("matching") {
		out = append(out, update{"matching(v)", fmt.Sprintf("(%s ? ((E(w_k) spec(v, w_k)) & 1/2) : matching(v))", node)})
	}
	return out
}

// clearedKnowledge: what the thread's cleared variables made hold for it
// becomes false for it (the hand models' N_SS_SSNEXT_NULL): every
// generated predicate whose definition needs one of them, as x(v, _).
func (c *compiler) clearedKnowledge(st *step) []update {
	clear := st.clear
	if st.clearAll {
		clear = c.s.threadOrder
	}
	gone := map[string]bool{}
	for _, x := range clear {
		gone[x] = true
	}
	if st.clearAll {
		// The begin step clears everything but sets the parameters.
		for _, a := range st.assigns {
			delete(gone, a.name)
		}
	}
	// The shared variables the step writes (a shared pointer moved by a
	// store or a cas): a definition that reads
	// one changes for the other threads too (same[x,X] when X moves), so
	// "false for the scheduled thread, the others keep theirs" would be
	// wrong there; finite differencing updates it instead.
	written := map[string]bool{}
	for _, u := range st.updates {
		if i := strings.Index(u.lhs, "("); i > 0 && c.s.shared[u.lhs[:i]] != "" {
			written[u.lhs[:i]] = true
		}
	}
	var out []update
	for _, in := range c.gen.list {
		def := parseConj(in.decl)
		if def == nil || readsWritten(def, written, gone) {
			continue
		}
		for _, a := range def.atoms {
			if !a.neg && gone[a.pred] && len(a.args) > 0 && a.args[0] == "v" {
				out = append(out, update{in.name + "(v)", in.name + "(v) & !tr_scheduled(v)"})
				break
			}
		}
	}
	return out
}

// readsWritten says whether a definition reads a shared variable the
// step writes.
func readsWritten(def *conj, written, gone map[string]bool) bool {
	for _, a := range def.atoms {
		if written[a.pred] && !gone[a.pred] {
			return true
		}
	}
	return false
}
