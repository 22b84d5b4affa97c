package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

// Without --max-memory, a run's memory limit is 75% of the physical
// memory, for tvla run and tvla embed; tvla experiment's budget defaults
// to the same. The help says so.
func TestMaxMemoryHasADefault(t *testing.T) {
	def := driver.DefaultMaxMemory()
	if _, err := os.Stat("/proc/meminfo"); err == nil && def == 0 {
		t.Fatal("no default memory limit on a machine with /proc/meminfo")
	}
	for _, c := range []string{"run", "embed", "experiment"} {
		cmd, _, err := newRootCommand(nil, nil).Find([]string{c})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("max-memory")
		if f == nil || f.DefValue != def.String() || !strings.Contains(f.Usage, "75% of the physical memory") ||
			!strings.Contains(f.Usage, "0 means no limit") {
			t.Errorf("%s --max-memory: %+v", c, f)
		}
	}
	_, out, _ := runCLI("run", "--help")
	if !strings.Contains(out, "(default "+def.String()+")") || !strings.Contains(out, "75% of the physical memory") {
		t.Errorf("run --help does not give the default memory limit:\n%s", out)
	}
	// --max-memory 0 is no limit (WithLimits then watches nothing).
	code, _, errOut := runCLI("run", sll("reverse.tvp"), "--max-memory", "0", "-q")
	if code != exitVerified {
		t.Errorf("--max-memory 0: exit %d, %s", code, errOut)
	}
}

// tvla experiment shares its memory budget among the runs going at once;
// without --max-memory the budget is tvla run's default limit, so that
// --jobs runs at once together stay within it (not each at the default),
// and --max-memory 0 gives each run no limit (not the default).
func TestExperimentSharesTheDefaultMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	t.Setenv("TVLA_TEST_MAIN", "1")
	for _, tc := range []struct {
		flags []string
		each  string
	}{
		{nil, fmt.Sprint(uint64(driver.DefaultMaxMemory()) / 2)},
		{[]string{"--max-memory", "0"}, "0"},
		{[]string{"--max-memory", "2GiB"}, fmt.Sprint(1 << 30)},
	} {
		log := filepath.Join(t.TempDir(), "args")
		t.Setenv("TVLA_TEST_ARGS_LOG", log)
		args := append([]string{"experiment", ownTestdata("experiment", "reverse.toml"), "--out", t.TempDir(), "--jobs", "2", "-q"}, tc.flags...)
		if code, _, errOut := runCLI(args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", tc.flags, code, errOut)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 5 {
			t.Errorf("%v: %d runs", tc.flags, len(lines))
		}
		for _, l := range lines {
			if !strings.HasSuffix(l, " --max-memory "+tc.each) {
				t.Errorf("%v: a run %q, want --max-memory %s", tc.flags, l, tc.each)
			}
		}
	}
}

// A TVS structure whose tables alone pass --max-memory is bad input at
// the structure (exit 2) for check and run, not an allocation that ends
// the process: 10 MB of TVS declaring 400,000 individuals made tvla ask
// for a 40 GB table and die with "fatal error: out of memory".
func TestTVSUniverseOverTheMemoryLimitIsBadInput(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("%n = {")
	for i := range 6000 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "u%d", i)
	}
	b.WriteString("}\n%p = {\n  x = {u0}\n}\n")
	in := filepath.Join(dir, "wide.tvs")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// reverse's vocabulary has 3 binary predicates: 6,000 individuals
	// take 6 tables of 6000·94 words, 26 MiB with the unary ones; the
	// live heap while loading stays well below 16 MiB, so that the run
	// is not stopped by the limit first (exit 3).
	want := in + ":1:1: a structure of 6000 individuals: its truth tables would take 25.8 MiB, more than --max-memory (16.0 MiB)"
	for _, c := range []string{"check", "run"} {
		code, _, errOut := runChild(t, c, sll("reverse.tvp"), in, "--max-memory", "16MiB")
		if code != exitInput || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %s", c, code, errOut, exitInput, want)
		}
	}
}
