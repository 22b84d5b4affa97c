package programs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/internal/catalogue"
)

// The catalogue (catalogue.toml, docs/catalogue.md): every algorithm
// and variant, run as `tvla run` runs it, with its verdict and the exact
// count of stored structures checked. Entries marked bench run with go
// run ./bench catalogue instead; entries marked slow are left out by
// go test -short.

func TestMain(m *testing.M) {
	code := m.Run()
	if tvla.dir != "" {
		os.RemoveAll(tvla.dir)
	}
	os.Exit(code)
}

// tvla is the command built from ../cmd/tvla, once per test binary: the
// catalogue's arguments are those of the command line, so the entries
// run through it (flags, driver, exit status) and nothing else.
var tvla struct {
	once      sync.Once
	dir, path string
	err       error
}

func tvlaBinary(t *testing.T) string {
	t.Helper()
	tvla.once.Do(func() {
		if tvla.dir, tvla.err = os.MkdirTemp("", "tvla-catalogue"); tvla.err != nil {
			return
		}
		tvla.path = filepath.Join(tvla.dir, "tvla")
		out, err := exec.Command("go", "build", "-o", tvla.path, "../cmd/tvla").CombinedOutput()
		if err != nil {
			tvla.err = fmt.Errorf("go build ../cmd/tvla: %v\n%s", err, out)
		}
	})
	if tvla.err != nil {
		t.Fatal(tvla.err)
	}
	return tvla.path
}

// runTVLA runs the command in programs/ and returns its exit status and
// standard output.
func runTVLA(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(tvlaBinary(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String()
	case errors.As(err, &exit):
		if exit.ExitCode() == 2 {
			t.Fatalf("tvla %s: bad input:\n%s", strings.Join(args, " "), stderr.String())
		}
		return exit.ExitCode(), stdout.String()
	default:
		t.Fatal(err)
		return 0, ""
	}
}

func loadCatalogue(t *testing.T) []catalogue.Entry {
	t.Helper()
	entries, err := catalogue.Load("catalogue.toml")
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// algTraceStep is a trace step that names a line of an .alg program.
var algTraceStep = regexp.MustCompile(`(?m)^ +[0-9]+ +\S+ +after [A-Za-z_][A-Za-z0-9_]*, line [0-9]+: `)

// TestCatalog runs every entry of the catalogue that is not a benchmark:
// its verdict, stored structures and soft-invariant rounds, a fault's
// message and trace, and the concrete replay of a fault. (The embedding
// checks of the entries with an embed table run in TestCatalogueEmbed.)
func TestCatalog(t *testing.T) {
	for _, e := range loadCatalogue(t) {
		t.Run(e.Name, func(t *testing.T) {
			switch {
			case e.Expect == catalogue.Unknown:
				t.Skipf("not settled: %s", e.Note)
			case e.Bench:
				t.Skip("a benchmark: go run ./bench catalogue")
			case e.Slow && testing.Short():
				t.Skip("slow: left out by -short")
			}
			checkEntry(t, e)
			if e.Replay != nil {
				checkReplay(t, e)
			}
		})
	}
}

// checkEntry runs the entry as tvla run does and checks its result.
func checkEntry(t *testing.T, e catalogue.Entry) {
	summary := filepath.Join(t.TempDir(), "summary.json")
	args := append(append([]string{"run", e.Program}, e.Args...), "-q", "--json", summary)
	if e.Expect == catalogue.Fault {
		args = append(args, "--trace")
	}
	code, out := runTVLA(t, args...)
	data, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	var s driver.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.StructuresStored != e.Stored {
		t.Errorf("%d structures stored, want %d", s.StructuresStored, e.Stored)
	}
	if e.Rounds != 0 {
		rounds := 0
		if s.SoftInvariants != nil {
			rounds = len(s.SoftInvariants.Rounds)
		}
		if rounds != e.Rounds {
			t.Errorf("%d soft-invariant rounds, want %d", rounds, e.Rounds)
		}
	}
	if e.Expect == catalogue.Verified {
		if code != 0 || !s.Verified || s.Messages != 0 || s.NothingExplored {
			t.Errorf("exit %d, verified %v, %d messages; want verified:\n%s", code, s.Verified, s.Messages, out)
		}
		return
	}
	var raised []string
	for _, g := range s.MessageGroups {
		raised = append(raised, fmt.Sprintf("%s: %s (%s)", g.Location, g.Text, g.Action))
	}
	if code != 1 || !slices.ContainsFunc(raised, func(m string) bool { return strings.Contains(m, e.Message) }) {
		t.Errorf("exit %d, messages %q; want exit 1 with %q", code, raised, e.Message)
	}
	_, trace, ok := strings.Cut(out, "\ntrace 1: ")
	if !ok {
		t.Fatalf("no trace:\n%s", out)
	}
	if filepath.Ext(e.Program) == ".alg" && len(algTraceStep.FindAllString(trace, -1)) < 3 {
		t.Errorf("the trace's steps do not name the algorithm's lines:\n%s", trace)
	}
	for _, step := range e.Trace {
		if !strings.Contains(trace, step) {
			t.Errorf("the trace has no step %q:\n%s", step, trace)
		}
	}
}

// checkReplay runs the fault concretely: a concrete run from the same
// input, breadth first, must reach the same message.
func checkReplay(t *testing.T, e catalogue.Entry) {
	r := e.Replay
	args := append(append([]string{"run", e.Program}, e.Args...), "-q", "--join", "conc",
		"--copies", fmt.Sprint(r.Copies), "--threads", fmt.Sprint(r.Threads), "--max-depth", fmt.Sprint(r.Depth))
	if !slices.Contains(e.Args, "--max-messages") {
		args = append(args, "--max-messages", "1")
	}
	code, out := runTVLA(t, args...)
	if code != 1 || !strings.Contains(out, e.Message) {
		t.Errorf("concrete replay: exit %d, want 1 with %q:\n%s", code, e.Message, out)
	}
}

// TestCatalogueCoversPrograms: every algorithm program under programs/
// (.alg, and the hand-written models) has an entry, and a bug variant
// that names the program it changes changes 1 to 5 of its lines.
func TestCatalogueCoversPrograms(t *testing.T) {
	entries := loadCatalogue(t)
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.Program] = true
		if e.VariantOf == "" {
			continue
		}
		a, errA := os.ReadFile(filepath.FromSlash(e.VariantOf))
		b, errB := os.ReadFile(filepath.FromSlash(e.Program))
		if errA != nil || errB != nil {
			t.Fatal(errors.Join(errA, errB))
		}
		if n := changedLines(string(a), string(b)); n < 1 || n > 5 {
			t.Errorf("%s: %s changes %d lines of %s, want 1 to 5 (-1: lines added or removed)", e.Name, e.Program, n, e.VariantOf)
		}
	}
	progs, err := filepath.Glob("*/*.alg")
	if err != nil {
		t.Fatal(err)
	}
	bugs, _ := filepath.Glob("*/bugs/*.alg")
	for _, p := range append(append(progs, bugs...), "stack/stack.tvp", "queue/queue.tvp") {
		if p := filepath.ToSlash(p); !listed[p] {
			t.Errorf("%s has no entry in catalogue.toml", p)
		}
	}
}

// changedLines counts the lines of a that b replaces (-1 when b adds or
// removes lines).
func changedLines(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al) != len(bl) {
		return -1
	}
	n := 0
	for i := range al {
		if al[i] != bl[i] {
			n++
		}
	}
	return n
}
