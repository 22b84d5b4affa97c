package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// relyGuarantee is a program after set_pldi08/cas/nolin/g's two names:
// R, a thread's saved view (r, and the nodes sa marks), and G, its
// current one (g, and the nodes a marks); each hides the other's thread
// predicate. Its one action runs on the compositions COMPOSE asks for,
// with the updates UPDATE, and cuts its results as DECOMPOSE says.
const relyGuarantee = `%p r(v) unique
%p g(v) unique
%p th(v)
%p a(v)
%p sa(v)
%p b(v)
%dname (r(v) | sa(v)) & !g(v) R
%dname (g(v) | a(v)) & !r(v) G
%%
%action act() {
  %t "act"
  %compose COMPOSE
  { UPDATE }
  DECOMPOSE
}
%%
L0 act() L1
`

// Two inputs: G's components differ (z, with a and b, in the second),
// R's do not (3 components at L0).
const relyGuaranteeInput = `%n = {t, x, y}
%p = {
  r = {t}
  g = {t}
  th = {t}
  a = {x}
  sa = {y}
}
%n = {t, x, y, z}
%p = {
  r = {t}
  g = {t}
  th = {t}
  a = {x, z}
  sa = {y}
  b = {z}
}
`

// %decompose p(v) <-> ψ cuts the results into the names its left side
// designates, by their own formulas (the G components keep x and z,
// which only G's formula holds); a bare %decompose cuts them into every
// name composed. A %compose name framed by 0 is left out: the action
// runs on each component of the other name alone, once (RtoG's
// tid[R](v1) & (tid[G](v2) <-> 0)). The counts at L1 and the names are
// the reference's (TVLA 3's dtvla engine).
func TestDecomposeInto(t *testing.T) {
	for _, c := range []struct {
		what, compose, update, decompose string
		r, g                             int
	}{
		{"into G", "r(v1) & g(v2)", "g(v) = r(v)", "%decompose g(v) <-> r(v)", 0, 2},
		{"into both", "r(v1) & g(v2)", "g(v) = r(v)", "%decompose", 1, 2},
		{"into R", "r(v1) & g(v2)", "g(v) = r(v)", "%decompose r(v) <-> g(v)", 1, 0},
		{"G framed away", "r(v1) & (g(v2) <-> 0)", "g(v) = r(v) r(v) = 1/2 a(v) = sa(v)", "%decompose g(v) <-> r(v)", 0, 1},
	} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("COMPOSE", c.compose, "UPDATE", c.update, "DECOMPOSE", c.decompose).Replace(relyGuarantee)
			res := runDecomposing(t, testload.Text(t, text), relyGuaranteeInput)
			if res.StoppedOnBreach {
				t.Fatalf("stopped at a breach: %s", res.StopReason)
			}
			if n := res.Location("L0").Structures.Len(); n != 3 {
				t.Errorf("L0 holds %d components; the reference: 3", n)
			}
			l1 := res.Location("L1").Structures
			var r, g int
			for _, s := range l1.All() {
				voc := s.Vocabulary()
				if s.Get(voc.Lookup("dname[R]")) == logic.True {
					r++
				}
				if s.Get(voc.Lookup("dname[G]")) == logic.True {
					g++
				}
			}
			if r != c.r || g != c.g || l1.Len() != c.r+c.g {
				t.Errorf("L1: %d components, %d of R, %d of G; the reference: %d of R, %d of G", l1.Len(), r, g, c.r, c.g)
			}
		})
	}
}

// A node a component does not hold is not new: isNew reads 0 on the
// outside individual a component alone opens (every other unary value
// there reads 1/2). Read as 1/2, the update below drew r 1/2 to the
// outside individual and raised the message on both components;
// set_pldi08/cas/nolin/g's assignNew so wrote dle(Head, outside) = 1/2
// where the reference keeps the stored 0. The reference: 2 components
// at L1 and no message (with keepBinary, as cas/nolin/g sets it).
func TestOutsideIndividualIsNotNew(t *testing.T) {
	const text = `%p x(v) unique
%p y(v) unique
%p r(v1, v2)
%dname x(v) X
%dname y(v) Y
%%
%action act() {
  %t "act"
  %new
  { r(v1, v2) = r(v1, v2) | x(v1) & isNew(v2) }
  %message (E(v, w) r(v, w) & outside(w)) -> "edge to outside"
}
%%
L0 act() L1
`
	p := testload.Text(t, text)
	locs, err := tvp.ParseTVS(tvp.NewPlainSource("in.tvs", "%n = {a, b, c}\n%p = {\n  x = {a}\n  y = {c}\n}\n"), p.Vocabulary.Tvl())
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(p, Options{Join: JoinDecompose, Workers: 1, Differencing: true, BreakIfCoerceAfterUpdateFailed: true, DecomposeKeepBinary: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), []*tvl.Structure{locs[0].Structures[0].Structure})
	if err != nil {
		t.Fatal(err)
	}
	if n, m := res.Location("L1").Structures.Len(), res.Stats.Messages; n != 2 || m != 0 {
		t.Errorf("L1: %d components, %d messages; the reference: 2, 0", n, m)
	}
}

// %decompose p(v) <-> ψ whose left side designates no name is refused
// at the action, as the reference refuses it ("Target name should be a
// singleton, but got []").
func TestDecomposeIntoNoName(t *testing.T) {
	text := strings.NewReplacer("COMPOSE", "r(v1) & g(v2)", "UPDATE", "g(v) = r(v)", "DECOMPOSE", "%decompose b(v) <-> r(v)").Replace(relyGuarantee)
	_, err := New(testload.Text(t, text), Options{Join: JoinDecompose, Workers: 1, Differencing: true})
	if err == nil || !strings.Contains(err.Error(), "must designate one %dname") {
		t.Fatalf("error %v; want the %%decompose refused", err)
	}
}
