package algc

import (
	"os"
	"strings"
	"testing"
)

// The Ladan-Mozes–Shavit queue links its nodes newest to oldest:
// rcommutes, rcommutes2, has_T[spec], pre_S[spec], succ[x,y,f] and pre[X]
// compile to their definitions and rules, and a dequeue's removal keeps
// them (docs/lms-queue.md).
func TestRCommutes(t *testing.T) {
	out := compileFile(t, "../programs/queue/lms.alg")
	for _, want := range []string{
		"%i rcommutes(v) = E(u_1, u_2, u_3) next(v, u_1) & spec(v, u_2) & next(u_3, u_2) & spec(u_1, u_3)",
		"%r (E(v_3, v_4) rcommutes(v_1) & next(v_1, v_3) & spec(v_3, v_4) & next(v_4, v_2)) ==> spec(v_1, v_2)",
		"%i rcommutes2(v) = E(u_0, u_1, u_2, u_3) next(v, u_0) & next(u_0, u_1) & spec(v, u_2) & next(u_3, u_2) & spec(u_1, u_3)",
		"%r (E(v_3, v_4, v_5) rcommutes2(v_1) & next(v_1, v_5) & next(v_5, v_3) & spec(v_3, v_4) & next(v_4, v_2)) ==> spec(v_1, v_2)",
		"%i has_T[spec](v) = E(u) Tail_S(u) & spec(v, u)",
		"%r pre_S[spec](v_1) & has_S[spec](v_2) ==> next(v_1, v_2)",
		"%i succ[head,fnp,prev](v) = E(u_1, u_2) head(v, u_1) & fnp(v, u_2) & prev(u_1, u_2) THREAD_PRED",
		// pre[Head]: the node linked to Head, an abstraction predicate.
		"%i pre[Head](v) = E(u) Head(u) & next(v, u)\n",
		// The enqueue's node is related to the new Tail_S.
		"has_T[spec](v) = (E(ts) tr_scheduled(ts) & n(ts, v))",
		// A removal: the node related to the old Head_S and those one
		// link before it lose rcommutes.
		"rcommutes(v) = rcommutes(v) & !(E(w) spec(v, w) & Head_S(w)) & !(E(w, w_1) next(v, w_1) & spec(w_1, w) & Head_S(w))",
		"pre_S[spec](v) = E(w, w_1, w_2) next(v, w_2) & spec(w_2, w_1) & Head_S(w) & next(w, w_1)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
}

func TestRCommutesErrors(t *testing.T) {
	src, err := os.ReadFile("../programs/queue/lms.alg")
	if err != nil {
		t.Fatal(err)
	}
	for bad, want := range map[string]string{
		"rcommutes[next]":       "rcommutes takes no arguments",
		"succ[head,fnp,val]":    "succ[head,fnp,val]: val is not a pointer field",
		"succ[head,fnp,nosuch]": "succ[head,fnp,nosuch]: nosuch is not a pointer field",
		"pre[head]":             "pre[head]: head is not a shared pointer of the list type",
		"pre[Head,Tail]":        "pre takes one shared pointer: pre[X]",
	} {
		text := strings.Replace(string(src), "same[head,tail], rcommutes,", "same[head,tail], "+bad+",", 1)
		if text == string(src) {
			t.Fatal("lms.alg's instrument line changed: the test no longer edits it")
		}
		if _, err := Compile("lms.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", bad, err, want)
		}
	}
	stack, err := os.ReadFile("../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(stack), "spec stack;", "spec stack;\ninstrument add rcommutes;", 1)
	if _, err := Compile("treiber.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), "rcommutes needs a queue specification") {
		t.Errorf("rcommutes on a stack: error %v", err)
	}
}

// A step that moves Head focuses on the nodes linked to Head's new node
// when pre[Head] is requested (pairfocus.go), and only then: msqueue.alg,
// which does not request it, gets no such focus.
func TestPreFocus(t *testing.T) {
	out := compileFile(t, "../programs/queue/lms.alg")
	focus := "(E(w_pre) (E(ts) tr_scheduled(ts) & fnp(ts, w_pre)) & next(v, w_pre))"
	casOK := "cas(Head, head, fnp) succeeds\"\n  %f { "
	n := 0
	for _, part := range strings.Split(out.TVP, casOK)[1:] {
		line, _, _ := strings.Cut(part, "\n")
		if !strings.Contains(line, focus) {
			t.Errorf("a successful cas on Head does not focus on the node linked to fnp: %s", line)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d successful cas steps on Head, want 2 (the dummy's skip and the removal)", n)
	}
	if strings.Contains(out.TVP, "fnp(ts, w_pre)) & next(v, w_pre)) }\n  %p !(E(ts) tr_scheduled(ts) & ((A(") {
		t.Error("a failing cas focuses on the node linked to fnp")
	}
	if ms := compileFile(t, "../programs/queue/msqueue.alg"); strings.Contains(ms.TVP, "w_pre") {
		t.Error("msqueue.alg, which does not request pre[Head], gets the focus")
	}
}
