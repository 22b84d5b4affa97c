package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseDefine(t *testing.T) {
	for in, want := range map[string][2]string{"GNUM(2)": {"GNUM", "2"}, "X=a b": {"X", "a b"}, "FLAG": {"FLAG", ""}} {
		n, v, err := ParseDefine(in)
		if err != nil || n != want[0] || v != want[1] {
			t.Errorf("ParseDefine(%q) = %q, %q, %v", in, n, v, err)
		}
	}
	if _, _, err := ParseDefine("1X"); err == nil || err.Error() != `bad macro definition "1X": want NAME, NAME=VALUE or NAME(VALUE)` {
		t.Errorf("1X: %v", err)
	}
}

// The macros the preprocessor gets: NAME alone and NAME= mean 1, and
// CollapseThreads defines COLLAPSE_THREADS.
func TestDefineMap(t *testing.T) {
	c := Defaults("p.tvp")
	c.Defines, c.CollapseThreads = []string{"A", "B=2", "C(x y)", "D="}, true
	want := map[string]string{"A": "1", "B": "2", "C": "x y", "D": "1", "COLLAPSE_THREADS": "1"}
	if got := c.DefineMap(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefineMap = %v", got)
	}
}

// A Config renders as the tvla run flags that give it: only what differs
// from the defaults, macros, join, threads and predicates first.
func TestRunFlags(t *testing.T) {
	c := Defaults("p.tvp")
	if got := c.RunFlags(); len(got) != 0 {
		t.Errorf("defaults render as %q", got)
	}
	c.Defines = []string{"THREADS=2", "X=v"}
	c.Join, c.CollapseThreads, c.Abs, c.NonAbs = "rel", true, []string{"a"}, []string{"b", "c"}
	c.MaxStructures, c.Timeout, c.MaxMessages, c.Workers = 20, 90*time.Second, 1, 2
	c.Soft.Mode, c.Soft.Rounds = SoftAuto, 3
	want := "-D THREADS=2 -D X=v --join rel --collapse-threads --abs a --nonabs b --nonabs c --max-structures 20 --timeout 1m30s " +
		"--max-messages 1 --workers 2 --soft-invariants auto --soft-rounds 3"
	if got := strings.Join(c.RunFlags(), " "); got != want {
		t.Errorf("RunFlags:\n got %s\nwant %s", got, want)
	}
}

// Validate reports the first bad setting in tvla run's order, naming
// its flag.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		change func(*Config)
		msg    string
	}{
		{func(c *Config) { c.Join = "best"; c.ActionOrder = "x" }, `--join must be rel, part, ind, decomp or conc, not "best"`},
		{func(c *Config) { c.ActionOrder = "fub" }, `--action must match [f][c]pu[c]b, not "fub"`},
		{func(c *Config) { c.Abs, c.NonAbs = []string{"x"}, []string{"x"} }, "predicate x is given to both --abs and --nonabs"},
		{func(c *Config) { c.Soft.Mode = SoftAuto }, "--soft-invariants auto needs --collapse-threads"},
		{func(c *Config) { c.Soft.Mode, c.CollapseThreads, c.Join = SoftAuto, true, "conc" }, "--soft-invariants cannot be used with --join conc"},
		{func(c *Config) { c.Soft.Rounds = 2 }, "--soft-rounds needs generated soft invariants: --soft-invariants auto or report, or an algorithm (.alg) with --collapse-threads"},
	} {
		cfg := Defaults("p.tvp")
		c.change(&cfg)
		if err := cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("%v, want %s", err, c.msg)
		}
	}
	cfg := Defaults("p.tvp")
	if err := cfg.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// PROGRAM.properties beside the program, then the Properties file: the
// later wins, settings given explicitly win over both, and keys that
// change nothing are named once.
func TestApplyPropertiesPrecedence(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("p.properties", "tvla.joinType = rel\ntvla.engine.maxStructures = 30\ntvla.differencing.difference = false\ntvla.dot.rotate = true\n")
	// maxMessages = 4 is TVLA's "stop once more than 4": 5 here.
	props := write("x.properties", "tvla.joinType = ind\ntvla.engine.maxMessages = 4\ntvla.engine.breakIfCoerceAfterUpdateFailed = false\n")
	c := Defaults(filepath.Join(dir, "p.tvp"))
	c.Properties = props
	var warn bytes.Buffer
	if err := c.ApplyProperties(&warn); err != nil {
		t.Fatal(err)
	}
	if c.Join != "ind" || c.MaxStructures != 30 || c.MaxMessages != 5 || c.Differencing || c.BreakIfCoerceFails {
		t.Errorf("join %s, max structures %d, max messages %d, differencing %v, break %v",
			c.Join, c.MaxStructures, c.MaxMessages, c.Differencing, c.BreakIfCoerceFails)
	}
	if warn.String() != "warning: properties ignored (they do not change results here): tvla.dot.rotate\n" {
		t.Errorf("warning %q", warn.String())
	}
	c = Defaults(filepath.Join(dir, "p.tvp"))
	c.Properties, c.MaxStructures = props, 0
	c.Explicit = map[string]bool{"join": true, "max-structures": true}
	if err := c.ApplyProperties(nil); err != nil {
		t.Fatal(err)
	}
	if c.Join != "part" || c.MaxStructures != 0 || c.MaxMessages != 5 {
		t.Errorf("explicit settings overridden: join %s, max structures %d, max messages %d", c.Join, c.MaxStructures, c.MaxMessages)
	}
	bad := write("bad.properties", "tvla.joinType = best\n")
	c = Defaults(filepath.Join(dir, "q.tvp"))
	c.Properties = bad
	if err := c.ApplyProperties(nil); err == nil || err.Error() != `--join must be rel, part, ind, decomp or conc, not "best"` {
		t.Errorf("a bad join from a file: %v", err)
	}
}
