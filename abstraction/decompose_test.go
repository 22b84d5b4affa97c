package abstraction_test

import (
	"fmt"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// Decompose and Blur give, structure for structure, the components TVLA
// 3's decomposing engine stores at the entry of testdata/decompose/
// twolists.tvp (its inputs cut by four names, with and without
// outside.keepBinary): 16 each time, one per input and name, which the
// reference printed and want-keepbinary-*.tvs hold.
func TestDecomposeAsTheReference(t *testing.T) {
	const dir = "testdata/decompose/"
	prog, _, err := tvp.LoadProgram(dir+"twolists.tvp", tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	voc := prog.Vocabulary
	var names []abstraction.Component
	for _, d := range prog.DecompNames {
		m := d.Marker
		in, err := tvl.Compile(d.Formula, voc.Tvl(), []logic.Var{d.Var})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, abstraction.Component{Name: d.Name, Marker: m.Pred, In: in})
	}
	if len(names) != 4 {
		t.Fatalf("%d names, want 4", len(names))
	}
	inputs, err := tvp.LoadTVS(dir+"twolists.tvs", voc.Tvl(), tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	outside := voc.Lookup("outside").Pred
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keepBinary=%v", keep), func(t *testing.T) {
			want, err := tvp.LoadTVS(fmt.Sprintf("%swant-keepbinary-%v.tvs", dir, keep), voc.Tvl(), tvp.LoadConfig{})
			if err != nil {
				t.Fatal(err)
			}
			var got []*tvl.Structure
			for _, l := range inputs {
				for _, s := range l.Structures {
					for _, c := range abstraction.Decompose(s.Structure, names, outside, abstraction.DecomposeOptions{KeepBinary: keep}) {
						b, _ := abstraction.Blur(c, voc.AbstractionPreds())
						got = append(got, b)
					}
				}
			}
			matched := make([]bool, len(got))
			for i, w := range want[0].Structures {
				found := false
				for j, g := range got {
					if _, ok := tvl.Isomorphic(g, w.Structure); ok && !matched[j] {
						matched[j], found = true, true
						break
					}
				}
				if !found {
					t.Errorf("the reference's component %d has no match among ours", i)
				}
			}
			if len(got) != len(want[0].Structures) {
				t.Errorf("%d components, the reference stores %d", len(got), len(want[0].Structures))
			}
		})
	}
}

// An individual where the formula is 1/2 goes outside (testdata/decompose/
// half.tvp, as TVLA 3 stores it): the component is a and one outside
// individual.
func TestDecomposeLeavesHalfOutside(t *testing.T) {
	prog, _, err := tvp.LoadProgram("testdata/decompose/half.tvp", tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	voc := prog.Vocabulary
	d := prog.DecompNames[0]
	m := d.Marker
	in, err := tvl.Compile(d.Formula, voc.Tvl(), []logic.Var{d.Var})
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := tvp.LoadTVS("testdata/decompose/half.tvs", voc.Tvl(), tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	outside := voc.Lookup("outside").Pred
	c := abstraction.Decompose(inputs[0].Structures[0].Structure, []abstraction.Component{{Name: d.Name, Marker: m.Pred, In: in}}, outside, abstraction.DecomposeOptions{})[0]
	b, _ := abstraction.Blur(c, voc.AbstractionPreds())
	if b.Size() != 2 {
		t.Fatalf("%d individuals, the reference has 2", b.Size())
	}
	mp := voc.Lookup("m").Pred
	for u := range 2 {
		if b.IsSummary(u) {
			t.Errorf("individual %d is a summary node", u)
		}
		if b.Get(outside, u) == logic.True && b.Get(mp, u) != logic.False {
			t.Errorf("the outside individual has m = %v", b.Get(mp, u))
		}
		if b.Get(outside, u) == logic.False && b.Get(mp, u) != logic.True {
			t.Errorf("the inside individual has m = %v", b.Get(mp, u))
		}
	}
	if b.Get(m.Pred) != logic.True {
		t.Error("dname[M] is not 1")
	}
}
