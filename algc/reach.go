package algc

import (
	"fmt"
	"strings"
)

// Explicit updates of reachability and cycles. Finite differencing
// derives them too, but for an edge that is replaced or removed it falls
// back to the transitive closure of the new relation, which a summary
// node makes 1/2; these updates use what the structure already knows
// instead (Friggens 2013 writes the same facts by hand for each action).

func at(f, v string) string {
	return strings.NewReplacer("@T@", v, "@N@", v).Replace(f)
}

// reachUpdates returns the updates of circ and reach[X] for a step's
// pointer change.
func (c *compiler) reachUpdates(ch *ptrChange) []update {
	if ch == nil || c.s.link == "" {
		return nil
	}
	L := c.s.link
	var out []update
	if ch.shared != "" {
		r := "reach[" + ch.shared + "]"
		if !c.gen.has(r) {
			return nil
		}
		X := ch.shared
		moveBack := ""
		if c.gen.has("circ") {
			// X moves to its successor on a list without a cycle there: it
			// loses X's node.
			moveBack = fmt.Sprintf("((E(w_h) %s(w_h) & %s(w_h, w_a) & !circ(w_h)) ? (%s(v) & !%s(v)) : %s*(w_a, v))", X, L, r, X, L)
		} else {
			moveBack = fmt.Sprintf("%s*(w_a, v)", L)
		}
		f := fmt.Sprintf("E(w_a) %s & (%s(w_a) ? %s(v) : ((E(w_h) %s(w_h) & %s(w_a, w_h)) ? (v == w_a | %s(v)) : %s))",
			at(ch.target, "w_a"), X, r, X, L, r, moveBack)
		return []update{{r + "(v)", f}}
	}
	A := func(v string) string { return at(ch.node, v) }
	B := func(v string) string { return at(ch.target, v) }
	newL := fmt.Sprintf("(%s ? %s : %s(w_x, w_y))", A("w_x"), B("w_y"), L)
	insertion := fmt.Sprintf("(E(w_a, w_b) %s & %s & %s*(w_b, w_a) & %s*(w_b, v) & %s*(v, w_a))", A("w_a"), B("w_b"), L, L, L)
	for _, x := range c.listHeads() {
		r := "reach[" + x + "]"
		if !c.gen.has(r) {
			continue
		}
		insert := fmt.Sprintf("%s(v) | (E(w_a, w_b) %s & %s(w_a) & %s & %s*(w_b, v))", r, A("w_a"), r, B("w_b"), L)
		f := insert
		if !ch.setOnly {
			general := fmt.Sprintf("(E(w_u) %s(w_u) & (w_u == v | TC(w_u, v)(w_x, w_y)(%s)))", x, newL)
			if c.gen.has("has[" + L + "]") {
				// The field was null where the structure says so: an
				// insertion, exact; else the closure of the new relation.
				general = fmt.Sprintf("((E(w_a) %s & has[%s](w_a)) ? %s : (%s))", A("w_a"), L, general, insert)
			}
			if ch.cut && c.gen.has("circ") {
				// A cut in a list without a cycle reachable from x:
				// the nodes reachable from x have one predecessor
				// each there (the model's sharing rule), so the
				// nodes from the old successor on lose x, the others
				// keep it; exact where the closure of the new
				// relation through a summary node would give 1/2.
				acyclic := fmt.Sprintf("!(E(w_c) %s(w_c) & circ(w_c))", r)
				lose := fmt.Sprintf("(E(w_a, w_b) %s & %s(w_a, w_b) & %s*(w_b, v))", A("w_a"), L, L)
				general = fmt.Sprintf("(%s ? (%s(v) & !%s) : %s)", acyclic, r, lose, general)
			}
			f = fmt.Sprintf("((E(w_a) %s & %s(w_a)) ? %s : %s(v))", A("w_a"), r, general, r)
		}
		out = append(out, update{r + "(v)", f})
	}
	if c.gen.has("circ") {
		var f string
		if ch.setOnly {
			f = "circ(v) | " + insertion
		} else {
			f = fmt.Sprintf("((E(w_a) %s & circ(w_a)) ? (E(w_c) w_c == v & TC(v, w_c)(w_x, w_y)(%s)) : (circ(v) | %s))", A("w_a"), newL, insertion)
		}
		out = append(out, update{"circ(v)", f})
	}
	return out
}
