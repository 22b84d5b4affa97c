package algc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// The deque specification (docs/deque.md): a list linked by the
// algorithm's link field from its left end Head_S to its right end
// Tail_S, both null when it is empty (no dummy node). pushLeft and
// popLeft work at Head_S as a stack's push and pop do; pushRight appends
// after Tail_S as a queue's enqueue does; popRight moves Tail_S back to
// its predecessor, unique because the list is acyclic and the link field
// a function with no sharing in the specification's list.

// dequePush: the updates of the ends and the link for a push at the
// right end (right) or the left end; the new node is isNew(v).
func (sp *specLib) dequePush(right bool) []update {
	L := sp.s.link
	wasEmpty := "!(E(w) Head_S(w))"
	if right {
		return []update{
			{"Tail_S(v)", "isNew(v)"},
			{"Head_S(v)", "Head_S(v) | isNew(v) & " + wasEmpty},
			{L + "(v_1, v_2)", L + "(v_1, v_2) | Tail_S(v_1) & isNew(v_2)"},
			{"has[" + L + "](v)", "has[" + L + "](v) | Tail_S(v)"},
		}
	}
	return []update{
		{"Head_S(v)", "isNew(v)"},
		{"Tail_S(v)", "Tail_S(v) | isNew(v) & " + wasEmpty},
		{L + "(v_1, v_2)", L + "(v_1, v_2) | isNew(v_1) & Head_S(v_2)"},
		{"has[" + L + "](v)", "has[" + L + "](v) | isNew(v) & !" + wasEmpty},
	}
}

// dequePopRight: Tail_S moves to its predecessor (null when the deque
// had one node, which was Head_S too), the predecessor loses its link,
// and the old right end is dropped (gone_S, as a pop's old head is).
func (sp *specLib) dequePopRight() []update {
	L := sp.s.link
	up := []update{
		{"Tail_S(v)", fmt.Sprintf("E(w) Tail_S(w) & %s(v, w)", L)},
		{"Head_S(v)", "Head_S(v) & !Tail_S(v)"},
		{L + "(v_1, v_2)", L + "(v_1, v_2) & !Tail_S(v_2)"},
		{"has[" + L + "](v)", fmt.Sprintf("has[%s](v) & !(E(w) %s(v, w) & Tail_S(w))", L, L)},
		{"spec(v_1, v_2)", "spec(v_1, v_2) & !Tail_S(v_2)"},
		{"reach[Head_S](v)", "reach[Head_S](v) & !Tail_S(v)"},
		{"r_by[spec](v)", "r_by[spec](v) & !Tail_S(v)"},
		{"matching(v)", "matching(v) & !(E(w) spec(v, w) & Tail_S(w))"},
		// A node loses commutes when its specification node's link to the
		// old end goes, or its successor's relation to it does.
		{"commutes(v)", fmt.Sprintf("commutes(v) & !(E(w, w_1) spec(v, w) & %s(w, w_1) & Tail_S(w_1)) & !(E(w, w_1) %s(v, w_1) & spec(w_1, w) & Tail_S(w))", L, L)},
		{"has_S[spec](v)", "has_S[spec](v) & !(E(w) spec(v, w) & Tail_S(w))"},
		{"has_T[spec](v)", fmt.Sprintf("E(w, w_1) spec(v, w) & %s(w, w_1) & Tail_S(w_1)", L)},
		{"gone_S(v)", "Tail_S(v)"},
	}
	// The cut link was the acyclic specification list's last: no cycle
	// changes, and the implementation's reachability does not (its nodes
	// never point into the specification's list). Finite differencing
	// would evaluate the closure of the new relation, 1/2 through any
	// summary node.
	up = append(up, update{"circ(v)", "circ(v)"})
	if sp.sawEmpty() {
		up = append(up, sp.sawEmptyRemoval())
	}
	for _, x := range sp.implHeads() {
		if r := "reach[" + x + "]"; sp.gen.has(r) {
			up = append(up, update{r + "(v)", r + "(v)"})
		}
	}
	return up
}

// implHeads are the implementation's shared node pointers.
func (sp *specLib) implHeads() []string {
	var out []string
	for _, v := range sp.s.prog.Shared {
		if isNode(v.Kind.Name) {
			out = append(out, v.Name)
		}
	}
	return out
}

// sawEmpty: a deque's empty pop may linearise at any moment of its call
// at which the specification deque was empty (an empty pop changes
// nothing, so the moment may be past): sawEmpty(t) is set when t's pop
// begins on an empty deque, and on every thread when a removal empties
// it; an empty linearisation point passes when the deque is empty or
// the thread saw it empty. Without it a point placed where an
// algorithm decides "empty" raises a message on a correct execution in
// which the deque was empty earlier in the call, and the Snark deque's
// real "empty" fault could not be told from that.
func (sp *specLib) sawEmpty() bool { return sp.deque() && sp.emptyLPs }

// sawEmptyBegin: a pop starts with what the deque is now, any other
// operation with 0.
func (sp *specLib) sawEmptyBegin(op *alg.OpDecl) update {
	now := "0"
	if op.Result != nil {
		now = sp.empty()
	}
	return update{"sawEmpty(v)", fmt.Sprintf("(tr_scheduled(v) ? %s : sawEmpty(v))", now)}
}

// sawEmptyRemoval: a removal of the deque's only node empties it, seen by
// the threads in a call that has not linearised with a value and may
// still reach an empty linearisation point: nothing else reads the bit,
// and a bit kept where nothing reads it only splits structures. Those
// locations are known once every operation is built: sawEmptyMark
// stands for them until sawEmptyFixups.
func (sp *specLib) sawEmptyRemoval() update {
	return update{"sawEmpty(v)", "sawEmpty(v) | isthread(v) & " + sawEmptyMark + " & !doneLP(v) & (E(w) Head_S(w) & Tail_S(w))"}
}

// sawEmptyMark stands for "thread v is at a location from which an empty
// linearisation point is reachable within its call".
const sawEmptyMark = "@SAWEMPTYLIVE@"

// sawEmptyLive: the locations inside a call from which a step of an
// empty linearisation point (one that sets doneELP) is reachable without
// returning.
func (c *compiler) sawEmptyLive() map[*loc]bool {
	live := map[*loc]bool{}
	for _, st := range c.b.steps {
		if st.flags["doneELP"] {
			live[st.from] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, st := range c.b.steps {
			if st.to != nil && live[st.to] && !live[st.from] && st.from.thread && st.from.op != "" {
				live[st.from] = true
				changed = true
			}
		}
	}
	return live
}

// sawEmptyFixups writes, in place of sawEmptyMark, the locations where
// sawEmpty is live, and clears the bit of a thread that steps to a
// location where it is not (a push's begin, a value pop's last steps),
// so that it is 0 wherever nothing reads it.
func (c *compiler) sawEmptyFixups() {
	if !c.spec.sawEmpty() {
		return
	}
	live := c.sawEmptyLive()
	var at []string
	for _, l := range c.b.locs {
		if live[l] {
			at = append(at, "at["+l.name+"](v)")
		}
	}
	in := "0"
	if len(at) > 0 {
		in = "(" + strings.Join(at, " | ") + ")"
	}
	for _, st := range c.b.steps {
		i := slices.IndexFunc(st.updates, func(u update) bool { return u.lhs == "sawEmpty(v)" })
		if i >= 0 {
			st.updates[i].rhs = strings.ReplaceAll(st.updates[i].rhs, sawEmptyMark, in)
		}
		if st.to == nil || live[st.to] || st.to == c.b.idle || (i < 0 && !live[st.from]) {
			continue
		}
		if i < 0 {
			st.updates = append(st.updates, update{"sawEmpty(v)", "sawEmpty(v) & !tr_scheduled(v)"})
		} else {
			st.updates[i].rhs = "(" + st.updates[i].rhs + ") & !tr_scheduled(v)"
		}
	}
}
