package abstraction_test

import (
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/tvl"
)

// revealedComponents are every component of testdata/decompose's
// two-list inputs, revealed, with the index of its name.
func revealedComponents(t testing.TB) ([]abstraction.Component, *tvl.Pred, []*tvl.Structure, []int) {
	_, names, inputs, outside := twoLists(t)
	var parts []*tvl.Structure
	var name []int
	for _, l := range inputs {
		for _, in := range l.Structures {
			comps := abstraction.Decompose(in.Structure, names, outside, abstraction.DecomposeOptions{KeepBinary: true})
			for i := range comps {
				parts = append(parts, abstraction.Reveal(comps[i], names[i], outside))
				name = append(name, i)
			}
		}
	}
	return names, outside, parts, name
}

// Compatible is a necessary condition of a composition: a pair it
// refuses composes to nothing, alone or with a third part. Checked on
// every pair of components of different names of the two-list inputs
// (components of different heaps, so that some pairs cannot match),
// with and without a cache; the test fails when no pair, or every pair,
// is refused.
func TestCompatibleIsNecessary(t *testing.T) {
	names, outside, parts, name := revealedComponents(t)
	opts := abstraction.DecomposeOptions{KeepBinary: true}
	cache := abstraction.NewMembershipCache()
	refused, kept, composed := 0, 0, 0
	for a := range parts {
		for b := range parts {
			if name[a] == name[b] {
				continue
			}
			da, db := names[name[a]], names[name[b]]
			ok := cache.Compatible(parts[a], parts[b], da, db, outside)
			var none *abstraction.MembershipCache
			if ok != none.Compatible(parts[a], parts[b], da, db, outside) {
				t.Fatalf("components %d and %d: the cache answers %v, a computation the other way", a, b, ok)
			}
			got := abstraction.ComposeRevealed([]*tvl.Structure{parts[a], parts[b]}, []abstraction.Component{da, db}, outside, opts)
			if len(got) > 0 {
				composed++
			}
			if ok {
				kept++
				continue
			}
			refused++
			if len(got) != 0 {
				t.Fatalf("components %d (%s) and %d (%s): refused, but %d compositions", a, da.Name, b, db.Name, len(got))
			}
			for c := range parts {
				if name[c] == name[a] || name[c] == name[b] {
					continue
				}
				three := abstraction.ComposeRevealed([]*tvl.Structure{parts[a], parts[c], parts[b]}, []abstraction.Component{da, names[name[c]], db}, outside, opts)
				if len(three) != 0 {
					t.Fatalf("components %d and %d refused, but %d compositions with %d", a, b, len(three), c)
				}
			}
		}
	}
	if refused == 0 || kept == 0 || composed == 0 {
		t.Fatalf("%d pairs refused, %d kept, %d composed: the inputs test nothing", refused, kept, composed)
	}
	t.Logf("%d pairs refused, %d kept, %d of them composed", refused, kept, composed)
}

// BenchmarkCompatibleFirst composes every pair of components of
// different names of the two-list inputs, as the decomposing engine's
// feasibility checks do, asking Compatible first (the pairs it refuses
// are not composed); BenchmarkComposeEveryPair composes them all.
func BenchmarkCompatibleFirst(b *testing.B) { benchPairs(b, true) }

func BenchmarkComposeEveryPair(b *testing.B) { benchPairs(b, false) }

func benchPairs(b *testing.B, first bool) {
	names, outside, parts, name := revealedComponents(b)
	opts := abstraction.DecomposeOptions{KeepBinary: true}
	for b.Loop() {
		cache := abstraction.NewMembershipCache()
		for x := range parts {
			for y := range parts {
				if name[x] == name[y] {
					continue
				}
				dx, dy := names[name[x]], names[name[y]]
				if first && !cache.Compatible(parts[x], parts[y], dx, dy, outside) {
					continue
				}
				abstraction.ComposeRevealedWith(cache, []*tvl.Structure{parts[x], parts[y]}, []abstraction.Component{dx, dy}, outside, opts)
			}
		}
	}
}
