package driver

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/predicates"
)

// Contents is what a loaded program declares and uses, counted: what
// `tvla check` summarises on one screen.
type Contents struct {
	// Program is the program's file; Files are the base names of the files the program was read from.
	Program string
	Files   []string
	// Declared counts the predicates the program declares; ByArity
	// counts them per arity, in increasing arity.
	Declared int
	ByArity  []ArityCount
	// Core and Instrumentation name the declared predicates as name/arity;
	// Abstraction names the unary abstraction predicates.
	Core, Instrumentation, Abstraction []string
	// Rules counts the consistency rules, Written those written with %r
	// (the others properties imply); Constraints what Coerce enforces.
	Rules, Written, Constraints int
	// Definitions counts the actions defined; Actions are the uses of
	// actions in the CFG.
	Definitions int
	Actions     []string
	// Locations, Edges and Entry describe the CFG (Entry is "" without
	// locations); Print is the print list.
	Locations, Edges int
	Entry            string
	Print            []string
	// Inputs are the TVS files read, each with its number of structures.
	Inputs []InputCount
	// Warnings are the loader's.
	Warnings []string
}

// ArityCount is how many declared predicates have an arity.
type ArityCount struct{ Arity, Predicates int }

// InputCount is a TVS input file and how many structures it holds.
type InputCount struct {
	File       string
	Structures int
}

// ArityName names an arity as a summary does: nullary, unary, binary,
// ternary, then k-ary.
func ArityName(k int) string {
	if names := []string{"nullary", "unary", "binary", "ternary"}; k < len(names) {
		return names[k]
	}
	return fmt.Sprintf("%d-ary", k)
}

// Contents counts what l's program declares and uses.
func (l *Loaded) Contents() Contents {
	p := l.Program
	voc := p.Vocabulary
	c := Contents{Program: p.File, Declared: len(voc.Declared()), Rules: len(voc.Rules), Definitions: len(p.Definitions),
		Locations: len(p.Locations), Edges: len(p.Edges), Print: p.Print, Warnings: p.Warnings}
	for _, f := range l.Files {
		c.Files = append(c.Files, filepath.Base(f))
	}
	byArity := map[int]int{}
	for _, q := range voc.Declared() {
		byArity[q.Arity]++
		name := fmt.Sprintf("%s/%d", q.Name, q.Arity)
		if q.Kind == predicates.Core {
			c.Core = append(c.Core, name)
		} else {
			c.Instrumentation = append(c.Instrumentation, name)
		}
		if q.Arity == 1 && q.Abstraction() {
			c.Abstraction = append(c.Abstraction, q.Name)
		}
	}
	for k, n := range byArity {
		c.ByArity = append(c.ByArity, ArityCount{k, n})
	}
	sort.Slice(c.ByArity, func(i, j int) bool { return c.ByArity[i].Arity < c.ByArity[j].Arity })
	// A %r rule's origin is its position (file:line:col); a rule a
	// property implies is named after the property ("p unique").
	for _, r := range voc.Rules {
		if strings.Contains(r.Origin, ":") {
			c.Written++
		}
	}
	c.Constraints = len(predicates.Constraints(voc))
	for _, a := range p.Actions {
		c.Actions = append(c.Actions, a.String())
	}
	if len(p.Locations) > 0 {
		c.Entry = p.Locations[0]
	}
	for i, in := range l.Inputs {
		c.Inputs = append(c.Inputs, InputCount{filepath.Base(in), l.PerInput[i]})
	}
	return c
}
