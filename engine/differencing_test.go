package engine

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// linkOnASummary links node c to node d. Predicate s, "v's node has a
// successor", is updated explicitly by recomputing it where v points to
// c, as the algorithm compiler writes such updates. On the summary of
// threads t, which point to c or to e (whose successor is f), s is 1/2,
// and k, "a thread with g has a successor", is 1: the threads with g
// point to e. The link only adds an edge out of c, which had none, so k
// stays 1; read off the explicit update alone (s & !recomputed, 1/2 on
// t) its loss would be 1/2 and Check would raise "k lost".
const linkOnASummary = `%p th(v)
%p c(v) unique
%p d(v) unique
%p e(v) unique
%p f(v) unique
%p x(v1, v2) function
%p nx(v1, v2) function
%p g(v) nonabs
%i s(v) = E(u1, u2) x(v, u1) & nx(u1, u2) nonabs
%i k(v) = th(v) & (g(v) -> s(v)) nonabs
%%
%action Link() {
  {
    nx(v1, v2) = (c(v1) ? d(v2) : nx(v1, v2))
    s(v) = ((E(u) x(v, u) & c(u)) ? (E(u1, u2) x(v, u1) & (c(u1) ? d(u2) : nx(u1, u2))) : s(v))
  }
}
%action Check() {
  %message (E(v) th(v) & !k(v)) -> "k lost"
}
%%
L1 Link() L2
L2 Check() L3
`

const linkOnASummaryInput = `%n = {t, cn, dn, en, fn}
%p = {
  sm = {t:1/2}
  th = {t}
  c = {cn}
  d = {dn}
  e = {en}
  f = {fn}
  x = {t->cn:1/2, t->en:1/2}
  nx = {en->fn}
  g = {t:1/2}
  s = {t:1/2}
  k = {t}
}
`

// A predicate read by a derived update changes, per Δ⁻ and Δ⁺, by the
// meet of its explicit update's deltas and its definition's: both are
// sound, and the definition's is 0 where the action only adds edges.
func TestDerivedUpdateReadsTheDefinitionOfAnExplicitlyUpdatedPredicate(t *testing.T) {
	e, res := runText(t, linkOnASummary, linkOnASummaryInput, Options{Workers: 1, Differencing: true})
	if res.Stats.Messages != 0 {
		t.Fatalf("%d messages (%v), want none: k was lost on the summary", res.Stats.Messages, res.Location("L2").Messages)
	}
	th, k := e.voc.Tvl().Lookup("th"), e.voc.Tvl().Lookup("k")
	at := res.Location("L3").Structures
	if at.Len() != 1 {
		t.Fatalf("%d structures at L3, want 1", at.Len())
	}
	s := at.At(0)
	for u := 0; u < s.Size(); u++ {
		if s.Get(th, u) == logic.True && s.Get(k, u) != logic.True {
			t.Errorf("k = %v on thread individual %d at L3, want 1", s.Get(k, u), u)
		}
	}
}
