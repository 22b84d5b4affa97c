package algc

import (
	"os"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
)

func compileFile(t *testing.T, path string) *Output {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// action returns the text of the generated action titled title.
func action(tvpText, title string) string {
	i := strings.Index(tvpText, `%t "`+title+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(tvpText[i:], "\n}\n")
	return tvpText[i : i+j]
}

// The compiled stack: locations named by source lines, the cas failing
// back to the loop head with the dead snapshot cleared, the cas
// succeeding into the linearisation point with nothing cleared.
func TestCompileTreiber(t *testing.T) {
	out := compileFile(t, "../programs/stack/treiber.alg")
	for _, want := range []string{"%s Locs {idle, push_end, push31, push31_lp,", "ready schedule(push31) push31", "push31 push_3() push31_lp"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	fail := action(out.TVP, "push, line 31: cas(Head, ss, n) fails")
	if !strings.Contains(fail, "ss(v_1, v_2) = ss(v_1, v_2) & !tr_scheduled(v_1)") || !strings.Contains(fail, "at[push27](v) = at[push27](v) | tr_scheduled(v)") {
		t.Errorf("the failing cas does not clear ss and go back to line 27:\n%s", fail)
	}
	ok := action(out.TVP, "push, line 31: cas(Head, ss, n) succeeds")
	if strings.Contains(ok, "& !tr_scheduled(v_1)") {
		t.Errorf("the cas into the linearisation point clears a variable:\n%s", ok)
	}
	// n.val = lv writes n's private node: other threads' opval keep
	// their values.
	store := action(out.TVP, "push, line 25: n.val = lv")
	if !strings.Contains(store, "(tr_scheduled(v) ? 1/2 : opval[ss](v))") {
		t.Errorf("the store into a private node does not leave other threads' opval[ss] alone:\n%s", store)
	}
	// Every line of the model knows where it comes from or is generic.
	if len(out.Lines) != strings.Count(out.TVP, "\n") {
		t.Errorf("%d positions for %d lines", len(out.Lines), strings.Count(out.TVP, "\n"))
	}
}

// A definition that is a conjunction parses into its atoms; one with a
// closure or an implication does not.
func TestParseConj(t *testing.T) {
	c := parseConj("%i succ[n,ss](v) = E(u_1, u_2) n(v, u_1) & ss(v, u_2) & next(u_1, u_2) THREAD_PRED")
	if c == nil || len(c.vars) != 2 || len(c.atoms) != 3 || c.atoms[2].pred != "next" || c.atoms[2].args[1] != "u_2" {
		t.Fatalf("succ parsed as %+v", c)
	}
	if c := parseConj("%i shared[n](v) = E(u_1, u_2) n(u_1, v) & n(u_2, v) & u_1 != u_2"); c == nil || c.atoms[2].pred != "" {
		t.Errorf("shared parsed as %+v", c)
	}
	for _, d := range []string{"%i circ(v) = next+(v, v)", "%i reach[H](v) = E(u) H(u) & next*(u, v)", "%i o(v) = E(u) x(v, u) & (r(u) -> r(v)) nonabs"} {
		if c := parseConj(d); c != nil {
			t.Errorf("%s parsed as a conjunction: %+v", d, c)
		}
	}
}

// The guard of an overwrite is the definition with the overwritten atom
// replaced by the overwrite's condition.
func TestGuarded(t *testing.T) {
	c := parseConj("%i has[f](v) = E(u) f(v, u)")
	ites := map[string]*ite{"f": {pred: "f", arity: 2,
		cond: func(x string) string { return "A(" + x + ")" },
		val:  func(x, y string) string { return "B(" + y + ")" }}}
	u, ok := guarded("has[f]", c, ites, "")
	if !ok || u.rhs != "(((E(u) A(v) & (B(u) ? !f(v, u) : f(v, u)))) ? (E(u) (A(v) ? B(u) : f(v, u))) : has[f](v))" {
		t.Errorf("guarded has[f]: %q", u.rhs)
	}
	if _, ok := guarded("has[g]", parseConj("%i has[g](v) = E(u) g(v, u)"), ites, ""); ok {
		t.Error("a definition that does not read f got a guarded update")
	}
}

// Whatever parses and compiles loads as TVP (the generated model is
// well formed), and nothing panics.
func FuzzCompile(f *testing.F) {
	for _, p := range []string{"../programs/stack/treiber.alg", "../programs/queue/msqueue.alg", "../programs/queue/dglm.alg"} {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Compile("f.alg", src)
		if err != nil {
			return
		}
		cfg := tvp.LoadConfig{ReadFile: func(p string) ([]byte, error) {
			if p == "f.alg" {
				return src, nil
			}
			return nil, os.ErrNotExist
		}}
		if _, _, err := Load("f.alg", cfg); err != nil && !strings.Contains(string(src), "tvp") {
			t.Fatalf("compiled but does not load: %v\n%s", err, out.TVP)
		}
	})
}

// A value linearisation point keeps alive the variables that tie its
// value to the list: in lockstack.alg ss is last read by lv = ss.val,
// before Top = ssnext @lp(lv), and is cleared only after the point.
func TestLPKeepsWitnesses(t *testing.T) {
	out := compileFile(t, "../programs/stack/lockstack.alg")
	read := action(out.TVP, "pop, line 39: lv = ss.val")
	if read == "" || strings.Contains(read, "ss(v_1, v_2) = ss(v_1, v_2) & !tr_scheduled(v_1)") {
		t.Errorf("lv = ss.val clears ss before the linearisation point:\n%s", read)
	}
	after := action(out.TVP, "pop, line 40: linearisation point: the specification's pop() returns lv")
	if !strings.Contains(after, "ss(v_1, v_2) = ss(v_1, v_2) & !tr_scheduled(v_1)") {
		t.Errorf("the linearisation point does not clear ss, dead after it:\n%s", after)
	}
}

// The value check at a linearisation point also focuses on the
// scheduled thread's node of each variable it keeps alive: in
// shann-fixed.alg lv is x's value and x's node front's successor, and
// both the point and its failing twin split on front's and x's nodes,
// so that a thread whose stale and current snapshots a join merged is
// checked one case at a time. A point whose value is read through no
// recorded fact focuses on the value's variable only.
func TestLPFocusesWitnesses(t *testing.T) {
	out := compileFile(t, "../programs/queue/shann-fixed.alg")
	want := "(E(ts) tr_scheduled(ts) & lv(ts, v)), (E(ts) tr_scheduled(ts) & front(ts, v)), (E(ts) tr_scheduled(ts) & x(ts, v)) }"
	for _, title := range []string{"dequeue, line 82: linearisation point: the specification's dequeue() returns lv", "dequeue, line 82: linearisation point of dequeue fails"} {
		if a := action(out.TVP, title); !strings.Contains(a, want) {
			t.Errorf("%q does not focus on lv, front and x:\n%s", title, a)
		}
	}
	out = compileFile(t, "../programs/stack/lockstack.alg")
	if a := action(out.TVP, "pop, line 40: linearisation point: the specification's pop() returns lv"); !strings.Contains(a, "(E(ts) tr_scheduled(ts) & lv(ts, v)), (E(ts) tr_scheduled(ts) & ss(ts, v)) }") {
		t.Errorf("the pop's point does not focus on ss, the node lv was read from:\n%s", a)
	}
}

// same[x,X] with X a shared pointer: x points where X does, with the
// rules that give each side from the other.
func TestSameSharedPointer(t *testing.T) {
	out := compileFile(t, "../programs/queue/twolock.alg")
	for _, want := range []string{
		"%i same[sshead,Head](v) = E(u) sshead(v, u) & Head(u) THREAD_PRED",
		"%r same[sshead,Head](v_1) & Head(v_2) ==> sshead(v_1, v_2)",
		"%r same[sshead,Head](v_1) & sshead(v_1, v_2) ==> Head(v_2)",
		"%r same[sshead,Head](v) ==> has[sshead](v)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	src, err := os.ReadFile("../programs/queue/twolock.alg")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "same[sshead,Head]", "same[Head,sshead]", 1)
	if _, err := Compile("twolock.alg", []byte(bad)); err == nil || !strings.Contains(err.Error(), "same[Head,sshead]: Head is not a thread-local node variable") {
		t.Errorf("same[Head,sshead]: error %v", err)
	}
}

// A step that clears the thread's variable x and overwrites a field
// clears what needed x for the scheduled thread only: another thread
// whose facts read the field gets them re-evaluated over the overwrite
// (deq-reset-next.alg's sshead.next = null left another thread's
// succ[sshead,ssnext] at 1, a breach of its rule).
func TestClearedAndOverwritten(t *testing.T) {
	out := compileFile(t, "../programs/queue/bugs/deq-reset-next.alg")
	st := action(out.TVP, "dequeue, line 83: sshead.next = null")
	want := "succ[sshead,ssnext](v) = (tr_scheduled(v) ? (succ[sshead,ssnext](v) & !tr_scheduled(v)) : (((E(u_1, u_2) sshead(v, u_1) & ssnext(v, u_2) & (E(ts) tr_scheduled(ts) & sshead(ts, u_1)) & ((E(ts) tr_scheduled(ts) & 0) ? !next(u_1, u_2) : next(u_1, u_2))))"
	if !strings.Contains(st, want) {
		t.Errorf("other threads' succ[sshead,ssnext] is not re-evaluated over the store:\n%s", st)
	}
	// Where the step overwrites no field, other threads keep their
	// values as they are (the update's shape tells finite differencing).
	fail := action(compileFile(t, "../programs/stack/treiber.alg").TVP, "pop, line 51: cas(Head, ss, ssnext) fails")
	if !strings.Contains(fail, "opval[ss](v) = opval[ss](v) & !tr_scheduled(v)") {
		t.Errorf("a failing cas's cleared opval[ss] is not the plain form:\n%s", fail)
	}
}

// A step that clears x and moves the shared pointer X changes
// same[x,X] for every thread, not only the scheduled one: the plain
// "false for the scheduled thread" update would keep another thread's
// same[rear,Rear] at 1 after cas(Rear, rear, n) moved Rear (Coerce found
// its rule breached with two threads), so it is left to finite
// differencing; where X does not move, the plain form stays.
func TestClearedAndSharedMoved(t *testing.T) {
	out := compileFile(t, "../programs/queue/shann-fixed.alg")
	plain := "same[rear,Rear](v) = same[rear,Rear](v) & !tr_scheduled(v)"
	moved := action(out.TVP, "enqueue, line 49: cas(Rear, rear, n) succeeds")
	if moved == "" || strings.Contains(moved, "same[rear,Rear](v) =") {
		t.Errorf("cas(Rear, rear, n) succeeding updates same[rear,Rear] explicitly:\n%s", moved)
	}
	failed := action(out.TVP, "enqueue, line 49: cas(Rear, rear, n) fails")
	if !strings.Contains(failed, plain) {
		t.Errorf("cas(Rear, rear, n) failing does not clear same[rear,Rear] for the thread:\n%s", failed)
	}
}

// A write of a snapshot focuses on the other snapshot a generated
// predicate relates it to (same[sshead,sstail], succ[sstail,n]), so that
// the predicate's new value is definite; a snapshot that is not related
// to the written one is not focused.
func TestPairFocus(t *testing.T) {
	out := compileFile(t, "../programs/queue/msqueue.alg")
	deqTail := action(out.TVP, "dequeue, line 63: sstail = Tail")
	if !strings.Contains(deqTail, "%f {") || !strings.Contains(deqTail, "(E(ts) tr_scheduled(ts) & sshead(ts, v))") {
		t.Errorf("sstail = Tail does not focus on sshead (same[sshead,sstail]):\n%s", deqTail)
	}
	enqTail := action(out.TVP, "enqueue, line 36: sstail = Tail")
	if !strings.Contains(enqTail, "(E(ts) tr_scheduled(ts) & n(ts, v))") {
		t.Errorf("sstail = Tail does not focus on n (succ[sstail,n]):\n%s", enqTail)
	}
	// The data variable of opval[n] is not a node: lv = ssnext.val
	// focuses only on what it reads.
	val := action(out.TVP, "dequeue, line 78: lv = ssnext.val")
	if strings.Contains(val, "sshead(ts, v)") || strings.Contains(val, "n(ts, v)") {
		t.Errorf("lv = ssnext.val focuses on a node variable it does not read:\n%s", val)
	}
}

// The specification's nodes are a sort of their own: its steps make
// them, and no variable, shared pointer or link of the algorithm reaches
// them.
func TestSpecSort(t *testing.T) {
	out := compileFile(t, "../programs/queue/dglm.alg")
	for _, want := range []string{"%p is_spec(v)", "%r Tail_S(v) ==> is_spec(v)", "%r is_spec(v) ==> !Tail(v)",
		"%r is_spec(v_2) ==> !ssnext(v_1, v_2)", "%r !is_spec(v_1) & next(v_1, v_2) ==> !is_spec(v_2)", "%r spec(v_1, v_2) ==> is_spec(v_2)"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	lp := action(out.TVP, "enqueue, line 43: linearisation point: the specification's enqueue(lv)")
	if !strings.Contains(lp, "is_spec(v) = is_spec(v) | isNew(v)") {
		t.Errorf("the specification's enqueue does not make its node a specification node:\n%s", lp)
	}
	if a := action(out.TVP, "enqueue, line 33: n = new Node"); a == "" || strings.Contains(a, "is_spec") {
		t.Errorf("the algorithm's allocation touches is_spec:\n%s", a)
	}
}

// past[x,X] and ordered[x,y] hold vacuously, collapsed only: the
// declarations, the rule that keeps x out of X's list behind X, and the
// initial structure's 1 on every individual (with and without garbage);
// a misuse is refused with a reason.
func TestPastAndOrdered(t *testing.T) {
	out := compileFile(t, "../programs/queue/msqueue.alg")
	collapsed := out.TVP[strings.Index(out.TVP, "#ifdef COLLAPSE_THREADS\n%i "):]
	for _, want := range []string{
		"%i ordered[sshead,sstail](v) = !(E(u_1, u_2) sshead(v, u_1) & sstail(v, u_2) & reach[Head](u_1) & !reach[Head](u_2)) nonabs",
		"%i past[sshead,Head](v) = !(E(u) sshead(v, u) & reach[Head](u) & !Head(u)) nonabs",
		"%r past[sshead,Head](v_1) & reach[Head](v_2) & !Head(v_2) ==> !sshead(v_1, v_2)",
		"%i on[sshead,Tail](v) = E(u) sshead(v, u) & Tail(u) nonabs",
		"%r on[sshead,Tail](v_1) & sshead(v_1, v_2) ==> Tail(v_2)",
	} {
		if !strings.Contains(collapsed, want) {
			t.Errorf("the collapsed declarations lack %q", want)
		}
	}
	if strings.Contains(out.TVP, "ordered[sshead,sstail](v) ==> has[") {
		t.Error("ordered still implies has[...], which a vacuous definition does not")
	}
	// The vacuous facts hold on every thread and node of the initial
	// structure: msqueue.alg declares garbage none; with garbage, on
	// the garbage too.
	if want := "#ifdef COLLAPSE_THREADS\n  ordered[sshead,sstail] = {t, d}\n  past[sshead,Head] = {t, d}\n  past[sstail,Tail] = {t, d}\n#endif\n"; !strings.Contains(out.TVS, want) {
		t.Errorf("the initial structure lacks %q:\n%s", want, out.TVS)
	}
	src, err := os.ReadFile("../programs/queue/msqueue.alg")
	if err != nil {
		t.Fatal(err)
	}
	some, err := Compile("msqueue.alg", []byte(strings.Replace(string(src), "garbage none;", "garbage some;", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "#ifdef COLLAPSE_THREADS\n#ifdef GARBAGE\n  ordered[sshead,sstail] = {t, gn, g0, d}\n  past[sshead,Head] = {t, gn, g0, d}\n  past[sstail,Tail] = {t, gn, g0, d}\n#else\n  ordered[sshead,sstail] = {t, d}\n  past[sshead,Head] = {t, d}\n  past[sstail,Tail] = {t, d}\n#endif\n#endif\n"; !strings.Contains(some.TVS, want) {
		t.Errorf("with garbage, the initial structure lacks %q:\n%s", want, some.TVS)
	}
	for bad, msg := range map[string]string{
		"past[sshead,Tail_S]": "past[sshead,Tail_S]: Tail_S is not a shared pointer of the list type",
		"past[Head,sshead]":   "past[Head,sshead]: Head is not a thread-local node variable",
		"past[sshead]":        "past takes a thread-local node variable and a shared pointer: past[x,X]",
		"on[Tail,sshead]":     "on takes a thread-local node variable and a shared pointer: on[x,X]",
	} {
		text := strings.Replace(string(src), "ordered[sshead,sstail], past[sshead,Head],", "ordered[sshead,sstail], "+bad+",", 1)
		if _, err := Compile("msqueue.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", bad, err, msg)
		}
	}
}

// `x.val = any` gives the node some data value, as a data parameter is
// chosen: val 1/2 to the data individual, has[val] definitely 1 (so the
// initial dummy, once dequeued, is like any other removed node). The
// queue's insertion step updates commutes by the exact formula, not by
// finite differencing.
func TestAnyValueAndCommutes(t *testing.T) {
	out := compileFile(t, "../programs/queue/dglm.alg")
	st := action(out.TVP, "init, line 24: dummy.val = any")
	for _, want := range []string{
		"val(v_1, v_2) = ((E(ts) tr_scheduled(ts) & dummy(ts, v_1)) ? (E(ts) tr_scheduled(ts) & is_data(v_2) & 1/2) : val(v_1, v_2))",
		"has[val](v) = ((E(ts) tr_scheduled(ts) & dummy(ts, v)) ? (E(ts) tr_scheduled(ts) & 1) : has[val](v))",
	} {
		if !strings.Contains(st, want) {
			t.Errorf("dummy.val = any lacks %q:\n%s", want, st)
		}
	}
	lp := action(out.TVP, "enqueue, line 43: linearisation point: the specification's enqueue(lv)")
	if want := "commutes(v) = commutes(v) | (E(w, w_1) (E(ts) tr_scheduled(ts) & n(ts, w)) & next(v, w) & spec(v, w_1) & Tail_S(w_1))"; !strings.Contains(lp, want) {
		t.Errorf("the enqueue's specification step lacks %q:\n%s", want, lp)
	}
}

// `garbage none;` leaves the initial garbage out of collapsed runs;
// without it a program of one node type with a link has it.
func TestGarbageDeclaration(t *testing.T) {
	if out := compileFile(t, "../programs/queue/dglm.alg"); strings.Contains(out.TVS, "#define GARBAGE") {
		t.Errorf("dglm.alg declares garbage none, but its input defines GARBAGE:\n%s", out.TVS)
	}
	if out := compileFile(t, "../programs/stack/treiber.alg"); !strings.Contains(out.TVS, "#define GARBAGE") {
		t.Errorf("treiber.alg's input has no garbage:\n%s", out.TVS)
	}
}

// unset[x,f]: x's node has the boolean field f false, collapsed only,
// with the rules that give f (or !f) back to x's node; a misuse is
// refused with a reason.
func TestUnsetFamily(t *testing.T) {
	src, err := os.ReadFile("../programs/queue/shann-fixed.alg")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "instrument add succ[rear,n],", "instrument add unset[x,taken], succ[rear,n],", 1)
	out, err := Compile("shann-fixed.alg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(out.TVP, "#ifdef COLLAPSE_THREADS\n%i ")
	if i < 0 {
		t.Fatal("no collapsed declarations")
	}
	collapsed := out.TVP[i:]
	for _, want := range []string{
		"%i unset[x,taken](v) = E(u) x(v, u) & !taken(u) nonabs",
		"%r !unset[x,taken](v_1) & x(v_1, v_2) ==> taken(v_2)",
		"%r unset[x,taken](v_1) & x(v_1, v_2) ==> !taken(v_2)",
		"%r unset[x,taken](v) ==> has[x](v)",
	} {
		if !strings.Contains(collapsed, want) {
			t.Errorf("the collapsed declarations lack %q", want)
		}
	}
	if strings.Contains(out.TVP[:i], "unset[") {
		t.Error("unset[x,taken] is declared outside COLLAPSE_THREADS")
	}
	// Setting taken can only make unset[x,taken] false, and the update
	// says so in the form finite differencing reads as "only loses";
	// clearing it (a variant of init) can only make it true.
	if st := action(out.TVP, "dequeue, line 82: cas(x.taken, false, true) succeeds"); !strings.Contains(st, "unset[x,taken](v) = unset[x,taken](v) & (((E(u) x(v, u) & ") {
		t.Errorf("the cas setting taken does not update unset[x,taken] as only losing:\n%s", st)
	}
	cleared, err := Compile("shann-fixed.alg", []byte(strings.Replace(text, "dummy.taken = true;", "dummy.taken = false;", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if st := action(cleared.TVP, "init, line 26: dummy.taken = false"); !strings.Contains(st, "unset[x,taken](v) = unset[x,taken](v) | (((E(u) x(v, u) & ") {
		t.Errorf("the store clearing taken does not update unset[x,taken] as only gaining:\n%s", st)
	}
	for bad, msg := range map[string]string{
		"unset[x,next]":      "unset takes a thread-local node variable and a boolean field: unset[x,f]",
		"unset[Front,taken]": "unset takes a thread-local node variable and a boolean field: unset[x,f]",
		"unset[x]":           "unset takes a thread-local node variable and a boolean field: unset[x,f]",
	} {
		text := strings.Replace(string(src), "instrument add succ[rear,n],", "instrument add "+bad+", succ[rear,n],", 1)
		if _, err := Compile("shann-fixed.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", bad, err, msg)
		}
	}
}

// A step that clears x and writes the boolean field f re-evaluates
// unset[x,f] where f changed (guarded.go's overwrite): f may change on
// the node of another thread's x too, so "false for the scheduled
// thread, the others keep theirs" (what clearing x alone gives) would be
// wrong for them.
func TestUnsetClearedWhereFieldWritten(t *testing.T) {
	src, err := os.ReadFile("../programs/queue/shann-fixed.alg")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "\t\t\t\t\t\tcas(Front, front, nx);  // cas(FRONT, front, front+1)", "\t\t\t\t\t\tnx.taken = true;", 1)
	if text == string(src) {
		t.Fatal("the help cas is not in shann-fixed.alg")
	}
	out, err := Compile("shann-fixed.alg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	st := action(out.TVP, "dequeue, line 94: nx.taken = true")
	if st == "" {
		t.Fatal("no action for line 94")
	}
	if !strings.Contains(st, "has[nx](v) = has[nx](v) & !tr_scheduled(v)") {
		t.Errorf("the step does not clear nx:\n%s", st)
	}
	if strings.Contains(st, "unset[nx,taken](v) = unset[nx,taken](v) & !tr_scheduled(v)") {
		t.Errorf("unset[nx,taken] is cleared for the scheduled thread only, where taken is written:\n%s", st)
	}
}

// Under memory reuse a new node may be a freed one that another thread's
// dangling pointer still reaches, so a store into it is not private:
// other threads' opval[ss] become unknown, where treiber.alg (which has
// a garbage collector) keeps them (TestCompileTreiber).
func TestReusedNodeIsNotPrivate(t *testing.T) {
	out := compileFile(t, "../programs/stack/treiber-reuse.alg")
	store := action(out.TVP, "push, line 23: n.val = lv")
	if store == "" {
		t.Fatal("treiber-reuse.alg has no action for line 23's n.val = lv: the test no longer finds the store")
	}
	if !strings.Contains(store, "(tr_scheduled(v) ? 1/2 : 1/2) : opval[ss](v))") {
		t.Errorf("the store into a possibly reused node keeps other threads' opval[ss]:\n%s", store)
	}
}
