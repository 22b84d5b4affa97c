package programs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/internal/catalogue"
	"github.com/tvla-go/tvla/soundness"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// embedCase is one embedding check (tvla embed) of a bundled program with
// small bounds: its PROGRAM.tvs input, macros, and the bounds of the
// concrete run. Zero bounds mean tvla embed's defaults.
type embedCase struct {
	program string   // path under programs/
	defines []string // NAME or NAME=VALUE
	copies  int      // a summary individual stands for 1..copies (default 3)
	threads int      // for thread individuals (default copies)
	depth   int      // actions from an input (default 100)
	// minConcrete is a floor on the concrete structures checked, so that
	// a change that makes the concrete run reach little is noticed.
	minConcrete int
	// unsound marks a planted unsound constraint, which the check must
	// catch: concrete structures that embed nowhere and a false claim.
	unsound bool
	// join is the abstract run's join (default part).
	join string
}

// embedCases lists the checks run on the bundled TVP programs. Every
// program under programs/ (a .tvp file with a CFG section) needs at
// least one line (or an embed table in the catalogue):
// TestEveryBundledProgramIsEmbedChecked fails for a program without one. A new model is added with one line, e.g.
//
//	{program: "queue/queue.tvp", defines: []string{"THREADS=1", "PURE_INIT"}, copies: 2, depth: 30, minConcrete: 100},
var embedCases = []embedCase{
	// The algorithms of the catalogue (catalogue.toml) are checked from
	// their embed tables by TestCatalogueEmbed.
	// Small programs that pin down a behaviour of TVLA 3 (testdata/).
	{program: "testdata/newinit.tvp", minConcrete: 3},
	{program: "testdata/param.tvp", minConcrete: 4},
	{program: "testdata/acyclic.tvp", minConcrete: 2},
	{program: "testdata/selfloop.tvp", minConcrete: 62},
	// free(x) leaves nonNull[x] at 1, as TVLA's differencing does: the
	// abstract run drops the state after it, which the concrete run
	// reaches (a model that needs its own update of nonNull[x]).
	{program: "testdata/retain.tvp", minConcrete: 3, unsound: true},
	// The team's list programs, lists of up to 4 nodes (two lists for
	// append and merge), to the end of their concrete runs (create's
	// grows without end and stops at the depth limit).
	{program: "sll/reverse.tvp", minConcrete: 90},
	{program: "sll/create.tvp", minConcrete: 161},
	{program: "sll/insert.tvp", minConcrete: 141},
	{program: "sll/delete.tvp", minConcrete: 105},
	{program: "sll/search.tvp", minConcrete: 65},
	{program: "sll/search_nullderef.tvp", minConcrete: 66},
	{program: "sll/append.tvp", minConcrete: 254},
	{program: "sll/merge.tvp", minConcrete: 901},
	{program: "sll/merge.tvp", defines: []string{"DERIVE_UPDATES"}, minConcrete: 901},
	// The insertion sort on lists of up to 4 nodes with every order of
	// their data (93 concrete inputs), sorted either way, and its bug,
	// whose unsorted results the concrete run reaches too.
	{program: "sll/sort.tvp", minConcrete: 1897},
	{program: "sll/sort.tvp", defines: []string{"DESCENDING"}, minConcrete: 1897},
	{program: "sll/sort.tvp", defines: []string{"BUG_FRONT_TEST"}, minConcrete: 1965},
	// The list programs again with the single-structure join (ind): one
	// structure per location, whose individuals may not exist. (Not
	// sort: without the stop at the breached constraint, Focus does not
	// end there, in TVLA 3 as here.)
	{program: "sll/reverse.tvp", minConcrete: 90, join: engine.JoinIndependent},
	{program: "sll/create.tvp", minConcrete: 161, join: engine.JoinIndependent},
	{program: "sll/insert.tvp", minConcrete: 141, join: engine.JoinIndependent},
	{program: "sll/delete.tvp", minConcrete: 105, join: engine.JoinIndependent},
	{program: "sll/search.tvp", minConcrete: 65, join: engine.JoinIndependent},
	{program: "sll/search_nullderef.tvp", minConcrete: 66, join: engine.JoinIndependent},
	{program: "sll/append.tvp", minConcrete: 254, join: engine.JoinIndependent},
	{program: "sll/merge.tvp", minConcrete: 901, join: engine.JoinIndependent},
	// The Treiber stack: one thread with garbage nodes in the initial
	// state; one thread with full interleaving; collapsed threads; two
	// threads, 30 steps (two operations each, with failed CASes); a bug
	// whose message both runs must raise.
	{program: "stack/stack.tvp", defines: []string{"THREADS=1"}, copies: 2, depth: 30, minConcrete: 7000},
	{program: "stack/stack.tvp", defines: []string{"THREADS=1", "PURE_INIT", "FULL_INTERLEAVING"}, depth: 40, minConcrete: 300},
	{program: "stack/stack.tvp", defines: []string{"THREADS=1", "PURE_INIT", "COLLAPSE_THREADS"}, depth: 40, minConcrete: 600},
	{program: "stack/stack.tvp", defines: []string{"THREADS=2", "PURE_INIT"}, copies: 2, depth: 30, minConcrete: 750},
	{program: "stack/stack.tvp", defines: []string{"THREADS=1", "PURE_INIT", "BUG_POP_WRONG_VALUE"}, depth: 40, minConcrete: 450},
	// The orientation of the spec rule that thesis §7.6.2 shows invalid
	// (stack_preds.tvp, PLANT_UNSOUND_SPEC): the analysis verifies the
	// stack with it, having dropped the states after a push and a pop.
	{program: "stack/stack.tvp", defines: []string{"THREADS=1", "PURE_INIT", "PLANT_UNSOUND_SPEC"}, depth: 30, minConcrete: 250, unsound: true},
	// The Michael-Scott queue: one thread with each dequeue, one collapsed.
	{program: "queue/queue.tvp", defines: []string{"THREADS=1", "PURE_INIT"}, depth: 30, minConcrete: 340},
	{program: "queue/queue.tvp", defines: []string{"THREADS=1", "PURE_INIT", "DGLM"}, depth: 30, minConcrete: 330},
	{program: "queue/queue.tvp", defines: []string{"THREADS=1", "PURE_INIT", "COLLAPSE_THREADS"}, depth: 30, minConcrete: 340},
	// The compiled queue's collapsed model (past[sshead,Head] and
	// ordered[sshead,sstail] checked against their definitions).
	{program: "queue/msqueue.alg", defines: []string{"THREADS=1", "PURE_INIT", "COLLAPSE_THREADS"}, depth: 30, minConcrete: 181},
}

// catalogueEmbedEntries are the catalogue's entries with an embed table,
// but for bench entries (too heavy for the suite: go run ./bench
// catalogue runs theirs).
func catalogueEmbedEntries(t *testing.T) []catalogue.Entry {
	t.Helper()
	entries, err := catalogue.Load("catalogue.toml")
	if err != nil {
		t.Fatal(err)
	}
	var out []catalogue.Entry
	for _, e := range entries {
		if e.Embed != nil && !e.Bench {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		t.Fatal("no catalogue entry has an embed table")
	}
	return out
}

// The embedding check of every catalogue entry with an embed table, run
// as tvla embed runs it: the entry's macros and --collapse-threads (a
// collapsed entry's abstract run generates its soft invariants as tvla
// run's first round does, from the saved set beside the program), with
// the table's bounds. Every concrete structure reached must embed, every
// concrete message be raised by the analysis, every rule and update hold.
func TestCatalogueEmbed(t *testing.T) {
	for _, e := range catalogueEmbedEntries(t) {
		t.Run(e.Name, func(t *testing.T) {
			if e.Slow && testing.Short() {
				t.Skip("slow: left out by -short")
			}
			args, err := e.EmbedArgs(".")
			if err != nil {
				t.Fatal(err)
			}
			summary := filepath.Join(t.TempDir(), "embed.json")
			args = append(append([]string{"embed", e.Program}, args...), "--copies", fmt.Sprint(e.Embed.Copies),
				"--threads", fmt.Sprint(e.Embed.Threads), "--max-depth", fmt.Sprint(e.Embed.Depth), "-q", "--json", summary)
			code, out := runTVLA(t, args...)
			data, err := os.ReadFile(summary)
			if err != nil {
				t.Fatalf("exit %d, no summary (%v):\n%s", code, err, out)
			}
			var s driver.EmbedSummary
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d concrete structures, %d abstract, %d failed, %d missed messages, %d false claims",
				s.Checked, s.AbstractStructures, s.Failed, len(s.MissedMessages), len(s.FalseClaims))
			switch {
			case code != 0 || !s.Sound:
				t.Errorf("exit %d, sound %v; want exit 0 and sound:\n%s", code, s.Sound, out)
			case s.Incomplete || s.Undecided > 0 || !s.AbstractComplete:
				t.Errorf("check incomplete: %d undecided, abstract run complete %v", s.Undecided, s.AbstractComplete)
			case s.Checked < e.Embed.MinConcrete:
				t.Errorf("%d concrete structures checked, want at least %d", s.Checked, e.Embed.MinConcrete)
			}
		})
	}
}

func (c embedCase) name() string {
	parts := append([]string{strings.TrimSuffix(c.program, ".tvp")}, c.defines...)
	if c.join != engine.JoinPartial {
		parts = append(parts, "join="+c.join)
	}
	return strings.Join(parts, ",")
}

// embedProgram runs tvla embed's check on a bundled program.
func embedProgram(t *testing.T, c embedCase) *soundness.Outcome {
	t.Helper()
	path := filepath.FromSlash(c.program)
	cfg := tvp.LoadConfig{Defines: map[string]string{}}
	for _, d := range c.defines {
		name, value, ok := strings.Cut(d, "=")
		if !ok {
			value = "1"
		}
		cfg.Defines[name] = value
	}
	load, tvs := tvp.LoadProgram, strings.TrimSuffix(path, ".tvp")+".tvs"
	if filepath.Ext(path) == ".alg" {
		// An algorithm compiles to TVP with its own initial structure.
		load = algc.Load
	}
	prog, _, err := load(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Ext(path) == ".alg" {
		if tvs, cfg, err = algc.Input(path, cfg); err != nil {
			t.Fatal(err)
		}
	}
	inputs := []*tvl.Structure{tvl.New(prog.Vocabulary.Tvl())}
	if filepath.Ext(path) == ".alg" || fileExists(tvs) {
		locs, err := tvp.LoadTVS(tvs, prog.Vocabulary.Tvl(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		inputs = nil
		for _, l := range locs {
			for _, s := range l.Structures {
				inputs = append(inputs, s.Structure)
			}
		}
	}
	depth := c.depth
	if depth == 0 {
		depth = 100
	}
	out, err := soundness.Embed(context.Background(), prog, inputs, soundness.EmbedOptions{
		Abstract:   engine.Options{Differencing: true, Join: c.join},
		Concretize: engine.ConcretizeOptions{Copies: c.copies, Threads: c.threads},
		MaxDepth:   depth, MaxStructures: 20000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Report == nil {
		t.Fatalf("the abstract run stopped: %s", out.Abstract.StopReason)
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// The Embedding Theorem on the programs of embedCases, with small bounds
// (the catalogue's entries run in TestCatalogueEmbed):
// every concrete state reached embeds into an abstract structure at its
// location, the analysis raises every message the concrete run raises,
// and no rule or update is false on a reached state; the planted unsound
// rule is caught.
func TestBundledProgramsEmbed(t *testing.T) {
	for _, c := range embedCases {
		t.Run(c.name(), func(t *testing.T) {
			out := embedProgram(t, c)
			rep := out.Report
			t.Logf("%d concrete structures (%s), %d abstract, %d failed, %d missed messages, %d false claims",
				rep.Checked, stopped(out.Concrete), out.Abstract.Stats.Stored, rep.FailedCount(), len(rep.Missed), len(rep.Broken))
			if rep.Incomplete || rep.UndecidedCount() > 0 {
				t.Fatalf("check incomplete: %d undecided", rep.UndecidedCount())
			}
			if rep.Checked < c.minConcrete {
				t.Errorf("%d concrete structures checked, want at least %d", rep.Checked, c.minConcrete)
			}
			if c.unsound {
				if rep.FailedCount() == 0 || len(rep.Broken) == 0 {
					t.Errorf("the planted rule was not caught: %d failed, %d false claims", rep.FailedCount(), len(rep.Broken))
				}
				if out.Abstract.Stats.Messages != 0 {
					t.Errorf("the analysis raised %d messages itself", out.Abstract.Stats.Messages)
				}
				return
			}
			for i, f := range rep.Failures {
				if i == 3 {
					break
				}
				t.Errorf("concrete structure %d at %s embeds nowhere:\n%s", f.Index+1, f.Location, f.Concrete)
			}
			for _, m := range rep.Missed {
				t.Errorf("missed message at %s: %s", m.Location, m.Text)
			}
			for _, m := range rep.Broken {
				t.Errorf("false claim at %s: %s", m.Location, m.Text)
			}
		})
	}
}

func stopped(r *engine.Result) string {
	if r.Incomplete {
		return r.StopReason
	}
	return "fixpoint"
}

// Every program under programs/ is embed-checked: a .tvp program (one
// with a CFG section) has a line in embedCases or an embed table in the
// catalogue, and an algorithm (.alg) that some catalogue entry verifies
// has an embed table on one of its entries (a bench entry's runs in go
// run ./bench catalogue).
func TestEveryBundledProgramIsEmbedChecked(t *testing.T) {
	entries, err := catalogue.Load("catalogue.toml")
	if err != nil {
		t.Fatal(err)
	}
	listed, verified := map[string]bool{}, map[string]bool{}
	for _, c := range embedCases {
		listed[c.program] = true
	}
	for _, e := range entries {
		if e.Embed != nil {
			listed[e.Program] = true
		}
		if e.Expect == catalogue.Verified {
			verified[e.Program] = true
		}
	}
	var missing []string
	tvps, err := filepath.Glob(filepath.Join("*", "*.tvp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tvps {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A program has a CFG section; included files have none.
		if strings.Count("\n"+string(data), "\n%%") < 2 {
			continue
		}
		if p := filepath.ToSlash(f); !listed[p] {
			missing = append(missing, p+": add a line with small bounds to embedCases in programs/embed_test.go")
		}
	}
	for p := range verified {
		if filepath.Ext(p) == ".alg" && !listed[p] {
			missing = append(missing, p+": add an embed table to one of its verified entries in catalogue.toml")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no embedding check: %s", m)
	}
}
