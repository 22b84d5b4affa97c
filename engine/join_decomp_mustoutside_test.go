package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// interferenceLike is a program of ours after set_pldi08/cas/nolin/g's
// interference: R, a thread's saved view, hides its current local l and
// the deltas; G, the transition, framed in the %compose. Every
// composition the action runs on raises "seen".
const interferenceLike = `%p tr(v) unique
%p tg(v) unique
%p l(v)
%p sl(v)
%p a(v)
%p sa(v)
%i dp(v) = l(v) & !sl(v)
%i dm(v) = !l(v) & sl(v)
%r tr(v) ==> !tg(v)
%dname (tr(v) | sa(v)) & (!l(v) & !dp(v) & !dm(v) & !tg(v)) R
%dname (tg(v) | dp(v) | dm(v) | a(v)) & !tr(v) G
%%
%action act() {
  %t "act"
  %compose tr(v1) & (tg(v2) <-> ((tg(v2) | a(v2)) & (!l(v2) & !sl(v2) & !dp(v2) & !dm(v2))))
  %message (E(v) tr(v)) -> "seen"
  { sl(v) = l(v) }
  %decompose tr(v) <-> (tr(v1) | tg(v2))
}
%%
L0 act() L1
`

// tvla.decompose.mustOutside = true (with keepBinary and merge, as
// cas/nolin/g sets them): the action runs only on the compositions with
// an individual outside all their parts. The counts are TVLA 3's
// (dtvla), with the key and without: where both parts have an outside
// individual (both threads), the composition without a node outside both
// is not run (2 messages against 3: the composition with that node and
// G's run alone); where R's component has none (no G thread, no G node),
// no composition is run and L1 stays empty (1 message, G's empty
// component alone, against 2 and one R component at L1).
func TestMustOutside(t *testing.T) {
	const both = "%n = {t, u, x, y}\n%p = {\n  tr = {t}\n  l = {t, u}\n  sl = {t, u}\n  tg = {u}\n  a = {x}\n  sa = {y}\n}\n"
	const rOnly = "%n = {t, y}\n%p = {\n  tr = {t}\n  l = {t}\n  sl = {t}\n  sa = {y}\n}\n"
	p := testload.Text(t, interferenceLike)
	for _, c := range []struct {
		what, input string
		must        bool
		l1, msgs    int
	}{
		{"both outside, mustOutside", both, true, 1, 2},
		{"both outside", both, false, 1, 3},
		{"R without outside, mustOutside", rOnly, true, 0, 1},
		{"R without outside", rOnly, false, 1, 2},
	} {
		t.Run(c.what, func(t *testing.T) {
			res := runDecomposingWith(t, p, c.input, Options{DecomposeKeepBinary: true, DecomposeMustOutside: c.must})
			l0, l1 := res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len()
			if l0 != 2 || l1 != c.l1 || res.Stats.Messages != c.msgs {
				t.Errorf("L0 %d, L1 %d, %d messages; the reference: 2, %d, %d", l0, l1, res.Stats.Messages, c.l1, c.msgs)
			}
		})
	}
}

// On a framed composition too (twoPointerThreads' X, framed, its
// unbracketed message raised on each composition and on the framed
// name's run alone; c 1/2 on a1's node, keepBinary and merge): 5
// messages with mustOutside, 8 without, as the reference; 2, 5 and 7
// components at L0, L1 and L2 either way.
func TestMustOutsideFramed(t *testing.T) {
	text := strings.NewReplacer("COMPOSE", framedX, "MESSAGES", `%message (E(v) t1(v)) -> "show"`).Replace(twoPointerThreads)
	p := testload.Text(t, text)
	input := strings.Replace(twoPointerThreadsInput, "C", "c = {x:1/2, z:1}", 1)
	for _, c := range []struct {
		must bool
		msgs int
	}{{true, 5}, {false, 8}} {
		res := runDecomposingWith(t, p, input, Options{DecomposeKeepBinary: true, DecomposeMustOutside: c.must})
		got := []int{res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len(), res.Location("L2").Structures.Len()}
		if got[0] != 2 || got[1] != 5 || got[2] != 7 || res.Stats.Messages != c.msgs {
			t.Errorf("mustOutside %v: L0, L1, L2 %v, %d messages; the reference: [2 5 7], %d", c.must, got, res.Stats.Messages, c.msgs)
		}
	}
}
