package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input structure that breaks a property (two individuals at x, which
// is unique) represents no state: the run leaves it out, and says so with
// the structure's position and the constraint, instead of dropping it
// silently.
func TestInconsistentInputIsReported(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "uniq.tvp")
	os.WriteFile(prog, []byte("%p x(v) unique\n%%\n%action Skip() {\n}\n%%\nL1 Skip() L2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "uniq.tvs"), []byte("%n = {u}\n%p = {\n  x = {u}\n}\n\n%n = {u, w}\n%p = {\n  x = {u, w}\n}\n"), 0o644)
	var warnings bytes.Buffer
	o, err := Analyse(context.Background(), Defaults(prog), Hooks{Warnings: &warnings})
	if err != nil {
		t.Fatal(err)
	}
	if o.Result.Stats.InputsDiscarded != 1 || len(o.Result.DiscardedInputs) != 1 || o.Result.DiscardedInputs[0].Input != 1 {
		t.Fatalf("discarded %d: %+v", o.Result.Stats.InputsDiscarded, o.Result.DiscardedInputs)
	}
	want := "warning: " + filepath.Join(dir, "uniq.tvs") + ":6:1: input structure is inconsistent and left out: " +
		"the constraint x(v1) & x(v2) ==> v1 == v2 (x unique) is breached\n"
	if got := warnings.String(); got != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", got, want)
	}
	// A consistent input gives no warning.
	warnings.Reset()
	if _, err := Analyse(context.Background(), Defaults(program("sll", "reverse.tvp")), Hooks{Warnings: &warnings}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(warnings.String(), "inconsistent") {
		t.Errorf("warnings for reverse: %s", warnings.String())
	}
}
