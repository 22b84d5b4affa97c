package abstraction

import (
	"fmt"
	"os"
	"slices"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Compiling a constraint for Coerce (coerce.go): the order of its loop
// variables, each conjunct of its body at the level that binds its last
// variable, where each level's candidates come from, what its head
// demands, and which predicates it reads.

func compileConstraint(voc *tvl.Vocabulary, src predicates.Constraint) (*constraint, error) {
	k := &constraint{src: src, definition: src.Definition}
	// A head !p(args) holds wherever p is 0, so only the tuples where p is
	// not 0 need a look: binding the head's variables early lets them come
	// from p's non-zero tuples.
	var negHead *logic.Atom
	if n, ok := src.Head.(*logic.Not); ok {
		if a, ok := n.Sub.(*logic.Atom); ok {
			negHead = a
		}
	}
	if err := k.compileBody(voc, negHead); err != nil {
		return nil, err
	}
	if err := k.compileHead(voc); err != nil {
		return nil, err
	}
	k.compileReads(voc)
	if !wordParallelOff {
		k.word = compileWordConstraint(voc, k)
	}
	return k, nil
}

// level is the loop level at which all of vs are bound (-1 for none).
func (k *constraint) level(vs []logic.Var) int {
	l := -1
	for _, v := range vs {
		for i, w := range k.loop {
			if w == v && i > l {
				l = i
			}
		}
	}
	return l
}

// compileBody orders the loop and places each conjunct of the body at
// the level that binds its last variable, with the generator of
// candidates at each level.
func (k *constraint) compileBody(voc *tvl.Vocabulary, negHead *logic.Atom) error {
	src := k.src
	conjs := bodyConjuncts(src.Body, src.Vars)
	k.loop = loopOrder(conjs, negHead, src.Vars)
	k.conjInfo = conjunctInfos(voc, conjs, k.loop)
	k.checks = make([][]*tvl.Compiled, len(k.loop))
	k.checkArgs = make([][]checkArgs, len(k.loop))
	k.gens = make([]generator, len(k.loop))
	position := make(map[logic.Var]int, len(k.loop))
	for i, v := range k.loop {
		position[v] = i
	}
	for _, c := range conjs {
		pos := conjunctPositions(c, position)
		vars := make([]logic.Var, len(pos))
		for i, p := range pos {
			vars[i] = k.loop[p]
		}
		comp, err := tvl.Compile(c, voc, vars)
		if err != nil {
			return err
		}
		if len(pos) == 0 {
			k.pre = append(k.pre, comp)
			continue
		}
		l := pos[len(pos)-1]
		k.checkArgs[l] = append(k.checkArgs[l], checkArgs{pos: pos, inPlace: isPrefix(pos)})
		k.checks[l] = append(k.checks[l], comp)
		if k.gens[l].kind == genAll {
			k.gens[l] = generatorFor(voc, c, k.loop, l, k.level)
		}
	}
	if negHead != nil {
		for l := range k.loop {
			if k.gens[l].kind == genAll {
				k.gens[l] = generatorFor(voc, negHead, k.loop, l, k.level)
			}
		}
	}
	return nil
}

// conjunctPositions lists the positions in the loop (position maps each
// loop variable to its level) of c's free variables, in the loop's order.
// A free variable not in the loop is left out: compiling c then reports it.
func conjunctPositions(c logic.Formula, position map[logic.Var]int) []int {
	free := logic.FreeVars(c)
	pos := make([]int, 0, len(free))
	for _, v := range free {
		if p, ok := position[v]; ok {
			pos = append(pos, p)
		}
	}
	slices.Sort(pos)
	return pos
}

// isPrefix reports whether pos is 0, 1, ..., len(pos)-1.
func isPrefix(pos []int) bool {
	for i, p := range pos {
		if p != i {
			return false
		}
	}
	return true
}

// compileHead reads what the head demands, and the level after which its
// variables are bound.
func (k *constraint) compileHead(voc *tvl.Vocabulary) error {
	slot := func(v logic.Var) int {
		for i, w := range k.loop {
			if w == v {
				return i
			}
		}
		return -1
	}
	head := k.src.Head
	neg := false
	if n, ok := head.(*logic.Not); ok {
		head, neg = n.Sub, true
	}
	switch h := head.(type) {
	case *logic.Atom:
		k.pred = voc.Lookup(h.Pred)
		if k.pred == nil {
			return fmt.Errorf("undeclared predicate %s", h.Pred)
		}
		if k.pred.Arity != len(h.Args) {
			return fmt.Errorf("predicate %s has arity %d, head gives %d arguments", h.Pred, k.pred.Arity, len(h.Args))
		}
		for i, v := range h.Args {
			k.args = append(k.args, slot(v))
			for j := range i {
				if k.args[j] == k.args[i] {
					k.repeats = append(k.repeats, k.args[i])
				}
			}
		}
		k.kind = headAtom
		if neg {
			k.kind = headNotAtom
		}
	case *logic.Equal:
		k.args = []int{slot(h.Left), slot(h.Right)}
		k.kind = headEq
		if neg {
			k.kind = headNeq
		}
		k.usesEq = true
	case *logic.Const:
		v := h.Value
		if neg {
			v = v.Not()
		}
		switch v {
		case logic.False:
			k.kind = headFalse
		case logic.True:
			k.kind = headTrue
		default:
			return fmt.Errorf("a head cannot be 1/2")
		}
	default:
		return fmt.Errorf("head %s is not a literal", logic.String(k.src.Head))
	}
	k.headLevel = -1
	for _, a := range k.args {
		k.headLevel = max(k.headLevel, a)
	}
	return nil
}

// compileReads records what the constraint reads, which decides when it
// is checked again: the body as written, without the guards of a
// relativized one.
func (k *constraint) compileReads(voc *tvl.Vocabulary) {
	src := k.src
	read := src.Body
	if src.Plain != nil {
		read = src.Plain
	}
	seen := map[string]bool{}
	for _, name := range logic.Preds(logic.NewAnd(read, src.Head)) {
		if p := voc.Lookup(name); p != nil && !seen[name] {
			seen[name] = true
			k.reads = append(k.reads, p)
		}
	}
	if logic.UsesEquality(read) {
		k.usesEq = true
	}
	k.up, k.down = polarities(voc, read)
	k.simple = true
	logic.Walk(read, func(g logic.Formula) bool {
		switch g.(type) {
		case *logic.Quant, *logic.TC, *logic.Closure:
			k.simple = false
		}
		return k.simple
	})
}

// wordParallelOff turns the word-parallel constraints off (the
// TVLA_NO_WORD_COERCE environment variable), to compare the two.
var wordParallelOff = os.Getenv("TVLA_NO_WORD_COERCE") != ""

// generator says where a loop level's candidate values come from.
type generator struct {
	kind  genKind
	index int // table index of the predicate
	other int // for rows and columns: the level of the atom's other variable
}

type genKind uint8

const (
	genAll    genKind = iota // every individual
	genUnary                 // the u with p(u) != 0
	genRow                   // the w with p(asg[other], w) != 0
	genColumn                // the u with p(u, asg[other]) != 0
)

// generatorFor returns a generator for level l from conjunct c when c is a
// positive atom whose only variable not bound before l is the level's
// variable: a conjunct that must be 1 can only hold where the predicate is
// not 0, so only those individuals need trying.
func generatorFor(voc *tvl.Vocabulary, c logic.Formula, loop []logic.Var, l int, level func([]logic.Var) int) generator {
	a, ok := c.(*logic.Atom)
	if !ok {
		return generator{}
	}
	p := voc.Lookup(a.Pred)
	if p == nil {
		return generator{}
	}
	v := loop[l]
	switch {
	case p.Arity == 1 && a.Args[0] == v:
		return generator{kind: genUnary, index: p.Index}
	case p.Arity == 2 && a.Args[1] == v && a.Args[0] != v:
		if o := level([]logic.Var{a.Args[0]}); o < l {
			return generator{kind: genRow, index: p.Index, other: o}
		}
	case p.Arity == 2 && a.Args[0] == v && a.Args[1] != v:
		if o := level([]logic.Var{a.Args[1]}); o < l {
			return generator{kind: genColumn, index: p.Index, other: o}
		}
	}
	return generator{}
}

// bodyConjuncts splits a body into conjuncts, turning outer existential
// quantifiers into free variables (renamed away from vars) since only
// where the body is 1 matters, and that is where some witness makes it 1.
func bodyConjuncts(body logic.Formula, vars []logic.Var) []logic.Formula {
	used := map[logic.Var]bool{}
	for _, v := range vars {
		used[v] = true
	}
	var out []logic.Formula
	var walk func(f logic.Formula)
	walk = func(f logic.Formula) {
		switch g := f.(type) {
		case *logic.Binary:
			if g.Op == logic.And {
				walk(g.Left)
				walk(g.Right)
				return
			}
		case *logic.Quant:
			if g.Kind == logic.Exists {
				sub := map[logic.Var]logic.Var{}
				for _, b := range g.Vars {
					nb := b
					for i := 1; used[nb]; i++ {
						nb = logic.Var(fmt.Sprintf("%s'%d", b, i))
					}
					used[nb] = true
					if nb != b {
						sub[b] = nb
					}
				}
				walk(logic.Rename(g.Body, sub))
				return
			}
		}
		out = append(out, f)
	}
	walk(body)
	return out
}

// loopOrder picks the order variables are bound in: first those of
// positive atoms (few tuples hold, so they cut most), then those of a
// negated head atom (likewise), then the others, then any head variables
// not in the body.
func loopOrder(conjs []logic.Formula, negHead *logic.Atom, vars []logic.Var) []logic.Var {
	var order []logic.Var
	add := func(v logic.Var) {
		for _, w := range order {
			if w == v {
				return
			}
		}
		order = append(order, v)
	}
	for _, c := range conjs {
		if _, ok := c.(*logic.Atom); ok {
			for _, v := range logic.FreeVars(c) {
				add(v)
			}
		}
	}
	if negHead != nil {
		for _, v := range negHead.Args {
			add(v)
		}
	}
	for _, c := range conjs {
		for _, v := range logic.FreeVars(c) {
			add(v)
		}
	}
	for _, v := range vars {
		add(v)
	}
	return order
}
