// Package model is a loaded TVP program: its predicates and rules
// (package predicates), its actions with every formula resolved, and its
// control-flow graph. The front end builds it; the engine runs it.
package model

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
)

// Program is what a TVP file means.
type Program struct {
	File       string
	Vocabulary *predicates.Vocabulary
	// Definitions names every action definition, in order.
	Definitions []string
	// Actions are the instantiated actions (a definition applied to
	// arguments), in order of first use in the CFG.
	Actions []*Action
	// Edges are the CFG edges in the order written.
	Edges []*Edge
	// Locations lists every CFG location in order of first appearance.
	Locations []string
	// Print lists the locations of the optional fourth section, whose
	// structures are the ones to report; empty means all.
	Print []string
	// Warnings are things the program does that the tool ignores.
	Warnings []string
	// SoftInvariants are the soft invariants the loader generated (tvla
	// run --soft-invariants), nil when none were asked for.
	SoftInvariants *predicates.SoftInvariants
	// DecompNames are the %dname declarations (graph decomposition,
	// docs/decomposition.md), in order; the classic engine ignores them.
	DecompNames []DecompName
	// PSets are the %pset declarations, in order: sets whose members
	// (thread names) the decomposing engine treats as interchangeable,
	// identifying components that differ by a permutation of them
	// (docs/decomposition.md); the classic engine reads them as %s sets.
	PSets []PSet
}

// PSet is a %pset declaration: its name and members, in the order
// written.
type PSet struct {
	Name    string
	Members []string
	Origin  string
}

// DecompName is a %dname: the component of a structure named Name holds
// the individuals where Formula, whose one free variable is Var, is not 0.
type DecompName struct {
	Name    string
	Formula logic.Formula
	Var     logic.Var
	Origin  string
	// Marker is the nullary predicate dname[Name], 1 on the name's
	// components under the decomposing engine (0 otherwise).
	Marker *predicates.Predicate
}

// Edge is a CFG edge: from a location, through an action, to a location.
type Edge struct {
	From, To string
	Action   *Action
	Origin   string
}

// Message is a %message: Text is reported when Formula is potentially
// satisfied (1 or 1/2).
type Message struct {
	// Compose is the optional bracketed formula of %message [f] g ->
	// text: for graph decomposition, the composition of components the
	// message is checked on (docs/decomposition.md); TVLA's classic
	// engine, like ours, ignores it.
	Compose logic.Formula
	Formula logic.Formula
	Text    string
	Origin  string
}

// Update is one update formula: Pred(Args) = Formula.
type Update struct {
	Pred    *predicates.Predicate
	Args    []logic.Var
	Formula logic.Formula
	// Auto marks a formula the user asked the tool to derive (the auto
	// keyword); Formula is then the written one, to be replaced.
	Auto   bool
	Origin string
}

// Action is an action definition applied to arguments.
type Action struct {
	// Name is the definition's name; Args its arguments.
	Name string
	Args []string
	// Title is the %t text with arguments substituted, or Name(Args).
	Title  string
	Origin string
	// Focus formulas, the program's global ones included.
	Focus []logic.Formula
	// Precondition is nil when the action has none (always applies). Its
	// free variables are bound for the formulas after it.
	Precondition logic.Formula
	// PreMessages are checked before the update (global ones included),
	// PostMessages after it.
	PreMessages, PostMessages []Message
	// New is true for %new; NewFormula is its optional unary formula
	// (nil: create one individual). Clone likewise for %clone.
	New          bool
	NewFormula   logic.Formula
	Clone        bool
	CloneFormula logic.Formula
	Updates      []Update
	// Retain is the %retain formula, or nil to keep every individual.
	Retain logic.Formula
	// The graph decomposition clauses (docs/decomposition.md), nil when
	// absent: %frame_pre, %compose and %frame formulas, and %decompose's
	// formula (1 for a bare %decompose). The classic engine ignores them.
	FramePre, Compose, Frame, Decompose logic.Formula
	// PSets are the %psets the action's %param clauses range over, in
	// order (the action is instantiated for their first members only;
	// the decomposing engine stands it for every member by symmetry).
	PSets []string
	// Unsupported names the clauses present that the engine ignores
	// (graph decomposition's %decompose, %compose, %frame, ...).
	Unsupported []string
}

// String is the action as the CFG writes it: Name(arg, ...).
func (a *Action) String() string {
	s := a.Name + "("
	for i, x := range a.Args {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s + ")"
}
