package abstraction

import (
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// %new with a formula copies each individual that satisfies it, and
// instance(copy, original) relates the copy to its original, as TVLA 3
// has it: an update written z(v) = z(v) | E(w) instance(v, w) & z(w)
// gives the copies their originals' values. (The other way round, the
// copies got nothing and blurred into one; TVLA's ambient/esop example
// gave 6 structures against the reference's 759, and 759 since.)
func TestNewCopiesRelateToTheirOriginals(t *testing.T) {
	prog := testload.Text(t, `
%p marked(v)
%p red(v)
%%
%action Copy() {
  %new marked(v)
  {
    red(v) = red(v) | E(w) (instance(v, w) & red(w))
  }
}
%%
L1 Copy() L2
`)
	voc := prog.Vocabulary.Tvl()
	marked, red := voc.Lookup("marked"), voc.Lookup("red")
	s := tvl.New(voc)
	a, b := s.AddIndividual(), s.AddIndividual()
	s.Set(marked, logic.True, a)
	s.Set(red, logic.True, a)
	s.Set(red, logic.True, b) // red but not marked: not copied
	act, err := CompileAction(prog.Vocabulary, prog.Edges[0].Action, ActionOptions{Differencing: true})
	if err != nil {
		t.Fatal(err)
	}
	post, _ := act.Update(s, nil, nil)
	if post.Size() != 3 {
		t.Fatalf("%d individuals after %%new, want 3 (one copy of the marked one)", post.Size())
	}
	if post.Get(red, 2) != logic.True || post.Get(marked, 2) != logic.False {
		t.Errorf("the copy: red %v, marked %v; want red 1 (its original's), marked 0\n%s", post.Get(red, 2), post.Get(marked, 2), post)
	}
}
