package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run that explores nothing never reads as a proof: an input with no
// structure, inputs Coerce discards every one of, and a program without
// locations end with "verified, vacuously: ..." (exit 0, as the run
// completed with no message), never the plain verdict; the JSON summary
// has "nothing_explored": true. A run that explores has no such key.
func TestNothingExploredIsNotAPlainVerdict(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prog := write("p.tvp", "%p x(v) unique\n%p y(v)\n%r x(v) ==> y(v)\n%%\n%action skip() {\n  %t \"skip\"\n}\n%%\nL1 skip() L2\n")
	empty := write("empty.tvs", "")
	discarded := write("discarded.tvs", "%n = {a}\n%p = {\n  x = {a}\n}\n")
	noLocations := write("none.tvp", "%%\n%%\n")
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{[]string{prog, empty}, "the inputs hold no structure, so no state was explored"},
		{[]string{prog, discarded}, "Coerce discarded every input structure (1), which breaks a constraint, so no state was explored"},
		{[]string{noLocations}, "the program has no location, so no state was explored"},
	} {
		code, out, errOut := runCLI(append([]string{"run"}, tc.args...)...)
		if code != exitVerified || !strings.Contains(out, "\nverified, vacuously: "+tc.why+"\n") || strings.Contains(out, "\nverified: ") {
			t.Errorf("%v: exit %d\n%s\n%s", tc.args, code, out, errOut)
		}
		s := runSummary(t, exitVerified, append(append([]string{"run"}, tc.args...), "--json", "-", "-q")...)
		if !s.NothingExplored || !s.Verified || s.Locations == nil {
			t.Errorf("%v: summary: nothing explored %v, verified %v, locations %v", tc.args, s.NothingExplored, s.Verified, s.Locations)
		}
	}
	_, out, _ := runCLI("run", sll("reverse.tvp"), "--json", "-", "-q")
	if strings.Contains(out, "nothing_explored") {
		t.Errorf("a run that explored has nothing_explored in its summary:\n%s", out)
	}
}
