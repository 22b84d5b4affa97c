package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The log gives back every arrival into a slot, in the order they were
// added, as a list of them per target would: random groups (inputs
// among them, target slots repeated), over more than one chunk, with
// traces asked for midway (the index is rebuilt as the log grows).
func TestArrivalLogGivesArrivalsInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 3))
	l := newArrivalLog()
	want := map[slotRef][]arrival{}
	locs := []string{"L0", "L1", "L2", "exit"}
	check := func() {
		t.Helper()
		for at, w := range want {
			if got := l.arrivalsInto(at); !slices.Equal(got, w) {
				t.Fatalf("arrivals into %v: %v, want %v", at, got, w)
			}
		}
		if got := l.arrivalsInto(slotRef{"L0", 1 << 20}); len(got) != 0 {
			t.Fatalf("arrivals into a slot never reached: %v", got)
		}
		if got := l.arrivalsInto(slotRef{"nowhere", 0}); got != nil {
			t.Fatalf("arrivals into an unknown location: %v", got)
		}
	}
	for g := range 200000 {
		to := locs[r.IntN(len(locs))]
		from := slotRef{locs[r.IntN(len(locs))], r.IntN(5000)}
		action := fmt.Sprint("act", r.IntN(7))
		if r.IntN(50) == 0 {
			from, action = slotRef{slot: -1}, ""
		}
		slots := make([]int, r.IntN(4))
		for i := range slots {
			slots[i] = r.IntN(300)
		}
		l.add(to, from, action, slots)
		for _, s := range slots {
			at := slotRef{to, s}
			want[at] = append(want[at], arrival{from: from, action: action})
		}
		if g == 1000 || g == 50000 {
			check()
		}
	}
	if len(l.chunks) < 2 {
		t.Fatalf("%d chunks: the test does not cross a chunk", len(l.chunks))
	}
	check()
}
