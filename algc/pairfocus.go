package algc

// pairFocus makes a step that writes a thread-local node variable x also
// focus on the scheduled thread's node of every variable y that a
// generated predicate relates to x (same[x,y], succ[x,y], ordered[x,y]
// either way round), as the hand-written models do ("sstail := Tail"
// focuses sshead and ssnext). Finite differencing computes the new value
// of such a predicate from y's node; where y's node is 1/2 (a partial
// join at a scheduling point merged the thread's snapshots) the
// predicate would become 1/2, and a later join would lose how the two
// snapshots go together: msqueue's dequeue then "forgot" that sshead =
// sstail when sshead had no successor, and reported a null ssnext. A
// variable that the step clears, or writes itself, is not focused.
func (c *compiler) pairFocus() {
	for _, st := range c.b.steps {
		if st.clearAll || len(st.assigns) == 0 {
			continue
		}
		skip := map[string]bool{}
		for _, x := range st.clear {
			skip[x] = true
		}
		for x := range st.writes {
			skip[x] = true
		}
		seen := map[string]bool{}
		for _, f := range st.focus {
			seen[f] = true
		}
		for _, a := range st.assigns {
			if !isNode(c.s.thread[a.name]) {
				continue
			}
			for _, i := range c.gen.list {
				y := ""
				switch a.name {
				case i.pair[0]:
					y = i.pair[1]
				case i.pair[1]:
					y = i.pair[0]
				}
				if y == "" || y == a.name || skip[y] {
					continue
				}
				f := sched(y + "(ts, v)")
				if !seen[f] {
					seen[f] = true
					st.focus = append(st.focus, f)
				}
			}
		}
	}
}
