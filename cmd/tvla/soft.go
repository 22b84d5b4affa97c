package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
)

// softOptions are tvla run's soft-invariant flags.
type softOptions struct {
	mode    string // off, auto, report
	pattern string
	preds   []string
	skip    []string
	out     string
	// rounds bounds the rounds of refinement (1: no conditional soft
	// invariants).
	rounds int
}

const (
	softOff    = "off"
	softAuto   = "auto"
	softReport = "report"
)

// on reports whether soft invariants were asked for; the zero value (as
// in tvla embed, which has no such flags) is off.
func (s *softOptions) on() bool { return s.mode != softOff && s.mode != "" }

// validate checks the soft-invariant flags against the run's others.
func (s *softOptions) validate(o *runOptions) error {
	switch s.mode {
	case "", softOff, softAuto, softReport:
	default:
		return usageError("--soft-invariants must be off, auto or report, not %q", s.mode)
	}
	if !s.on() {
		// (0 is the zero value of commands without the flag.)
		if s.rounds != 0 && s.rounds != defaultSoftRounds {
			return usageError("--soft-rounds needs --soft-invariants auto or report")
		}
		if (s.pattern != "" && s.pattern != predicates.DefaultLocationPattern) || len(s.preds) > 0 || len(s.skip) > 0 || s.out != "" {
			return usageError("--soft-locations, --soft-pred, --soft-skip and --soft-invariants-out need --soft-invariants auto or report")
		}
		return nil
	}
	if !o.collapseThreads {
		return usageError("--soft-invariants %s needs --collapse-threads: soft invariants keep what collapsing the threads loses; without it the thread predicates are abstraction predicates and threads keep their properties anyway", s.mode)
	}
	if o.join == "conc" {
		return usageError("--soft-invariants cannot be used with --join conc: a concrete run has no abstraction to refine")
	}
	if s.rounds < 1 {
		return usageError("--soft-rounds must be at least 1")
	}
	if err := predicates.CheckLocationPattern(s.pattern); err != nil {
		return usageError("--soft-locations: %v", err)
	}
	return nil
}

// config is the loader's configuration, nil when off.
func (s *softOptions) config() *predicates.SoftConfig {
	if !s.on() {
		return nil
	}
	return &predicates.SoftConfig{LocationPattern: s.pattern, Preds: s.preds, Skip: s.skip}
}

// defaultSoftRounds is --soft-rounds' default; the collapsed stack
// needs 3.
const defaultSoftRounds = 8

// softResult is what a run found of its generated soft invariants.
type softResult struct {
	set  *predicates.SoftInvariants
	held []bool
	// complete is false when the run stopped early: the invariants held
	// on what was explored.
	complete bool
	// rounds are the runs made, this one last.
	rounds []softRound
}

// softRound is one run of the refinement.
type softRound struct {
	Generated   int     `json:"generated"`
	Conditional int     `json:"conditional"`
	Held        int     `json:"held"`
	Stored      int     `json:"structures_stored"`
	Verdict     string  `json:"verdict"`
	TimeSeconds float64 `json:"time_seconds"`
}

// verifiedRun: the fixpoint was reached and no message raised.
func verifiedRun(res *engine.Result) bool {
	return !res.Incomplete && !res.StoppedOnMessage && res.Stats.Messages == 0
}

// roundVerdict says how a run ended, in a few words.
func roundVerdict(res *engine.Result) string {
	switch {
	case verifiedRun(res):
		return "verified"
	case res.StoppedOnMessage:
		return fmt.Sprintf("stopped at a message (%d in all)", res.Stats.Messages)
	case res.Incomplete:
		return "stopped early: " + res.StopReason
	}
	return fmt.Sprintf("%d message(s)", res.Stats.Messages)
}

// softHeld checks every generated soft invariant on every structure
// stored at every location: it held when it is 1 on every individual
// that may be a thread. prev are the rounds before this run's.
func softHeld(set *predicates.SoftInvariants, res *engine.Result, prev []softRound) *softResult {
	r := &softResult{set: set, held: make([]bool, len(set.Invariants)), complete: !res.Incomplete}
	for i := range r.held {
		r.held[i] = true
	}
	for _, l := range res.Locations {
		for _, s := range l.Structures {
			set.Holding(s, r.held)
		}
	}
	round := softRound{Generated: len(set.Invariants), Held: len(r.heldNames()), Stored: res.Stats.Stored,
		Verdict: roundVerdict(res), TimeSeconds: res.Stats.Elapsed.Seconds()}
	for _, inv := range set.Invariants {
		if inv.Cond != nil {
			round.Conditional++
		}
	}
	r.rounds = append(append([]softRound(nil), prev...), round)
	return r
}

// newPairs returns, for each location, the pairs of thread predicates
// that are both 1/2 there (neither if[L,p] nor nif[L,p] held, on a run
// in which some thread was at L), other than those of have: their
// conditional soft invariants may keep how the two go together.
func (r *softResult) newPairs(have []predicates.SoftPair) []predicates.SoftPair {
	seen := map[predicates.SoftPair]bool{}
	for _, p := range have {
		seen[p] = true
	}
	var out []predicates.SoftPair
	for _, l := range r.set.LocationNames {
		var half []*predicates.Predicate
		for _, p := range r.set.Preds {
			if r.value(l, p) == "1/2" {
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
	}
	return out
}

// heldNames lists the names of the invariants that held, in generation
// order.
func (r *softResult) heldNames() []string {
	out := []string{}
	for i, inv := range r.set.Invariants {
		if r.held[i] {
			out = append(out, inv.Pred.Name)
		}
	}
	return out
}

// value says what held of predicate p at location l: "1" (if[l,p]
// held), "0" (nif[l,p] held), "-" (both: no thread is ever at l),
// "1/2" (neither), or "" when neither was generated.
func (r *softResult) value(l string, p *predicates.Predicate) string {
	pos, neg, any := false, false, false
	for i, inv := range r.set.Invariants {
		if inv.Location != l || inv.Prop != p || inv.Cond != nil {
			continue
		}
		any = true
		if r.held[i] {
			if inv.Negated {
				neg = true
			} else {
				pos = true
			}
		}
	}
	switch {
	case !any:
		return ""
	case pos && neg:
		return "-"
	case pos:
		return "1"
	case neg:
		return "0"
	}
	return "1/2"
}

// implied reports whether the i-th soft invariant, a conditional one
// that held, says nothing the unconditional ones that held do not: its
// condition never holds at its location, or its conclusion always does,
// or no thread is ever there.
func (r *softResult) implied(i int) bool {
	inv := r.set.Invariants[i]
	if inv.Cond == nil {
		return false
	}
	q, p := r.value(inv.Location, inv.Cond), r.value(inv.Location, inv.Prop)
	never, always := "0", "1"
	if inv.CondNegated {
		never = "1"
	}
	if inv.Negated {
		always = "0"
	}
	return q == "-" || q == never || p == always
}

// printSoftTable writes, after the run's table, the rounds and which
// soft invariants held: a row per thread predicate and a column per
// location for the unconditional ones, as the thesis' Tables 8.1 and 8.3
// give a thread predicate's value at each location, then the
// conditional ones that held, by location.
func printSoftTable(w io.Writer, r *softResult) {
	set := r.set
	fmt.Fprintf(w, "\nsoft invariants: %d round(s)\n", len(r.rounds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tgenerated\tconditional\theld\tstored\ttime s\t")
	for i, rd := range r.rounds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.3f\t  %s\n", i+1, rd.Generated, rd.Conditional, rd.Held, rd.Stored, rd.TimeSeconds, rd.Verdict)
	}
	tw.Flush()
	if len(set.Skipped) > 0 {
		fmt.Fprintf(w, "not generated, the model declares these names: %s\n", strings.Join(set.Skipped, " "))
	}
	if !r.complete {
		fmt.Fprintln(w, "(the last round stopped early: these held on what it explored, which is not a fixpoint)")
	}
	uncond, cond, heldCond, implied := 0, 0, 0, 0
	for i, inv := range set.Invariants {
		if inv.Cond == nil {
			uncond++
		} else {
			cond++
			if r.held[i] {
				heldCond++
				if r.implied(i) {
					implied++
				}
			}
		}
	}
	fmt.Fprintf(w, "\nunconditional: %d (%d location(s) matching %s, %d thread predicate(s), if and nif), %d held\n",
		uncond, len(set.Locations), set.Pattern, len(set.Preds), len(r.heldNames())-heldCond)
	tw = tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprint(tw, " ")
	for _, l := range set.LocationNames {
		fmt.Fprintf(tw, "\t%s", l)
	}
	fmt.Fprintln(tw)
	for _, p := range set.Preds {
		fmt.Fprintf(tw, "  %s", p.Name)
		for _, l := range set.LocationNames {
			fmt.Fprintf(tw, "\t%s", r.value(l, p))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w, "  1: if[L,p] held (every thread at L has p); 0: nif[L,p] held (none has p);")
	fmt.Fprintln(w, "  1/2: neither; -: both (no thread is ever at L); blank: the model declares the names")
	if cond == 0 {
		return
	}
	fmt.Fprintf(w, "\nconditional: %d, %d held", cond, heldCond)
	if implied > 0 {
		fmt.Fprintf(w, ", of which %d the unconditional ones imply (not listed)", implied)
	}
	fmt.Fprintln(w)
	for _, l := range set.LocationNames {
		var props []string
		for i, inv := range set.Invariants {
			if inv.Location == l && inv.Cond != nil && r.held[i] && !r.implied(i) {
				props = append(props, propertyText(inv))
			}
		}
		if len(props) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", l, strings.Join(props, "; "))
		}
	}
}

// propertyText is what a conditional soft invariant says, briefly:
// q -> p, with ! for negated literals.
func propertyText(inv predicates.SoftInvariant) string {
	lit := func(p *predicates.Predicate, neg bool) string {
		if neg {
			return "!" + p.Name
		}
		return p.Name
	}
	if inv.Cond == nil {
		return lit(inv.Prop, inv.Negated)
	}
	return lit(inv.Cond, inv.CondNegated) + " -> " + lit(inv.Prop, inv.Negated)
}

// softTVP writes the soft invariants that held as TVP declarations to
// paste into a model: grouped by property as the bundled models write
// theirs, a set of locations and a foreach per property, when the
// location pattern is NAME[*] and every location is a plain name; else
// one %i line and its %r rules per invariant.
func softTVP(w io.Writer, r *softResult) {
	set := r.set
	listed := 0
	for i := range set.Invariants {
		if r.held[i] && !r.implied(i) {
			listed++
		}
	}
	fmt.Fprintf(w, "// Soft invariants that held: %d of the %d generated by tvla run --soft-invariants", listed, len(set.Invariants))
	if !r.complete {
		fmt.Fprint(w, " (on a run stopped early, not at a fixpoint)")
	}
	if n := len(r.heldNames()) - listed; n > 0 {
		fmt.Fprintf(w, ",\n// and %d conditional ones that these imply, left out", n)
	}
	fmt.Fprintln(w, ".")
	fmt.Fprintln(w, "// if[L,p](v): a thread at L has p; nif[L,p](v): it has not; if[L,q,p](v):")
	fmt.Fprintln(w, "// if it has q, it has p (not[q]: has not q). Paste them into the model")
	fmt.Fprintln(w, "// after its predicates, and give each the value 1 on every thread of the")
	fmt.Fprintln(w, "// input (TVS: NAME = {t} for a thread individual t).")
	const x logic.Var = "v"
	groups := softGroups(r)
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

// softGroups groups the invariants that held by what they say (the
// property at L), in the order of generation, locations in declaration
// order.
func softGroups(r *softResult) []softGroup {
	type key struct {
		cond, prop       *predicates.Predicate
		condNeg, propNeg bool
	}
	index := map[key]int{}
	var out []softGroup
	for i, inv := range r.set.Invariants {
		if !r.held[i] || r.implied(i) {
			continue
		}
		k := key{inv.Cond, inv.Prop, inv.CondNegated, inv.Negated}
		gi, ok := index[k]
		if !ok {
			gi = len(out)
			index[k] = gi
			var g softGroup
			switch {
			case inv.Cond != nil:
				g.comment = "at L, " + propertyText(inv)
				g.setName = "SoftIf_" + identifier(inv.NameAt("")[len("if[,"):])
			case inv.Negated:
				g.comment = "at L, " + inv.Prop.Name + " does not hold"
				g.setName = "SoftNif_" + identifier(inv.Prop.Name)
			default:
				g.comment = "at L, " + inv.Prop.Name + " holds"
				g.setName = "SoftIf_" + identifier(inv.Prop.Name)
			}
			out = append(out, g)
		}
		out[gi].invs = append(out[gi].invs, inv)
	}
	// The unconditional ones first, by thread predicate, if before nif;
	// then the conditional ones in the order of generation.
	rank := map[*predicates.Predicate]int{}
	for i, p := range r.set.Preds {
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

// summarySoft is the JSON summary's soft_invariants object.
type summarySoft struct {
	Mode             string      `json:"mode"`
	LocationPattern  string      `json:"location_pattern"`
	Locations        []string    `json:"locations"`
	ThreadPredicates []string    `json:"thread_predicates"`
	Generated        int         `json:"generated"`
	Skipped          []string    `json:"skipped"`
	Held             []string    `json:"held"`
	Reported         []string    `json:"reported"`
	Rounds           []softRound `json:"rounds"`
}

func buildSoftSummary(mode string, r *softResult) *summarySoft {
	set := r.set
	s := &summarySoft{Mode: mode, LocationPattern: set.Pattern, Locations: append([]string{}, set.LocationNames...),
		ThreadPredicates: []string{}, Generated: len(set.Invariants), Skipped: append([]string{}, set.Skipped...),
		Held: r.heldNames(), Reported: []string{}, Rounds: r.rounds}
	for i, inv := range set.Invariants {
		if r.held[i] && !r.implied(i) {
			s.Reported = append(s.Reported, inv.Pred.Name)
		}
	}
	for _, p := range set.Preds {
		s.ThreadPredicates = append(s.ThreadPredicates, p.Name)
	}
	return s
}
