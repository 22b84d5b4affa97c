package algc

import (
	"fmt"

	"github.com/tvla-go/tvla/alg"
)

// family builds a requested instrumentation predicate, or says why it
// cannot.
func (c *compiler) family(n *alg.PredName) (*instrument, string) {
	L := c.s.link
	args := make([]string, len(n.Args))
	for i, a := range n.Args {
		if len(a.Args) > 0 {
			return nil, fmt.Sprintf("%s: the arguments are variable names", n)
		}
		args[i] = a.Name
	}
	nodeVar := func(x string) string {
		if !isNode(c.s.thread[x]) {
			return fmt.Sprintf("%s: %s is not a thread-local node variable", n, x)
		}
		return ""
	}
	need := func(k int) string {
		if len(args) != k {
			return fmt.Sprintf("%s takes %d variable name(s)", n.Name, k)
		}
		for _, a := range args {
			if e := nodeVar(a); e != "" {
				return e
			}
		}
		if L == "" {
			return fmt.Sprintf("%s needs a list type (a node type with a pointer to its own type)", n.Name)
		}
		return ""
	}
	name := n.String()
	switch n.Name {
	case "succ":
		// succ[x,y,f]: over the pointer field f instead of the link.
		F := L
		if len(args) == 3 {
			if k, ok := c.s.fields[args[2]]; !ok || !isNode(k) {
				return nil, fmt.Sprintf("%s: %s is not a pointer field", name, args[2])
			}
			F, args = args[2], args[:2]
		}
		if e := need(2); e != "" {
			return nil, e
		}
		return succFamily(name, args[0], args[1], F), ""
	case "same":
		if len(args) == 2 && isNode(c.s.shared[args[1]]) && nodeVar(args[0]) == "" {
			// same[x,X]: x points where the shared pointer X does.
			x, X := args[0], args[1]
			return &instrument{name: name, decl: fmt.Sprintf("%%i %s(v) = E(u) %s(v, u) & %s(u)%s", name, x, X, threadPred),
				rules: []string{
					fmt.Sprintf("%%r %s(v_1) & %s(v_2) ==> %s(v_1, v_2)", name, X, x),
					fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> %s(v_2)", name, x, X),
					fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
				}}, ""
		}
		if e := need(2); e != "" {
			return nil, e
		}
		x, y := args[0], args[1]
		return &instrument{name: name, pair: [2]string{x, y}, decl: fmt.Sprintf("%%i %s(v) = E(u) %s(v, u) & %s(v, u)%s", name, x, y, threadPred),
			rules: []string{
				fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> %s(v_1, v_2)", name, x, y),
				fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> %s(v_1, v_2)", name, y, x),
				fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
				fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, y),
			}}, ""
	case "ordered":
		if e := need(2); e != "" {
			return nil, e
		}
		return c.orderedFamily(name, args[0], args[1])
	case "past":
		return c.pastFamily(n, args)
	case "on":
		return c.onFamily(args)
	case "unset":
		return c.unsetFamily(args)
	case "inv", "self":
		return c.fieldFamily(n.Name, name, args)
	case "pre":
		return c.preFamily(name, args)
	case "private":
		return c.privateFamily(name, args)
	case "rcommutes", "rcommutes2":
		return c.rcommutesFamily(n.Name, args)
	case "opval":
		return c.opvalFamily(name, args, nodeVar)
	case "lpif":
		return c.lpifFamily(name, args)
	}
	return nil, fmt.Sprintf("unknown instrumentation family %s (the generator knows succ[x,y], succ[x,y,f], opval[x], same[x,y], same[x,X], on[x,X], ordered[x,y], past[x,X], unset[x,f], pre[X], inv[f,g], self[f], private[x], rcommutes, rcommutes2 and lpif[op]; others can be written in a tvp block)", n.Name)
}

// opvalFamily is opval[x] or opval[x,d]: x's node holds the value of
// thread-local data variable d (the one there is, when not named).
func (c *compiler) opvalFamily(name string, args []string, nodeVar func(string) string) (*instrument, string) {
	D := c.s.value
	if len(args) == 0 || len(args) > 2 {
		return nil, "opval takes a node variable and, optionally, a data variable: opval[n] or opval[n,lv]"
	}
	if e := nodeVar(args[0]); e != "" {
		return nil, e
	}
	if D == "" {
		return nil, "opval needs a data field in the list type"
	}
	d := ""
	if len(args) == 2 {
		d = args[1]
	} else {
		for _, v := range c.s.threadOrder {
			if c.s.thread[v] == "data" {
				if d != "" {
					return nil, fmt.Sprintf("%s: several thread-local data variables; name one: opval[%s,%s]", name, args[0], d)
				}
				d = v
			}
		}
	}
	if c.s.thread[d] != "data" {
		return nil, fmt.Sprintf("%s: %s is not a thread-local data variable", name, d)
	}
	x := args[0]
	return &instrument{name: name, dataVar: d, decl: fmt.Sprintf("%%i %s(v) = E(u_1, u_2) %s(v, u_1) & %s(u_1, u_2) & %s(v, u_2)%s", name, x, D, d, threadPred),
		rules: []string{
			fmt.Sprintf("%%r (E(v_3) %s(v_3) & %s(v_3, v_1) & %s(v_3, v_2)) ==> %s(v_1, v_2)", name, x, d, D),
			fmt.Sprintf("%%r (E(v_3) %s(v_1) & %s(v_1, v_3) & %s(v_3, v_2)) ==> %s(v_1, v_2)", name, x, D, d),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, d),
		}}, ""
}

// pastFamily is past[x,X]: thread variable x holds a node that the shared
// list pointer X pointed to at some time, X having moved on along the
// list only, so x's node is X's or has left X's list:
//
//	past[x,X](v) = !(E(u) x(v, u) & reach[X](u) & !X(u))
//
// It is a definition like any other (sound whatever the algorithm does);
// it holds vacuously where x is null, so the collapsed threads' summary
// has it at 1. Where X moves to its successor, reach[X] loses X's old
// node only, so finite differencing keeps the 1; its rule then says that
// no thread's x points into the list behind X, which is what keeps
// ordered[x,y] (and its soft invariants) where X moves.
func (c *compiler) pastFamily(n *alg.PredName, args []string) (*instrument, string) {
	name := n.String()
	if len(args) != 2 {
		return nil, "past takes a thread-local node variable and a shared pointer: past[x,X]"
	}
	x, X := args[0], args[1]
	if !isNode(c.s.thread[x]) {
		return nil, fmt.Sprintf("%s: %s is not a thread-local node variable", name, x)
	}
	if c.s.link == "" {
		return nil, "past needs a list type (a node type with a pointer to its own type)"
	}
	if !isNode(c.s.shared[X]) || !contains(c.listHeads(), X) {
		return nil, fmt.Sprintf("%s: %s is not a shared pointer of the list type", name, X)
	}
	r := "reach[" + X + "]"
	g, ng := c.staleGuard(x)
	return &instrument{name: name, collapsed: true, vacuous: true,
		decl: fmt.Sprintf("%%i %s(v) = %s!(E(u) %s(v, u) & %s(u) & !%s(u)) nonabs", name, g, x, r, X),
		rules: []string{
			fmt.Sprintf("%%r %s(v_1)%s & %s(v_2) & !%s(v_2) ==> !%s(v_1, v_2)", name, ng, r, X, x),
		}}, ""
}

// onFamily is on[x,X], same[x,X] for collapsed threads only (a bounded
// model keeps its abstraction): msqueue's on[sshead,Tail] carries "Tail
// is not my sshead" from the branch that learns it to the CAS on Head.
func (c *compiler) onFamily(args []string) (*instrument, string) {
	if len(args) != 2 || !isNode(c.s.thread[args[0]]) || !isNode(c.s.shared[args[1]]) {
		return nil, "on takes a thread-local node variable and a shared pointer: on[x,X]"
	}
	x, X := args[0], args[1]
	name := "on[" + x + "," + X + "]"
	return &instrument{name: name, collapsed: true, decl: fmt.Sprintf("%%i %s(v) = E(u) %s(v, u) & %s(u) nonabs", name, x, X),
		rules: []string{
			fmt.Sprintf("%%r %s(v_1) & %s(v_2) ==> %s(v_1, v_2)", name, X, x),
			fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> %s(v_2)", name, x, X),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
		}}, ""
}

// unsetFamily is unset[x,f], for collapsed threads only (a bounded
// model keeps its abstraction): x is set and its node's boolean field f
// is false,
//
//	unset[x,f](v) = E(u) x(v, u) & !f(u)
//
// Where f only ever goes from false to true (Shann's taken flag), a
// thread that read f true of x's node keeps !unset[x,f] for as long as x
// is unchanged, whatever other threads do, and its rule gives f back to
// x's node when Focus takes the thread out of the summary: the
// conditional soft invariant "xt implies !unset[x,taken]" carries what
// the copy xt = x.taken read. It is written with the negation inside so
// that it is 0 where x is null (as every new predicate is on the initial
// structure); "x's node has f" would be false there, and its universal
// form true, which the initial structure does not say.
func (c *compiler) unsetFamily(args []string) (*instrument, string) {
	if len(args) != 2 || !isNode(c.s.thread[args[0]]) || c.s.fields[args[1]] != "bool" {
		return nil, "unset takes a thread-local node variable and a boolean field: unset[x,f]"
	}
	x, f := args[0], args[1]
	name := "unset[" + x + "," + f + "]"
	return &instrument{name: name, collapsed: true, decl: fmt.Sprintf("%%i %s(v) = E(u) %s(v, u) & !%s(u) nonabs", name, x, f),
		rules: []string{
			fmt.Sprintf("%%r !%s(v_1) & %s(v_1, v_2) ==> %s(v_2)", name, x, f),
			fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> !%s(v_2)", name, x, f),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
		}}, ""
}

// preFamily is pre[X]: v's link successor is the node of the shared
// pointer X. As an abstraction predicate it keeps the node linked to X
// out of the summaries around it: in a list linked newest to oldest
// (the Ladan-Mozes–Shavit queue) the node one link before Head is the
// one a dequeue moves Head to, and without it a dequeuer's fnp =
// head.prev pointed into a summary (docs/lms-queue.md). Several nodes
// may have it (a node whose publication failed still links to X), so
// it has no uniqueness rule; the definition's own constraints suffice.
func (c *compiler) preFamily(name string, args []string) (*instrument, string) {
	if len(args) != 1 {
		return nil, "pre takes one shared pointer: pre[X]"
	}
	X := args[0]
	if c.s.link == "" {
		return nil, "pre needs a list type (a node type with a pointer to its own type)"
	}
	if !isNode(c.s.shared[X]) {
		return nil, fmt.Sprintf("%s: %s is not a shared pointer of the list type", name, X)
	}
	return &instrument{name: name, decl: fmt.Sprintf("%%i %s(v) = E(u) %s(u) & %s(v, u)", name, X, c.s.link)}, ""
}

// orderedFamily is ordered[x,y]: when x's node is in the list of the first
// shared list pointer H, so is y's. It is written so that it holds
// vacuously (on a thread with either variable null, and on every other
// individual): the summary of collapsed threads then has it at 1, and
// finite differencing keeps the 1 where H moves on (past[x,H] says why no
// thread's x is then in the list behind H).
func (c *compiler) orderedFamily(name, x, y string) (*instrument, string) {
	heads := c.listHeads()
	if len(heads) < 2 {
		return nil, fmt.Sprintf("%s needs a shared pointer of the list type, whose reachability orders the nodes", name)
	}
	r := "reach[" + heads[0] + "]"
	g, ng := c.staleGuard(x)
	return &instrument{name: name, collapsed: true, vacuous: true, pair: [2]string{x, y},
		decl: fmt.Sprintf("%%i %s(v) = %s!(E(u_1, u_2) %s(v, u_1) & %s(v, u_2) & %s(u_1) & !%s(u_2)) nonabs", name, g, x, y, r, r),
		rules: []string{
			fmt.Sprintf("%%r (E(v_1, v_2) %s(v_1)%s & %s(v_1, v_2) & %s(v_1, v) & %s(v_2)) ==> %s(v)", name, ng, x, y, r, r),
		}}, ""
}

// staleGuard: when x is a snapshot of a tagged shared pointer S, past[x,X]
// and ordered[x,y] speak only of threads whose snapshot is current, and
// hold vacuously where stale[S,x] (a stale snapshot's node may have been
// freed and reused anywhere, even put back into the list; a current one
// is S's node, as when no node is ever reused). It gives the prefix of
// the definition ("stale[S,x](v) | ") and the conjunct its rule adds
// (" & !stale[S,x](v_1)"); both "" for any other x, so models without
// tagged pointers get what they did.
func (c *compiler) staleGuard(x string) (string, string) {
	S := c.s.snap[x]
	if S == "" {
		return "", ""
	}
	p := staleName(S, x)
	return p + "(v) | ", " & !" + p + "(v_1)"
}

// fieldFamily builds the families over pointer fields: inv[f,g] and
// self[f].
func (c *compiler) fieldFamily(family, name string, args []string) (*instrument, string) {
	pointer := func(f string) string {
		if k, ok := c.s.fields[f]; !ok || !isNode(k) {
			return fmt.Sprintf("%s: %s is not a pointer field", name, f)
		}
		return ""
	}
	if family == "self" {
		// self[f](v): v's f field points to v itself (a node marked
		// dead, a sentinel); as an abstraction predicate it keeps such
		// nodes out of the summaries of nodes whose f never loops, so a
		// test x.f == x is exact on those.
		if len(args) != 1 {
			return nil, "self takes one pointer field: self[f]"
		}
		if e := pointer(args[0]); e != "" {
			return nil, e
		}
		return &instrument{name: name, decl: fmt.Sprintf("%%i %s(v) = %s(v, v)", name, args[0])}, ""
	}
	// inv[f,g](v): every f edge out of v is a g edge back, the invariant
	// of a doubly linked list (Sagiv, Reps and Wilhelm's c_fb and c_bf);
	// with it, reading a back pointer tells which node links to this one.
	if len(args) != 2 || args[0] == args[1] {
		return nil, "inv takes two different pointer fields: inv[f,g] (f edges are g edges back)"
	}
	for _, f := range args {
		if e := pointer(f); e != "" {
			return nil, e
		}
	}
	f, g := args[0], args[1]
	return &instrument{name: name, decl: fmt.Sprintf("%%i %s(v) = is_node(v) & (A(w) %s(v, w) -> %s(w, v))", name, f, g),
		rules: []string{
			fmt.Sprintf("%%r %s(v_1) & %s(v_1, v_2) ==> %s(v_2, v_1)", name, f, g),
			fmt.Sprintf("%%r %s(v_1) & !%s(v_2, v_1) ==> !%s(v_1, v_2)", name, g, f),
		}}, ""
}

// succFamily is succ[x,y] (y's node is x's link successor L) or
// succ[x,y,f] (y's node is x's node's f, another pointer field).
func succFamily(name, x, y, L string) *instrument {
	return &instrument{name: name, pair: [2]string{x, y}, decl: fmt.Sprintf("%%i %s(v) = E(u_1, u_2) %s(v, u_1) & %s(v, u_2) & %s(u_1, u_2)%s", name, x, y, L, threadPred),
		rules: []string{
			fmt.Sprintf("%%r (E(v_3) %s(v_3) & %s(v_3, v_1) & %s(v_3, v_2)) ==> %s(v_1, v_2)", name, x, y, L),
			fmt.Sprintf("%%r (E(v_3) %s(v_1) & %s(v_1, v_3) & %s(v_3, v_2)) ==> %s(v_1, v_2)", name, x, L, y),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, x),
			fmt.Sprintf("%%r %s(v) ==> has[%s](v)", name, y),
		}}
}
