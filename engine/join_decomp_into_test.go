package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
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
