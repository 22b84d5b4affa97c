package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// twoPointerThreads is a program of ours after set_pldi08's framed
// %compose disjuncts: thread t1 with two pointers a1 and b1, thread t2
// with a2, names T1 and T2 (each hides the other's predicates); X moves
// t1 from L0 to L1 and marks a1's node on the compositions COMPOSE asks
// for, Y moves it on to L2 composed unframed. MESSAGES are X's messages
// before its update; c is 1/2 on a1's node and 1 on a2's.
const twoPointerThreads = `%s Locs {L0, L1, L2}
foreach (l in Locs) {
  %p at[l](v)
  %r at[l](v) ==> isthread(v)
}
%p t1(v) unique
%p t2(v) unique
%r t1(v) ==> isthread(v)
%r t2(v) ==> isthread(v)
%p a1(v) unique pointer
%p b1(v) unique pointer
%p a2(v) unique pointer
%p m(v)
%p c(v)
%r a1(v) ==> !isthread(v)
%r b1(v) ==> !isthread(v)
%r a2(v) ==> !isthread(v)
%r m(v) ==> !isthread(v)
%p n(v1, v2) function
%dname (t1(v) | a1(v) | b1(v)) & (!t2(v) & !a2(v)) T1
%dname (t2(v) | a2(v)) & (!t1(v) & !a1(v) & !b1(v)) T2
%%
%action X() {
  %t "X"
  %compose COMPOSE
  %p E(tr) t1(tr) & at[L0](tr)
  MESSAGES
  {
    at[L0](v) = at[L0](v) & !t1(v)
    at[L1](v) = at[L1](v) | t1(v)
    m(v) = m(v) | a1(v)
  }
  %decompose
}
%action Y() {
  %t "Y"
  %compose t1(v1) & t2(v2)
  %p E(tr) t1(tr) & at[L1](tr)
  %message (!E(v) b1(v)) -> "b1 lost"
  {
    at[L1](v) = at[L1](v) & !t1(v)
    at[L2](v) = at[L2](v) | t1(v)
  }
  %decompose
}
%%
L0 X() L1
L1 Y() L2
`

const twoPointerThreadsInput = `%n = {th1, th2, x, y, z}
%p = {
  isthread = {th1, th2}
  t1 = {th1}
  t2 = {th2}
  at[L0] = {th1, th2}
  a1 = {x}
  b1 = {y}
  a2 = {z}
  n = {x->y, y->z}
  C
}
`

const (
	unframedX = "t1(v1) & t2(v2)"
	framedX   = "(t1(v1) <-> (t1(v1) | a1(v1)) & !at[L2](v1)) & t2(v2)"
)

// A %compose disjunct (t1(v1) <-> ψ) & !a(v1) & t2(v2) frames T1's
// component by ψ & !a(v) before composing it (b1's node is left out),
// runs the action on it alone too, and meets each framed result with
// the results alone, keeping of the framed result (on the frame's
// individuals) what the action updates. The counts are TVLA 3's
// (dtvla), which stores the same structures (compared with its -tvs
// output). Without the meet, b1 was lost after X: 2 components at L1
// and 2 at L2, and Y raised "b1 lost" twice; keeping everything the
// framed result holds gave a sixth component at L1 with c known on a1's
// node (the framed composition matched it with a2's, where c is 1).
func TestFramedComposeAsTheReference(t *testing.T) {
	for _, c := range []struct {
		what, compose, c string
		l1, l2           int
	}{
		{"framed", framedX, "", 5, 7},
		{"unframed", unframedX, "", 5, 7},
		{"framed, c half on a1's node", framedX, "c = {x:1/2, z:1}", 5, 8},
		{"unframed, c half on a1's node", unframedX, "c = {x:1/2, z:1}", 6, 8},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("COMPOSE", c.compose, "MESSAGES", "").Replace(twoPointerThreads)
			res := runDecomposing(t, testload.Text(t, text), strings.Replace(twoPointerThreadsInput, "C", c.c, 1))
			got := []int{res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len(), res.Location("L2").Structures.Len()}
			if got[0] != 2 || got[1] != c.l1 || got[2] != c.l2 || res.Stats.Messages != 0 {
				t.Errorf("L0, L1, L2: %v, %d messages; want [2 %d %d], 0", got, res.Stats.Messages, c.l1, c.l2)
			}
		})
	}
}

// Messages on a framed composition (observed, the reference's counts):
// an unbracketed one is checked on the run alone and on each framed
// composition (8: 1 and 7), one bracketed with the framed name alone on
// the run alone only (1), one bracketed with both names on none (the
// framed composition is not theirs).
func TestFramedComposeMessages(t *testing.T) {
	for _, c := range []struct {
		what, message string
		want          int
	}{
		{"unbracketed", `%message (E(v) t1(v)) -> "show"`, 8},
		{"the framed name", `%message [t1(v)] (E(v) t1(v)) -> "show"`, 1},
		{"both names", `%message [t1(v) & t2(w)] (E(v) t1(v)) -> "show"`, 0},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("COMPOSE", framedX, "MESSAGES", c.message).Replace(twoPointerThreads)
			res := runDecomposing(t, testload.Text(t, text), strings.Replace(twoPointerThreadsInput, "C", "", 1))
			if got := res.Location("L0").MessageCount(); got != c.want {
				t.Errorf("%d messages at L0, want %d", got, c.want)
			}
		})
	}
}
