package logic_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

func TestRelativizeShapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"x(v)", "x(v)"},
		{"E(a) x(a)", "E(a) x(a) & ac(a)"},
		{"A(a) x(a)", "A(a) x(a) | !ac(a)"},
		{"E(a) x(a) & !(A(b) n(a, b))", "E(a) (x(a) & !(A(b) n(a, b) | !ac(b))) & ac(a)"},
	} {
		f, err := tvp.ParseFormula("test", c.in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tvp.ParseFormula("test", c.want)
		if err != nil {
			t.Fatal(err)
		}
		if got := logic.Relativize(f, "ac"); !logic.EqualFormulas(got, want) {
			t.Errorf("%s: got %s, want %s", c.in, logic.String(got), c.want)
		}
	}
}

// The values TVLA 3 computes with -join ind (observed on it) for a path
// u -> w -> t where only w may not exist: a path may run through w only
// as far as w exists, while the path's own ends are not restricted.
func TestRelativizedClosures(t *testing.T) {
	voc := tvl.NewVocabulary()
	x, y, n, ac := voc.MustAdd("x", 1), voc.MustAdd("y", 1), voc.MustAdd("n", 2), voc.MustAdd("ac", 1)
	s := tvl.New(voc)
	u, w, tt := s.AddIndividual(), s.AddIndividual(), s.AddIndividual()
	s.Set(x, logic.True, u)
	s.Set(y, logic.True, tt)
	s.Set(n, logic.True, u, w)
	s.Set(n, logic.True, w, tt)
	s.Set(ac, logic.True, u)
	s.Set(ac, logic.Unknown, w)
	s.Set(ac, logic.True, tt)
	eval := func(text string, asg ...int) logic.Kleene {
		t.Helper()
		f, err := tvp.ParseFormula("test", text)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tvl.Compile(logic.Relativize(f, "ac"), voc, logic.FreeVars(f))
		if err != nil {
			t.Fatal(err)
		}
		return c.Eval(s, asg...)
	}
	const T, U = logic.True, logic.Unknown
	for _, c := range []struct {
		formula string
		asg     []int
		want    logic.Kleene
	}{
		{"E(a, e) x(a) & y(e) & n*(a, e)", nil, U},
		{"E(a, e) x(a) & y(e) & TC(a, e)(p, q)(n(p, q))", nil, U},
		{"E(a) x(a) & n*(a, v)", []int{w}, T},  // w is the path's end
		{"E(a) x(a) & n*(a, v)", []int{tt}, U}, // through w
		{"E(a) y(a) & n*(v, a)", []int{w}, T},  // w is the path's start
		{"E(a) y(a) & n*(v, a)", []int{u}, U},
		{"E(a) n(a, v)", []int{tt}, U}, // w is the witness
		{"A(a) !y(a)", nil, 0},
		{"A(a) !n(a, a)", nil, T},
	} {
		if got := eval(c.formula, c.asg...); got != c.want {
			t.Errorf("%s %v = %v, want %v", c.formula, c.asg, got, c.want)
		}
	}
}
