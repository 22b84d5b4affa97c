package main

import (
	"strings"
	"testing"
)

// An unknown flag gets the nearest flag names as a suggestion, and a long
// flag given with one dash is named with two (issue 19); exit 2. TVLA 3's
// single-dash spellings still work.
func TestUnknownFlagSuggestsFlags(t *testing.T) {
	prog := "../../programs/sll/reverse.tvp"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", prog, "--colapse-threads"}, "tvla: unknown flag: --colapse-threads; did you mean --collapse-threads?\n"},
		{[]string{"run", prog, "-collapse-threads"}, "tvla: unknown flag -collapse-threads: a long flag takes two dashes; did you mean --collapse-threads?\n"},
		{[]string{"run", prog, "-workers", "2"}, "tvla: unknown flag -workers: a long flag takes two dashes; did you mean --workers?\n"},
		{[]string{"run", prog, "-max-structures=3"}, "tvla: unknown flag -max-structures=3: a long flag takes two dashes; did you mean --max-structures?\n"},
		{[]string{"run", prog, "--max-mesages", "1"}, "tvla: unknown flag: --max-mesages; did you mean --max-messages?\n"},
		{[]string{"run", prog, "--tim", "3s"}, "tvla: unknown flag: --tim; did you mean --timeout?\n"},
		{[]string{"run", prog, "--max"}, "tvla: unknown flag: --max; did you mean --max-depth, --max-memory or --max-messages?\n"},
		{[]string{"embed", prog, "--copeis", "3"}, "tvla: unknown flag: --copeis; did you mean --copies?\n"},
		{[]string{"experiment", "x.toml", "--job", "2"}, "tvla: unknown flag: --job; did you mean --jobs?\n"},
		{[]string{"check", prog, "--pth", "x"}, "tvla: unknown flag: --pth; did you mean --path?\n"},
		// Nothing near: the error alone.
		{[]string{"run", prog, "--xyzzy"}, "tvla: unknown flag: --xyzzy\n"},
		{[]string{"run", prog, "-x"}, "tvla: unknown shorthand flag: 'x' in -x\n"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != exitInput || errOut != c.want {
			t.Errorf("%v: exit %d, stderr %q; want 2, %q", c.args, code, errOut, c.want)
		}
	}
	// TVLA's spellings are not unknown flags.
	for _, args := range [][]string{
		{"run", prog, "-join", "rel", "-q"},
		{"run", prog, "-ms", "1000", "-DFOO", "-terse"},
		{"run", prog, "-props", "/dev/null", "-q"},
	} {
		if code, _, errOut := runCLI(args...); code != exitVerified || strings.Contains(errOut, "unknown") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
