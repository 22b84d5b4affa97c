package main

import (
	"strings"
	"testing"
)

// --decompose is --join decomp; tvla.engine.type = dtvla selects it; a
// program without %dname, another --join, or tvla embed refuse it with
// exit 2 (docs/cli-contract.md).
func TestDecomposeFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", sll("reverse.tvp"), "--decompose", "--join", "rel", "-q"}, "--decompose is --join decomp: it cannot go with --join rel"},
		{[]string{"run", sll("reverse.tvp"), "--decompose", "-q"}, "graph decomposition needs %dname declarations"},
		{[]string{"run", sll("reverse.tvp"), "-props", propsFile(t, "tvla.engine.type = dtvla\n"), "-q"}, "graph decomposition needs %dname declarations"},
		{[]string{"embed", sll("reverse.tvp"), "--join", "decomp", "-q"}, "cannot be checked by embed"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, exitInput, c.msg)
		}
	}
}
