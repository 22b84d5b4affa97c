package engine

import (
	"context"
	"os"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// A run that spills its stored structures to disk at every iteration,
// with the usual budget of unpacked structures or none (so that every
// join reads the file), gives the in-memory run's result: the same
// structures, byte for byte, in the same slots at every location, the
// same messages and statistics. The spill folder is empty afterwards.
func TestSpillingChangesNoResult(t *testing.T) {
	size := cacheBytes
	defer func() { spillTestEvery, cacheBytes = 0, size }()
	for _, c := range []struct {
		program string
		join    string
		defines []string
	}{
		{"../programs/stack/stack.tvp", JoinPartial, []string{"THREADS=2"}},
		{"../programs/queue/queue.tvp", JoinPartial, []string{"COLLAPSE_THREADS", "DGLM"}},
		{"../programs/sll/search_nullderef.tvp", JoinPartial, nil},
		{"../programs/sll/reverse.tvp", JoinRelational, nil},
		{"../programs/sll/reverse.tvp", JoinIndependent, nil},
	} {
		prog, inputs := testload.Program(t, c.program, testload.Defines(c.defines...))
		run := func(dir string) *Result {
			e, err := New(prog, Options{Join: c.join, Differencing: true, BreakIfCoerceAfterUpdateFailed: true, SpillDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(context.Background(), inputs)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		spillTestEvery, cacheBytes = 0, size
		want := run("")
		for _, budget := range []int{size, 0} {
			spillTestEvery, cacheBytes = 1, budget
			dir := t.TempDir()
			got := run(dir)
			name := c.program + " " + c.join
			if got.Stats.Spill.Structures == 0 || got.Stats.Spill.Reads == 0 || got.Stats.Spill.Err != "" {
				t.Errorf("%s: spilled %+v", name, got.Stats.Spill)
			}
			sameResults(t, name, got, want)
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("%s: %d files left in the spill folder", name, len(left))
			}
		}
	}
}

// sameResults compares two results of one program: statistics,
// structures slot by slot, messages.
func sameResults(t *testing.T, name string, got, want *Result) {
	t.Helper()
	g, w := got.Stats, want.Stats
	if g.Stored != w.Stored || g.Examined != w.Examined || g.Iterations != w.Iterations || g.Messages != w.Messages || g.Unscheduled != w.Unscheduled || g.Breaches != w.Breaches {
		t.Errorf("%s: stats %+v, want %+v", name, g, w)
	}
	for i, wl := range want.Locations {
		gl := got.Locations[i]
		if gl.Structures.Len() != wl.Structures.Len() {
			t.Errorf("%s at %s: %d structures, want %d", name, wl.Label, gl.Structures.Len(), wl.Structures.Len())
			continue
		}
		for j := range wl.Structures.Len() {
			if gl.Structures.At(j).Pack() != wl.Structures.At(j).Pack() {
				t.Errorf("%s at %s: structure %d differs", name, wl.Label, j)
			}
		}
		if len(gl.Messages) != len(wl.Messages) {
			t.Errorf("%s at %s: %d messages, want %d", name, wl.Label, len(gl.Messages), len(wl.Messages))
			continue
		}
		for j, wm := range wl.Messages {
			gm := gl.Messages[j]
			if gm.Text != wm.Text || gm.Action != wm.Action || gm.Structure.Pack() != wm.Structure.Pack() {
				t.Errorf("%s at %s: message %d is %q, want %q", name, wl.Label, j, gm.Text, wm.Text)
			}
		}
	}
}

// A spilled slot is found by its packing (its hash and length first),
// read back whole, and back in memory once set again.
func TestPackedSlotsSpillAndReadBack(t *testing.T) {
	sf, err := openSpill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	v := tvl.NewVocabulary()
	x := v.MustAdd("x", 1)
	packed := func(n int) tvl.Packed {
		s := tvl.NewSized(v, n)
		s.Set(x, logic.True, n-1)
		return s.Pack()
	}
	ps := packedSlots{file: sf}
	for n := 1; n <= 600; n++ {
		ps.add(packed(n))
	}
	want := ps.memBytes(256, 512)
	count, written, err := ps.spill(256, 512)
	if err != nil || count != 256 || written != want {
		t.Fatalf("spilled %d slots, %d bytes, %v", count, written, err)
	}
	if ps.memBytes(256, 512) != 0 || ps.spilled(255) || !ps.spilled(256) || !ps.spilled(511) || ps.spilled(512) {
		t.Fatal("the wrong slots were spilled")
	}
	for i := range ps.len() {
		var h uint64
		if p := packed(i + 1); ps.get(i) != p || !ps.holds(i, p, &h) || ps.size(i) != i+1 || ps.bytes(i) != p.Len() {
			t.Fatalf("slot %d reads back wrong", i)
		}
		var h2 uint64
		if ps.holds(i, packed(i+2), &h2) {
			t.Fatalf("slot %d holds another packing", i)
		}
	}
	reads := sf.reads.Load()
	var h uint64
	if ps.holds(300, packed(250), &h) || sf.reads.Load() != reads {
		t.Error("an unequal packing was compared by reading the file")
	}
	ps.set(300, packed(7))
	if ps.spilled(300) || ps.get(300) != packed(7) {
		t.Error("a slot set again is not in memory")
	}
}

// Reading a spilled packing back (from the page cache: the file was just
// written) and comparing one by hash, against 100,000 spilled slots of
// about 160 bytes, read in a scattered order.
func BenchmarkSpilledSlots(b *testing.B) {
	sf, err := openSpill(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	v := tvl.NewVocabulary()
	var preds []*tvl.Pred
	for i := range 40 {
		preds = append(preds, v.MustAdd(string(rune('a'+i%26))+string(rune('a'+i/26)), 1))
	}
	ps := packedSlots{file: sf}
	const n = 100000
	for i := range n {
		s := tvl.NewSized(v, 13)
		for j, p := range preds {
			s.Set(p, logic.Kleene(1+(i>>(j%16))&1), (i+j)%13)
		}
		ps.add(s.Pack())
	}
	probe := ps.get(n / 2)
	if _, _, err := ps.spill(0, n); err != nil {
		b.Fatal(err)
	}
	b.Run("read", func(b *testing.B) {
		for i := range b.N {
			ps.get(i * 7919 % n)
		}
	})
	b.Run("miss", func(b *testing.B) {
		for i := range b.N {
			var h uint64
			ps.holds(i*7919%n, probe, &h)
		}
	})
}
