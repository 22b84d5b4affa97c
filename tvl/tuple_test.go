package tvl_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tvla-go/tvla/tvl"
)

// collect copies every tuple Tuples yields.
func collect(n, k int) [][]int {
	var out [][]int
	for t := range tvl.Tuples(n, k) {
		out = append(out, slices.Clone(t))
	}
	return out
}

func TestTuplesOrder(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want [][]int
	}{
		{2, 2, [][]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
		{3, 1, [][]int{{0}, {1}, {2}}},
		{1, 3, [][]int{{0, 0, 0}}},
		{2, 3, [][]int{{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}}},
		// Arity 0: the one empty tuple, whatever the universe.
		{3, 0, [][]int{{}}},
		{0, 0, [][]int{{}}},
		// An empty universe has no tuple of arity 1 or more.
		{0, 1, nil},
		{0, 3, nil},
	} {
		if got := collect(c.n, c.k); !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("Tuples(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
	}
}

// TestTuplesCount checks n^k distinct tuples, each in range, strictly
// increasing.
func TestTuplesCount(t *testing.T) {
	for n := 0; n <= 4; n++ {
		for k := 0; k <= 4; k++ {
			got := collect(n, k)
			want := 1
			for range k {
				want *= n
			}
			if len(got) != want {
				t.Errorf("Tuples(%d, %d): %d tuples, want %d", n, k, len(got), want)
			}
			for i, tu := range got {
				if len(tu) != k || slices.ContainsFunc(tu, func(u int) bool { return u < 0 || u >= n }) {
					t.Errorf("Tuples(%d, %d): bad tuple %v", n, k, tu)
				}
				if i > 0 && slices.Compare(got[i-1], tu) >= 0 {
					t.Errorf("Tuples(%d, %d): %v after %v", n, k, tu, got[i-1])
				}
			}
		}
	}
}

func TestTuplesEarlyStop(t *testing.T) {
	var seen [][]int
	for tu := range tvl.Tuples(3, 2) {
		seen = append(seen, slices.Clone(tu))
		if tu[0] == 1 && tu[1] == 0 {
			break
		}
	}
	want := [][]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}}
	if !slices.EqualFunc(seen, want, slices.Equal) {
		t.Errorf("stopped at %v, want %v", seen, want)
	}
	// A stop at the first tuple, and at the last.
	calls := 0
	for range tvl.Tuples(4, 3) {
		calls++
		break
	}
	if calls != 1 {
		t.Errorf("break at the first tuple: %d iterations", calls)
	}
	calls = 0
	for tu := range tvl.Tuples(2, 2) {
		calls++
		if slices.Equal(tu, []int{1, 1}) {
			break
		}
	}
	if calls != 4 {
		t.Errorf("break at the last tuple: %d iterations", calls)
	}
}

// TestTuplesReuseSlice documents that the tuple is one slice, rewritten
// in place: keeping a tuple needs a copy.
func TestTuplesReuseSlice(t *testing.T) {
	var first []int
	for tu := range tvl.Tuples(2, 2) {
		if first == nil {
			first = tu
		} else if &tu[0] != &first[0] {
			t.Fatal("Tuples allocated a new slice for a later tuple")
		}
	}
}

func TestTupleKeyRoundTrip(t *testing.T) {
	for _, tu := range [][]int{
		{}, {0}, {7}, {0, 0}, {0, 1}, {1, 0}, {255, 256}, {1 << 20, 3, 65535},
		{1<<32 - 1, 0, 1, 2, 3, 4}, // past the four-individual buffer
	} {
		key := tvl.KeyOf(tu)
		if got := key.Tuple(); !slices.Equal(got, tu) {
			t.Errorf("KeyOf(%v).Tuple() = %v", tu, got)
		}
		if len(key) != 4*len(tu) {
			t.Errorf("KeyOf(%v) has %d bytes", tu, len(key))
		}
		for i, u := range tu {
			if got := key.At(i); got != u {
				t.Errorf("KeyOf(%v).At(%d) = %d", tu, i, got)
			}
		}
	}
}

func TestTupleKeyUnique(t *testing.T) {
	seen := map[tvl.TupleKey]string{}
	// Every tuple of arity 0 to 3 over 0..299 (the individuals cross a
	// byte boundary), and a few wide ones.
	add := func(tu []int) {
		key := tvl.KeyOf(tu)
		s := fmt.Sprint(tu)
		if prev, dup := seen[key]; dup {
			t.Fatalf("%s and %s have one key", prev, s)
		}
		seen[key] = s
	}
	for k := 0; k <= 2; k++ {
		for tu := range tvl.Tuples(300, k) {
			add(tu)
		}
	}
	for tu := range tvl.Tuples(20, 3) {
		add(tu)
	}
	add([]int{1 << 24, 0, 0})
	add([]int{0, 1 << 24, 0})
	add([]int{0, 0, 1 << 24})
}

// TestTupleKeyDoesNotAlias checks that a key does not share memory with
// the buffer it was packed in.
func TestTupleKeyDoesNotAlias(t *testing.T) {
	a, b := tvl.KeyOf([]int{1, 2}), tvl.KeyOf([]int{3, 4})
	if !slices.Equal(a.Tuple(), []int{1, 2}) || !slices.Equal(b.Tuple(), []int{3, 4}) {
		t.Errorf("keys changed: %v %v", a.Tuple(), b.Tuple())
	}
}

func BenchmarkTuples(b *testing.B) {
	for b.Loop() {
		sum := 0
		for tu := range tvl.Tuples(32, 3) {
			sum += tu[2]
		}
		if sum == 0 {
			b.Fatal("no tuple")
		}
	}
}
