package predicates

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Kind tells core predicates from instrumentation (derived) ones.
type Kind uint8

const (
	Core Kind = iota
	Instrumentation
	// Builtin predicates are declared by the tool, not the program: sm,
	// isNew, instance and isthread.
	Builtin
)

func (k Kind) String() string {
	switch k {
	case Core:
		return "core"
	case Instrumentation:
		return "instrumentation"
	}
	return "builtin"
}

// Names of the built-in predicates besides sm.
const (
	IsNewName    = "isNew"    // unary: the individuals an action's %new or %clone created
	InstanceName = "instance" // binary: instance(copy, original) relates a %new/%clone copy to the individual it copies
	IsThreadName = "isthread" // unary: the individual is a thread (TVLA declares it for every program)
	// InacName is the unary predicate TVLA's single-structure join
	// ("ind") keeps on every individual: 1 where the individual exists,
	// 1/2 where it may not (it stands for individuals of only some of the
	// structures joined). Other joins leave it alone.
	InacName = "inac"
)

// builtins are the predicates TVLA declares for every program, besides
// sm: TVS inputs and programs written for TVLA use them without declaring
// them. ready and outside are abstraction predicates there, the others
// are not.
var builtins = []struct {
	name   string
	params []logic.Var
	nonabs bool
}{
	{IsNewName, []logic.Var{"v"}, false},
	{InstanceName, []logic.Var{"v_1", "v_2"}, false},
	{IsThreadName, []logic.Var{"v"}, false},
	{"ready", []logic.Var{"v"}, false},
	{"outside", []logic.Var{"v"}, false},
	{"runnable", []logic.Var{"v"}, true},
	{"ac", []logic.Var{"v"}, true},
	{InacName, []logic.Var{"v"}, true},
}

// Properties are the flags written after a predicate declaration.
type Properties struct {
	Unique        bool // unary: true for at most one individual
	Function      bool // binary: a partial function
	InvFunction   bool // binary: an injective partial function
	Symmetric     bool
	AntiSymmetric bool
	Reflexive     bool
	AntiReflexive bool
	Transitive    bool
	Acyclic       bool // binary: no cycles (used by finite differencing)
	Abs           bool // explicitly an abstraction predicate
	NonAbs        bool // explicitly not an abstraction predicate
	Pointer       bool // display hint: draw as a named pointer
	Box           bool // display hint: draw in a box
	// UniquePerCC lists the predicates p of uniquePerCC(p).
	UniquePerCC []string
	// Dependencies are functional dependencies [a, b] --> c.
	Dependencies []Dependency
	// Show lists the values drawn, from the {1, 1/2} display hint.
	Show []logic.Kleene
}

// Dependency is a functional dependency among a predicate's argument
// positions, written [lhs...] --> rhs.
type Dependency struct {
	From []string
	To   string
}

// PropertyNames lists the property words a declaration may use, for
// messages.
var PropertyNames = []string{"abs", "acyclic", "antireflexive", "antisymmetric", "box", "function",
	"invfunction", "nonabs", "pointer", "reflexive", "symmetric", "transitive", "unique", "uniquePerCC"}

// Set turns on the property named word, checking that it suits a
// predicate of the given arity. It reports an unknown word or a misuse.
func (p *Properties) Set(word string, arity int) error {
	needArity := func(k int) error {
		if arity != k {
			return fmt.Errorf("property %s needs a predicate of arity %d, not %d", word, k, arity)
		}
		return nil
	}
	flag := map[string]*bool{
		"function": &p.Function, "invfunction": &p.InvFunction, "symmetric": &p.Symmetric,
		"antisymmetric": &p.AntiSymmetric, "reflexive": &p.Reflexive, "antireflexive": &p.AntiReflexive,
		"transitive": &p.Transitive, "acyclic": &p.Acyclic,
	}
	switch word {
	case "unique":
		p.Unique = true
		return needArity(1)
	case "abs":
		p.Abs = true
		if p.NonAbs {
			return fmt.Errorf("a predicate cannot be both abs and nonabs")
		}
	case "nonabs":
		p.NonAbs = true
		if p.Abs {
			return fmt.Errorf("a predicate cannot be both abs and nonabs")
		}
	case "pointer":
		p.Pointer = true
	case "box":
		p.Box = true
	default:
		f, ok := flag[word]
		if !ok {
			return fmt.Errorf("unknown property %s (known: %s)", word, strings.Join(PropertyNames, ", "))
		}
		*f = true
		return needArity(2)
	}
	return nil
}

// Predicate is a declared predicate.
type Predicate struct {
	*tvl.Pred
	Kind  Kind
	Props Properties
	// Params are the variables of the declaration, p(v1, ..., vk).
	Params []logic.Var
	// Def is an instrumentation predicate's defining formula, over Params.
	Def logic.Formula
	// Origin says where the predicate was declared (file:line:col), or
	// "builtin".
	Origin string
}

// Abstraction reports whether the predicate takes part in canonical
// abstraction (unary) or in the partial join's key (nullary). TVLA makes
// every unary and nullary predicate an abstraction predicate unless it is
// declared nonabs; the built-in isthread is one too, sm is not.
func (p *Predicate) Abstraction() bool {
	if p.Arity > 1 || p.Name == tvl.SummaryName {
		return false
	}
	return !p.Props.NonAbs
}

// SetAbstraction makes the named predicate an abstraction predicate (abs
// true) or not one, whatever its declaration said: the abs and nonabs
// properties are replaced. Only unary and nullary predicates can be either
// (sm never is one); the error says why a name cannot be used.
func (v *Vocabulary) SetAbstraction(name string, abs bool) error {
	p := v.Lookup(name)
	switch {
	case p == nil:
		return fmt.Errorf("the program has no predicate %s", name)
	case p.Name == tvl.SummaryName:
		return fmt.Errorf("%s is the built-in summary predicate, which is never an abstraction predicate", name)
	case p.Arity > 1:
		return fmt.Errorf("%s has arity %d: only unary and nullary predicates are abstraction predicates", name, p.Arity)
	}
	p.Props.Abs, p.Props.NonAbs = abs, !abs
	return nil
}

// Rule is a consistency rule Body ==> Head: for every assignment of the
// free variables under which Body is 1, Head must be 1. Head is an atom,
// an equality, a constant, or the negation of one of those.
type Rule struct {
	Body, Head logic.Formula
	// Origin says where the rule came from: a position for %r rules,
	// "p unique" and the like for rules properties generate.
	Origin string
}

func (r Rule) String() string {
	return logic.String(r.Body) + " ==> " + logic.String(r.Head)
}

// CheckHead reports whether f may be a rule's head.
func CheckHead(f logic.Formula) error {
	if n, ok := f.(*logic.Not); ok {
		f = n.Sub
	}
	switch f.(type) {
	case *logic.Atom, *logic.Equal, *logic.Const:
		return nil
	}
	return fmt.Errorf("the head of a consistency rule must be a predicate, an equality, a constant or the negation of one, not %s", logic.String(f))
}

// Vocabulary is the set of predicates of a program, in declaration order,
// together with its consistency rules.
type Vocabulary struct {
	tvl   *tvl.Vocabulary
	preds []*Predicate // indexed by tvl.Pred.ID
	Rules []Rule
}

// New returns a vocabulary holding the built-in predicates: sm and those
// of builtins.
func New() *Vocabulary {
	v := &Vocabulary{tvl: tvl.NewVocabulary()}
	v.preds = append(v.preds, &Predicate{Pred: v.tvl.Summary(), Kind: Builtin, Params: []logic.Var{"v"}, Origin: "builtin"})
	for _, b := range builtins {
		p := v.tvl.MustAdd(b.name, len(b.params))
		v.preds = append(v.preds, &Predicate{Pred: p, Kind: Builtin, Params: b.params, Origin: "builtin", Props: Properties{NonAbs: b.nonabs}})
	}
	return v
}

// Tvl returns the vocabulary structures are built over.
func (v *Vocabulary) Tvl() *tvl.Vocabulary { return v.tvl }

// Declare adds a predicate. A name declared before (built-ins included)
// is an error.
func (v *Vocabulary) Declare(name string, kind Kind, params []logic.Var, props Properties, def logic.Formula, origin string) (*Predicate, error) {
	if old := v.Lookup(name); old != nil {
		if old.Kind == Builtin {
			return nil, fmt.Errorf("predicate %s is built in and cannot be declared", name)
		}
		return nil, fmt.Errorf("predicate %s already declared at %s", name, old.Origin)
	}
	seen := map[logic.Var]bool{}
	for _, p := range params {
		if seen[p] {
			return nil, fmt.Errorf("predicate %s: variable %s appears twice in its declaration", name, p)
		}
		seen[p] = true
	}
	tp, err := v.tvl.Add(name, len(params))
	if err != nil {
		return nil, err
	}
	p := &Predicate{Pred: tp, Kind: kind, Props: props, Params: params, Def: def, Origin: origin}
	v.preds = append(v.preds, p)
	return p, nil
}

// Lookup finds a predicate by name, or returns nil.
func (v *Vocabulary) Lookup(name string) *Predicate {
	tp := v.tvl.Lookup(name)
	if tp == nil {
		return nil
	}
	return v.preds[tp.ID]
}

// Of returns the predicate behind a tvl predicate.
func (v *Vocabulary) Of(p *tvl.Pred) *Predicate { return v.preds[p.ID] }

// All lists every predicate, built-ins first, then in declaration order.
func (v *Vocabulary) All() []*Predicate { return v.preds }

// Declared lists the predicates the program declared, in order.
func (v *Vocabulary) Declared() []*Predicate {
	var out []*Predicate
	for _, p := range v.preds {
		if p.Kind != Builtin {
			out = append(out, p)
		}
	}
	return out
}

// AbstractionPreds lists the unary abstraction predicates, in declaration
// order: the predicates Blur groups individuals by.
func (v *Vocabulary) AbstractionPreds() []*tvl.Pred {
	var out []*tvl.Pred
	for _, p := range v.preds {
		if p.Arity == 1 && p.Abstraction() {
			out = append(out, p.Pred)
		}
	}
	return out
}

// Sorted returns the declared predicates sorted by name, for summaries.
func (v *Vocabulary) Sorted() []*Predicate {
	out := v.Declared()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
