package engine

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// The cache keeps within its budget: the oldest slots go first, a slot
// kept again replaces its version, versions held by the queue count
// until they are taken, and the FIFO does not grow with replaced
// versions.
func TestUnpackedCacheKeepsWithinItsBudget(t *testing.T) {
	v := tvl.NewVocabulary()
	x := v.MustAdd("x", 1)
	version := func(n int) *tvl.Structure {
		s := tvl.NewSized(v, n)
		s.Set(x, logic.True, n-1)
		s.Freeze()
		return s
	}
	one := version(3).Footprint()
	c := newUnpackedCache(3*one + 1)
	set := newStructureSet(&partialJoin{}, v)
	set.cache = c
	for slot := range 5 {
		s := version(3)
		c.keep(set, slot, s.Pack(), s)
	}
	if c.used > c.budget || len(c.m) != 3 {
		t.Fatalf("%d bytes of %d, %d slots kept", c.used, c.budget, len(c.m))
	}
	for slot := range 5 {
		p := version(3).Pack()
		if kept := c.get(set, slot, p) != nil; kept != (slot >= 2) {
			t.Errorf("slot %d kept: %v", slot, kept)
		}
	}
	// A new version of slot 4 replaces the old one.
	s4 := version(4)
	c.keep(set, 4, s4.Pack(), s4)
	if c.get(set, 4, version(3).Pack()) != nil || c.get(set, 4, s4.Pack()) != s4 {
		t.Error("slot 4 keeps its old version")
	}
	// Held versions take room from the slots, and give it back.
	if !c.hold(one) {
		t.Fatal("no room for a held version")
	}
	if c.used > c.budget {
		t.Fatalf("%d bytes of %d", c.used, c.budget)
	}
	if c.hold(one) {
		t.Error("held versions took more than half the budget")
	}
	c.release(one)
	if c.hold(10 * one) {
		t.Error("a version larger than the budget was held")
	}
	for range 10000 {
		c.keep(set, 4, s4.Pack(), s4)
	}
	if len(c.fifo) > 2*len(c.m)+1024 {
		t.Errorf("the FIFO grew to %d entries for %d kept", len(c.fifo), len(c.m))
	}
	c.drop()
	if c.used != 0 || len(c.m) != 0 {
		t.Error("drop left entries")
	}
}
