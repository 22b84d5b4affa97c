package algc

import (
	"fmt"
	"strings"
)

// Private nodes. A node a thread has allocated and not yet stored where
// another thread can reach it (a shared variable, a field, a cas) is
// reachable through that thread's variables only. A store into such a
// node changes nothing another thread's variables see: the facts about
// them (opval, succ, ...) keep their values. Friggens states these facts
// in each hand-written update ("no thread's ss points to n's node");
// here they follow from a must-analysis of the step graph, and tvla
// embed checks them on concrete runs like any other update.

// privacy marks each field store whose target node is private.
func (c *compiler) privacy() {
	in := c.mustHold(c.threadVars(), c.privateAfter)
	for _, st := range c.b.steps {
		st.private = st.storeBase != "" && in[st.from][st.storeBase]
	}
	c.ownership()
}

// threadVars is the set of the thread-local variables.
func (c *compiler) threadVars() map[string]bool {
	all := map[string]bool{}
	for _, x := range c.s.threadOrder {
		all[x] = true
	}
	return all
}

// mustHold is a forward must-analysis over the step graph of the thread
// locations: the keys of all that hold at each location on every path
// from the idle location (and init's entry), where none holds; after
// gives what holds after a step from what holds before it.
func (c *compiler) mustHold(all map[string]bool, after func(st *step, before map[string]bool) map[string]bool) map[*loc]map[string]bool {
	in := map[*loc]map[string]bool{}
	for _, l := range c.b.locs {
		in[l] = copySet(all)
	}
	in[c.b.idle] = map[string]bool{}
	if c.initEntry != nil {
		in[c.initEntry] = map[string]bool{}
	}
	for changed := true; changed; {
		changed = false
		for _, st := range c.b.steps {
			if st.to == nil || st.to == c.b.yield || st.to == c.b.idle {
				continue
			}
			out := after(st, in[st.from])
			for k := range in[st.to] {
				if !out[k] {
					delete(in[st.to], k)
					changed = true
				}
			}
		}
	}
	return in
}

// ownership is privacy for a program that frees nodes: a node the thread
// took from the freed ones counts as allocated too. Another thread may
// then still point to it, but only through a pointer that dangles: one
// it published the node through, or a snapshot of it, never a variable
// that owns a node itself, since no node is allocated twice without
// being freed between. A step that frees a variable's node ends its
// ownership. This assumes that no thread frees a node another thread
// owns, through a pointer that dangles (a double free of a node reused
// meanwhile); tvla embed would find such a program's owner facts false
// on a concrete run. ownerFact turns this into a formula.
func (c *compiler) ownership() {
	if !c.s.frees {
		return
	}
	c.owned = c.mustHold(c.threadVars(), func(st *step, before map[string]bool) map[string]bool {
		out := c.privateAfter(st, before)
		for _, a := range st.assigns {
			if a.reuse {
				out[a.name] = true
			}
		}
		for _, x := range st.frees {
			delete(out, x)
		}
		return out
	})
	for _, st := range c.b.steps {
		st.owned = st.storeBase != "" && c.owned[st.from][st.storeBase]
	}
}

// ownerFact is what ownership says of another thread v whose x points to
// node u, where stored(u) says u is the node the scheduled thread owns
// and stores into: v is the scheduled thread, or x owns no node at v's
// location (v's x dangles). As a formula, true in every reachable state:
// tr_scheduled(v) | !(at[L1](v) | ...) | !stored(u), with the locations
// where x is owned; "" when x is owned nowhere.
func (c *compiler) ownerFact(x, v, u string, stored func(u string) string) string {
	var at []string
	for _, l := range c.b.locs {
		if l.thread && c.owned[l][x] {
			at = append(at, "at["+l.name+"]("+v+")")
		}
	}
	if len(at) == 0 {
		return ""
	}
	f := fmt.Sprintf("(tr_scheduled(%s) | !(%s)", v, strings.Join(at, " | "))
	if stored != nil {
		f += " | !" + stored(u)
	}
	return f + ")"
}

func (c *compiler) privateAfter(st *step, before map[string]bool) map[string]bool {
	out := copySet(before)
	for x := range st.writes {
		delete(out, x)
	}
	for _, x := range st.clear {
		delete(out, x)
	}
	for _, x := range st.publishes {
		delete(out, x)
	}
	for _, x := range st.allocs {
		out[x] = true
	}
	return out
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ownerFacts are the owner facts of the atoms x(v, u) of def, for a store
// into the node stored(u) says the scheduled thread owns (none when
// stored is nil).
func (c *compiler) ownerFacts(def *conj, stored func(u string) string) []string {
	if stored == nil {
		return nil
	}
	var out []string
	for _, a := range def.atoms {
		if a.neg || len(a.args) != 2 || a.args[0] != "v" || c.s.snap[a.pred] != "" {
			continue
		}
		if f := c.ownerFact(a.pred, "v", a.args[1], stored); f != "" {
			out = append(out, f)
		}
	}
	return out
}
