package alg

import "slices"

// SpecOp is an operation of a sequential specification.
type SpecOp struct {
	Name   string
	Params []string // kinds: "data"
	Result string   // "" (none) or "data"
	Empty  bool     // may return the "empty" result
	// End is the end of a deque the operation works at: "left" or
	// "right" ("" for the other specifications).
	End string
}

// Spec is a sequential specification of the library: the compiler
// (next step) merges it into the model as an auxiliary list updated at
// each linearisation point (docs/algorithms.md).
type Spec struct {
	Name string
	Doc  string
	Ops  []SpecOp
}

// Op finds an operation by name.
func (s *Spec) Op(name string) *SpecOp {
	for i := range s.Ops {
		if s.Ops[i].Name == name {
			return &s.Ops[i]
		}
	}
	return nil
}

// Specs is the specification library, by name. set goes here.
var Specs = map[string]*Spec{
	"stack": {Name: "stack", Doc: "LIFO: push(v) puts v on top; pop() returns the top value or empty", Ops: []SpecOp{
		{Name: "push", Params: []string{"data"}},
		{Name: "pop", Result: "data", Empty: true},
	}},
	"queue": {Name: "queue", Doc: "FIFO: enqueue(v) appends v; dequeue() returns the oldest value or empty", Ops: []SpecOp{
		{Name: "enqueue", Params: []string{"data"}},
		{Name: "dequeue", Result: "data", Empty: true},
	}},
	"deque": {Name: "deque", Doc: "double-ended queue: pushLeft(v)/pushRight(v) add v at an end; popLeft()/popRight() return the value at that end or empty", Ops: []SpecOp{
		{Name: "pushLeft", Params: []string{"data"}, End: "left"},
		{Name: "pushRight", Params: []string{"data"}, End: "right"},
		{Name: "popLeft", Result: "data", Empty: true, End: "left"},
		{Name: "popRight", Result: "data", Empty: true, End: "right"},
	}},
}

// SpecNames lists the library's names, sorted.
func SpecNames() []string {
	names := make([]string, 0, len(Specs))
	for n := range Specs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
