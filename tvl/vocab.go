package tvl

import (
	"fmt"
	"sort"
)

// SummaryName is the name of the built-in summary predicate.
const SummaryName = "sm"

// Pred is a predicate of a vocabulary. Index is its position among the
// predicates of the same arity (the table a structure keeps for it); ID is
// its position in the whole vocabulary, in declaration order.
type Pred struct {
	Name  string
	Arity int
	Index int
	ID    int
}

func (p *Pred) String() string { return p.Name }

// Vocabulary is the ordered set of predicates structures interpret. It is
// built once, before any structure over it exists, and is then read-only.
type Vocabulary struct {
	preds   []*Pred
	byName  map[string]*Pred
	byArity [][]*Pred
	sm      *Pred
}

// NewVocabulary returns a vocabulary holding only the summary predicate sm.
func NewVocabulary() *Vocabulary {
	v := &Vocabulary{byName: map[string]*Pred{}}
	v.sm = v.MustAdd(SummaryName, 1)
	return v
}

// Add declares a predicate. Declaring a name twice is an error, as is a
// negative arity.
func (v *Vocabulary) Add(name string, arity int) (*Pred, error) {
	if arity < 0 {
		return nil, fmt.Errorf("predicate %s: negative arity %d", name, arity)
	}
	if old, ok := v.byName[name]; ok {
		return old, fmt.Errorf("predicate %s declared twice", name)
	}
	for len(v.byArity) <= arity {
		v.byArity = append(v.byArity, nil)
	}
	p := &Pred{Name: name, Arity: arity, Index: len(v.byArity[arity]), ID: len(v.preds)}
	v.preds = append(v.preds, p)
	v.byArity[arity] = append(v.byArity[arity], p)
	v.byName[name] = p
	return p, nil
}

// MustAdd is Add for vocabularies built by code, where a clash is a bug.
func (v *Vocabulary) MustAdd(name string, arity int) *Pred {
	p, err := v.Add(name, arity)
	if err != nil {
		panic(err)
	}
	return p
}

// Lookup finds a predicate by name, or returns nil.
func (v *Vocabulary) Lookup(name string) *Pred { return v.byName[name] }

// Summary returns the built-in predicate sm.
func (v *Vocabulary) Summary() *Pred { return v.sm }

// Preds lists all predicates in declaration order (sm first).
func (v *Vocabulary) Preds() []*Pred { return v.preds }

// OfArity lists the predicates of one arity in declaration order.
func (v *Vocabulary) OfArity(k int) []*Pred {
	if k < len(v.byArity) {
		return v.byArity[k]
	}
	return nil
}

// MaxArity is the largest arity declared.
func (v *Vocabulary) MaxArity() int { return len(v.byArity) - 1 }

// SortedNames lists the predicate names alphabetically, for stable output.
func (v *Vocabulary) SortedNames() []string {
	names := make([]string, 0, len(v.preds))
	for _, p := range v.preds {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}
