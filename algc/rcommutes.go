package algc

import "fmt"

// Backward commuting (rcommutes, rcommutes2; docs/lms-queue.md). The
// generated commutes(v) says that the list runs the specification's way:
// v's link successor is related to the successor of v's specification
// node. A queue whose link points from the newer node to the older one
// (the Ladan-Mozes–Shavit queue's next, written before the node is
// published; its prev, the specification's way, is written late) never
// has commutes. On request:
//
//	rcommutes(v)  = v's link successor is related to the specification
//	                predecessor of v's specification node;
//	rcommutes2(v) = the node two links on from v is (the node between,
//	                a dummy with no specification node, is stepped over).
//
// Their rules need only that the link and spec are functions: from the
// node related to Head_S, one link back, they give the node of the
// specification's first value (the value check of a dequeue), as
// commutes gives it one link on in the other queues. Requesting either
// adds has_T[spec] (the node related to Tail_S), on which a new node's
// rcommutes is decided at its enqueue.

func (c *compiler) rcommutesFamily(name string, args []string) (*instrument, string) {
	L := c.s.link
	switch {
	case len(args) != 0:
		return nil, name + " takes no arguments"
	case L == "":
		return nil, name + " needs a list type (a node type with a pointer to its own type)"
	case !c.spec.relation || !c.spec.queue():
		return nil, name + " needs a queue specification whose operations allocate their nodes (spec queue)"
	}
	if name == "rcommutes" {
		return &instrument{name: name,
			decl: fmt.Sprintf("%%i rcommutes(v) = E(u_1, u_2, u_3) %s(v, u_1) & spec(v, u_2) & %s(u_3, u_2) & spec(u_1, u_3)", L, L),
			rules: []string{
				fmt.Sprintf("%%r (E(v_3, v_4) rcommutes(v_3) & %s(v_3, v_4) & spec(v_3, v_1) & spec(v_4, v_2)) ==> %s(v_2, v_1)", L, L),
				fmt.Sprintf("%%r (E(v_3, v_4) rcommutes(v_1) & %s(v_1, v_3) & spec(v_3, v_4) & %s(v_4, v_2)) ==> spec(v_1, v_2)", L, L),
			}}, ""
	}
	return &instrument{name: name,
		decl: fmt.Sprintf("%%i rcommutes2(v) = E(u_0, u_1, u_2, u_3) %s(v, u_0) & %s(u_0, u_1) & spec(v, u_2) & %s(u_3, u_2) & spec(u_1, u_3)", L, L, L),
		rules: []string{
			fmt.Sprintf("%%r (E(v_3, v_4, v_5) rcommutes2(v_3) & %s(v_3, v_5) & %s(v_5, v_4) & spec(v_3, v_1) & spec(v_4, v_2)) ==> %s(v_2, v_1)", L, L, L),
			fmt.Sprintf("%%r (E(v_3, v_4, v_5) rcommutes2(v_1) & %s(v_1, v_5) & %s(v_5, v_3) & spec(v_3, v_4) & %s(v_4, v_2)) ==> spec(v_1, v_2)", L, L, L),
		}}, ""
}

// tailRelation adds has_T[spec] and pre_S[spec] to a queue whose
// backward commuting is requested. pre_S[spec](v): v's link successor is
// the node related to Head_S (the node dequeued last), which the
// specification's first value is one link back from; as an abstraction
// predicate it keeps the node there (the dequeue's head, or a dummy
// between it and the node dequeued last) out of the summaries of older
// garbage. Its rules need only that the node related to Head_S is unique
// (Head_S is, and spec is injective) and that the link is a function.
func (c *compiler) tailRelation(in *instruments) {
	if !c.spec.queue() || !(in.has("rcommutes") || in.has("rcommutes2")) {
		return
	}
	L := c.s.link
	in.add(&instrument{name: "has_T[spec]", decl: "%i has_T[spec](v) = E(u) Tail_S(u) & spec(v, u)", rules: []string{
		"%r has_T[spec](v_1) & Tail_S(v_2) ==> spec(v_1, v_2)",
	}})
	// first_S(s): s is the specification's first value node (Head_S's
	// successor), kept apart from the other specification nodes, so that
	// the relation of Head's node to it stays exact when the node related
	// to Head_S is freed and reused.
	in.add(&instrument{name: "first_S", decl: fmt.Sprintf("%%i first_S(v) = E(u) Head_S(u) & %s(u, v)", L), rules: []string{
		fmt.Sprintf("%%r first_S(v_1) & Head_S(v_2) ==> %s(v_2, v_1)", L),
	}})
	in.add(&instrument{name: "pre_S[spec]", decl: fmt.Sprintf("%%i pre_S[spec](v) = E(u_1, u_2) %s(v, u_1) & spec(u_1, u_2) & Head_S(u_2)", L), rules: []string{
		fmt.Sprintf("%%r pre_S[spec](v_1) & has_S[spec](v_2) ==> %s(v_1, v_2)", L),
		fmt.Sprintf("%%r pre_S[spec](v_1) & !has_S[spec](v_2) ==> !%s(v_1, v_2)", L),
	}})
}

// rcommutesRemoval: a removal at the head drops the old Head_S's
// relation, so the node related to it and the nodes one (two) links
// before that node lose rcommutes (rcommutes2); has_T[spec] is kept
// (Head_S is not Tail_S where a removal happens).
func (sp *specLib) rcommutesRemoval() []update {
	L := sp.s.link
	old := "!(E(w) spec(v, w) & Head_S(w))"
	var up []update
	if sp.gen.has("rcommutes") {
		up = append(up, update{"rcommutes(v)", fmt.Sprintf("rcommutes(v) & %s & !(E(w, w_1) %s(v, w_1) & spec(w_1, w) & Head_S(w))", old, L)})
	}
	if sp.gen.has("rcommutes2") {
		up = append(up, update{"rcommutes2(v)", fmt.Sprintf("rcommutes2(v) & %s & !(E(w, w_0, w_1) %s(v, w_0) & %s(w_0, w_1) & spec(w_1, w) & Head_S(w))", old, L, L)})
	}
	if sp.gen.has("pre_S[spec]") {
		// The nodes linking to the node of the new Head_S.
		up = append(up, update{"pre_S[spec](v)", fmt.Sprintf("E(w, w_1, w_2) %s(v, w_2) & spec(w_2, w_1) & Head_S(w) & %s(w, w_1)", L, L)})
	}
	if sp.gen.has("first_S") {
		up = append(up, update{"first_S(v)", fmt.Sprintf("E(w, w_1) Head_S(w) & %s(w, w_1) & %s(w_1, v)", L, L)})
	}
	if sp.gen.has("has_T[spec]") {
		up = append(up, update{"has_T[spec](v)", "has_T[spec](v) & " + old})
	}
	return up
}

// rcommutesInsert: an enqueue's linearisation point relates n's node to
// a new specification node after Tail_S, which has no successor and is
// no one's specification predecessor yet; so only n's node can gain
// rcommutes (its link successor is related to the old Tail_S) or
// rcommutes2 (the node two links on is), and no node loses either.
// Written out: finite differencing's update of rcommutes2, four
// quantifiers deep, took nearly all of the analysis' time.
func (sp *specLib) rcommutesInsert(n string) []update {
	L := sp.s.link
	node := sched(n + "(ts, v)")
	var up []update
	if sp.gen.has("rcommutes") {
		up = append(up, update{"rcommutes(v)", fmt.Sprintf("rcommutes(v) | %s & (E(w, w_1) %s(v, w) & spec(w, w_1) & Tail_S(w_1))", node, L)})
	}
	if sp.gen.has("rcommutes2") {
		up = append(up, update{"rcommutes2(v)", fmt.Sprintf("rcommutes2(v) | %s & (E(w_0, w, w_1) %s(v, w_0) & %s(w_0, w) & spec(w, w_1) & Tail_S(w_1))", node, L, L)})
	}
	return up
}
