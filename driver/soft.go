package driver

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
)

// SoftValue is what the unconditional soft invariants that held say of a
// thread predicate p at a location L.
type SoftValue uint8

const (
	// SoftNotGenerated: neither if[L,p] nor nif[L,p] was generated (the
	// model declares the names).
	SoftNotGenerated SoftValue = iota
	// SoftAlways: if[L,p] held, every thread at L has p.
	SoftAlways
	// SoftNever: nif[L,p] held, no thread at L has p.
	SoftNever
	// SoftUnknown: neither held, p is 1/2 there.
	SoftUnknown
	// SoftNoThread: both held, no thread is ever at L.
	SoftNoThread
)

// String is the value as the soft-invariant table prints it.
func (v SoftValue) String() string {
	switch v {
	case SoftAlways:
		return "1"
	case SoftNever:
		return "0"
	case SoftUnknown:
		return "1/2"
	case SoftNoThread:
		return "-"
	}
	return ""
}

// SoftResult is what a run found of its generated soft invariants.
type SoftResult struct {
	Set *predicates.SoftInvariants
	// Held says, per invariant of Set, whether it held: it is 1 on every
	// individual that may be a thread, in every structure stored.
	Held []bool
	// Complete is false when the run stopped early: the invariants held
	// on what was explored.
	Complete bool
	// Rounds are the runs made, this one last.
	Rounds []SoftRound
}

// SoftRound is one run of the refinement, as the JSON summary gives it.
type SoftRound struct {
	Generated   int     `json:"generated"`
	Conditional int     `json:"conditional"`
	Held        int     `json:"held"`
	Stored      int     `json:"structures_stored"`
	Verdict     string  `json:"verdict"`
	TimeSeconds float64 `json:"time_seconds"`
}

// newSoftResult checks every generated soft invariant on every structure
// stored at every location of the run. prev are the rounds before it.
func newSoftResult(set *predicates.SoftInvariants, res *Result, prev []SoftRound) *SoftResult {
	r := &SoftResult{Set: set, Held: make([]bool, len(set.Invariants)), Complete: !res.Incomplete}
	for i := range r.Held {
		r.Held[i] = true
	}
	for _, l := range res.Locations {
		for _, s := range l.Structures.All() {
			set.Holding(s, r.Held)
		}
	}
	round := SoftRound{Generated: len(set.Invariants), Held: len(r.HeldNames()), Stored: res.Stats.Stored,
		Verdict: Verdict(res), TimeSeconds: res.Stats.Elapsed.Seconds()}
	for _, inv := range set.Invariants {
		if inv.Cond != nil {
			round.Conditional++
		}
	}
	r.Rounds = append(append([]SoftRound(nil), prev...), round)
	return r
}

// newPairs returns, for each location, the pairs of thread predicates
// that are both 1/2 there, other than those of have: their conditional
// soft invariants may keep how the two go together. Where a guard
// (predicates.IsGuard: a snapshot's stale flag) is 1/2 too, each pair of
// the others comes guarded by it as well: what a thread with a current
// snapshot knows may fail for one whose snapshot is stale.
func (r *SoftResult) newPairs(have []predicates.SoftPair) []predicates.SoftPair {
	seen := map[predicates.SoftPair]bool{}
	for _, p := range have {
		seen[p] = true
	}
	var out []predicates.SoftPair
	for _, l := range r.Set.LocationNames {
		var half []*predicates.Predicate
		for _, p := range r.Set.Preds {
			if r.Value(l, p) == SoftUnknown {
				half = append(half, p)
			}
		}
		for i, q := range half {
			for _, p := range half[i+1:] {
				pr := predicates.SoftPair{Location: l, Q: q.Name, P: p.Name}
				if !seen[pr] {
					seen[pr] = true
					out = append(out, pr)
				}
			}
		}
		for _, g := range half {
			if !predicates.IsGuard(g.Name) {
				continue
			}
			for i, q := range half {
				for _, p := range half[i+1:] {
					pr := predicates.SoftPair{Location: l, Q: q.Name, P: p.Name, G: g.Name}
					if q != g && p != g && !seen[pr] {
						seen[pr] = true
						out = append(out, pr)
					}
				}
			}
		}
	}
	return out
}

// HeldNames lists the names of the invariants that held, in generation
// order.
func (r *SoftResult) HeldNames() []string {
	out := []string{}
	for i, inv := range r.Set.Invariants {
		if r.Held[i] {
			out = append(out, inv.Pred.Name)
		}
	}
	return out
}

// Value says what held of thread predicate p at location l.
func (r *SoftResult) Value(l string, p *predicates.Predicate) SoftValue {
	pos, neg, any := false, false, false
	for i, inv := range r.Set.Invariants {
		if inv.Location != l || inv.Prop != p || inv.Cond != nil {
			continue
		}
		any = true
		if r.Held[i] {
			if inv.Negated {
				neg = true
			} else {
				pos = true
			}
		}
	}
	switch {
	case !any:
		return SoftNotGenerated
	case pos && neg:
		return SoftNoThread
	case pos:
		return SoftAlways
	case neg:
		return SoftNever
	}
	return SoftUnknown
}

// Implied reports whether the i-th soft invariant, a conditional one
// that held, says nothing the unconditional ones that held do not: its
// condition never holds at its location, or its conclusion always does,
// or no thread is ever there.
func (r *SoftResult) Implied(i int) bool {
	inv := r.Set.Invariants[i]
	if inv.Cond == nil {
		return false
	}
	q, p := r.Value(inv.Location, inv.Cond), r.Value(inv.Location, inv.Prop)
	never, always := SoftNever, SoftAlways
	if inv.CondNegated {
		never = SoftAlways
	}
	if inv.Negated {
		always = SoftNever
	}
	return q == SoftNoThread || q == never || p == always
}

// Reported reports whether the i-th soft invariant is one report
// declares: it held and is not implied.
func (r *SoftResult) Reported(i int) bool { return r.Held[i] && !r.Implied(i) }

// SoftCounts tallies a run's soft invariants: the unconditional and the
// conditional ones generated, how many of each held, and how many of the
// conditional ones that held the unconditional ones imply.
type SoftCounts struct {
	Unconditional, HeldUnconditional int
	Conditional, HeldConditional     int
	Implied                          int
}

// Counts tallies r's invariants.
func (r *SoftResult) Counts() SoftCounts {
	var c SoftCounts
	for i, inv := range r.Set.Invariants {
		switch {
		case inv.Cond == nil:
			c.Unconditional++
			if r.Held[i] {
				c.HeldUnconditional++
			}
		case r.Held[i]:
			c.Conditional++
			c.HeldConditional++
			if r.Implied(i) {
				c.Implied++
			}
		default:
			c.Conditional++
		}
	}
	return c
}

// ReportedAt lists what the conditional soft invariants reported at
// location l say (SoftPropertyText), in generation order.
func (r *SoftResult) ReportedAt(l string) []string {
	var out []string
	for i, inv := range r.Set.Invariants {
		if inv.Location == l && inv.Cond != nil && r.Reported(i) {
			out = append(out, SoftPropertyText(inv))
		}
	}
	return out
}

// SoftPropertyText is what a soft invariant says, briefly: p, or q -> p
// for a conditional one, with ! for negated literals.
func SoftPropertyText(inv predicates.SoftInvariant) string {
	lit := func(p *predicates.Predicate, neg bool) string {
		if neg {
			return "!" + p.Name
		}
		return p.Name
	}
	if inv.Cond == nil {
		return lit(inv.Prop, inv.Negated)
	}
	guard := ""
	if inv.Guard != nil {
		guard = lit(inv.Guard, true) + " & "
	}
	return guard + lit(inv.Cond, inv.CondNegated) + " -> " + lit(inv.Prop, inv.Negated)
}

// WriteTVP writes the soft invariants that held as TVP declarations to
// paste into a model: grouped by property as the bundled models write
// theirs, a set of locations and a foreach per property, when the
// location pattern is NAME[*] and every location is a plain name; else
// one %i line and its %r rules per invariant.
func (r *SoftResult) WriteTVP(w io.Writer) {
	set := r.Set
	listed := 0
	for i := range set.Invariants {
		if r.Reported(i) {
			listed++
		}
	}
	fmt.Fprintf(w, "// Soft invariants that held: %d of the %d generated by tvla run --soft-invariants", listed, len(set.Invariants))
	if !r.Complete {
		fmt.Fprint(w, " (on a run stopped early, not at a fixpoint)")
	}
	if n := len(r.HeldNames()) - listed; n > 0 {
		fmt.Fprintf(w, ",\n// and %d conditional ones that these imply, left out", n)
	}
	fmt.Fprintln(w, ".")
	fmt.Fprintln(w, "// if[L,p](v): a thread at L has p; nif[L,p](v): it has not; if[L,q,p](v):")
	fmt.Fprintln(w, "// if it has q, it has p (not[q]: has not q). Paste them into the model")
	fmt.Fprintln(w, "// after its predicates, and give each the value 1 on every thread of the")
	fmt.Fprintln(w, "// input (TVS: NAME = {t} for a thread individual t).")
	const x logic.Var = "v"
	groups := r.groups()
	if !groupable(set) {
		for _, g := range groups {
			fmt.Fprintf(w, "\n// %s\n", strings.TrimPrefix(g.comment, "at L, "))
			for _, inv := range g.invs {
				writeSoftDecl(w, inv, inv.Pred.Name, inv.At.Name, x, "")
			}
		}
		return
	}
	at := strings.TrimSuffix(set.Pattern, "[*]") + "[L]"
	used := map[string]bool{}
	for _, g := range groups {
		setName := uniqueName(g.setName, used)
		var locs []string
		for _, inv := range g.invs {
			locs = append(locs, inv.Location)
		}
		fmt.Fprintf(w, "\n// %s\n", g.comment)
		fmt.Fprintf(w, "%%s %s {%s}\n", setName, strings.Join(locs, ", "))
		fmt.Fprintf(w, "foreach (L in %s) {\n", setName)
		inv := g.invs[0]
		writeSoftDecl(w, inv, inv.NameAt("L"), at, x, "  ")
		fmt.Fprintln(w, "}")
	}
}

// writeSoftDecl writes a soft invariant's %i declaration and %r rules,
// with name and at for its name and its location predicate's.
func writeSoftDecl(w io.Writer, inv predicates.SoftInvariant, name, at string, x logic.Var, indent string) {
	fmt.Fprintf(w, "%s%%i %s(%s) = %s nonabs\n", indent, name, x, logic.String(inv.Definition(at, x)))
	for _, rule := range inv.Rules(name, at, x) {
		fmt.Fprintf(w, "%s%%r %s\n", indent, rule)
	}
}

// softGroup is the invariants that held for one property, at their
// locations.
type softGroup struct {
	comment, setName string
	invs             []predicates.SoftInvariant
}

// groups groups the reported invariants by what they say (the property
// at L), in the order of generation, locations in declaration order.
func (r *SoftResult) groups() []softGroup {
	type key struct {
		cond, prop, guard *predicates.Predicate
		condNeg, propNeg  bool
	}
	index := map[key]int{}
	var out []softGroup
	for i, inv := range r.Set.Invariants {
		if !r.Reported(i) {
			continue
		}
		k := key{inv.Cond, inv.Prop, inv.Guard, inv.CondNegated, inv.Negated}
		gi, ok := index[k]
		if !ok {
			gi = len(out)
			index[k] = gi
			out = append(out, newSoftGroup(inv))
		}
		out[gi].invs = append(out[gi].invs, inv)
	}
	// The unconditional ones first, by thread predicate, if before nif;
	// then the conditional ones in the order of generation.
	rank := map[*predicates.Predicate]int{}
	for i, p := range r.Set.Preds {
		rank[p] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].invs[0], out[j].invs[0]
		if (a.Cond == nil) != (b.Cond == nil) {
			return a.Cond == nil
		}
		if a.Cond != nil {
			return false
		}
		if rank[a.Prop] != rank[b.Prop] {
			return rank[a.Prop] < rank[b.Prop]
		}
		return !a.Negated && b.Negated
	})
	return out
}

// newSoftGroup names the group of inv's property.
func newSoftGroup(inv predicates.SoftInvariant) softGroup {
	switch {
	case inv.Cond != nil:
		return softGroup{comment: "at L, " + SoftPropertyText(inv), setName: "SoftIf_" + identifier(inv.NameAt("")[len("if[,"):])}
	case inv.Negated:
		return softGroup{comment: "at L, " + inv.Prop.Name + " does not hold", setName: "SoftNif_" + identifier(inv.Prop.Name)}
	}
	return softGroup{comment: "at L, " + inv.Prop.Name + " holds", setName: "SoftIf_" + identifier(inv.Prop.Name)}
}

// groupable reports whether the grouped form can be written: a location
// predicate is NAME[L], which a foreach over L spells, and each location
// is a plain name that a set can hold.
func groupable(set *predicates.SoftInvariants) bool {
	prefix, ok := strings.CutSuffix(set.Pattern, "[*]")
	if !ok || prefix == "" || identifier(prefix) != prefix {
		return false
	}
	for _, l := range set.LocationNames {
		if identifier(l) != l {
			return false
		}
	}
	return true
}

// identifier turns a predicate name into a TVP identifier: letters,
// digits and underscores kept, every run of other characters one
// underscore, none at the end.
func identifier(name string) string {
	var b strings.Builder
	under := false
	for _, r := range name {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			b.WriteRune(r)
			under = r == '_'
			continue
		}
		if !under {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// uniqueName returns name, or name_2, name_3, ... when taken.
func uniqueName(name string, used map[string]bool) string {
	n := name
	for i := 2; used[n]; i++ {
		n = fmt.Sprintf("%s_%d", name, i)
	}
	used[n] = true
	return n
}

// SoftSummary is the JSON summary's soft_invariants object.
type SoftSummary struct {
	Mode             string      `json:"mode"`
	LocationPattern  string      `json:"location_pattern"`
	Locations        []string    `json:"locations"`
	ThreadPredicates []string    `json:"thread_predicates"`
	Generated        int         `json:"generated"`
	Skipped          []string    `json:"skipped"`
	Held             []string    `json:"held"`
	Reported         []string    `json:"reported"`
	Rounds           []SoftRound `json:"rounds"`
}

func newSoftSummary(mode string, r *SoftResult) *SoftSummary {
	set := r.Set
	s := &SoftSummary{Mode: mode, LocationPattern: set.Pattern, Locations: append([]string{}, set.LocationNames...),
		ThreadPredicates: []string{}, Generated: len(set.Invariants), Skipped: append([]string{}, set.Skipped...),
		Held: r.HeldNames(), Reported: []string{}, Rounds: r.Rounds}
	for i, inv := range set.Invariants {
		if r.Reported(i) {
			s.Reported = append(s.Reported, inv.Pred.Name)
		}
	}
	for _, p := range set.Preds {
		s.ThreadPredicates = append(s.ThreadPredicates, p.Name)
	}
	return s
}
