package predicates_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// softModel is a small collapsed thread model: two locations, a thread
// predicate p, an instrumentation predicate r of threads, a node
// predicate n (an abstraction predicate), a hand-written soft invariant
// if[a,p] (which reads at[a], so it is no thread predicate) and a rule
// r ==> p.
const softModel = `
%p tr_scheduled(v) unique
%p at[a](v) nonabs
%p at[b](v) nonabs
%p p(v) nonabs
%p n(v)
%p f(v_1, v_2) function
%i r(v) = E(u) f(v, u) nonabs
%i if[a,p](v) = isthread(v) & (at[a](v) -> p(v)) nonabs
%r r(v) ==> p(v)
%%
%action go() {
  %t "go()"
  { at[a](v) = at[a](v) & !tr_scheduled(v) }
}
%%
L1 go() L2
`

func loadSoft(t testing.TB, text string, cfg *predicates.SoftConfig) (*model.Program, error) {
	t.Helper()
	read := func(path string) ([]byte, error) {
		if path == "m.tvp" {
			return []byte(text), nil
		}
		return os.ReadFile(path)
	}
	prog, _, err := tvp.LoadProgram("m.tvp", tvp.LoadConfig{ReadFile: read, Soft: cfg})
	return prog, err
}

func names(ps []*predicates.Predicate) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestSoftInvariantsGenerated(t *testing.T) {
	prog, err := loadSoft(t, softModel, &predicates.SoftConfig{})
	if err != nil {
		t.Fatal(err)
	}
	set := prog.SoftInvariants
	if set.Pattern != "at[*]" || !reflect.DeepEqual(set.LocationNames, []string{"a", "b"}) {
		t.Errorf("pattern %s, locations %v", set.Pattern, set.LocationNames)
	}
	// p and r; not at[L], not if[a,p] (it reads at[a]), not n (abs),
	// not tr_scheduled, not the built-ins.
	if got := names(set.Preds); !reflect.DeepEqual(got, []string{"p", "r"}) {
		t.Errorf("thread predicates %v", got)
	}
	var got []string
	for _, inv := range set.Invariants {
		got = append(got, inv.Pred.Name)
	}
	want := []string{"nif[a,p]", "if[a,r]", "nif[a,r]", "if[b,p]", "nif[b,p]", "if[b,r]", "nif[b,r]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("generated %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(set.Skipped, []string{"if[a,p]"}) {
		t.Errorf("skipped %v", set.Skipped)
	}
	voc := prog.Vocabulary
	nif := voc.Lookup("nif[b,r]")
	if nif.Kind != predicates.Instrumentation || nif.Abstraction() {
		t.Errorf("nif[b,r]: %s, abstraction %v", nif.Kind, nif.Abstraction())
	}
	if d := logic.String(nif.Def); d != "isthread(v) & (at[b](v) -> !r(v))" {
		t.Errorf("nif[b,r] = %s", d)
	}
	var rules []string
	for _, r := range voc.Rules {
		if strings.HasPrefix(r.Origin, "soft invariant nif[b,r]") {
			rules = append(rules, r.String())
		}
	}
	if !reflect.DeepEqual(rules, []string{"nif[b,r](v) & at[b](v) ==> !r(v)"}) {
		t.Errorf("rules of nif[b,r]: %q", rules)
	}
	// Coerce gets both directions of each definition.
	n := 0
	for _, c := range predicates.Constraints(voc) {
		if strings.HasPrefix(c.Origin, "nif[b,r] definition") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d constraints from the definition of nif[b,r], want 2", n)
	}
}

func TestSoftInvariantPairs(t *testing.T) {
	cfg := &predicates.SoftConfig{Pairs: []predicates.SoftPair{{Location: "b", Q: "p", P: "r"}}}
	prog, err := loadSoft(t, softModel, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, inv := range prog.SoftInvariants.Invariants {
		if inv.Cond != nil {
			got = append(got, inv.Pred.Name+" = "+logic.String(inv.Pred.Def))
		}
	}
	// !p -> r is missing: the rule r ==> p says it (as !p -> !r, whose
	// clause p | !r is the rule's).
	want := []string{
		"if[b,p,r] = isthread(v) & (at[b](v) -> (p(v) -> r(v)))",
		"if[b,p,not[r]] = isthread(v) & (at[b](v) -> (p(v) -> !r(v)))",
		"if[b,not[p],r] = isthread(v) & (at[b](v) -> (!p(v) -> r(v)))",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("conditional:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var rules []string
	for _, r := range prog.Vocabulary.Rules {
		if strings.HasPrefix(r.Origin, "soft invariant if[b,not[p],r]") {
			rules = append(rules, r.String())
		}
	}
	want = []string{"if[b,not[p],r](v) & at[b](v) & !p(v) ==> r(v)", "if[b,not[p],r](v) & at[b](v) & !r(v) ==> p(v)"}
	if !reflect.DeepEqual(rules, want) {
		t.Errorf("rules %q", rules)
	}
}

func TestSoftInvariantChoices(t *testing.T) {
	prog, err := loadSoft(t, softModel, &predicates.SoftConfig{Preds: []string{"n", "p"}, Skip: []string{"p"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(prog.SoftInvariants.Preds); !reflect.DeepEqual(got, []string{"n"}) {
		t.Errorf("--soft-pred n p --soft-skip p: %v", got)
	}
	// Another pattern: only at[b] is a location predicate (named "at"),
	// so at[a] and if[a,p], nonabs and no longer reading a location
	// predicate, are thread predicates.
	prog, err = loadSoft(t, softModel, &predicates.SoftConfig{LocationPattern: "*[b]", Skip: []string{"r"}})
	if err != nil {
		t.Fatal(err)
	}
	set := prog.SoftInvariants
	if !reflect.DeepEqual(set.LocationNames, []string{"at"}) || !reflect.DeepEqual(names(set.Preds), []string{"at[a]", "p", "if[a,p]"}) ||
		len(set.Invariants) != 6 || set.Invariants[3].Pred.Name != "nif[at,p]" {
		t.Errorf("pattern *[b]: locations %v, thread predicates %v, %d generated", set.LocationNames, names(set.Preds), len(set.Invariants))
	}
}

func TestSoftInvariantErrors(t *testing.T) {
	cases := []struct {
		cfg predicates.SoftConfig
		msg string
	}{
		{predicates.SoftConfig{LocationPattern: "pc_*"}, "no location predicates: no unary predicate matches the pattern pc_*"},
		{predicates.SoftConfig{LocationPattern: "at[*]*"}, "must have exactly one *"},
		{predicates.SoftConfig{Preds: []string{"zz"}}, "--soft-pred zz: the program has no predicate zz"},
		{predicates.SoftConfig{Preds: []string{"f"}}, "--soft-pred f: soft invariants speak of unary predicates of threads; f has arity 2"},
		{predicates.SoftConfig{Preds: []string{"at[a]"}}, "--soft-pred at[a]: at[a] is a location predicate"},
		{predicates.SoftConfig{Skip: []string{"sm"}}, "--soft-skip sm: soft invariants speak of unary predicates"},
		{predicates.SoftConfig{Skip: []string{"p", "r"}}, "no thread predicates"},
	}
	for _, c := range cases {
		_, err := loadSoft(t, softModel, &c.cfg)
		var se *predicates.SoftError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: %v; want a SoftError with %q", c.cfg, err, c.msg)
		}
	}
}

// Initialize gives the generated predicates their definitions' values;
// Holding says which are 1 on every thread.
func TestSoftInvariantsInitializeAndHolding(t *testing.T) {
	prog, err := loadSoft(t, softModel, &predicates.SoftConfig{})
	if err != nil {
		t.Fatal(err)
	}
	voc := prog.Vocabulary.Tvl()
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", `
%n = {t1, t2, x}
%p = {
  isthread = {t1, t2}
  at[a] = {t1}
  at[b] = {t2}
  p = {t2:1/2}
  n = {x}
}`), voc)
	if err != nil {
		t.Fatal(err)
	}
	s := locs[0].Structures[0].Structure
	set := prog.SoftInvariants
	if err := set.Initialize(s); err != nil {
		t.Fatal(err)
	}
	get := func(name string, u int) logic.Kleene { return s.Get(voc.Lookup(name), u) }
	if get("nif[a,p]", 0) != logic.True || get("if[b,p]", 1) != logic.Unknown || get("if[b,p]", 2) != logic.False {
		t.Errorf("nif[a,p](t1) %v, if[b,p](t2) %v, if[b,p](x) %v; want 1, 1/2, 0",
			get("nif[a,p]", 0), get("if[b,p]", 1), get("if[b,p]", 2))
	}
	held := make([]bool, len(set.Invariants))
	for i := range held {
		held[i] = true
	}
	set.Holding(s, held)
	var got []string
	for i, inv := range set.Invariants {
		if held[i] {
			got = append(got, inv.Pred.Name)
		}
	}
	// The node x is no thread: its 0s do not count.
	want := []string{"nif[a,p]", "nif[a,r]", "nif[b,r]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("held %v, want %v", got, want)
	}
}

// A guarded pair: the invariants speak of the threads without the guard
// (a stale flag), and a third rule concludes the guard.
func TestSoftInvariantGuardedPair(t *testing.T) {
	model := strings.Replace(softModel, "%p n(v)\n", "%p n(v)\n%p stale[S,x](v) nonabs\n", 1)
	cfg := &predicates.SoftConfig{Pairs: []predicates.SoftPair{{Location: "b", Q: "p", P: "r", G: "stale[S,x]"}}}
	prog, err := loadSoft(t, model, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, inv := range prog.SoftInvariants.Invariants {
		if inv.Guard != nil {
			got = append(got, inv.Pred.Name+" = "+logic.String(inv.Pred.Def))
		}
	}
	want := []string{
		"if[b,not[stale[S,x]],p,r] = isthread(v) & (at[b](v) -> (!stale[S,x](v) -> (p(v) -> r(v))))",
		"if[b,not[stale[S,x]],p,not[r]] = isthread(v) & (at[b](v) -> (!stale[S,x](v) -> (p(v) -> !r(v))))",
		"if[b,not[stale[S,x]],not[p],r] = isthread(v) & (at[b](v) -> (!stale[S,x](v) -> (!p(v) -> r(v))))",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("guarded:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var rules []string
	for _, r := range prog.Vocabulary.Rules {
		if strings.HasPrefix(r.Origin, "soft invariant if[b,not[stale[S,x]],p,r]") {
			rules = append(rules, r.String())
		}
	}
	want = []string{
		"if[b,not[stale[S,x]],p,r](v) & at[b](v) & !stale[S,x](v) & p(v) ==> r(v)",
		"if[b,not[stale[S,x]],p,r](v) & at[b](v) & !stale[S,x](v) & !r(v) ==> !p(v)",
		"if[b,not[stale[S,x]],p,r](v) & at[b](v) & p(v) & !r(v) ==> stale[S,x](v)",
	}
	if !reflect.DeepEqual(rules, want) {
		t.Errorf("rules %q", rules)
	}
	if !predicates.IsGuard("stale[S,x]") || predicates.IsGuard("p") {
		t.Error("IsGuard")
	}
	cfg.Pairs[0].G = "p"
	if _, err := loadSoft(t, model, cfg); err == nil || !strings.Contains(err.Error(), "guard") {
		t.Errorf("a guard that is one of the pair: %v", err)
	}
}
