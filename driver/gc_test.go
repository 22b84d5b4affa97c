package driver

import "testing"

// The collector's target steps down as the live heap grows.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 400}, {100 << 20, 400}, {128 << 20, 200}, {511 << 20, 200}, {512 << 20, 100}, {8 << 30, 100}} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
