package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// A word formula is a formula over one free variable v (and variables
// bound by the caller, read from b) evaluated on a word of 64
// individuals at a time: its value is two bit masks, where it is 1 and
// where it is not 0. Only the individuals of a care mask need be right:
// a connective skips an operand whose value cannot matter there, as an
// update's cover is often the one scheduled thread, and a soft
// invariant's formula is mostly decided by its first conjuncts.
//
// A word formula is kept as one slice of nodes in preorder (a node's
// first operand is the node after it), not as a tree of closures: a
// thread model's actions hold thousands of small update formulas, and
// evaluating closures scattered over the heap was a cache miss per
// node. Evaluating the nodes in order reads one contiguous slice.

type wordNodeKind uint8

const (
	nodeConst      wordNodeKind = iota // arg: 0, 1 or 2 (1/2)
	nodeUnary                          // p(v): arg is p's table index
	nodeNullary                        // arg: the table index
	nodeBoundUnary                     // p(x), x bound: arg is p's index, other x's place in b
	nodeShared                         // a shared subformula: arg is its number
	nodeNot
	nodeAnd // other: the second operand's node
	nodeOr
	nodeImplies
	nodeIff
	nodeIf // the condition follows, other: the then branch, other2: the else branch
)

type wordNode struct {
	kind          wordNodeKind
	arg           int32
	other, other2 int32
}

var binaryNodeKinds = map[logic.BinOp]wordNodeKind{logic.And: nodeAnd, logic.Or: nodeOr, logic.Implies: nodeImplies, logic.Iff: nodeIff}

// wordNodes is a compiled word formula.
type wordNodes []wordNode

// compileWordNodes appends f's nodes to out, or reports that f has no
// word-parallel form: it uses something other than unary atoms of v or
// of a bound variable, nullary atoms, shared atoms (shared.go),
// constants and connectives.
func compileWordNodes(voc *tvl.Vocabulary, f logic.Formula, v logic.Var, bound map[logic.Var]int, out wordNodes) (wordNodes, bool) {
	switch g := f.(type) {
	case *logic.Const:
		return append(out, wordNode{kind: nodeConst, arg: int32(kleeneCode(g.Value))}), true
	case *logic.Atom:
		if k, ok := sharedIndex(g.Pred); ok {
			if len(g.Args) != 1 || g.Args[0] != v {
				return out, false
			}
			return append(out, wordNode{kind: nodeShared, arg: int32(k)}), true
		}
		p := voc.Lookup(g.Pred)
		if p == nil || p.Arity != len(g.Args) {
			return out, false
		}
		switch {
		case p.Arity == 0:
			return append(out, wordNode{kind: nodeNullary, arg: int32(p.Index)}), true
		case p.Arity == 1 && g.Args[0] == v:
			return append(out, wordNode{kind: nodeUnary, arg: int32(p.Index)}), true
		case p.Arity == 1:
			j, ok := bound[g.Args[0]]
			if !ok {
				return out, false
			}
			return append(out, wordNode{kind: nodeBoundUnary, arg: int32(p.Index), other: int32(j)}), true
		}
		return out, false
	case *logic.Not:
		return compileConnective(voc, nodeNot, v, bound, out, g.Sub)
	case *logic.Binary:
		kind, ok := binaryNodeKinds[g.Op]
		if !ok {
			return out, false
		}
		return compileConnective(voc, kind, v, bound, out, g.Left, g.Right)
	case *logic.If:
		return compileConnective(voc, nodeIf, v, bound, out, g.Cond, g.Then, g.Else)
	}
	return out, false
}

// compileConnective appends a connective of kind and its operands: the
// first right after it, the second and third where other and other2 say.
func compileConnective(voc *tvl.Vocabulary, kind wordNodeKind, v logic.Var, bound map[logic.Var]int, out wordNodes, subs ...logic.Formula) (wordNodes, bool) {
	at := len(out)
	out = append(out, wordNode{kind: kind})
	for i, sub := range subs {
		switch i {
		case 1:
			out[at].other = int32(len(out))
		case 2:
			out[at].other2 = int32(len(out))
		}
		var ok bool
		if out, ok = compileWordNodes(voc, sub, v, bound, out); !ok {
			return out, false
		}
	}
	return out, true
}

// kleeneCode is 0, 1 or 2 for 0, 1 and 1/2.
func kleeneCode(k logic.Kleene) int {
	switch k {
	case logic.True:
		return 1
	case logic.Unknown:
		return 2
	}
	return 0
}

// eval returns node i's value on word w: where it is 1, where it is not
// 0, right on the individuals of care. Where an operand cannot matter it
// is skipped.
func (ns wordNodes) eval(i int32, s *tvl.Structure, w int, b []int, sv *sharedValues, care uint64) (uint64, uint64) {
	n := &ns[i]
	switch n.kind {
	case nodeConst:
		switch n.arg {
		case 1:
			return ^uint64(0), ^uint64(0)
		case 2:
			return 0, ^uint64(0)
		}
		return 0, 0
	case nodeUnary:
		val, half := s.UnaryWords(int(n.arg), w)
		return val, val | half
	case nodeNullary:
		return kleeneWords(s.Nullary(int(n.arg)))
	case nodeBoundUnary:
		return kleeneWords(s.Unary(int(n.arg), b[n.other]))
	case nodeShared:
		return sv.word(int(n.arg), w, care)
	case nodeNot:
		one, nz := ns.eval(i+1, s, w, b, sv, care)
		return ^nz, ^one
	case nodeAnd:
		// Where the first operand is 0 so is the conjunction.
		a1, anz := ns.eval(i+1, s, w, b, sv, care)
		rest := care & anz
		if rest == 0 {
			return 0, 0
		}
		b1, bnz := ns.eval(n.other, s, w, b, sv, rest)
		return a1 & b1, anz & bnz
	case nodeOr:
		// Where the first operand is 1 so is the disjunction.
		a1, anz := ns.eval(i+1, s, w, b, sv, care)
		rest := care &^ a1
		if rest == 0 {
			return ^uint64(0), ^uint64(0)
		}
		b1, bnz := ns.eval(n.other, s, w, b, sv, rest)
		return a1 | b1, anz | bnz
	case nodeImplies: // !a | b: 1 where a is 0
		a1, anz := ns.eval(i+1, s, w, b, sv, care)
		rest := care & anz
		if rest == 0 {
			return ^uint64(0), ^uint64(0)
		}
		b1, bnz := ns.eval(n.other, s, w, b, sv, rest)
		return ^anz | b1, ^a1 | bnz
	case nodeIff: // (!a | b) & (!b | a)
		a1, anz := ns.eval(i+1, s, w, b, sv, care)
		b1, bnz := ns.eval(n.other, s, w, b, sv, care)
		return (^anz | b1) & (^bnz | a1), (^a1 | bnz) & (^b1 | anz)
	}
	// nodeIf: the then branch matters where the condition is not 0, the
	// else branch where it is not 1.
	c1, cnz := ns.eval(i+1, s, w, b, sv, care)
	var t1, tnz, e1, enz uint64
	if m := care & cnz; m != 0 {
		t1, tnz = ns.eval(n.other, s, w, b, sv, m)
	}
	if m := care &^ c1; m != 0 {
		e1, enz = ns.eval(n.other2, s, w, b, sv, m)
	}
	zero, half := ^cnz, cnz&^c1
	// Where the condition is 1/2 the value is the join of both branches:
	// 1 only if both are 1, not 0 if either is not.
	return c1&t1 | zero&e1 | half&t1&e1, c1&tnz | zero&enz | half&(tnz|enz)
}

// kleeneWords is a value the same for every individual, as words.
func kleeneWords(k logic.Kleene) (uint64, uint64) {
	switch k {
	case logic.True:
		return ^uint64(0), ^uint64(0)
	case logic.Unknown:
		return 0, ^uint64(0)
	}
	return 0, 0
}
