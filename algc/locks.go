package algc

import "fmt"

// checkLocks checks on the step graph that every lock an operation takes
// is released on every path before the operation returns, and is not
// taken again while held (the thread would wait for itself forever).
// Locks are told apart by their source text (`lock x.l` and `unlock
// x.l` name one lock when they are written alike), which is exact for
// shared locks and assumes, for a lock field, that the variable naming
// the node is not reassigned in between. A path that never returns (a
// loop without exit) holds the lock without error.
func (c *compiler) checkLocks() {
	byFrom := map[*loc][]*step{}
	for _, st := range c.b.steps {
		byFrom[st.from] = append(byFrom[st.from], st)
	}
	for _, st := range c.b.steps {
		if st.lockOf == "" || st.unlock || st.to == nil {
			continue
		}
		c.lockHeld(st, byFrom)
	}
}

// lockHeld searches the paths from after the lock step taken, where the
// lock is held, for a return to idle or a second lock of it; it reports
// the first it finds (breadth first: the shortest such path).
func (c *compiler) lockHeld(taken *step, byFrom map[*loc][]*step) {
	seen := map[*loc]bool{taken.to: true}
	queue := []*loc{taken.to}
	// last is the step by which the search first reached a location.
	last := map[*loc]*step{taken.to: taken}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, st := range byFrom[l] {
			switch {
			case st.to == nil:
				continue
			case st.lockOf == taken.lockOf && st.unlock:
				continue
			case st.lockOf == taken.lockOf:
				c.e.add(taken.pos, "lock %s may be taken again at line %d while this thread holds it: the thread would wait for itself forever", taken.lockOf, st.pos.Line)
				return
			case st.to == c.b.idle:
				c.e.add(taken.pos, "lock %s is not released on every path: %s can return holding it (after line %d)", taken.lockOf, c.opOf(st), last[l].pos.Line)
				return
			}
			if !seen[st.to] {
				seen[st.to] = true
				last[st.to] = st
				queue = append(queue, st.to)
			}
		}
	}
}

// opOf is the name of the operation a step belongs to, from its title
// ("pop, line 14: ...").
func (c *compiler) opOf(st *step) string {
	var op string
	if _, err := fmt.Sscanf(st.title, "%s", &op); err != nil || len(op) < 2 {
		return "the operation"
	}
	return op[:len(op)-1]
}
