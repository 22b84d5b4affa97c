// Package algc compiles a checked algorithm (package alg) into a TVP
// model built the way Friggens (2013, Chapters 7 and 8) built the stack
// and queue models by hand: threads as individuals with a location
// predicate each, thread-local variables as binary predicates from the
// thread, the sequential specification merged in as a second list, and
// the linearisation points checked against it. The output is TVP and TVS
// text, commented with the source lines it comes from, which package tvp
// loads like any other program (docs/algorithms.md).
package algc

import (
	"sort"

	"github.com/tvla-go/tvla/alg"
)

// symbols records what every name of the program is.
type symbols struct {
	prog *alg.Program
	// fields are the node fields by name (fields of one name in two types
	// share their predicate) with their kind.
	fields map[string]string
	// shared are the shared variables with their kind.
	shared map[string]string
	// thread are the thread-local variables (program-wide locals,
	// parameters and every operation's and init's locals; one name is one
	// predicate) with their kind.
	thread map[string]string
	// threadOrder lists thread in declaration order.
	threadOrder []string
	// link and value are the fields of the list type that the
	// specification's list uses too: a pointer field to the type itself
	// and a data field. Empty when no type has them.
	link, value string
	// alloc is, per operation, the variable its first `x = new T`
	// assigns: the node of the operation's value, related by spec to the
	// specification's node.
	alloc map[string]string
	// Memory reuse (reuse.go): whether the program frees; the tagged
	// shared pointers; each snapshot variable's tagged pointer; each
	// snapshot variable's tagged field and the variable it is read
	// through.
	frees  bool
	tagged map[string]bool
	snap   map[string]string
	fsnap  map[string]alg.FieldSnap
}

func newSymbols(prog *alg.Program, e *errs) *symbols {
	s := &symbols{prog: prog, fields: map[string]string{}, shared: map[string]string{},
		thread: map[string]string{}, alloc: map[string]string{}}
	for _, t := range prog.Types {
		for _, f := range t.Fields {
			if k, ok := s.fields[f.Name]; ok && k != f.Kind.Name {
				e.add(f.Pos, "field %s is %s here and %s in another type: fields of one name share their predicate, so their kinds must agree", f.Name, f.Kind.Name, k)
			}
			s.fields[f.Name] = f.Kind.Name
		}
	}
	for _, t := range prog.Types {
		if s.link != "" {
			break
		}
		for _, f := range t.Fields {
			if f.Kind.Name == t.Name && s.link == "" {
				s.link = f.Name
			}
		}
		if s.link != "" {
			for _, f := range t.Fields {
				if f.Kind.Name == "data" && s.value == "" {
					s.value = f.Name
				}
			}
		}
	}
	for _, v := range prog.Shared {
		s.shared[v.Name] = v.Kind.Name
	}
	for _, v := range prog.Locals {
		s.addThread(v, e)
	}
	if prog.Init != nil {
		s.blockLocals(prog.Init.Body, e)
	}
	for _, op := range prog.Ops {
		for _, p := range op.Params {
			s.addThread(p, e)
		}
		s.blockLocals(op.Body, e)
		if x := firstAlloc(op.Body); x != "" {
			s.alloc[op.Name] = x
		}
	}
	s.reuseSymbols(prog, e)
	return s
}

func (s *symbols) addThread(v *alg.VarDecl, e *errs) {
	if k, ok := s.thread[v.Name]; ok {
		if k != v.Kind.Name {
			e.add(v.Pos, "thread-local variable %s is %s here and %s elsewhere: variables of one name share their predicate, so their kinds must agree", v.Name, v.Kind.Name, k)
		}
		return
	}
	s.thread[v.Name] = v.Kind.Name
	s.threadOrder = append(s.threadOrder, v.Name)
}

func (s *symbols) blockLocals(b *alg.Block, e *errs) {
	walkStmts(b, func(st alg.Stmt) {
		if l, ok := st.(*alg.LocalStmt); ok {
			for _, v := range l.Vars {
				s.addThread(v, e)
			}
		}
	})
}

// walkStmts calls f on every statement of b, nested ones too.
func walkStmts(b *alg.Block, f func(alg.Stmt)) {
	for _, st := range b.Stmts {
		f(st)
		switch st := st.(type) {
		case *alg.Block:
			walkStmts(st, f)
		case *alg.IfStmt:
			walkStmts(st.Then, f)
			if st.Else != nil {
				walkStmts(&alg.Block{Stmts: []alg.Stmt{st.Else}}, f)
			}
		case *alg.LoopStmt:
			walkStmts(st.Body, f)
		case *alg.AtomicStmt:
			walkStmts(st.Body, f)
		}
	}
}

func firstAlloc(b *alg.Block) string {
	x := ""
	walkStmts(b, func(st alg.Stmt) {
		if a, ok := st.(*alg.AssignStmt); ok && x == "" {
			if _, isNew := a.RHS.(*alg.New); isNew {
				if n, ok := a.LHS.(*alg.Name); ok {
					x = n.Name
				}
			}
		}
	})
	return x
}

// kind is the kind of an expression: "data", "bool", "lock", a type
// name, or "null".
func (s *symbols) kind(x alg.Expr) string {
	switch x := x.(type) {
	case *alg.Name:
		if k, ok := s.thread[x.Name]; ok {
			return k
		}
		return s.shared[x.Name]
	case *alg.Field:
		return s.fields[x.Name]
	case *alg.Lit:
		if x.Value == "null" {
			return "null"
		}
		return "bool"
	case *alg.New:
		return x.Type
	}
	return "bool"
}

func isNode(k string) bool {
	return k != "" && k != "data" && k != "bool" && k != "lock" && k != "null"
}

// isThread says whether a name is a thread-local variable (else shared).
func (s *symbols) isThread(name string) bool {
	_, ok := s.thread[name]
	return ok
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// errs collects positioned errors.
// errs collects the compiler's positioned errors (alg.Errors: sorted,
// deduplicated, bounded as the parser's).
type errs struct{ alg.Errors }

func (e *errs) add(p alg.Pos, format string, args ...any) { e.Add(p, format, args...) }

func (e *errs) err() error { return e.Err() }
