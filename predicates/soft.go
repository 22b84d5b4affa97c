package predicates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Soft invariants (Friggens 2013, §8.1): when threads are collapsed into
// one summary individual, what the abstraction no longer tells apart can
// be kept by instrumentation predicates of the form
//
//	if[L,p](v)  = isthread(v) & (at[L](v) -> p(v))
//	nif[L,p](v) = isthread(v) & (at[L](v) -> !p(v))
//
// "a thread at L has (has not) p". They are not abstraction predicates, so
// an invariant that does not hold merely becomes 1/2 on the collapsed
// thread; one that holds stays 1 on every thread and, through the rule
// if[L,p](v) & at[L](v) ==> p(v), gives p back to a thread Focus takes out
// of the summary at L. AddSoftInvariants generates them for every
// location predicate and every thread predicate of a model.

// DefaultLocationPattern matches the location predicates of the bundled
// thread models: at[L] for each location L.
const DefaultLocationPattern = "at[*]"

// ScheduledName is the predicate that marks the scheduled thread in the
// thread models (the tool counts states where no individual has it).
const ScheduledName = "tr_scheduled"

// SoftConfig says which soft invariants to generate.
type SoftConfig struct {
	// LocationPattern picks the location predicates: the unary predicates
	// whose name matches it, where its one * stands for the location's
	// name (at least one character). Empty means DefaultLocationPattern.
	LocationPattern string
	// Preds, when not empty, are the thread predicates, in this order;
	// otherwise they are chosen by ThreadPredicates' rule.
	Preds []string
	// Skip removes these from the thread predicates.
	Skip []string
	// Pairs ask for conditional soft invariants: at a location, one
	// thread predicate (or its negation) implies another (or its
	// negation).
	Pairs []SoftPair
	// Only, when not nil, keeps the generation to the soft invariants of
	// these names (a set saved from an earlier run); Stale then lists, not
	// as an error, the pairs that no longer name a location or two thread
	// predicates of the program.
	Only map[string]bool
	// Saved says that Pairs come from a saved set, as Only does: a pair
	// that no longer names a location or two thread predicates of the
	// program is then listed in Stale, not an error. (A set of pairs
	// alone has no Only: every soft invariant is generated, with its
	// pairs.)
	Saved bool
}

// SoftPair names two thread predicates Q and P whose conditional soft
// invariants are wanted at a location: at L, (!)Q implies (!)P, in the
// four combinations of signs (see AddSoftInvariants). G, when not empty,
// names a guard (a predicate GuardPattern matches, a snapshot's stale
// flag): the invariants then speak only of the threads without G, "at
// L, !G and (!)Q imply (!)P".
type SoftPair struct {
	Location string // the name the location pattern's * matches
	Q, P     string
	G        string
}

// GuardPattern matches the guards of guarded pairs: the stale flags of
// the compiled models' snapshots of tagged pointers (stale[S,x](t): S
// was written since t read x). What holds of a thread whose snapshot is
// current often fails for one whose snapshot is stale (its node may have
// been freed and reused), and a pair's invariant then holds only under
// the guard.
const GuardPattern = "stale[*]"

// IsGuard reports whether a thread predicate can guard a pair.
func IsGuard(name string) bool {
	_, ok := matchPattern(GuardPattern, name)
	return ok
}

// SoftInvariant is one generated soft invariant.
type SoftInvariant struct {
	Pred     *Predicate // if[L,p] or nif[L,p]
	Location string     // L
	At       *Predicate // the location predicate at[L]
	Prop     *Predicate // p
	Negated  bool       // nif: a thread at L does not have p
	// Cond, when not nil, is the condition of a conditional soft
	// invariant: at L, Cond (or !Cond when CondNegated) implies p (or !p
	// when Negated).
	Cond        *Predicate
	CondNegated bool
	// Guard, when not nil, restricts a conditional soft invariant to the
	// threads without it: at L, !Guard implies (Cond implies p).
	Guard *Predicate
}

// literal is a unary atom over v, or its negation.
func literal(p *Predicate, neg bool, x logic.Var) logic.Formula {
	var f logic.Formula = logic.NewAtom(p.Name, x)
	if neg {
		f = logic.NewNot(f)
	}
	return f
}

// literalName is how a literal is written in a soft invariant's name:
// p, or not[p].
func literalName(p *Predicate, neg bool) string {
	if neg {
		return "not[" + p.Name + "]"
	}
	return p.Name
}

// Property is what the soft invariant says of a thread at its location:
// p(x) or !p(x), or for a conditional one (!)q(x) -> (!)p(x).
func (inv SoftInvariant) Property(x logic.Var) logic.Formula {
	f := literal(inv.Prop, inv.Negated, x)
	if inv.Cond != nil {
		f = logic.NewImplies(literal(inv.Cond, inv.CondNegated, x), f)
	}
	if inv.Guard != nil {
		f = logic.NewImplies(literal(inv.Guard, true, x), f)
	}
	return f
}

// NameAt is the soft invariant's name with loc for its location:
// if[L,p], nif[L,p], or for a conditional one if[L,q,p] with not[q] and
// not[p] for negated literals.
func (inv SoftInvariant) NameAt(loc string) string {
	if inv.Cond == nil {
		return SoftName(loc, inv.Prop.Name, inv.Negated)
	}
	guard := ""
	if inv.Guard != nil {
		guard = literalName(inv.Guard, true) + ","
	}
	return "if[" + loc + "," + guard + literalName(inv.Cond, inv.CondNegated) + "," + literalName(inv.Prop, inv.Negated) + "]"
}

// Definition is the soft invariant's definition over x, with at the name
// of the location predicate: isthread(x) & (at(x) -> property).
func (inv SoftInvariant) Definition(at string, x logic.Var) logic.Formula {
	return logic.NewAnd(logic.NewAtom(IsThreadName, x), logic.NewImplies(logic.NewAtom(at, x), inv.Property(x)))
}

// Rules are the consistency rules that apply the soft invariant (named
// name, its location predicate at) to a thread known to be at its
// location, over x: s(x) & at[L](x) ==> p(x) (or !p(x)); for a
// conditional one, s(x) & at[L](x) & q(x) ==> p(x) and its
// contrapositive s(x) & at[L](x) & !p(x) ==> !q(x), so that Coerce can
// sharpen the condition too (signs as the invariant has them).
func (inv SoftInvariant) Rules(name, at string, x logic.Var) []Rule {
	self := logic.NewAtom(name, x)
	atom := logic.NewAtom(at, x)
	origin := "soft invariant " + name + " applied"
	p := literal(inv.Prop, inv.Negated, x)
	if inv.Cond == nil {
		return []Rule{{Body: logic.NewAnd(self, atom), Head: p, Origin: origin}}
	}
	q := literal(inv.Cond, inv.CondNegated, x)
	notP := literal(inv.Prop, !inv.Negated, x)
	if inv.Guard != nil {
		// Also: a thread with q and without p holds the guard.
		g := literal(inv.Guard, true, x)
		return []Rule{
			{Body: logic.NewAnd(self, atom, g, q), Head: p, Origin: origin},
			{Body: logic.NewAnd(self, atom, g, notP), Head: literal(inv.Cond, !inv.CondNegated, x), Origin: origin},
			{Body: logic.NewAnd(self, atom, q, notP), Head: literal(inv.Guard, false, x), Origin: origin},
		}
	}
	return []Rule{
		{Body: logic.NewAnd(self, atom, q), Head: p, Origin: origin},
		{Body: logic.NewAnd(self, atom, notP), Head: literal(inv.Cond, !inv.CondNegated, x), Origin: origin},
	}
}

func negateLit(f logic.Formula) logic.Formula {
	if n, ok := f.(*logic.Not); ok {
		return n.Sub
	}
	return logic.NewNot(f)
}

// SoftInvariants is what AddSoftInvariants generated.
type SoftInvariants struct {
	// Pattern is the location pattern used.
	Pattern string
	// Locations are the location predicates, in declaration order, and
	// LocationNames the names the pattern's * matched.
	Locations     []*Predicate
	LocationNames []string
	// Preds are the thread predicates.
	Preds []*Predicate
	// Invariants are the generated predicates, by location, then thread
	// predicate, if before nif.
	Invariants []SoftInvariant
	// Skipped names the soft invariants not generated because the model
	// already has a predicate of that name.
	Skipped []string
	// Stale are the pairs of a saved set (SoftConfig.Only, Saved) that
	// name no location or thread predicate of the program: left out.
	Stale []SoftPair
	// only is SoftConfig.Only; saved tells that the pairs come from a
	// saved set (Only or Saved).
	only  map[string]bool
	saved bool
}

// SoftError is a bad soft-invariant configuration.
type SoftError struct{ Msg string }

func (e *SoftError) Error() string { return e.Msg }

func softErrorf(format string, args ...any) error {
	return &SoftError{Msg: fmt.Sprintf(format, args...)}
}

// matchPattern returns the part of name that pattern's * matches.
func matchPattern(pattern, name string) (string, bool) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	if len(name) <= len(prefix)+len(suffix) || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
		return "", false
	}
	return name[len(prefix) : len(name)-len(suffix)], true
}

// CheckLocationPattern reports whether pattern can pick location
// predicates: exactly one *, which must not be all of it.
func CheckLocationPattern(pattern string) error {
	if strings.Count(pattern, "*") != 1 {
		return fmt.Errorf("location pattern %q must have exactly one * (where the location's name is)", pattern)
	}
	if pattern == "*" {
		return fmt.Errorf("location pattern %q would take every predicate for a location", pattern)
	}
	return nil
}

// LocationPredicates returns the unary predicates whose names match
// pattern, in declaration order, with the names of their locations.
func (v *Vocabulary) LocationPredicates(pattern string) ([]*Predicate, []string) {
	var preds []*Predicate
	var names []string
	for _, p := range v.Declared() {
		if p.Arity != 1 {
			continue
		}
		if l, ok := matchPattern(pattern, p.Name); ok {
			preds = append(preds, p)
			names = append(names, l)
		}
	}
	return preds, names
}

// ThreadPredicates returns the predicates the soft invariants speak of,
// chosen by this rule: the declared unary predicates that are not
// abstraction predicates (after --abs/--nonabs), except the location
// predicates, the scheduled-thread marker tr_scheduled, and every
// instrumentation predicate whose definition reads a location predicate,
// directly or through other definitions (the model's own soft invariants,
// and any property of where a thread is). In a model that collapses its
// threads by making the thread predicates nonabs, as the bundled ones do
// with THREAD_PRED, these are the thread predicates Blur no longer tells
// threads apart by.
func (v *Vocabulary) ThreadPredicates(locations []*Predicate) []*Predicate {
	readsLoc := v.readsAny(locations)
	var out []*Predicate
	for _, p := range v.Declared() {
		if p.Arity != 1 || p.Abstraction() || p.Name == ScheduledName || readsLoc(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// readsAny returns a test of whether a predicate is one of preds or an
// instrumentation predicate whose definition reads one of them, directly
// or through other definitions.
func (v *Vocabulary) readsAny(preds []*Predicate) func(*Predicate) bool {
	memo := map[string]bool{}
	for _, p := range preds {
		memo[p.Name] = true
	}
	var reads func(p *Predicate) bool
	reads = func(p *Predicate) bool {
		if r, ok := memo[p.Name]; ok {
			return r
		}
		memo[p.Name] = false // definitions are acyclic; this only guards
		r := false
		if p.Kind == Instrumentation {
			for _, q := range logic.Preds(p.Def) {
				if qp := v.Lookup(q); qp != nil && reads(qp) {
					r = true
					break
				}
			}
		}
		memo[p.Name] = r
		return r
	}
	return reads
}

// SoftName is the name of the soft invariant for location L and
// predicate p: if[L,p], or nif[L,p] when negated.
func SoftName(location, pred string, negated bool) string {
	if negated {
		return "nif[" + location + "," + pred + "]"
	}
	return "if[" + location + "," + pred + "]"
}

// AddSoftInvariants declares, for every location predicate and every
// thread predicate p (see ThreadPredicates), the instrumentation
// predicates if[L,p] and nif[L,p] (nonabs), and for each the consistency
// rule that applies it to a thread known to be at L (§8.1.3):
//
//	if[L,p](v) & at[L](v) ==> p(v)      nif[L,p](v) & at[L](v) ==> !p(v)
//
// Coerce also gets the two constraints of each definition, and actions
// their finite-differencing updates, as for any instrumentation
// predicate. cfg.Pairs add conditional ones (see addPairs). A name the model already declares is skipped (listed in
// Skipped). No location predicate, no thread predicate, or a name in
// Preds or Skip that is not a unary predicate is a *SoftError.
func (v *Vocabulary) AddSoftInvariants(cfg SoftConfig) (*SoftInvariants, error) {
	pattern := cfg.LocationPattern
	if pattern == "" {
		pattern = DefaultLocationPattern
	}
	if err := CheckLocationPattern(pattern); err != nil {
		return nil, &SoftError{Msg: err.Error()}
	}
	set := &SoftInvariants{Pattern: pattern, only: cfg.Only, saved: cfg.Only != nil || cfg.Saved}
	set.Locations, set.LocationNames = v.LocationPredicates(pattern)
	if len(set.Locations) == 0 {
		return nil, softErrorf("no location predicates: no unary predicate matches the pattern %s", pattern)
	}
	isLoc := func(p *Predicate) bool { return slices.Contains(set.Locations, p) }
	unary := func(name, what string) (*Predicate, error) {
		p := v.Lookup(name)
		switch {
		case p == nil:
			return nil, softErrorf("%s %s: the program has no predicate %s", what, name, name)
		case p.Arity != 1 || p.Name == tvl.SummaryName:
			return nil, softErrorf("%s %s: soft invariants speak of unary predicates of threads; %s has arity %d", what, name, name, p.Arity)
		case isLoc(p):
			return nil, softErrorf("%s %s: %s is a location predicate (it matches %s)", what, name, name, pattern)
		}
		return p, nil
	}
	if len(cfg.Preds) > 0 {
		for _, name := range cfg.Preds {
			p, err := unary(name, "--soft-pred")
			if err != nil {
				return nil, err
			}
			if !slices.Contains(set.Preds, p) {
				set.Preds = append(set.Preds, p)
			}
		}
	} else {
		set.Preds = v.ThreadPredicates(set.Locations)
	}
	for _, name := range cfg.Skip {
		p, err := unary(name, "--soft-skip")
		if err != nil {
			return nil, err
		}
		set.Preds = slices.DeleteFunc(set.Preds, func(q *Predicate) bool { return q == p })
	}
	if len(set.Preds) == 0 {
		return nil, softErrorf("no thread predicates: no unary predicate is a non-abstraction predicate other than the locations (%s) and tr_scheduled; name them with --soft-pred", pattern)
	}
	for i, at := range set.Locations {
		for _, p := range set.Preds {
			for _, neg := range []bool{false, true} {
				if err := set.declare(v, SoftInvariant{Location: set.LocationNames[i], At: at, Prop: p, Negated: neg}); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := set.addPairs(v, cfg.Pairs); err != nil {
		return nil, err
	}
	return set, nil
}

// softVar is the parameter of the generated predicates.
const softVar logic.Var = "v"

// declare adds inv (without its Pred, which it declares) to the
// vocabulary and to the set, or to Skipped when its name is taken.
func (set *SoftInvariants) declare(v *Vocabulary, inv SoftInvariant) error {
	name := inv.NameAt(inv.Location)
	if set.only != nil && !set.only[name] {
		return nil
	}
	if v.Lookup(name) != nil {
		set.Skipped = append(set.Skipped, name)
		return nil
	}
	x := softVar
	p, err := v.Declare(name, Instrumentation, []logic.Var{x}, Properties{NonAbs: true}, inv.Definition(inv.At.Name, x), "soft invariant (generated)")
	if err != nil {
		return softErrorf("soft invariant %s: %v", name, err)
	}
	inv.Pred = p
	v.Rules = append(v.Rules, inv.Rules(name, inv.At.Name, x)...)
	set.Invariants = append(set.Invariants, inv)
	return nil
}

// addPairs declares the conditional soft invariants of pairs: for
// predicates Q and P at location L, "at L, (!)Q implies (!)P" in the four
// combinations of signs, named if[L,Q,P], if[L,Q,not[P]],
// if[L,not[Q],P] and if[L,not[Q],not[P]] — except those a rule of the
// model already states (a rule Q(v) ==> P(v) between the two literals,
// read either way), which would always hold and add nothing.
func (set *SoftInvariants) addPairs(v *Vocabulary, pairs []SoftPair) error {
	stated := ruleClauses(v)
	for _, pr := range pairs {
		i := slices.Index(set.LocationNames, pr.Location)
		if i < 0 && !set.saved {
			return softErrorf("soft invariant pair at %s: no location predicate of that name", pr.Location)
		}
		var q, p, g *Predicate
		for _, t := range set.Preds {
			switch t.Name {
			case pr.Q:
				q = t
			case pr.P:
				p = t
			}
			if pr.G != "" && t.Name == pr.G {
				g = t
			}
		}
		badGuard := pr.G != "" && (g == nil || g == q || g == p)
		if (i < 0 || q == nil || p == nil || q == p || badGuard) && set.saved {
			set.Stale = append(set.Stale, pr)
			continue
		}
		if q == nil || p == nil || q == p {
			return softErrorf("soft invariant pair %s, %s at %s: want two different thread predicates", pr.Q, pr.P, pr.Location)
		}
		if badGuard {
			return softErrorf("soft invariant pair %s, %s at %s: the guard %s is not a third thread predicate", pr.Q, pr.P, pr.Location, pr.G)
		}
		for _, nq := range []bool{false, true} {
			for _, np := range []bool{false, true} {
				// At L, q' -> p' is the clause !q' | p'.
				if stated[clauseKey(q.Name, !nq, p.Name, np)] {
					continue
				}
				inv := SoftInvariant{Location: pr.Location, At: set.Locations[i], Prop: p, Negated: np, Cond: q, CondNegated: nq, Guard: g}
				if err := set.declare(v, inv); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// clauseKey names the clause a | b of two unary literals (a negated when
// na, b when nb), whichever order they come in.
func clauseKey(a string, na bool, b string, nb bool) string {
	x, y := literalKey(a, na), literalKey(b, nb)
	if y < x {
		x, y = y, x
	}
	return x + " | " + y
}

func literalKey(p string, neg bool) string {
	if neg {
		return "!" + p
	}
	return p
}

// ruleClauses returns the clauses that the model's consistency rules of
// the form a(v) ==> b(v) state, where a and b are unary literals of one
// variable: !a | b.
func ruleClauses(v *Vocabulary) map[string]bool {
	out := map[string]bool{}
	unaryLit := func(f logic.Formula) (string, logic.Var, bool, bool) {
		neg := false
		if n, ok := f.(*logic.Not); ok {
			f, neg = n.Sub, true
		}
		a, ok := f.(*logic.Atom)
		if !ok || len(a.Args) != 1 {
			return "", "", false, false
		}
		return a.Pred, a.Args[0], neg, true
	}
	for _, r := range v.Rules {
		a, x, na, ok1 := unaryLit(r.Body)
		b, y, nb, ok2 := unaryLit(r.Head)
		if ok1 && ok2 && x == y {
			out[clauseKey(a, !na, b, nb)] = true
		}
	}
	return out
}

// Initialize gives the soft invariants their definitions' values on s,
// an input structure: whatever s said of them is replaced, and the
// definitions read only s's other predicates.
func (set *SoftInvariants) Initialize(s *tvl.Structure) error {
	for _, inv := range set.Invariants {
		c, err := tvl.Compile(inv.Pred.Def, s.Vocabulary(), inv.Pred.Params)
		if err != nil {
			return fmt.Errorf("soft invariant %s: %v", inv.Pred.Name, err)
		}
		b := c.Bind(s)
		for u := 0; u < s.Size(); u++ {
			s.SetUnary(inv.Pred.Index, u, b.Eval(u))
		}
	}
	return nil
}

// Holding reports, for each of the soft invariants, whether it holds on
// s: it is 1 on every individual that may be a thread (isthread not 0).
// held[i] is set to false where it does not; the caller starts from all
// true and calls Holding on every structure.
func (set *SoftInvariants) Holding(s *tvl.Structure, held []bool) {
	thread := s.Vocabulary().Lookup(IsThreadName)
	for u := 0; u < s.Size(); u++ {
		if s.Unary(thread.Index, u) == logic.False {
			continue
		}
		for i, inv := range set.Invariants {
			if held[i] && s.Unary(inv.Pred.Index, u) != logic.True {
				held[i] = false
			}
		}
	}
}
