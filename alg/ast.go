package alg

// Program is a parsed .alg file.
type Program struct {
	Pos          Pos
	Name         string
	Spec         *SpecDecl         // nil only in a program with errors
	Interleaving *InterleavingDecl // nil: restricted
	Garbage      *GarbageDecl      // nil: some (with collapsed threads)
	Types        []*TypeDecl
	Shared       []*VarDecl
	Locals       []*VarDecl // thread-local variables common to all operations
	Instrument   []*InstrumentDecl
	TVP          []*TVPDecl
	Init         *InitDecl // nil: every shared variable starts null
	Ops          []*OpDecl
}

// SpecDecl names the sequential specification (spec.go's library).
type SpecDecl struct {
	Pos  Pos
	Name string
}

// InterleavingDecl chooses the scheduling: "restricted" (scheduling
// points at operation entry and at yield statements) or "full" (every
// statement outside atomic blocks is a step).
type InterleavingDecl struct {
	Pos  Pos
	Mode string
}

// GarbageDecl chooses the initial heap of a run with collapsed threads:
// "some" (the default: nodes no one reaches, into which later garbage
// merges) or "none" (only what init builds). Either is sound, garbage
// being unreachable; which is faster depends on the program.
type GarbageDecl struct {
	Pos  Pos
	Mode string
}

// Kind is the kind of a field or variable: a pointer to a declared node
// type, an abstract data value, a boolean or a lock.
type Kind struct {
	Pos  Pos
	Name string // "data", "bool", "lock" or a type name
}

// IsPointer says whether k names a node type.
func (k Kind) IsPointer() bool {
	return k.Name != "data" && k.Name != "bool" && k.Name != "lock"
}

// TypeDecl is a node type with its fields.
type TypeDecl struct {
	Pos    Pos
	Name   string
	Fields []*VarDecl
}

// VarDecl declares one field, global, local variable or parameter.
type VarDecl struct {
	Pos  Pos
	Name string
	Kind Kind
	// Tagged: a shared pointer with a modification counter ("tagged"),
	// incremented by every write; a cas on it compares the counter too
	// (docs/algorithms.md, "Memory reuse").
	Tagged bool
}

// InstrumentDecl adds instrumentation predicates of the generator's
// families by name, switches generated ones off, or makes generated
// ones non-abstraction predicates (nonabs: Blur no longer tells
// individuals apart by them).
type InstrumentDecl struct {
	Pos    Pos
	Off    bool // "off"
	NonAbs bool // "nonabs"; neither: "add"
	Names  []*PredName
}

// PredName is a predicate name such as reach_I, has[next] or
// succ[ss,ssnext]; arguments may themselves be names with arguments
// (if[push9,has[n]]).
type PredName struct {
	Pos  Pos
	Name string
	Args []*PredName
}

// TVPDecl is hand-written TVP added to the generated declarations.
type TVPDecl struct {
	Pos  Pos
	Text string
}

// InitDecl is the code that sets up the shared state before any
// operation runs (a queue's dummy node): local declarations and
// assignments only, run as one atomic step.
type InitDecl struct {
	Pos  Pos
	Body *Block
}

// OpDecl is an operation: parameters, an optional result kind, its
// operation-local variables and body.
type OpDecl struct {
	Pos    Pos
	Name   string
	Params []*VarDecl
	Result *Kind // nil: no result
	Body   *Block
}

// Block is a braced statement list.
type Block struct {
	Pos   Pos
	Stmts []Stmt
}

// Stmt is a statement.
type Stmt interface{ stmtPos() Pos }

// LocalStmt declares operation-local variables (thread-local, alive for
// the operation).
type LocalStmt struct {
	Pos  Pos
	Vars []*VarDecl
}

// AssignStmt is LHS = RHS (RHS may be new T or cas(...)).
type AssignStmt struct {
	Pos Pos
	LHS Expr // *Name or *Field
	RHS Expr
	LP  *LPMark
}

// ExprStmt is a cas(...) whose result is dropped.
type ExprStmt struct {
	Pos Pos
	X   Expr
	LP  *LPMark
}

// IfStmt is if Cond Then [else Else]; Else is a *Block or an *IfStmt.
// LP may mark a Cond that is a cas (its success).
type IfStmt struct {
	Pos  Pos
	Cond Expr
	LP   *LPMark
	Then *Block
	Else Stmt
}

// LoopStmt is loop { ... } (Cond nil) or while Cond { ... }.
type LoopStmt struct {
	Pos  Pos
	Cond Expr
	Body *Block
}

// BranchStmt is break or continue.
type BranchStmt struct {
	Pos Pos
	Tok string
}

// ReturnStmt returns nothing, a value, or the "empty" result.
type ReturnStmt struct {
	Pos   Pos
	Value Expr // nil: none
	Empty bool
}

// AtomicStmt runs its body as one step.
type AtomicStmt struct {
	Pos  Pos
	Body *Block
}

// LockStmt is lock X or unlock X.
type LockStmt struct {
	Pos    Pos
	Unlock bool
	X      Expr
	LP     *LPMark // only to be rejected
}

// YieldStmt is a scheduling point under restricted interleaving.
type YieldStmt struct {
	Pos Pos
}

// FreeStmt is free X: the node X points to goes back to the allocator,
// and a later new may return it; pointers to it are left dangling.
type FreeStmt struct {
	Pos Pos
	X   Expr
}

// BadStmt stands for a statement that did not parse.
type BadStmt struct{ Pos Pos }

// LPMark is "@lp", "@lp(VALUE)" or "@lp(empty)", optionally "if COND":
// the linearisation point of the operation, checked against the
// specification when the marked statement (a cas: its success) runs and
// COND holds after it.
type LPMark struct {
	Pos   Pos
	Value Expr // the operation's result at this point; nil if none
	Empty bool
	// Partner, if not nil: the step also linearises, just before this
	// operation, another thread's operation ("@lp(v) after push(n == o)",
	// an elimination).
	Partner *Partner
	// Claim, if not nil: a linearisation point decided later, "@lp(v)
	// for x" (a removal linearised now on behalf of whichever thread
	// later takes it) or "@lp(v) from x" (this thread takes the removal
	// linearised for x's node); docs/algorithms.md.
	Claim *Claim
	Cond  Expr // nil: unconditional
}

// Claim is "for X" or "from X" on a linearisation point: X's node is the
// token that ties a removal linearised by one thread ("for") to the
// thread that later returns its value ("from").
type Claim struct {
	Pos  Pos
	Take bool // from: this thread takes the removal; for: linearise it
	X    Expr
}

// Partner is "after OP(VAR == EXPR)" on a linearisation point: the
// partner is the other thread inside operation Op whose thread-local
// pointer Var points to the node EXPR (evaluated by this thread) points
// to; the step linearises the partner's operation and then this one.
type Partner struct {
	Pos  Pos
	Op   string
	Var  *Name
	Expr Expr
}

func (s *Block) stmtPos() Pos      { return s.Pos }
func (s *LocalStmt) stmtPos() Pos  { return s.Pos }
func (s *AssignStmt) stmtPos() Pos { return s.Pos }
func (s *ExprStmt) stmtPos() Pos   { return s.Pos }
func (s *IfStmt) stmtPos() Pos     { return s.Pos }
func (s *LoopStmt) stmtPos() Pos   { return s.Pos }
func (s *BranchStmt) stmtPos() Pos { return s.Pos }
func (s *ReturnStmt) stmtPos() Pos { return s.Pos }
func (s *AtomicStmt) stmtPos() Pos { return s.Pos }
func (s *LockStmt) stmtPos() Pos   { return s.Pos }
func (s *YieldStmt) stmtPos() Pos  { return s.Pos }
func (s *FreeStmt) stmtPos() Pos   { return s.Pos }
func (s *BadStmt) stmtPos() Pos    { return s.Pos }

// Expr is an expression.
type Expr interface{ exprPos() Pos }

// Name is a variable (shared, local or parameter).
type Name struct {
	Pos  Pos
	Name string
}

// Field is X.Name.
type Field struct {
	Pos  Pos // of the dot's field name
	X    Expr
	Name string
}

// Lit is null, true, false or any (some data value, chosen
// nondeterministically: only an assignment's right-hand side).
type Lit struct {
	Pos   Pos
	Value string
}

// New allocates a node of type Type with every field null.
type New struct {
	Pos  Pos
	Type string
}

// CAS is cas(Loc, Old, New): atomically, if Loc == Old then Loc = New
// and true, else false.
type CAS struct {
	Pos           Pos
	Loc, Old, New Expr
}

// Unary is !X.
type Unary struct {
	Pos Pos
	X   Expr
}

// Binary is X Op Y, Op one of == != && ||.
type Binary struct {
	Pos  Pos // of the operator
	Op   string
	X, Y Expr
}

// BadExpr stands for an expression that did not parse.
type BadExpr struct{ Pos Pos }

func (e *Name) exprPos() Pos    { return e.Pos }
func (e *Field) exprPos() Pos   { return e.Pos }
func (e *Lit) exprPos() Pos     { return e.Pos }
func (e *New) exprPos() Pos     { return e.Pos }
func (e *CAS) exprPos() Pos     { return e.Pos }
func (e *Unary) exprPos() Pos   { return e.Pos }
func (e *Binary) exprPos() Pos  { return e.Pos }
func (e *BadExpr) exprPos() Pos { return e.Pos }

// ExprPos is where an expression starts (for a binary one, its operator).
func ExprPos(x Expr) Pos { return x.exprPos() }

// StmtPos is where a statement starts.
func StmtPos(s Stmt) Pos { return s.stmtPos() }
