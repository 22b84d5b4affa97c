package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
)

// sharedName is a program of three names, T (x's and y's nodes; it hides
// m, k and j), M (m's nodes; it hides j) and N (z's and w's nodes; it
// hides k), and two actions: prep, without %compose, runs on each
// component alone and writes 1/2 into d where x holds and k is not known
// to, and into f where x holds and j is not known to; act composes T
// with M and T with N (the two disjuncts share T) and cuts the results
// again. On the input, x's node is T's, M's and N's, with k and j: T
// reads both as 1/2 (hidden), M records k, N records j. So at L1 T's
// component has d and f at 1/2 on it, M's d 0 and f 1/2, N's d 1/2 and
// f 0; act's composition with M gives T's component with d 0, the one
// with N with f 0.
const sharedName = `%p x(v)
%p y(v)
%p z(v)
%p w(v)
%p m(v)
%p k(v)
%p j(v)
%p d(v)
%p f(v)
%p e(v)
%dname ((x(v) | y(v)) & (!m(v) & !k(v) & !j(v))) T
%dname (m(v) & !j(v)) M
%dname ((z(v) | w(v)) & !k(v)) N
%%
%action prep() {
  %t "prep"
  {
    d(v) = d(v) | (x(v) & !k(v) & 1/2)
    f(v) = f(v) | (x(v) & !j(v) & 1/2)
  }
}
%action act() {
  %t "act"
  %compose x(v1) & m(v2) | x(v1) & z(v2)
  {
    e(v) = x(v)
  }
  %decompose
}
%%
L0 prep() L1
L1 act() L2
`

const sharedNameInput = `%n = {a, b}
%p = {
  x = {a}
  w = {a}
  m = {a}
  k = {a}
  j = {a}
  z = {b}
}
`

// Two %compose disjuncts that share a name: the reference (TVLA 3,
// tvla.engine.type = dtvla) stores of that name the meets of the
// disjuncts' results (join_decomp_meet.go). On sharedName it stores 3
// components at L2, T's with d and f both 0 on x's node: the meet of
// the composition with M's result (d 0, f 1/2) and with N's (d 1/2, f
// 0), a component neither made. Without the meet we stored both (4).
// With N's component unable to say anything of f (the input without j,
// and prep writing no f), it stores T's component with d 0 only, not
// the one with d 1/2 the composition with N gives (3 again; we stored
// 4).
func TestSharedNameResultsMeet(t *testing.T) {
	for _, c := range []struct {
		what, text, input string
		d, f              logic.Kleene
	}{
		{"both disjuncts sharpen", sharedName, sharedNameInput, logic.False, logic.False},
		{"one disjunct sharpens",
			strings.Replace(sharedName, "    f(v) = f(v) | (x(v) & !j(v) & 1/2)\n", "", 1),
			strings.Replace(sharedNameInput, "  j = {a}\n", "", 1), logic.False, logic.False},
	} {
		t.Run(c.what, func(t *testing.T) {
			p := testload.Text(t, c.text)
			res := runDecomposing(t, p, c.input)
			l2 := res.Location("L2").Structures
			if l2.Len() != 3 {
				t.Fatalf("L2 holds %d components; the reference: 3", l2.Len())
			}
			found := false
			for _, s := range l2.All() {
				voc := s.Vocabulary()
				if s.Get(voc.Lookup("dname[T]")) != logic.True {
					continue
				}
				found = true
				for u := range s.Size() {
					if s.Get(voc.Lookup("x"), u) != logic.True {
						continue
					}
					if got := s.Get(voc.Lookup("d"), u); got != c.d {
						t.Errorf("T's d on x's node is %v; the reference: %v", got, c.d)
					}
					if got := s.Get(voc.Lookup("f"), u); got != c.f {
						t.Errorf("T's f on x's node is %v; the reference: %v", got, c.f)
					}
				}
			}
			if !found {
				t.Error("no component of T at L2")
			}
		})
	}
}
