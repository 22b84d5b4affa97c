package algc

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// Output is a compiled algorithm.
type Output struct {
	// Name is the algorithm's name.
	Name string
	// TVP is the model; TVS its initial structure. Both use the macros
	// THREADS, COLLAPSE_THREADS and PURE_INIT like the hand-written
	// models.
	TVP, TVS string
	// Lines[i] is the source position line i+1 of TVP comes from (the
	// zero Pos for lines of no statement).
	Lines []alg.Pos
	// Off holds the generated predicates `instrument off` removed, with
	// where: an error of the generated model naming one says so.
	Off map[string]alg.Pos
}

type compiler struct {
	file string
	s    *symbols
	g    *fgen
	e    *errs
	spec *specLib
	gen  *instruments
	b    *builder
	full bool
	w    *writer
	// live is the liveness of thread-local variables at each location.
	live map[*loc]map[string]bool
	// owned are, per location, the thread-local variables whose node the
	// thread allocated or took from the freed ones and has not published
	// (private.go, ownership).
	owned map[*loc]map[string]bool
	// hasInit: the CFG starts with init's steps.
	initEntry *loc
}

// reserved names are the generated predicates and TVP's own words, which
// the algorithm's names must not take.
var reserved = map[string]bool{
	"is_node": true, "is_data": true, "isthread": true, "tr_scheduled": true, "at": true,
	"doneLP": true, "doneELP": true, "sawEmpty": true, "spec": true, "circ": true, "reach": true, "has": true,
	"Head_S": true, "Tail_S": true, "gone_S": true, "matching": true, "commutes": true, "r_by": true, "has_S": true, "has_T": true, "pre_S": true, "first_S": true, "rcommutes": true, "rcommutes2": true,
	"waiting": true, "shared": true, "succ": true, "opval": true, "same": true, "ordered": true, "past": true, "on": true, "unset": true, "pre": true, "lpif": true,
	"tonull": true, "noval": true, "sm": true, "isNew": true, "E": true, "A": true, "TC": true,
	"idle": true, "ready": true, "yield": true, "error": true, "init": true, "schedule": true, "unschedule": true,
	"inac": true, "kill": true, "instance": true, "freed": true, "reuse_pick": true, "stale": true,
	"lin_S": true, "owed_S": true, "owedval_S": true, "elig_S": true, "owedsame_S": true, "eligible_S": true, "creator_S": true,
}

// Compile parses, checks and compiles an algorithm.
func Compile(file string, src []byte) (*Output, error) {
	prog, err := alg.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return CompileProgram(file, prog)
}

// CompileProgram compiles a parsed and checked program.
func CompileProgram(file string, prog *alg.Program) (*Output, error) {
	e := &errs{}
	c := &compiler{file: file, e: e, full: prog.Interleaving != nil && prog.Interleaving.Mode == "full"}
	c.s = newSymbols(prog, e)
	c.checkNames(prog)
	if c.s.link == "" || c.s.value == "" {
		e.add(prog.Pos, "the specification's list needs a node type with a pointer field to its own type and a data field")
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	c.g = &fgen{s: c.s}
	c.spec = &specLib{name: prog.Spec.Name, s: c.s, g: c.g, relation: len(c.s.alloc) > 0}
	for _, op := range prog.Ops {
		walkStmts(op.Body, func(st alg.Stmt) {
			if m := lpOf(st); m != nil && m.Empty {
				c.spec.emptyLPs = true
			}
			if m := lpOf(st); m != nil && m.Claim != nil {
				c.spec.claims = true
			}
		})
	}
	c.spec.takers = claimOps(prog)
	c.generateInstruments()
	c.spec.gen = c.gen
	c.build(prog)
	if err := e.err(); err != nil {
		return nil, err
	}
	c.liveness()
	c.pairFocus()
	c.preFocus()
	c.staleFocus()
	c.staleFieldFocus()
	c.privacy()
	c.privateFacts()
	c.w = &writer{}
	c.emitTVP(prog)
	out := &Output{Name: prog.Name, TVP: c.w.b.String(), Lines: c.w.lines, TVS: c.tvs(), Off: switchedOff(prog)}
	return out, nil
}

func switchedOff(prog *alg.Program) map[string]alg.Pos {
	off := map[string]alg.Pos{}
	for _, d := range prog.Instrument {
		if d.Off {
			for _, n := range d.Names {
				off[n.String()] = n.Pos
			}
		}
	}
	return off
}

func lpOf(st alg.Stmt) *alg.LPMark {
	switch st := st.(type) {
	case *alg.AssignStmt:
		return st.LP
	case *alg.ExprStmt:
		return st.LP
	case *alg.IfStmt:
		return st.LP
	}
	return nil
}

func (c *compiler) checkNames(prog *alg.Program) {
	check := func(v *alg.VarDecl, what string) {
		if reserved[v.Name] || strings.HasPrefix(v.Name, "w_") || strings.HasPrefix(v.Name, "u_") || strings.HasPrefix(v.Name, "v_") {
			c.e.add(v.Pos, "%s %s: the name is used by the generated model; choose another", what, v.Name)
		}
	}
	for _, t := range prog.Types {
		for _, f := range t.Fields {
			check(f, "field")
		}
	}
	for _, v := range prog.Shared {
		check(v, "shared variable")
	}
	for _, v := range prog.Locals {
		check(v, "variable")
	}
	for _, op := range prog.Ops {
		for _, p := range op.Params {
			check(p, "parameter")
		}
		walkStmts(op.Body, func(st alg.Stmt) {
			if l, ok := st.(*alg.LocalStmt); ok {
				for _, v := range l.Vars {
					check(v, "variable")
				}
			}
		})
	}
	for name := range c.s.fields {
		if _, ok := c.s.thread[name]; ok {
			c.e.add(prog.Pos, "%s names both a field and a thread-local variable: they would share a predicate", name)
		}
	}
	for name := range c.s.shared {
		if _, ok := c.s.thread[name]; ok {
			c.e.add(prog.Pos, "%s names both a shared and a thread-local variable", name)
		}
		if _, ok := c.s.fields[name]; ok {
			c.e.add(prog.Pos, "%s names both a shared variable and a field", name)
		}
	}
}

// build makes the step graph: init's steps, then each operation's.
func (c *compiler) build(prog *alg.Program) {
	b := &builder{s: c.s, g: c.g, e: c.e, spec: c.spec, full: c.full, names: map[string]bool{}, partners: partnerVars(prog)}
	c.b = b
	b.idle = b.namedLoc("idle", prog.Pos)
	b.idle.sched = true
	b.yield = &loc{name: "yield"}
	b.names["yield"], b.names["ready"], b.names["error"], b.names["init"], b.names["init_end"] = true, true, true, true, true
	b.inInit, b.prefix = true, "init"
	next := b.yield
	initAlloc := ""
	if prog.Init != nil {
		initAlloc = firstAlloc(prog.Init.Body)
	}
	pos := prog.Pos
	if prog.Init != nil {
		pos = prog.Init.Pos
	}
	specAt := b.newLoc(pos, "_spec")
	if c.spec.initStep(b, specAt, b.yield, pos, initAlloc) {
		next = specAt
	}
	if prog.Init != nil {
		next = b.stmts(prog.Init.Body.Stmts, next)
	}
	if next != b.yield {
		c.initEntry = next.final()
	}
	for _, op := range prog.Ops {
		b.compileOp(op)
	}
	c.prune()
	c.partnerFocus()
	c.claimFixups()
	c.sawEmptyFixups()
	c.checkLocks()
	c.schedule()
}

// prune drops the locations no step reaches (an operation's unused
// response, say) with their steps.
func (c *compiler) prune() {
	b := c.b
	reached := map[*loc]bool{b.idle: true}
	if c.initEntry != nil {
		reached[c.initEntry] = true
	}
	for changed := true; changed; {
		changed = false
		for _, st := range b.steps {
			if reached[st.from.final()] && st.to != nil && !reached[st.to.final()] {
				reached[st.to.final()] = true
				changed = true
			}
		}
	}
	var steps []*step
	for _, st := range b.steps {
		st.from = st.from.final()
		if st.to != nil {
			st.to = st.to.final()
		}
		if reached[st.from] {
			steps = append(steps, st)
		}
	}
	b.steps = steps
	var locs []*loc
	for _, l := range b.locs {
		if reached[l] && l.alias == nil {
			locs = append(locs, l)
		}
	}
	b.locs = locs
}

// schedule decides the scheduling points: under restricted interleaving
// idle, the locations after yield and those of locks; under full
// interleaving every location outside atomic blocks and
// linearisation-point groups.
func (c *compiler) schedule() {
	for _, l := range c.b.locs {
		if !l.thread {
			continue
		}
		if c.full || l.lock {
			l.sched = true
		}
		if l.internal {
			l.sched = false
		}
	}
	c.b.idle.sched = true
}

// writer accumulates TVP lines with the source position of each.
type writer struct {
	b     strings.Builder
	lines []alg.Pos
}

func (w *writer) line(pos alg.Pos, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	for _, l := range strings.Split(text, "\n") {
		w.b.WriteString(l)
		w.b.WriteByte('\n')
		w.lines = append(w.lines, pos)
	}
}

func (w *writer) text(format string, args ...any) { w.line(alg.Pos{}, format, args...) }
