package algc

import (
	"os"
	"strings"
	"testing"
)

// The partner linearisation point of elimination.alg is part of the
// cas's success action: one action moves Slot and sets both threads'
// doneLP, a companion raises the messages, the push keeps its parameter
// live, and the collapsed model gets the partner's rules.
func TestPartnerLinearisation(t *testing.T) {
	src, err := os.ReadFile("../programs/stack/elimination.alg")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile("elimination.alg", src)
	if err != nil {
		t.Fatal(err)
	}
	ok := actionText(t, out.TVP, "pop, line 69: cas(Slot, o, null) succeeds; linearisation point")
	for _, want := range []string{
		"Slot(v) = (E(ts) tr_scheduled(ts) & 0)",
		"doneLP(v) = doneLP(v) | tr_scheduled(v) | (!tr_scheduled(v) & (E(",
		"& at[push41](v)",
	} {
		if !strings.Contains(ok, want) {
			t.Errorf("the cas's success action has no %q:\n%s", want, ok)
		}
	}
	fails := actionText(t, out.TVP, "pop, line 69: linearisation point of pop after push fails")
	for _, want := range []string{
		`"linearisability: push linearises twice (eliminated again by pop, line 69)"`,
		`"linearisability: pop returns a value other than its partner push's (pop, line 69)"`,
	} {
		if !strings.Contains(fails, want) {
			t.Errorf("the failure action has no %s:\n%s", want, fails)
		}
	}
	// No step between the cas and the specification: no pop69_lp.
	if strings.Contains(out.TVP, "pop69_lp") {
		t.Error("a location pop69_lp between the cas and its linearisation point")
	}
	// The push's lv is read at every step of its body: no step of push
	// clears it before the response location.
	for _, a := range strings.Split(out.TVP, "%action ")[1:] {
		if strings.Contains(a, `%t "push, line`) && !strings.Contains(a, "at[push_end](v) | tr_scheduled(v)") && !strings.Contains(a, "return from push") && strings.Contains(a, "lv(v_1, v_2) = lv(v_1, v_2) & !tr_scheduled(v_1)") {
			t.Errorf("a push step clears lv:\n%s", a)
		}
	}
	for _, want := range []string{
		"%r !shared[n](v) & n(v_1, v) & n(v_2, v) ==> v_1 == v_2",
		"%r isthread(v) & !at[idle](v) & !at[push_end](v)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the model has no %q", want)
		}
	}
	// On a statement other than a cas the point is a step of its own.
	bug, err := os.ReadFile("../programs/stack/bugs/take-no-cas.alg")
	if err != nil {
		t.Fatal(err)
	}
	out, err = Compile("take-no-cas.alg", bug)
	if err != nil {
		t.Fatal(err)
	}
	actionText(t, out.TVP, "pop, line 70: linearisation point: the specification's push(lv) of the thread whose n is o, then pop() returns lv")
}

// actionText returns the text of the action titled title.
func actionText(t *testing.T, tvp, title string) string {
	t.Helper()
	i := strings.Index(tvp, `%t "`+title)
	if i < 0 {
		t.Fatalf("no action %q", title)
	}
	j := strings.Index(tvp[i:], "\n}")
	return tvp[i : i+j]
}
