package soundness

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/tvla-go/tvla/tvl"
)

// A search that returns after the check's context ended gave up early
// (the embedding search does so within 1,024 steps of the end): its
// outcome is no answer, and the job counts as not run, so that the
// report says incomplete rather than counting a given-up search as a
// failure. The jobs before it ran and count; none after it starts.
func TestSearchAllDropsSearchesCutShort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	outcomes, done := searchAll(ctx, 10, 1, func(i int) tvl.EmbedOutcome {
		calls.Add(1)
		if i == 3 {
			cancel() // the interrupt arrives during job 3's search
			return tvl.Undecided
		}
		return tvl.Embeds
	})
	for i := range 10 {
		if want := i < 3; done[i] != want || (want && outcomes[i] != tvl.Embeds) {
			t.Errorf("job %d: done %v, outcome %v", i, done[i], outcomes[i])
		}
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("%d searches started; want 4 (none after the interrupt)", n)
	}
}
