package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
)

// twice.tvp raises "some x" at L1 on two structures in one application
// (Focus splits a summary individual on x).
const twiceProgram = "testdata/messages/twice.tvp"

// --max-messages N reports exactly N messages (issue 19: 1 reported 4,
// all from the application that reached the limit), with exit 1.
func TestMaxMessagesReportsExactlyN(t *testing.T) {
	for _, args := range [][]string{
		{"run", twiceProgram, "--max-messages", "1", "--json", "-", "-q"},
		{"run", "../../programs/stack/stack.tvp", "--collapse-threads", "-D", "BUG_POP_WRONG_VALUE", "--max-messages", "1", "--json", "-", "-q"},
	} {
		s := runSummary(t, exitMessages, args...)
		n := 0
		for _, l := range s.Locations {
			n += l.Messages
		}
		if s.Messages != 1 || n != 1 || len(s.MessageGroups) != 1 || s.MessageGroups[0].Structures != 1 {
			t.Errorf("%v: %d messages, %d by location, groups %+v; want exactly 1", args, s.Messages, n, s.MessageGroups)
		}
		if !s.Incomplete || !strings.Contains(s.StopReason, "message limit (1)") {
			t.Errorf("%v: incomplete %v, stop reason %q", args, s.Incomplete, s.StopReason)
		}
	}
}

// A message raised on several structures at one location is printed once
// with their number, and gets one trace; the counts stay TVLA's (once per
// structure).
func TestSameMessagePrintedOnceWithCount(t *testing.T) {
	code, out, errOut := runCLI("run", twiceProgram, "--trace", "-q")
	if code != exitMessages {
		t.Fatalf("exit %d, want 1 (stderr %q)", code, errOut)
	}
	line := "  L1: some x (action Look()) (2 structures)\n"
	if strings.Count(out, "some x (action") != 1 || !strings.Contains(out, line) {
		t.Errorf("the message is not printed once as %q:\n%s", line, out)
	}
	if !strings.Contains(out, "messages              2\n") || !strings.Contains(out, "not verified: 2 message(s) raised") {
		t.Errorf("the count of messages changed:\n%s", out)
	}
	if strings.Count(out, "\ntrace ") != 1 || !strings.Contains(out, `trace 1: "some x" at L1 (2 structures; the first's trace)`) {
		t.Errorf("want one trace for the two structures:\n%s", out)
	}
	s := runSummary(t, exitMessages, "run", twiceProgram, "--json", "-", "-q")
	if s.Messages != 2 || s.Locations[0].Messages != 2 || len(s.MessageGroups) != 1 {
		t.Fatalf("JSON: %d messages, %d at %s, groups %+v", s.Messages, s.Locations[0].Messages, s.Locations[0].Label, s.MessageGroups)
	}
	if g := s.MessageGroups[0]; g.Location != "L1" || g.Text != "some x" || g.Action != "Look()" || g.Structures != 2 {
		t.Errorf("JSON group %+v", g)
	}
}

// --trace-tvs writes each trace's steps as TVS, one structure per step
// under its location, in the order --trace lists them, the last carrying
// the message: a file the program's vocabulary reads back.
func TestTraceTVSWritesEveryStep(t *testing.T) {
	prog := filepath.Join("..", "..", "programs", "sll", "search_nullderef.tvp")
	out := filepath.Join(t.TempDir(), "trace.tvs")
	code, stdout, errOut := runCLI("run", prog, "--trace", "--trace-tvs", out, "-q")
	if code != exitMessages {
		t.Fatalf("exit %d, want 1 (stderr %q)", code, errOut)
	}
	var want []string // the steps' locations, as --trace lists them
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.HasPrefix(line, "  ") && f[0] == strconv.Itoa(len(want)) {
			want = append(want, f[1])
		}
	}
	loaded, _, err := tvp.LoadProgram(prog, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	locs, err := tvp.LoadTVS(out, loaded.Vocabulary.Tvl(), tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, l := range locs {
		if len(l.Structures) != 1 {
			t.Fatalf("step %d at %s: %d structures, want 1", i, l.Label, len(l.Structures))
		}
		st := l.Structures[0]
		if !strings.HasPrefix(st.Description, fmt.Sprintf("trace 1 (null dereference: y->nxt at L3), step %d: ", i)) {
			t.Errorf("step %d described %q", i, st.Description)
		}
		if last := i == len(locs)-1; last != (len(st.Messages) == 1) {
			t.Errorf("step %d of %d carries messages %q", i, len(locs), st.Messages)
		}
		got = append(got, l.Label)
	}
	if len(want) < 2 || !slices.Equal(got, want) {
		t.Errorf("steps at %v, --trace lists %v", got, want)
	}
}
