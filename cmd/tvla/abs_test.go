package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

// --abs and --nonabs change the abstraction, and with it the state space:
// reverse.tvp stores 66 structures as declared; without y as an
// abstraction predicate, 63 (still verified); without t, the list nodes
// t points to merge with others and the analysis raises 5 false alarms
// among 82 structures.
func TestAbsNonabsChangeTheStateSpace(t *testing.T) {
	cases := []struct {
		args             []string
		code             int
		stored, messages int
		abs, nonabs      []string
	}{
		{nil, exitVerified, 66, 0, []string{}, []string{}},
		{[]string{"--nonabs", "y"}, exitVerified, 63, 0, []string{}, []string{"y"}},
		{[]string{"--nonabs", "t"}, exitMessages, 82, 5, []string{}, []string{"t"}},
		// Making declared abstraction predicates abs again changes nothing.
		{[]string{"--abs", "y", "--abs", "x", "--abs", "y"}, exitVerified, 66, 0, []string{"x", "y"}, []string{}},
	}
	for _, c := range cases {
		args := append([]string{"run", sll("reverse.tvp"), "--json", "-", "-q"}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errOut)
			continue
		}
		var s driver.Summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if s.StructuresStored != c.stored || s.Messages != c.messages {
			t.Errorf("%v: %d stored, %d messages; want %d, %d", c.args, s.StructuresStored, s.Messages, c.stored, c.messages)
		}
		if !reflect.DeepEqual(s.Options.Abs, c.abs) || !reflect.DeepEqual(s.Options.NonAbs, c.nonabs) {
			t.Errorf("%v: options abs %q nonabs %q", c.args, s.Options.Abs, s.Options.NonAbs)
		}
	}
}

func TestAbsNonabsRejectBadPredicates(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--abs", "nosuch"}, "tvla: --abs nosuch: the program has no predicate nosuch\n"},
		{[]string{"--nonabs", "nxt"}, "tvla: --nonabs nxt: nxt has arity 2: only unary and nullary predicates are abstraction predicates\n"},
		{[]string{"--nonabs", "sm"}, "tvla: --nonabs sm: sm is the built-in summary predicate, which is never an abstraction predicate\n"},
		{[]string{"--abs", "x", "--nonabs", "x"}, "tvla: predicate x is given to both --abs and --nonabs\n"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(append([]string{"run", sll("reverse.tvp"), "-q"}, c.args...)...)
		if code != exitInput || errOut != c.msg || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.msg)
		}
	}
}

func TestAbsNonabsAreDocumented(t *testing.T) {
	_, out, _ := runCLI("run", "--help")
	for _, want := range []string{"--abs PREDICATE", "--nonabs PREDICATE", "options.abs"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
}
