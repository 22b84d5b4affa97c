package tvl_test

import (
	"context"
	"testing"

	"github.com/tvla-go/tvla/tvl"
)

// endsAt is a context whose Err reports canceled from its nth call on:
// an interrupt inside a search, deterministically.
type endsAt struct {
	context.Context
	n, checks int
}

func (c *endsAt) Err() error {
	c.checks++
	if c.checks >= c.n {
		return context.Canceled
	}
	return nil
}

// An embedding search gives up (Undecided) soon after its context ends:
// it checks it every 1,024 tentative assignments. The instance is a
// pigeonhole: 12 individuals onto 11 distinct ones, every map tried
// before the search fails, about 10^8 steps without a bound (a search of
// the kind that kept tvla embed deaf to SIGTERM for minutes). The
// context ends at its 5th check; the same search on 6 onto 5 runs to its
// answer, NoEmbedding.
func TestEmbeddingStopsWhenItsContextEnds(t *testing.T) {
	voc := listVocabulary()
	pigeons := func(n int) (c, a *tvl.Structure) {
		c, a = tvl.New(voc), tvl.New(voc)
		for range n {
			c.AddIndividual()
		}
		for range n - 1 {
			a.AddIndividual()
		}
		return c, a
	}
	c, a := pigeons(6)
	if _, out := tvl.EmbeddingOptionalContext(context.Background(), c, a, 0, nil); out != tvl.NoEmbedding {
		t.Fatalf("6 onto 5: %v, want NoEmbedding", out)
	}
	c, a = pigeons(12)
	ctx := &endsAt{Context: context.Background(), n: 5}
	if _, out := tvl.EmbeddingOptionalContext(ctx, c, a, 0, nil); out != tvl.Undecided {
		t.Errorf("12 onto 11 under an ended context: %v, want Undecided", out)
	}
	if ctx.checks != 5 {
		t.Errorf("the context was checked %d times; the search should stop at the 5th", ctx.checks)
	}
}
