package logic

import "fmt"

// Kleene is a truth value of Kleene's three-valued logic.
//
// The encoding orders the values by truth, False < Unknown < True, so that
// conjunction is the minimum, disjunction the maximum and negation the
// reflection 2-v: the operators need no tables.
type Kleene uint8

const (
	False   Kleene = 0
	Unknown Kleene = 1 // written 1/2
	True    Kleene = 2
)

// Of converts a Go boolean to a definite Kleene value.
func Of(b bool) Kleene {
	if b {
		return True
	}
	return False
}

// And is Kleene conjunction (the minimum in the truth order).
func (a Kleene) And(b Kleene) Kleene {
	if a < b {
		return a
	}
	return b
}

// Or is Kleene disjunction (the maximum in the truth order).
func (a Kleene) Or(b Kleene) Kleene {
	if a > b {
		return a
	}
	return b
}

// Not is Kleene negation.
func (a Kleene) Not() Kleene { return 2 - a }

// Implies is a -> b, that is !a | b.
func (a Kleene) Implies(b Kleene) Kleene { return a.Not().Or(b) }

// Iff is a <-> b, that is (a -> b) & (b -> a).
func (a Kleene) Iff(b Kleene) Kleene { return a.Implies(b).And(b.Implies(a)) }

// Join is the least upper bound in the information order: equal values stay,
// different values become Unknown.
func (a Kleene) Join(b Kleene) Kleene {
	if a == b {
		return a
	}
	return Unknown
}

// LessInfo reports a ⊑ b in the information order: a equals b, or b is
// Unknown. A concrete value embeds into an abstract one exactly when this
// holds for every tuple.
func (a Kleene) LessInfo(b Kleene) bool { return a == b || b == Unknown }

// Definite reports whether a is True or False.
func (a Kleene) Definite() bool { return a != Unknown }

// Valid reports whether a is one of the three values.
func (a Kleene) Valid() bool { return a <= True }

// String prints the value as TVP writes it: 0, 1 or 1/2.
func (a Kleene) String() string {
	switch a {
	case False:
		return "0"
	case True:
		return "1"
	case Unknown:
		return "1/2"
	}
	return fmt.Sprintf("Kleene(%d)", uint8(a))
}

// ParseKleene reads 0, 1 or 1/2 (TVP also allows spaces around the slash).
func ParseKleene(s string) (Kleene, error) {
	switch s {
	case "0":
		return False, nil
	case "1":
		return True, nil
	case "1/2", "1 /2", "1/ 2", "1 / 2":
		return Unknown, nil
	}
	return False, fmt.Errorf("not a Kleene value: %q (want 0, 1 or 1/2)", s)
}
