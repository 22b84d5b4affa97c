package engine

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testload"
)

// %frame_pre and %frame change nothing under TVLA 3's dtvla engine (its
// counts, and every structure of its -tvs output up to isomorphism, the
// same with the clauses as without): twoPointerThreads' framed action X
// with a %frame_pre on the framed name and a %frame by 0 on the other
// stores 2, 5 and 7 components at L0, L1 and L2 (5 and 8 with c 1/2 on
// a1's node), as without them.
func TestFrameClausesChangeNothing(t *testing.T) {
	for _, c := range []struct {
		what, c string
		l2      int
	}{{"c known", "", 7}, {"c half on a1's node", "c = {x:1/2, z:1}", 8}} {
		t.Run(c.what, func(t *testing.T) {
			text := strings.NewReplacer("%compose COMPOSE", "%frame_pre t1(v) <-> a1(v)\n  %compose "+framedX+"\n  %frame t2(v) <-> 0", "MESSAGES", "").Replace(twoPointerThreads)
			p := testload.Text(t, text)
			x := p.Actions[0]
			if x.FramePre == nil || x.Frame == nil {
				t.Fatalf("action %s: %%frame_pre %v, %%frame %v; want both read", x.Title, x.FramePre, x.Frame)
			}
			res := runDecomposing(t, p, strings.Replace(twoPointerThreadsInput, "C", c.c, 1))
			got := []int{res.Location("L0").Structures.Len(), res.Location("L1").Structures.Len(), res.Location("L2").Structures.Len()}
			if got[0] != 2 || got[1] != 5 || got[2] != c.l2 || res.Stats.Messages != 0 {
				t.Errorf("L0, L1, L2: %v, %d messages; the reference: [2 5 %d], 0", got, res.Stats.Messages, c.l2)
			}
		})
	}
}

// A frame that is not p(v) <-> φ with an atom on the left (or a
// disjunction of such) is refused when the decomposing engine is built:
// TVLA 3's dtvla engine fails on each of these with an internal error (a
// class cast of the formula).
func TestFrameClauseShapeRefused(t *testing.T) {
	for _, clause := range []string{
		"%frame_pre t1(v)",
		"%frame_pre (t1(v) | a1(v)) <-> 0",
		"%frame_pre !t1(v) <-> 0",
		"%frame a1(v)",
		"%frame_pre (t1(v) <-> 0) & (t2(v) <-> 0)",
	} {
		t.Run(clause, func(t *testing.T) {
			compose := "%compose " + framedX
			if strings.HasPrefix(clause, "%frame_pre") {
				compose = clause + "\n  " + compose
			} else {
				compose += "\n  " + clause
			}
			text := strings.NewReplacer("%compose COMPOSE", compose, "MESSAGES", "").Replace(twoPointerThreads)
			_, err := New(testload.Text(t, text), Options{Join: JoinDecompose, Workers: 1, Differencing: true})
			if err == nil || !strings.Contains(err.Error(), "reads a frame as p(v) <-> φ") {
				t.Fatalf("error %v; want the frame refused", err)
			}
		})
	}
	// A disjunction of such equivalences is read (set_pldi08's frames
	// over the other threads); the reference runs it.
	text := strings.NewReplacer("%compose COMPOSE", "%frame_pre (t1(v) <-> a1(v)) | (t2(v) <-> 0)\n  %compose "+framedX, "MESSAGES", "").Replace(twoPointerThreads)
	if _, err := New(testload.Text(t, text), Options{Join: JoinDecompose, Workers: 1, Differencing: true}); err != nil {
		t.Errorf("a disjunction of frames refused: %v", err)
	}
}
