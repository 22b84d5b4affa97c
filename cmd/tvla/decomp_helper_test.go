package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

// refDecomposition is the reference distribution's decomposition folder,
// extracted where the project's scripts put it; tests that need it skip
// when it is absent (its files are never copied into the project).
const refDecomposition = "/tmp/tvla-ref/examples/decomposition"

// dtvla selects the reference's decomposing engine in a properties file.
const dtvla = "tvla.engine.type = dtvla\ntvla.engine.autoResolveType = false\n"

// How long a run against the reference is, which decides when it runs.
type runLength int

const (
	quickRun  runLength = iota // always
	secondRun                  // a run of seconds: skipped under -short
	longRun                    // only with TVLA_LONG_TESTS=1
)

// skipUnless skips the test when its run is too long for this mode.
func skipUnless(t *testing.T, l runLength) {
	t.Helper()
	switch {
	case l == secondRun && testing.Short():
		t.Skip("a run of seconds")
	case l == longRun && os.Getenv("TVLA_LONG_TESTS") == "":
		t.Skip("a long run: set TVLA_LONG_TESTS=1")
	}
}

// refPath is elem under refDecomposition; the test skips when it is
// absent (no reference examples), or when a run of length l does not run
// in this mode.
func refPath(t *testing.T, l runLength, elem ...string) string {
	t.Helper()
	path := filepath.Join(append([]string{refDecomposition}, elem...)...)
	if _, err := os.Stat(path); err != nil {
		t.Skip("no reference examples at " + path)
	}
	skipUnless(t, l)
	return path
}

// refRun is a run of tvla whose results the reference gave: per
// location (want; nil: not compared), in all (total; 0: not compared)
// and its messages. The run exits 1 when it has messages, 0 otherwise.
type refRun struct {
	args            []string
	want            map[string]int
	total, messages int
}

// check runs tvla run with args and --json - -q, compares its summary
// with the reference's figures, and returns it.
func (r refRun) check(t *testing.T) driver.Summary {
	t.Helper()
	code := 0
	if r.messages > 0 {
		code = 1
	}
	s := runSummary(t, code, append(append([]string{"run"}, r.args...), "--json", "-", "-q")...)
	got := counts(s)
	if (r.want != nil && !reflect.DeepEqual(got, r.want)) || (r.total != 0 && s.StructuresStored != r.total) || s.Messages != r.messages {
		total := "-"
		if r.total != 0 {
			total = strconv.Itoa(r.total)
		}
		t.Errorf("%d stored, %d messages, per location %v; the reference: %s, %d, %v",
			s.StructuresStored, s.Messages, got, total, r.messages, r.want)
	}
	return s
}

// handoffDir holds our handoff program (threads handing nodes to each
// other through a slot, under %pset) and its input handoff.tvs.
var handoffDir = filepath.Join("..", "..", "abstraction", "testdata", "decompose")

// handoffVariant writes handoff.tvp as edit changes it to name in a
// temporary folder and returns its path.
func handoffVariant(t *testing.T, name string, edit func(string) string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(handoffDir, "handoff.tvp"))
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(prog, []byte(edit(string(text))), 0o644); err != nil {
		t.Fatal(err)
	}
	return prog
}
