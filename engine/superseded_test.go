package engine

import (
	"context"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// With SkipSuperseded a location's versions of one stored structure are
// processed once, the latest: about half the applications on the stack
// and the collapsed DGLM queue, the same verdict and here the same stored
// structures (the partial join's result could differ in general).
func TestSkipSupersededProcessesTheLatestVersionOnly(t *testing.T) {
	for _, c := range []struct {
		program                    string
		defines                    []string
		stored, examined, skipExam int
	}{
		{"../programs/stack/stack.tvp", []string{"THREADS=2"}, 654, 6905, 3364},
		{"../programs/queue/queue.tvp", []string{"COLLAPSE_THREADS", "DGLM"}, 519, 12583, 6118},
	} {
		prog, inputs := testload.Program(t, c.program, testload.Defines(c.defines...))
		for _, skip := range []bool{false, true} {
			e, err := New(prog, Options{Differencing: true, BreakIfCoerceAfterUpdateFailed: true, SkipSuperseded: skip, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Run(context.Background(), inputs)
			if err != nil {
				t.Fatal(err)
			}
			want := c.examined
			if skip {
				want = c.skipExam
			}
			if r.Incomplete || r.Stats.Messages != 0 || r.Stats.Stored != c.stored || r.Stats.Examined != want {
				t.Errorf("%s, skip %v: %d stored, %d examined, %d messages; want %d, %d, 0", c.program, skip, r.Stats.Stored, r.Stats.Examined, r.Stats.Messages, c.stored, want)
			}
		}
	}
}

// latestVersions keeps the last version of each slot, in order.
func TestLatestVersionsKeepsTheLastOfEachSlot(t *testing.T) {
	ss := &StructureSet{}
	var pending []Pending
	for _, slot := range []int{3, 1, 3, 2, 1, 3} {
		pending = append(pending, Pending{Slot: slot})
	}
	var got []int
	for _, pd := range ss.latestVersions(pending) {
		got = append(got, pd.Slot)
	}
	if len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 3 {
		t.Errorf("kept slots %v, want [2 1 3]", got)
	}
}
