package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateDecompTVS = flag.Bool("update-decomp-tvs", false, "rewrite testdata/decompose/handoff-run.tvs")

// The --tvs output of the decomposing engine at one location of our
// handoff program (its copy here prints only run, the program's fourth
// section), golden: the reference's components there, structure for
// structure up to isomorphism (TVLA 3 with tvla.engine.type = dtvla, its
// inac and runnable aside). A composition gives a binary predicate 1/2
// between two nodes no part holds together; for the built-in instance,
// which relates a %new or %clone copy to its original during one action
// only, that 1/2 was an artefact the reference does not have (it prints
// instance values where it holds them): 30 of these 37 components
// carried instance = {...:1/2}. The file reads back as input.
func TestDecomposeTVSGolden(t *testing.T) {
	prog := handoffVariant(t, "handoff.tvp", func(text string) string { return text + "\n%%\nrun\n" })
	out := filepath.Join(t.TempDir(), "out.tvs")
	code, _, errOut := runCLI("run", prog, filepath.Join(handoffDir, "handoff.tvs"), "--decompose", "--tvs", out, "-q")
	if code != exitMessages {
		t.Fatalf("exit %d, want 1 (the program's messages): %s", code, errOut)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "decompose", "handoff-run.tvs")
	if *updateDecompTVS {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("--tvs output differs from %s (go test ./cmd/tvla -run DecomposeTVSGolden -update-decomp-tvs to accept):\n%s", golden, got)
	}
	if n := strings.Count(string(got), "%n = "); n != 37 || strings.Contains(string(got), "instance") {
		t.Errorf("%d structures, instance values: %v; want 37, none", n, strings.Contains(string(got), "instance"))
	}
	code, _, errOut = runCLI("run", prog, out, "-q")
	if code != exitVerified && code != exitMessages {
		t.Errorf("reading the output back: exit %d, %s", code, errOut)
	}
}
