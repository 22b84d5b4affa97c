package algc

import (
	"os"
	"strings"
	"testing"
)

// The points of snark-doherty.alg decided later: the DCAS's "for" step
// removes the specification's end once per node and records the debt and
// who may take it (a popLeft only on a one-node deque), a second "for"
// step on the same node does nothing, the claim's "from" step checks and
// clears the debt, and a response may not leave one it created.
func TestClaimCompile(t *testing.T) {
	src, err := os.ReadFile("../programs/deque/snark-doherty.alg")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile("snark-doherty.alg", src)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.TVP, eligMark) {
		t.Fatalf("a placeholder %s is left in the model", eligMark)
	}
	forStep := actionText(t, out.TVP, "popRight, line 128: linearisation point for the taker of rh's node")
	for _, want := range []string{
		"owed_S(v) = owed_S(v) | (E(ts) tr_scheduled(ts) & rh(ts, v))",
		"creator_S(v_1, v_2) = creator_S(v_1, v_2) | tr_scheduled(v_1) & (E(ts) tr_scheduled(ts) & rh(ts, v_2))",
		"Tail_S(v) = E(w) Tail_S(w) & right(v, w)",
		"at[popRight140](v_1)",
		"at[popLeft179](v_1)",
		"& (E(w_e) Head_S(w_e) & Tail_S(w_e))",
		"%retain !gone_S(v)",
	} {
		if !strings.Contains(forStep, want) {
			t.Errorf("the for step has no %q:\n%s", want, forStep)
		}
	}
	again := actionText(t, out.TVP, "popRight, line 128: rh's node has had its removal linearised: nothing to do")
	if strings.Contains(again, "Tail_S(v) =") {
		t.Errorf("the second for step on a node changes the specification:\n%s", again)
	}
	take := actionText(t, out.TVP, "popRight, line 140: linearisation point: popRight() takes the removal")
	for _, want := range []string{"doneLP(v) = doneLP(v) | tr_scheduled(v)", "owed_S(v) = owed_S(v) & !", "elig_S(ts, w_"} {
		if !strings.Contains(take, want) {
			t.Errorf("the take has no %q:\n%s", want, take)
		}
	}
	end := actionText(t, out.TVP, "popRight, line 111: return from popRight fails")
	if !strings.Contains(end, "returns before any thread took the removal it linearised") {
		t.Errorf("the response does not check the creator's debt:\n%s", end)
	}
	for _, want := range []string{"%i elig_S[rh](v) = E(u) rh(v, u) & elig_S(v, u) THREAD_PRED", "%r creator_S(v_1, v_2) ==> elig_S(v_1, v_2)", "%i owedsame_S(v) = E(u) owedval_S(v, u) & val(v, u)"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the model has no %q", want)
		}
	}
	// Programs without such points have none of it.
	plain, err := os.ReadFile("../programs/deque/snark.alg")
	if err != nil {
		t.Fatal(err)
	}
	o2, err := Compile("snark.alg", plain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(o2.TVP, "owed_S") {
		t.Error("snark.alg's model declares the claim predicates")
	}
}
