package engine

import (
	"context"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// Every structure the engine stores, and every join of one, packs to
// bytes that unpack to it again: the bundled models run with the check
// on, in each join mode, and give the counts they give without it; and
// the same with no structure kept unpacked, and with a few (the
// smaller models only).
func TestStoredStructuresUnpackToThemselves(t *testing.T) {
	checkPacking = true
	size := cacheBytes
	defer func() { checkPacking, cacheBytes = false, size }()
	for _, cacheBytes = range []int{size, 0, 20000} {
		runPacked(t, cacheBytes == size)
	}
}

func runPacked(t *testing.T, all bool) {
	for i, c := range []struct {
		program string
		join    string
		defines []string
		stored  int
	}{
		{"../programs/stack/stack.tvp", JoinPartial, []string{"THREADS=2"}, 654},
		{"../programs/stack/stack.tvp", JoinPartial, []string{"COLLAPSE_THREADS"}, 328},
		{"../programs/queue/queue.tvp", JoinPartial, []string{"COLLAPSE_THREADS", "DGLM"}, 519},
		{"../programs/sll/reverse.tvp", JoinRelational, nil, 85},
		{"../programs/sll/reverse.tvp", JoinIndependent, nil, 11},
		{"../programs/sll/reverse.tvp", JoinConcrete, nil, 90},
	} {
		if i > 0 && i < 3 && !all {
			continue
		}
		prog, inputs := testload.Program(t, c.program, testload.Defines(c.defines...))
		opts := Options{Join: c.join, Differencing: true, BreakIfCoerceAfterUpdateFailed: true, MaxStructures: 20000}
		e, err := New(prog, opts)
		if err != nil {
			t.Fatal(err)
		}
		if c.join == JoinConcrete {
			if inputs, _, err = e.Concretize(context.Background(), inputs, ConcretizeOptions{Copies: 3}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := e.Run(context.Background(), inputs)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Stored != c.stored {
			t.Errorf("%s %s %v, %d bytes kept unpacked: %d structures, want %d", c.program, c.join, c.defines, cacheBytes, res.Stats.Stored, c.stored)
		}
	}
}
