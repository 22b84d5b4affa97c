package algc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// private[x]: what the thread stored into its private node x. A store
// x.f = y, x's node private (private.go: allocated by the thread and not
// yet stored where another thread can reach it) and y a thread-local node
// variable, makes x.f == y hold until x or y is written or cleared, x's
// node is published, or a step writes the field f anywhere: no other
// thread can write x's node meanwhile. A forward must-analysis of the
// step graph finds, per fact, the thread locations where it holds, and
// the fact becomes one consistency rule guarded by them:
//
//	(at[L1](v_1) | ...) & x(v_1, v_2) & y(v_1, v_3) ==> f(v_2, v_3)
//
// No predicate is added, so no structure is split: the rule only
// restores x.f where a join or Blur left it 1/2 (two threads' new nodes
// merged into one summary, whose f pointed to either thread's y) as soon
// as Focus materialises the thread and its node (docs/deque.md,
// snark-doherty.alg). A program that frees nodes gets an error instead:
// a reused node may be written through another thread's dangling pointer.

// privateFact is x.f == y.
type privateFact struct{ field, y string }

func (f privateFact) key() string { return f.field + "|" + f.y }

func (c *compiler) privateFamily(name string, args []string) (*instrument, string) {
	if len(args) != 1 || !isNode(c.s.thread[args[0]]) {
		return nil, "private takes one thread-local node variable: private[x]"
	}
	if c.s.frees {
		return nil, fmt.Sprintf("%s: the program frees nodes, and a reused node may be written through another thread's dangling pointer", name)
	}
	return &instrument{name: name, privateOf: args[0]}, ""
}

// privateFacts fills in the rules of the private[x] instruments; it runs
// once the step graph and its privacy are known.
func (c *compiler) privateFacts() {
	for _, in := range c.gen.list {
		if in.privateOf != "" {
			in.rules = c.privateRules(in.privateOf)
		}
	}
}

func (c *compiler) privateRules(x string) []string {
	universe := map[string]privateFact{}
	for _, st := range c.b.steps {
		for _, f := range c.privateGen(st, x) {
			universe[f.key()] = f
		}
	}
	all := map[string]bool{}
	for k := range universe {
		all[k] = true
	}
	in := c.mustHold(all, func(st *step, before map[string]bool) map[string]bool {
		return c.privateAfterFacts(st, x, before)
	})
	keys := make([]string, 0, len(universe))
	for k := range universe {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rules []string
	for _, k := range keys {
		var at []string
		for _, l := range c.b.locs {
			if l.thread && in[l][k] {
				at = append(at, "at["+l.name+"](v_1)")
			}
		}
		if len(at) == 0 {
			continue
		}
		f := universe[k]
		rules = append(rules, fmt.Sprintf("%%r (%s) & %s(v_1, v_2) & %s(v_1, v_3) ==> %s(v_2, v_3)", strings.Join(at, " | "), x, f.y, f.field))
	}
	return rules
}

// privateGen: the facts x.f == y a step establishes.
func (c *compiler) privateGen(st *step, x string) []privateFact {
	if !st.private || st.storeBase != x {
		return nil
	}
	var out []privateFact
	for _, fs := range st.stores {
		b, ok := fs.base.(*alg.Name)
		r, ok2 := fs.rhs.(*alg.Name)
		if !ok || !ok2 || b.Name != x || !isNode(c.s.thread[r.Name]) || !isNode(c.s.fields[fs.field]) {
			continue
		}
		out = append(out, privateFact{fs.field, r.Name})
	}
	return out
}

// privateAfterFacts: the facts that hold after st, given those before.
func (c *compiler) privateAfterFacts(st *step, x string, before map[string]bool) map[string]bool {
	out := map[string]bool{}
	if st.clearAll {
		return out
	}
	gone := map[string]bool{}
	for v := range st.writes {
		gone[v] = true
	}
	for _, v := range st.clear {
		gone[v] = true
	}
	if gone[x] || contains(st.publishes, x) {
		return out
	}
	fields := map[string]bool{}
	for _, u := range st.updates {
		if i := strings.Index(u.lhs, "("); i > 0 {
			fields[u.lhs[:i]] = true
		}
	}
	for _, it := range st.ites {
		fields[it.pred] = true
	}
	for k := range before {
		f, y, _ := strings.Cut(k, "|")
		if !gone[y] && !fields[f] {
			out[k] = true
		}
	}
	for _, f := range c.privateGen(st, x) {
		if !gone[f.y] {
			out[f.key()] = true
		}
	}
	return out
}
