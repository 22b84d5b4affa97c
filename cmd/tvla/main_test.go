package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsCommands(t *testing.T) {
	code, out, _ := runCLI("--help")
	if code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	for _, want := range []string{"run", "version", "tvla run programs/stack/stack.tvp --collapse-threads"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI("version")
	if code != 0 || !strings.HasPrefix(out, "tvla ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestRunFlagsAreDeclared(t *testing.T) {
	code, out, _ := runCLI("run", "--help")
	if code != 0 {
		t.Fatalf("run --help exit %d", code)
	}
	for _, flag := range []string{"--join", "--action", "--props", "--max-structures", "--max-messages",
		"--collapse-threads", "--tvs", "--dot", "--svg", "--html", "--json", "--quiet", "--path", "-D"} {
		if !strings.Contains(out, flag) {
			t.Errorf("run --help lacks %s", flag)
		}
	}
}

func TestRunRejectsBadInputWithExit2(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.tvp")
	if err := os.WriteFile(prog, []byte("%%\n%%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"run"}, "requires at least 1 arg"},
		{[]string{"run", filepath.Join(dir, "missing.tvp")}, "missing.tvp: no such file or directory"},
		{[]string{"run", prog, "--join", "best"}, `--join must be rel, part or ind, not "best"`},
		{[]string{"run", prog, "-join", "best"}, `--join must be rel, part or ind, not "best"`},
		{[]string{"run", prog, "--action", "fub"}, `--action must match [f][c]pu[c]b, not "fub"`},
		{[]string{"run", prog, "-D", "1X"}, `bad macro definition "1X"`},
		{[]string{"run", prog, "--bogus"}, "unknown flag: --bogus"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, errOut, c.msg)
		}
	}
}

func TestTVLASpellings(t *testing.T) {
	got := normalizeTVLAFlags([]string{"p.tvp", "-join", "rel", "-ms", "10", "-terse", "-DGNUM(2)", "-props=x.properties", "--", "-join"})
	want := []string{"p.tvp", "--join", "rel", "--max-structures", "10", "--quiet", "-DGNUM(2)", "--props=x.properties", "--", "-join"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("normalize = %v", got)
	}
	for in, want := range map[string][2]string{"GNUM(2)": {"GNUM", "2"}, "X=a b": {"X", "a b"}, "FLAG": {"FLAG", ""}} {
		n, v, err := parseDefine(in)
		if err != nil || n != want[0] || v != want[1] {
			t.Errorf("parseDefine(%q) = %q, %q, %v", in, n, v, err)
		}
	}
}
