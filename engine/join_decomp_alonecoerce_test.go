package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// twoPointerThreadsExist is twoPointerThreads with set_pldi08's
// constraints on its two threads: each exists (A(v) !t1(v) ==> 0), is
// one of the threads, and is not the other. Its first input has no t2
// thread, so that its T1 component holds every node: no outside
// individual, hence no individual for t2, which T1 hides.
var twoPointerThreadsExist = strings.Replace(twoPointerThreads, "%r t2(v) ==> isthread(v)\n", `%r t2(v) ==> isthread(v)
%r A(v) !t2(v) ==> 0
%r A(v) !t1(v) ==> 0
%r t1(v) ==> !t2(v)
%r t2(v) ==> !t1(v)
%r !isthread(v) ==> !t1(v)
%r !isthread(v) ==> !t2(v)
`, 1)

const twoPointerThreadsExistInput = `%n = {th1, x, y}
%p = {
  isthread = {th1}
  t1 = {th1}
  at[L0] = {th1}
  a1 = {x}
  b1 = {y}
  n = {x->y}
}
` + twoPointerThreadsInput

// A component alone is coerced without the closed constraints that read
// a predicate its name hides: TVLA 3's dtvla engine runs X on the first
// input's T1 component (every node, no t2) and keeps its result at L1
// and L2, alone (no %compose, in Y neither) and with T1 framed; with T1 composed
// unframed there is no result (the composition needs t2's thread in
// T1's outside individual). The counts at L1 and L2 are the
// reference's; coerced with every constraint, the component was dropped
// (2 and 3 at L1). At L0 the reference stores 3: it drops the first
// input's T2 component (no t2 at all), which we keep (4).
func TestAloneWithoutClosedHiddenConstraints(t *testing.T) {
	for _, c := range []struct {
		what, compose string
		l1, l2, msgs  int
	}{
		{"alone", "", 3, 3, 1},
		{"alone, Y composed", "", 3, 4, 0},
		{"framed", "%compose t1(v1) | " + framedX, 4, 3, 0},
		{"framed, one disjunct", "%compose " + framedX, 4, 3, 0},
		{"unframed", "%compose " + unframedX, 3, 3, 0},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("%compose COMPOSE", c.compose, "MESSAGES", "").Replace(twoPointerThreadsExist)
			if c.what == "alone" {
				text = strings.Replace(text, "%compose t1(v1) & t2(v2)", "", 1)
			}
			res := runDecomposing(t, testload.Text(t, text), strings.Replace(twoPointerThreadsExistInput, "C", "", 1))
			got := []int{res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len(), res.Location("L2").Structures.Len()}
			if got[0] != 4 || got[1] != c.l1 || got[2] != c.l2 || res.Stats.Messages != c.msgs {
				t.Errorf("L0, L1, L2: %v, %d messages; want [4 %d %d], %d", got, res.Stats.Messages, c.l1, c.l2, c.msgs)
			}
		})
	}
}
