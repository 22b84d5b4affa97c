package algc

import (
	"fmt"
	"slices"
)

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
//
// A comparison of x with another pointer focuses on x's partners too, as
// the hand model's "sshead = Head" focuses ssnext and "sshead = sstail"
// all three snapshots: with collapsed threads
// the scheduled thread's partner node, and the facts that a location's
// conditional soft invariants tie to it, are otherwise 1/2 together, and
// the correlation is lost at the next location (dglm.alg reported an
// empty dequeue that had not linearised as empty).
func (c *compiler) pairFocus() {
	for _, st := range c.b.steps {
		if st.clearAll || len(st.assigns)+len(st.compared) == 0 {
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
		vars := append([]string(nil), st.compared...)
		for _, a := range st.assigns {
			vars = append(vars, a.name)
		}
		for _, x := range vars {
			if !isNode(c.s.thread[x]) {
				continue
			}
			for _, i := range c.gen.list {
				y := ""
				switch x {
				case i.pair[0]:
					y = i.pair[1]
				case i.pair[1]:
					y = i.pair[0]
				}
				if y == "" || y == x || skip[y] {
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

// preFocus makes a step that moves a shared pointer X whose pre[X] the
// program requests focus on the nodes linked to X's new node. The new
// pre[X] is read through the link into that node, and the node before
// it usually sits in a summary (the middle of the list): without the
// focus finite differencing left pre[X] at 1/2 on the summary, the
// one-thread Ladan-Mozes–Shavit run kept such structures beside the
// exact ones at 17 locations (322 structures; 1,771 stored, 1,502 with
// the focus; with two threads the space is not visibly smaller,
// docs/lms-queue.md).
func (c *compiler) preFocus() {
	L := c.s.link
	if L == "" {
		return
	}
	for _, st := range c.b.steps {
		ch := st.change
		if ch == nil || ch.shared == "" || ch.target == "0" || !c.gen.has("pre["+ch.shared+"]") {
			continue
		}
		f := fmt.Sprintf("(E(w_pre) %s & %s(v, w_pre))", at(ch.target, "w_pre"), L)
		if !slices.Contains(st.focus, f) {
			st.focus = append(st.focus, f)
		}
	}
}
