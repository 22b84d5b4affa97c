package engine

import (
	"context"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// oneActionTwoMessages is a program whose one application raises the
// same message on two structures: Focus splits the summary individual
// on x, and two of the three structures have an x.
const oneActionTwoMessages = `%p x(v)
%%
%action Look() {
  %f { x(v) }
  %message (E(v) x(v)) -> "some x"
}
%%
L1 Look() L2
`

func runTwoMessages(t *testing.T, maxMessages int) *Result {
	t.Helper()
	_, res := runText(t, oneActionTwoMessages, "%n = {u}\n%p = {\n  sm = {u:1/2}\n  x = {u:1/2}\n}\n",
		Options{Workers: 1, Differencing: true, MaxMessages: maxMessages})
	return res
}

// runText runs the TVP program text on the one structure of the TVS
// text input.
func runText(t *testing.T, program, input string, opts Options) (*Engine, *Result) {
	t.Helper()
	p := testload.Text(t, program)
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", input), p.Vocabulary.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), []*tvl.Structure{locs[0].Structures[0].Structure.Clone()})
	if err != nil {
		t.Fatal(err)
	}
	return e, res
}

// The message limit stops the run with exactly that many messages
// recorded, even when the application that reaches it raises more
// (issue 19: --max-messages 1 reported 4). Without a limit, every
// message counts, once per location, text and structure, as in TVLA.
func TestMaxMessagesStopsAtTheLimit(t *testing.T) {
	res := runTwoMessages(t, 0)
	if res.Stats.Messages != 2 || len(res.Location("L1").Messages) != 2 || res.Incomplete {
		t.Fatalf("no limit: %d messages (%d at L1), incomplete %v; want 2, complete",
			res.Stats.Messages, len(res.Location("L1").Messages), res.Incomplete)
	}
	groups := res.Location("L1").MessageGroups()
	if len(groups) != 1 || len(groups[0].Messages) != 2 || groups[0].Text != "some x" || groups[0].Action != "Look()" {
		t.Errorf("groups %+v, want one of 2 messages", groups)
	}
	for _, limit := range []int{1, 2} {
		res := runTwoMessages(t, limit)
		if res.Stats.Messages != limit || len(res.Location("L1").Messages) != limit {
			t.Errorf("--max-messages %d: %d messages recorded (%d at L1), want exactly %d",
				limit, res.Stats.Messages, len(res.Location("L1").Messages), limit)
		}
		if !res.Incomplete || !res.StoppedOnMessage {
			t.Errorf("--max-messages %d: incomplete %v, stopped on message %v", limit, res.Incomplete, res.StoppedOnMessage)
		}
		// The application's results are joined all the same.
		if got := res.Location("L2").Structures.Len(); got != 3 {
			t.Errorf("--max-messages %d: %d structures at L2, want 3", limit, got)
		}
	}
}
