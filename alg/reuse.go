package alg

// The checks of memory reuse (docs/algorithms.md, "Memory reuse"): free
// takes a thread-local pointer variable; only shared pointers and
// pointer fields are tagged; a cas on a tagged shared pointer S compares
// S with a thread-local variable whose every assignment reads S, so that
// the variable's counter is always a snapshot of S's; a cas on a tagged
// field b.f (b a thread-local variable) compares it with a thread-local
// variable whose every assignment reads b.f.

// freeStmt checks free X.
func (c *checker) freeStmt(s *FreeStmt) {
	n, ok := s.X.(*Name)
	if !ok {
		c.e.add(s.X.exprPos(), "free takes a thread-local pointer variable, not %s", describe(s.X))
		c.expr(s.X)
		return
	}
	v := c.lookup(n.Name)
	if v == nil {
		c.e.add(n.Pos, "undeclared name %s", n.Name)
		return
	}
	if v.where == "shared variable" || c.types[v.kind] == nil {
		c.e.add(n.Pos, "free takes a thread-local pointer variable; %s is a %s of kind %s", n.Name, v.where, v.kind)
	}
}

// taggedDecls rejects tagged on anything but a shared pointer or a
// pointer field.
func (c *checker) taggedDecls() {
	bad := func(v *VarDecl, what string) {
		if v.Tagged {
			c.e.add(v.Kind.Pos, "only a shared pointer or a pointer field can be tagged; %s is %s", v.Name, what)
		}
	}
	for _, t := range c.prog.Types {
		for _, f := range t.Fields {
			if !f.Kind.IsPointer() {
				bad(f, "a "+f.Kind.Name+" field")
			}
		}
	}
	for _, v := range c.prog.Shared {
		if !v.Kind.IsPointer() {
			bad(v, "a shared "+v.Kind.Name+" variable")
		}
	}
	for _, v := range c.prog.Locals {
		bad(v, "a thread-local variable")
	}
	for _, op := range c.prog.Ops {
		for _, p := range op.Params {
			bad(p, "a parameter")
		}
		walkBlock(op.Body, func(s Stmt) {
			if l, ok := s.(*LocalStmt); ok {
				for _, v := range l.Vars {
					bad(v, "a thread-local variable")
				}
			}
		})
	}
}

// TaggedSnapshots maps each thread-local variable that a cas compares
// with a tagged shared pointer to that pointer's name. The checker has
// made sure there is one per variable.
func TaggedSnapshots(prog *Program) map[string]string {
	tagged := map[string]bool{}
	for _, v := range prog.Shared {
		if v.Tagged && v.Kind.IsPointer() {
			tagged[v.Name] = true
		}
	}
	out := map[string]string{}
	for _, op := range prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			for _, x := range stmtCASes(s) {
				loc, ok1 := x.Loc.(*Name)
				old, ok2 := x.Old.(*Name)
				if ok1 && ok2 && tagged[loc.Name] {
					out[old.Name] = loc.Name
				}
			}
		})
	}
	return out
}

// FieldSnap is what a thread-local variable compared in a cas on a
// tagged field snapshots: the field Field of the node the thread-local
// variable Base points to.
type FieldSnap struct{ Base, Field string }

// taggedFields lists the pointer fields declared tagged in some type
// (fields of one name share their predicate, and so their counter).
func taggedFields(prog *Program) map[string]bool {
	out := map[string]bool{}
	for _, t := range prog.Types {
		for _, f := range t.Fields {
			if f.Tagged && f.Kind.IsPointer() {
				out[f.Name] = true
			}
		}
	}
	return out
}

// fieldCAS is the base variable and the field of a cas on a tagged
// field b.f with b a name, and the variable it is compared with.
func fieldCAS(x *CAS, tagged map[string]bool) (base, field, old string, ok bool) {
	f, isField := x.Loc.(*Field)
	if !isField || !tagged[f.Name] {
		return "", "", "", false
	}
	if b, isName := f.X.(*Name); isName {
		base = b.Name
	}
	if o, isName := x.Old.(*Name); isName {
		old = o.Name
	}
	return base, f.Name, old, base != "" && old != ""
}

// TaggedFieldSnapshots maps each thread-local variable that a cas
// compares with a tagged field b.f to that base and field. The checker
// has made sure there is one per variable.
func TaggedFieldSnapshots(prog *Program) map[string]FieldSnap {
	tagged := taggedFields(prog)
	out := map[string]FieldSnap{}
	for _, op := range prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			for _, x := range stmtCASes(s) {
				if b, f, old, ok := fieldCAS(x, tagged); ok {
					out[old] = FieldSnap{b, f}
				}
			}
		})
	}
	return out
}

// taggedFieldCASes checks each cas on a tagged field: its location is
// b.f with b thread-local, it compares with a thread-local variable x,
// and every assignment of x is x = b.f.
func (c *checker) taggedFieldCASes() {
	tagged := taggedFields(c.prog)
	if len(tagged) == 0 {
		return
	}
	snap := map[string]FieldSnap{}
	where := map[string]Pos{}
	local := func(name string) bool {
		v := c.global[name]
		return v == nil || v.where != "shared variable"
	}
	for _, op := range c.prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			for _, x := range stmtCASes(s) {
				b, f, old, _ := fieldCAS(x, tagged)
				switch {
				case f == "":
					continue
				case b == "" || !local(b):
					if b == "" {
						c.e.add(x.Loc.exprPos(), "a cas on the tagged field %s names it through a thread-local variable (x.%s), not %s", f, f, describe(x.Loc))
					} else {
						c.e.add(x.Loc.exprPos(), "a cas on the tagged field %s names it through a thread-local variable (x.%s), not the shared %s", f, f, b)
					}
					continue
				case old == "" || !local(old):
					c.e.add(x.Old.exprPos(), "a cas on the tagged field %s compares it with a thread-local variable holding a snapshot of it, not %s", f, describe(x.Old))
					continue
				}
				want := FieldSnap{b, f}
				if s, seen := snap[old]; seen && s != want {
					c.e.add(x.Old.exprPos(), "%s is compared with the tagged %s.%s here and with %s.%s at %s: a snapshot is of one tagged field", old, b, f, s.Base, s.Field, at(where[old]))
					continue
				}
				snap[old], where[old] = want, x.Old.exprPos()
			}
		})
	}
	for _, op := range c.prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			a, ok := s.(*AssignStmt)
			if !ok {
				return
			}
			l, ok := a.LHS.(*Name)
			if !ok {
				return
			}
			want, isSnap := snap[l.Name]
			if !isSnap {
				return
			}
			r, ok := a.RHS.(*Field)
			if ok {
				if b, isName := r.X.(*Name); isName && (FieldSnap{b.Name, r.Name}) == want {
					return
				}
			}
			c.e.add(a.Pos, "%s is compared with the tagged %s.%s in a cas (at %s), so it may be assigned only from %s.%s (its counter is a snapshot of that field's)", l.Name, want.Base, want.Field, at(where[l.Name]), want.Base, want.Field)
		})
	}
}

// taggedCASes checks each cas on a tagged shared pointer and the
// assignments of the variables it compares.
func (c *checker) taggedCASes() {
	c.taggedFieldCASes()
	tagged := map[string]bool{}
	for _, v := range c.prog.Shared {
		if v.Tagged && v.Kind.IsPointer() {
			tagged[v.Name] = true
		}
	}
	if len(tagged) == 0 {
		return
	}
	snap := map[string]string{}
	where := map[string]Pos{}
	for _, op := range c.prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			for _, x := range stmtCASes(s) {
				loc, ok := x.Loc.(*Name)
				if !ok || !tagged[loc.Name] {
					continue
				}
				old, ok := x.Old.(*Name)
				if !ok || c.global[old.Name] != nil && c.global[old.Name].where == "shared variable" {
					c.e.add(x.Old.exprPos(), "a cas on the tagged %s compares it with a thread-local variable holding a snapshot of it, not %s", loc.Name, describe(x.Old))
					continue
				}
				if s, seen := snap[old.Name]; seen && s != loc.Name {
					c.e.add(x.Old.exprPos(), "%s is compared with the tagged %s here and with %s at %s: a snapshot is of one tagged pointer", old.Name, loc.Name, s, at(where[old.Name]))
					continue
				}
				snap[old.Name], where[old.Name] = loc.Name, x.Old.exprPos()
			}
		})
	}
	for _, op := range c.prog.Ops {
		walkBlock(op.Body, func(s Stmt) {
			a, ok := s.(*AssignStmt)
			if !ok {
				return
			}
			l, ok := a.LHS.(*Name)
			if !ok || snap[l.Name] == "" {
				return
			}
			if r, ok := a.RHS.(*Name); !ok || r.Name != snap[l.Name] {
				c.e.add(a.Pos, "%s is compared with the tagged %s in a cas (at %s), so it may be assigned only from %s (its counter is a snapshot of %s's)", l.Name, snap[l.Name], at(where[l.Name]), snap[l.Name], snap[l.Name])
			}
		})
	}
}

// stmtCASes lists the cas expressions a statement itself holds.
func stmtCASes(s Stmt) []*CAS {
	var x Expr
	switch s := s.(type) {
	case *AssignStmt:
		x = s.RHS
	case *ExprStmt:
		x = s.X
	case *IfStmt:
		x = s.Cond
	case *LoopStmt:
		x = s.Cond
	}
	if u, ok := x.(*Unary); ok {
		x = u.X
	}
	if cas, ok := x.(*CAS); ok {
		return []*CAS{cas}
	}
	return nil
}

// walkBlock calls f on every statement of b, nested ones included.
func walkBlock(b *Block, f func(Stmt)) {
	for _, s := range b.Stmts {
		walkStmt(s, f)
	}
}

func walkStmt(s Stmt, f func(Stmt)) {
	f(s)
	switch s := s.(type) {
	case *Block:
		walkBlock(s, f)
	case *IfStmt:
		walkBlock(s.Then, f)
		if s.Else != nil {
			walkStmt(s.Else, f)
		}
	case *LoopStmt:
		walkBlock(s.Body, f)
	case *AtomicStmt:
		walkBlock(s.Body, f)
	}
}
