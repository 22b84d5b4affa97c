package algc

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
	in := map[*loc]map[string]bool{}
	all := map[string]bool{}
	for _, x := range c.s.threadOrder {
		all[x] = true
	}
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
			out := c.privateAfter(st, in[st.from])
			target := in[st.to]
			for x := range target {
				if !out[x] {
					delete(target, x)
					changed = true
				}
			}
		}
	}
	for _, st := range c.b.steps {
		st.private = st.storeBase != "" && in[st.from][st.storeBase]
	}
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
