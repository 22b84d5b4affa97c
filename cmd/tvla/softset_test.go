package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A saved soft-invariant set (driver/softset.go): the compiled Treiber
// stack reads programs/stack/treiber.soft beside it and verifies in one
// round with the same 369 structures as the two rounds of a run that
// generates every soft invariant (--soft-from none); saving what held
// gives the same set back; a set that does not suffice costs a round,
// after which every soft invariant is generated with the set's pairs.
func TestSavedSoftSet(t *testing.T) {
	const prog = "../../programs/stack/treiber.alg"
	dir := t.TempDir()
	again := filepath.Join(dir, "again.soft")
	s := runSummary(t, 0, "run", prog, "--collapse-threads", "--soft-save", again, "--json", "-")
	if !s.Verified || s.StructuresStored != 369 || len(s.SoftInvariants.Rounds) != 1 || s.SoftInvariants.Rounds[0].Generated != 20 || s.SoftInvariants.Rounds[0].Held != 20 {
		t.Fatalf("with treiber.soft: verified %v, %d stored, rounds %+v; want 369 in one round of 20 generated, all held", s.Verified, s.StructuresStored, s.SoftInvariants.Rounds)
	}
	saved, err := os.ReadFile("../../programs/stack/treiber.soft")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	if items(got) != items(saved) {
		t.Errorf("saving what held gave another set:\n%s", got)
	}

	// Too small a set: its pairs, one held line.
	var small []string
	for _, l := range strings.Split(string(saved), "\n") {
		if strings.HasPrefix(l, "pair ") {
			small = append(small, l)
		}
	}
	small = append(small, "held nif[idle,doneLP]", "held nif[gone,doneLP]", "pair nowhere a b")
	f := filepath.Join(dir, "small.soft")
	if err := os.WriteFile(f, []byte(strings.Join(small, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("run", prog, "--collapse-threads", "--soft-from", f, "--json", "-")
	if code != 0 || !strings.Contains(errOut, "round 1 (the saved set): stopped at a message (1 in all); round 2 generates them all, with the set's 6 pair(s)") ||
		!strings.Contains(errOut, "1 pair(s) name no location or thread predicate of the program, left out (first: nowhere a b)") || !strings.Contains(out, `"structures_stored": 369`) {
		t.Errorf("a set too small: exit %d\n%s\n%s", code, errOut, out)
	}
	// What of a set names nothing in the program is a warning, which -q
	// does not hide.
	code, _, errOut = runCLI("run", prog, "-q", "--collapse-threads", "--soft-from", f)
	for _, want := range []string{
		"warning: soft invariants: " + f + ": 1 pair(s) name no location or thread predicate of the program, left out (first: nowhere a b)",
		"warning: soft invariants: " + f + ": 1 held name(s) are no soft invariant the program generates, left out (first: nif[gone,doneLP])",
	} {
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("quiet, a set naming nothing: exit %d, stderr lacks %q:\n%s", code, want, errOut)
		}
	}

	code, _, errOut = runCLI("run", prog, "--collapse-threads", "--soft-from", filepath.Join(dir, "missing.soft"))
	if code != 2 || !strings.Contains(errOut, "--soft-from: "+filepath.Join(dir, "missing.soft")+": no such file or directory") {
		t.Errorf("a missing set: exit %d, %q", code, errOut)
	}
}

// items drops a saved set's comment lines.
func items(set []byte) string {
	var out []string
	for _, l := range strings.Split(string(set), "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The collapsed compiled stack, whose initial heap holds garbage
// (algc's garbageTVS), is sound on its concrete runs: up to two threads
// and two garbage nodes of each kind, to depth 24, every concrete
// structure embeds into the 369 abstract ones.
func TestCollapsedTreiberWithGarbageEmbeds(t *testing.T) {
	code, out, errOut := runCLI("embed", "../../programs/stack/treiber.alg", "--collapse-threads", "--copies", "2", "--threads", "2", "--max-depth", "24")
	if code != 0 || !strings.Contains(out, "abstract run   369 structures, 0 messages (fixpoint)") ||
		!strings.Contains(out, "concrete run   15806 structures from 160 concrete inputs") ||
		!strings.Contains(out, "sound on these inputs") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}
