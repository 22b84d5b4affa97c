// Package catalogue reads programs/catalogue.toml: every algorithm and
// variant the repository models, each with the `tvla run` arguments that
// settle it and the result expected (a verdict and the exact count of
// stored structures, the message of a fault). The test of programs/
// runs the entries, `go run ./bench catalogue` runs the heavy ones, and
// `go run ./bench -catalogue-table` writes docs/catalogue.md from them.
package catalogue

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tvla-go/tvla/internal/tomlpos"
)

// The verdicts an entry may expect.
const (
	Verified = "verified" // the run reaches its fixpoint with no message
	Fault    = "fault"    // the run raises Message (a fault from the literature, or a planted one)
	Unknown  = "unknown"  // not settled today: Note says why; the test skips it
)

// Entry is one algorithm in one configuration.
type Entry struct {
	// Name is unique in the file: lower case, digits and -.
	Name string `toml:"name"`
	// Algorithm is what a reader looks for ("Treiber stack with
	// reuse"); Variant tells configurations of one algorithm apart (the
	// hand model or the .alg, a bug).
	Algorithm string `toml:"algorithm"`
	Variant   string `toml:"variant"`
	// Program is relative to programs/.
	Program string `toml:"program"`
	// Args are `tvla run` arguments after the program.
	Args []string `toml:"args"`
	// Expect is Verified, Fault or Unknown.
	Expect string `toml:"expect"`
	// Source names the paper the algorithm (or the fault) comes from.
	Source string `toml:"source"`
	// Stored is the exact number of structures stored when the run ends
	// (at its fixpoint, or at the first message with --max-messages 1).
	Stored int `toml:"stored"`
	// Rounds, when not 0, is the number of soft-invariant rounds the
	// run makes (--collapse-threads on an algorithm generates them).
	Rounds int `toml:"rounds"`
	// Message is a substring of the fault's message (faults only).
	Message string `toml:"message"`
	// Trace lists substrings the --trace output of a fault must hold
	// (steps that make the fault what it is).
	Trace []string `toml:"trace"`
	// VariantOf is the program (relative to programs/) a bug variant
	// changes; the test checks that it changes 1 to 5 lines of it.
	VariantOf string `toml:"variant_of"`
	// Bench marks an entry too slow for the test suite: go run ./bench
	// catalogue runs it.
	Bench bool `toml:"bench"`
	// Slow marks an entry the test suite runs, but not with -short.
	Slow bool `toml:"slow"`
	// Published is the result in the literature this one compares with,
	// for the table.
	Published string `toml:"published"`
	// Note says what a reader of the table should know (required for
	// Unknown).
	Note string `toml:"note"`
	// Embed is a bounded embedding check (tvla embed) of a verified
	// entry; Replay a concrete run of a fault that must reach its message.
	Embed  *Embed  `toml:"embed"`
	Replay *Replay `toml:"replay"`
}

// Embed bounds an embedding check: a summary individual stands for 1 to
// Copies individuals (Threads for threads), up to Depth actions; at
// least MinConcrete concrete structures must be checked.
type Embed struct {
	Copies      int `toml:"copies"`
	Threads     int `toml:"threads"`
	Depth       int `toml:"depth"`
	MinConcrete int `toml:"min_concrete"`
}

// Replay bounds a concrete run (tvla run --join conc) of a fault.
type Replay struct {
	Copies  int `toml:"copies"`
	Threads int `toml:"threads"`
	Depth   int `toml:"depth"`
}

// Load reads and checks a catalogue file.
func Load(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

var (
	nameSyntax   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	threadsMacro = regexp.MustCompile(`^THREADS(?:=([0-9]+))?$`)
)

// Parse reads a catalogue from data; path names it in errors and its
// folder is where programs are looked up. Every problem is reported, one
// per line: unknown keys, missing or empty fields, values out of range,
// programs that do not exist, names used twice.
func Parse(path string, data []byte) ([]Entry, error) {
	var file struct {
		Entry []Entry `toml:"entry"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&file); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := tomlpos.Of(data, pe)
			return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	errs := unknownKeys(raw)
	if len(file.Entry) == 0 {
		errs = append(errs, "no [[entry]]")
	}
	seen := map[string]bool{}
	dir := filepath.Dir(path)
	for i, e := range file.Entry {
		what := fmt.Sprintf("entry %d", i+1)
		if e.Name != "" {
			what = fmt.Sprintf("entry %d (%s)", i+1, e.Name)
		}
		for _, p := range e.check(dir) {
			errs = append(errs, what+": "+p)
		}
		if seen[e.Name] {
			errs = append(errs, what+": the name is used twice")
		}
		seen[e.Name] = true
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %s", path, strings.Join(errs, "\n"+path+": "))
	}
	return file.Entry, nil
}

// The keys an entry and its tables may have.
var (
	entryKeys  = []string{"name", "algorithm", "variant", "program", "args", "expect", "source", "stored", "rounds", "message", "trace", "variant_of", "bench", "slow", "published", "note", "embed", "replay"}
	embedKeys  = []string{"copies", "threads", "depth", "min_concrete"}
	replayKeys = []string{"copies", "threads", "depth"}
)

// unknownKeys lists the keys of the file that no field reads, by entry.
func unknownKeys(raw map[string]any) []string {
	var out []string
	for _, k := range sortedKeys(raw) {
		if k != "entry" {
			out = append(out, fmt.Sprintf("unknown key %q (the file holds [[entry]] tables only)", k))
		}
	}
	entries, _ := raw["entry"].([]map[string]any)
	for i, e := range entries {
		what := fmt.Sprintf("entry %d", i+1)
		if n, ok := e["name"].(string); ok {
			what = fmt.Sprintf("entry %d (%s)", i+1, n)
		}
		for _, k := range sortedKeys(e) {
			if !slices.Contains(entryKeys, k) {
				out = append(out, fmt.Sprintf("%s: unknown key %q", what, k))
			}
		}
		for table, keys := range map[string][]string{"embed": embedKeys, "replay": replayKeys} {
			sub, _ := e[table].(map[string]any)
			for _, k := range sortedKeys(sub) {
				if !slices.Contains(keys, k) {
					out = append(out, fmt.Sprintf("%s: unknown key %q in %s", what, k, table))
				}
			}
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// check lists what is wrong with one entry.
func (e Entry) check(dir string) []string {
	var out []string
	need := func(key, value string) {
		if strings.TrimSpace(value) == "" {
			out = append(out, key+" is missing or empty")
		}
	}
	need("name", e.Name)
	if e.Name != "" && !nameSyntax.MatchString(e.Name) {
		out = append(out, fmt.Sprintf("name %q: lower-case letters, digits and -", e.Name))
	}
	need("algorithm", e.Algorithm)
	need("variant", e.Variant)
	need("program", e.Program)
	need("source", e.Source)
	if e.Args == nil {
		out = append(out, "args is missing (args = [] for none)")
	}
	for _, p := range []string{e.Program, e.VariantOf} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			out = append(out, fmt.Sprintf("%s: no such program under %s", p, dir))
		}
	}
	switch e.Expect {
	case Verified, Fault:
		if e.Stored <= 0 {
			out = append(out, "stored is missing: the exact count of stored structures")
		}
	case Unknown:
		need("note", e.Note)
	case "":
		out = append(out, "expect is missing: verified, fault or unknown")
	default:
		out = append(out, fmt.Sprintf("expect %q: verified, fault or unknown", e.Expect))
	}
	if e.Expect == Fault {
		need("message", e.Message)
		if e.Embed != nil {
			out = append(out, "embed is for verified entries (a fault has replay)")
		}
	} else {
		if e.Message != "" || len(e.Trace) > 0 || e.Replay != nil {
			out = append(out, "message, trace and replay are for faults")
		}
	}
	if e.Stored < 0 || e.Rounds < 0 {
		out = append(out, "stored and rounds are counts, not negative")
	}
	if e.Embed != nil {
		if _, err := e.EmbedArgs("."); err != nil {
			out = append(out, "embed: "+err.Error())
		}
	}
	if e.Embed != nil && (e.Embed.Copies < 0 || e.Embed.Threads < 0 || e.Embed.Depth < 0 || e.Embed.MinConcrete <= 0) {
		out = append(out, "embed: copies, threads and depth are not negative, min_concrete is positive")
	}
	if e.Replay != nil && (e.Replay.Copies <= 0 || e.Replay.Threads <= 0 || e.Replay.Depth <= 0) {
		out = append(out, "replay: copies, threads and depth are positive")
	}
	if e.Bench && e.Slow {
		out = append(out, "a bench entry runs only in go run ./bench: not slow too")
	}
	return out
}

// Threads says how many threads the entry analyses: "1", "2", ...
// from -D THREADS=N, "unbounded (collapsed)" under --collapse-threads,
// "unbounded" when neither is given.
func (e Entry) Threads() string {
	if slices.Contains(e.Args, "--collapse-threads") {
		return "unbounded (collapsed)"
	}
	for _, d := range e.Defines() {
		if m := threadsMacro.FindStringSubmatch(d); m != nil {
			if m[1] == "" {
				return "1"
			}
			return m[1]
		}
	}
	return "unbounded"
}

// Defines lists the macros of the entry's arguments (-D NAME[=VALUE],
// -DNAME, --define NAME) and COLLAPSE_THREADS for --collapse-threads, in
// the order given.
func (e Entry) Defines() []string {
	var out []string
	e.scanArgs(func(macro, other string) {
		if macro != "" {
			out = append(out, macro)
		} else if other == "--collapse-threads" {
			out = append(out, "COLLAPSE_THREADS")
		}
	})
	return out
}

// EmbedArgs are the entry's arguments as tvla embed takes them, for its
// embed table: the macros (-D NAME[=VALUE]), --collapse-threads, --props,
// --abs and --nonabs, the run arguments that change the model, and
// --skip-superseded, which changes the abstract run the concrete one is
// checked against. Any other argument is an error:
// embed's bounds are the table's, and a run's limits or outputs have no
// meaning there.
func (e Entry) EmbedArgs(dir string) ([]string, error) {
	var out []string
	var err error
	valueOf := "" // the flag whose value comes next
	e.scanArgs(func(macro, other string) {
		switch {
		case valueOf == "--props":
			out = append(out, "--props", filepath.Join(dir, other))
			valueOf = ""
		case valueOf != "":
			out = append(out, valueOf, other)
			valueOf = ""
		case macro != "":
			out = append(out, "-D", macro)
		case other == "--collapse-threads" || other == "--skip-superseded":
			out = append(out, other)
		case other == "--props" || other == "--abs" || other == "--nonabs":
			valueOf = other
		case strings.HasPrefix(other, "--abs=") || strings.HasPrefix(other, "--nonabs="):
			out = append(out, other)
		case err == nil:
			err = fmt.Errorf("%q: an entry with an embed table takes -D NAME[=VALUE], --collapse-threads, --props FILE, --abs PREDICATE, --nonabs PREDICATE and --skip-superseded only", other)
		}
	})
	if err == nil && valueOf != "" {
		err = fmt.Errorf("%s: a value must follow it", valueOf)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RunArgs are the entry's arguments for tvla run from dir, the directory
// its program is relative to as the caller sees it: a --props FILE is
// written relative to programs/, like the program.
func (e Entry) RunArgs(dir string) []string {
	out := slices.Clone(e.Args)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "--props" {
			out[i+1] = filepath.Join(dir, out[i+1])
			i++
		}
	}
	return out
}

// scanArgs calls visit on each of the entry's arguments in order: with
// the macro of a -D NAME[=VALUE], -DNAME, --define NAME or --define=NAME,
// else with the argument itself as other.
func (e Entry) scanArgs(visit func(macro, other string)) {
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		switch {
		case (a == "-D" || a == "--define") && i+1 < len(e.Args):
			i++
			visit(e.Args[i], "")
		case strings.HasPrefix(a, "--define="):
			visit(strings.TrimPrefix(a, "--define="), "")
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			visit(a[2:], "")
		default:
			visit("", a)
		}
	}
}
