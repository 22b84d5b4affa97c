package logic

// Var is a logical variable of a formula, named as in the TVP text.
type Var string

// Formula is a first-order formula with transitive closure. The concrete
// node types below are the only implementations; trees are never mutated
// after construction, so subtrees may be shared freely.
type Formula interface {
	isFormula()
}

// Const is one of the literals 0, 1 and 1/2.
type Const struct {
	Value Kleene
}

// Atom applies a predicate to variables: p(v1, ..., vk). Pred is the full
// predicate name, parameters included, as in "r[n,x]".
type Atom struct {
	Pred string
	Args []Var
}

// Equal is v1 == v2. Under TVLA's semantics it is 0 for distinct
// individuals, 1 for the same non-summary individual and 1/2 for the same
// summary individual. v1 != v2 is Not{Equal}.
type Equal struct {
	Left, Right Var
}

// Not is !f.
type Not struct {
	Sub Formula
}

// BinOp names the binary connectives.
type BinOp uint8

const (
	And BinOp = iota
	Or
	Implies
	Iff
)

// Binary is f1 & f2, f1 | f2, f1 -> f2 or f1 <-> f2.
type Binary struct {
	Op          BinOp
	Left, Right Formula
}

// If is (c ? t : e): t where c is 1, e where c is 0, and their join where c
// is 1/2 (TVP manual, "Formulae").
type If struct {
	Cond, Then, Else Formula
}

// QuantKind tells the two quantifiers apart.
type QuantKind uint8

const (
	Exists QuantKind = iota
	Forall
)

// Quant is E(v1, ..., vn) f or A(v1, ..., vn) f. TVP allows several (even
// zero) variables in one quantifier; they are kept as written.
type Quant struct {
	Kind QuantKind
	Vars []Var
	Body Formula
}

// TC is the transitive closure of a binary formula, written
// TC(From, To)(Sub1, Sub2) Body: Body's free variables Sub1 and Sub2 are
// bound, and the closure relates From to To.
type TC struct {
	From, To   Var
	Sub1, Sub2 Var
	Body       Formula
}

// Closure is the shorthand p+(From, To), or p*(From, To) when Reflexive:
// the transitive (reflexive) closure of a binary predicate. It means exactly
// TC(From, To)(a, b) p(a, b), or that or From == To; keeping it as its own
// node lets the printer give back what the user wrote and lets evaluation
// close the predicate's matrix directly.
type Closure struct {
	Pred      string
	From, To  Var
	Reflexive bool
}

func (*Const) isFormula()   {}
func (*Atom) isFormula()    {}
func (*Equal) isFormula()   {}
func (*Not) isFormula()     {}
func (*Binary) isFormula()  {}
func (*If) isFormula()      {}
func (*Quant) isFormula()   {}
func (*TC) isFormula()      {}
func (*Closure) isFormula() {}

// Constructors keep call sites short.

// True1, False0 and Half are the three constant formulas.
var (
	True1  Formula = &Const{True}
	False0 Formula = &Const{False}
	Half   Formula = &Const{Unknown}
)

// NewAtom builds p(args...).
func NewAtom(pred string, args ...Var) *Atom { return &Atom{Pred: pred, Args: args} }

// NewAnd folds its operands left to right with &; with none it is 1.
func NewAnd(fs ...Formula) Formula { return fold(And, True1, fs) }

// NewOr folds its operands left to right with |; with none it is 0.
func NewOr(fs ...Formula) Formula { return fold(Or, False0, fs) }

func fold(op BinOp, unit Formula, fs []Formula) Formula {
	if len(fs) == 0 {
		return unit
	}
	acc := fs[0]
	for _, f := range fs[1:] {
		acc = &Binary{Op: op, Left: acc, Right: f}
	}
	return acc
}

// NewNot builds !f.
func NewNot(f Formula) Formula { return &Not{Sub: f} }

// NewImplies builds a -> b.
func NewImplies(a, b Formula) Formula { return &Binary{Op: Implies, Left: a, Right: b} }

// NewExists builds E(vars) body.
func NewExists(body Formula, vars ...Var) Formula {
	return &Quant{Kind: Exists, Vars: vars, Body: body}
}

// NewForall builds A(vars) body.
func NewForall(body Formula, vars ...Var) Formula {
	return &Quant{Kind: Forall, Vars: vars, Body: body}
}

// Eq builds a == b.
func Eq(a, b Var) Formula { return &Equal{Left: a, Right: b} }

// Neq builds a != b.
func Neq(a, b Var) Formula { return &Not{Sub: &Equal{Left: a, Right: b}} }

// Rewrite rebuilds f top down: where replace returns (g, true), g takes
// the node's place and its children are not visited; elsewhere a
// connective, quantifier or TC is rebuilt from its rewritten children and
// any other node (an atom, a constant, an equality, a closure) stays.
func Rewrite(f Formula, replace func(Formula) (Formula, bool)) Formula {
	if g, ok := replace(f); ok {
		return g
	}
	rec := func(g Formula) Formula { return Rewrite(g, replace) }
	switch g := f.(type) {
	case *Not:
		return &Not{Sub: rec(g.Sub)}
	case *Binary:
		return &Binary{Op: g.Op, Left: rec(g.Left), Right: rec(g.Right)}
	case *If:
		return &If{Cond: rec(g.Cond), Then: rec(g.Then), Else: rec(g.Else)}
	case *Quant:
		return &Quant{Kind: g.Kind, Vars: g.Vars, Body: rec(g.Body)}
	case *TC:
		t := *g
		t.Body = rec(g.Body)
		return &t
	}
	return f
}

// Walk calls visit on f and then on each subformula, depth first, in the
// order they are printed. visit returns false to skip a node's children.
func Walk(f Formula, visit func(Formula) bool) {
	if !visit(f) {
		return
	}
	switch g := f.(type) {
	case *Not:
		Walk(g.Sub, visit)
	case *Binary:
		Walk(g.Left, visit)
		Walk(g.Right, visit)
	case *If:
		Walk(g.Cond, visit)
		Walk(g.Then, visit)
		Walk(g.Else, visit)
	case *Quant:
		Walk(g.Body, visit)
	case *TC:
		Walk(g.Body, visit)
	}
}

// Preds lists the predicate names f mentions, in order of first
// appearance.
func Preds(f Formula) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	Walk(f, func(g Formula) bool {
		switch h := g.(type) {
		case *Atom:
			add(h.Pred)
		case *Closure:
			add(h.Pred)
		}
		return true
	})
	return out
}

// UsesEquality reports whether f contains == or != anywhere; TVLA's
// equality reads the summary predicate, so such formulas depend on it.
func UsesEquality(f Formula) bool {
	found := false
	Walk(f, func(g Formula) bool {
		switch h := g.(type) {
		case *Equal:
			found = true
		case *Closure:
			if h.Reflexive {
				found = true
			}
		}
		return !found
	})
	return found
}

// EqualFormulas reports whether a and b are the same tree (bound variable
// names included).
func EqualFormulas(a, b Formula) bool {
	switch x := a.(type) {
	case *Const:
		y, ok := b.(*Const)
		return ok && x.Value == y.Value
	case *Atom:
		y, ok := b.(*Atom)
		return ok && x.Pred == y.Pred && equalVars(x.Args, y.Args)
	case *Equal:
		y, ok := b.(*Equal)
		return ok && x.Left == y.Left && x.Right == y.Right
	case *Not:
		y, ok := b.(*Not)
		return ok && EqualFormulas(x.Sub, y.Sub)
	case *Binary:
		y, ok := b.(*Binary)
		return ok && x.Op == y.Op && EqualFormulas(x.Left, y.Left) && EqualFormulas(x.Right, y.Right)
	case *If:
		y, ok := b.(*If)
		return ok && EqualFormulas(x.Cond, y.Cond) && EqualFormulas(x.Then, y.Then) && EqualFormulas(x.Else, y.Else)
	case *Quant:
		y, ok := b.(*Quant)
		return ok && x.Kind == y.Kind && equalVars(x.Vars, y.Vars) && EqualFormulas(x.Body, y.Body)
	case *TC:
		y, ok := b.(*TC)
		return ok && x.From == y.From && x.To == y.To && x.Sub1 == y.Sub1 && x.Sub2 == y.Sub2 && EqualFormulas(x.Body, y.Body)
	case *Closure:
		y, ok := b.(*Closure)
		return ok && *x == *y
	}
	return false
}

func equalVars(a, b []Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
