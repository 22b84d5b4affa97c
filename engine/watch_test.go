package engine

import (
	"strings"
	"testing"
)

// threeSteps clears flag on the thread at the second step, and never
// touches keep nor the individual that is no thread.
const threeSteps = `%p flag(v)
%p keep(v)
%%
%action Step() {
}
%action Clear() {
  {
    flag(v) = 0
  }
}
%%
L1 Step() L2
L2 Clear() L3
L3 Step() L4
`

func runWatching(t *testing.T, watch []string) (*Engine, *Result) {
	t.Helper()
	in := "%n = {t, o}\n%p = {\n  isthread = {t}\n  flag = {t, o}\n  keep = {t}\n}\n"
	return runText(t, threeSteps, in, Options{Workers: 1, Differencing: true, Watch: watch})
}

// A watched predicate raises a message at the application that leaves
// it not 1 on a thread and at every later one, and only then; a watched
// predicate that stays 1 on the threads, or that the program does not
// declare, raises none.
func TestWatchRaisesWhereAPredicateIsLost(t *testing.T) {
	e, res := runWatching(t, []string{"flag", "keep", "nosuch"})
	if got := strings.Join(e.Watched(), " "); got != "flag keep" {
		t.Errorf("watched %q, want the declared unary predicates \"flag keep\"", got)
	}
	want := map[string]string{
		"L2": WatchPrefix + "flag is not 1 on a thread after Clear()",
		"L3": WatchPrefix + "flag is not 1 on a thread after Step()",
	}
	for _, loc := range []string{"L1", "L2", "L3", "L4"} {
		var texts []string
		for _, m := range res.Location(loc).Messages {
			texts = append(texts, m.Text)
		}
		got := strings.Join(texts, "; ")
		if got != want[loc] {
			t.Errorf("messages at %s: %q, want %q", loc, got, want[loc])
		}
	}
	if _, res := runWatching(t, nil); res.Stats.Messages != 0 {
		t.Errorf("without watches: %d messages, want 0", res.Stats.Messages)
	}
}
