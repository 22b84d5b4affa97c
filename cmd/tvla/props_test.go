package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

// The engine properties of TVLA 3's documented property files
// (docs/properties.md): each honoured one changes a run as it changes the
// reference's, and the counts below are the reference's on the same
// files and properties; the others are refused or reported, never
// silently ignored.

// propsFile writes a .properties file with text into a fresh folder.
func propsFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.properties")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// counts are a summary's structures per location that has some.
func counts(s driver.Summary) map[string]int {
	out := map[string]int{}
	for _, l := range s.Locations {
		if l.Structures > 0 {
			out[l.Label] = l.Structures
		}
	}
	return out
}

func TestPropertiesHonouredAsTheReference(t *testing.T) {
	macros := filepath.Join("testdata", "props", "macros.tvp")
	breach := filepath.Join("testdata", "props", "breach.tvp")
	for _, c := range []struct {
		name, props string
		args        []string
		code        int
		want        map[string]int
		messages    int
	}{
		// tvla.parser.searchPath finds decl.tvp; externalMacros are
		// names separated by white space.
		{"macros A B", "tvla.parser.searchPath = testdata/props/nowhere;testdata/props/inc\ntvla.parser.externalMacros = A B\n",
			[]string{macros}, 0, map[string]int{"L1": 1, "L2": 1, "L3": 1, "L4": 1}, 0},
		{"macro B", "tvla.parser.searchPath = testdata/props/inc\ntvla.parser.externalMacros = B\n",
			[]string{macros}, 0, map[string]int{"L1": 1, "L3": 1, "L4": 1}, 0},
		// A breach after an update: the reference stops with L1 alone
		// and no message (we list the breach, not counted, and exit 1),
		// or drops the structure.
		{"break", "", []string{breach}, 1, map[string]int{"L1": 1}, 0},
		{"no break", "tvla.engine.breakIfCoerceAfterUpdateFailed = false\n",
			[]string{breach}, 0, map[string]int{"L1": 1, "L3": 1, "L4": 1}, 0},
		// No Focus, no Coerce: fewer splits, other messages.
		{"action order pub", "tvla.engine.actionOrder = pub\n", []string{sll("search_nullderef.tvp")}, 1,
			map[string]int{"L1": 3, "L2": 6, "L5": 6, "L3": 6, "L4": 4, "exit": 3}, 4},
		// An update that may close a cycle of an acyclic predicate
		// raises TVLA's "Closed cycle" message, Coerce or not; whether
		// the target reaches the source is read from t[n] = nxt* (on
		// reverse, 4 of the 36 messages).
		{"closed cycle", "", []string{filepath.Join("testdata", "props", "cycle.tvp"), filepath.Join("testdata", "props", "cycle.tvs")}, 1,
			map[string]int{"L1": 1, "L2": 1, "L3": 1, "L4": 1}, 1},
		// tvla.differencing.messageForCloseCycle = false (not in
		// tvla.properties; set_pldi08/cas/nolin/g sets it): no such
		// message, the same structures (the reference: 4 and 0).
		{"closed cycle off", "tvla.differencing.messageForCloseCycle = false\n", []string{filepath.Join("testdata", "props", "cycle.tvp"), filepath.Join("testdata", "props", "cycle.tvs")}, 0,
			map[string]int{"L1": 1, "L2": 1, "L3": 1, "L4": 1}, 0},
		{"closed cycle pub", "tvla.engine.actionOrder = pub\n", []string{sll("reverse.tvp")}, 1,
			map[string]int{"L1": 3, "L2": 9, "L8": 7, "L3": 7, "L4": 7, "L5": 7, "L6": 7, "L7": 7, "L9": 7, "L10": 7, "exit": 7}, 36},
		// tvla.engine.maxMessages = N stops once more than N messages
		// are raised (--max-messages N stops at exactly N).
		{"max messages 1", "tvla.engine.maxMessages = 1\n", []string{sll("search_nullderef.tvp")}, 1,
			map[string]int{"L1": 3, "L2": 6, "L5": 6, "L3": 6, "L4": 7, "exit": 3}, 2},
		{"max messages 2", "tvla.engine.maxMessages = 2\n", []string{sll("search_nullderef.tvp")}, 1,
			map[string]int{"L1": 3, "L2": 9, "L5": 9, "L3": 9, "L4": 7, "exit": 3}, 3},
		{"join rel", "tvla.joinType = rel\n", []string{sll("reverse.tvp")}, 0,
			map[string]int{"L1": 3, "L2": 15, "L8": 5, "L3": 10, "L4": 8, "L5": 8, "L6": 12, "L7": 12, "L9": 4, "L10": 4, "exit": 4}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run"}, c.args...)
			if c.props != "" {
				args = append(args, "-props", propsFile(t, c.props))
			}
			s := runSummary(t, c.code, append(args, "--json", "-", "-q")...)
			if got := counts(s); !reflect.DeepEqual(got, c.want) || s.Messages != c.messages {
				t.Errorf("structures %v, %d messages; the reference: %v, %d", got, s.Messages, c.want, c.messages)
			}
		})
	}
}

func TestPropertiesNotSupportedAreRefused(t *testing.T) {
	for _, c := range []struct{ props, msg string }{
		{"tvla.engine.type = tvmc\n", `tvla.engine.type = "tvmc" is not supported: only the classic engine (tvla) and the decomposing one (dtvla) are implemented`},
		{"tvla.engine.freezeStructuresWithMessages = true\n", `tvla.engine.freezeStructuresWithMessages = "true" is not supported`},
		{"tvla.cfg.postOrder = true\n", `tvla.cfg.postOrder = "true" is not supported`},
		{"tvla.engine.actionOrder = fpucb\n", "--action fpucb is not supported: Focus here always coerces what it splits"},
	} {
		props := propsFile(t, c.props)
		code, _, errOut := runCLI("run", sll("reverse.tvp"), "-props", props, "-q")
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.props, code, errOut, exitInput, c.msg)
		}
	}
	code, _, errOut := runCLI("run", sll("reverse.tvp"), "--action", "fpub", "-q")
	if code != exitInput || !strings.Contains(errOut, "use fcpub") {
		t.Errorf("--action fpub: exit %d, stderr %q", code, errOut)
	}
}

func TestPropertiesWithoutEffectAreNamed(t *testing.T) {
	props := propsFile(t, "tvla.dot.enabled = false\ntvla.dot.predicateAttributes.t[Lock] = shape=box\n"+
		"tvla.engine.type = tvla\ntvla.focus.coerceDuringFocus = true\n")
	code, _, errOut := runCLI("run", sll("reverse.tvp"), "-props", props, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"warning: properties ignored (they do not change results here): tvla.dot.enabled, tvla.dot.predicateAttributes.t[Lock]\n",
		"warning: properties TVLA 3 does not document, ignored: tvla.focus.coerceDuringFocus\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	if strings.Contains(errOut, "tvla.engine.type") {
		t.Errorf("a supported value is reported: %q", errOut)
	}
}

// The breach that stops a run is listed among the message groups, marked,
// and not counted among the messages (TVLA prints it, and counts only the
// program's messages); the run is incomplete and exits 1.
func TestBreachListedNotCounted(t *testing.T) {
	s := runSummary(t, 1, "run", filepath.Join("testdata", "props", "breach.tvp"), "--json", "-", "-q")
	if s.Messages != 0 || !s.Incomplete || s.Verified {
		t.Errorf("messages %d, incomplete %v, verified %v; want 0, true, false", s.Messages, s.Incomplete, s.Verified)
	}
	if len(s.MessageGroups) != 1 || !s.MessageGroups[0].Breach || !strings.HasPrefix(s.MessageGroups[0].Text, "a constraint is breached after the update") {
		t.Errorf("message groups %+v, want the breach alone, marked", s.MessageGroups)
	}
	for _, l := range s.Locations {
		if l.Messages != 0 {
			t.Errorf("%s: %d messages counted, want 0", l.Label, l.Messages)
		}
	}
}
