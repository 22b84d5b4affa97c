package algc

import (
	"strings"
	"testing"
)

// What memory reuse compiles to (docs/algorithms.md, "Memory reuse"):
// free marks the node freed; new has a reuse outcome through an
// internal location that picks one freed node; a cas on the tagged
// Head also needs a fresh snapshot, and a write of Head makes the live
// snapshots stale. Without free and tagged, none of it is generated.
func TestReuseCompiles(t *testing.T) {
	out := compileFile(t, "../programs/stack/treiber-tagged.alg")
	for _, want := range []string{
		"%p freed(v)\n%p reuse_pick(v) unique",
		"%p stale[Head,ss](v) THREAD_PRED",
		`%t "push, line 22: n = new Node reuses a freed node"`,
		"%p E(w) freed(w)",
		"%f { reuse_pick(v)",
		"freed(v) = freed(v) | (E(ts) tr_scheduled(ts) & ss(ts, v))",
		"%p (E(ts) tr_scheduled(ts) & ((A(w_4) (Head(w_4) <-> ss(ts, w_4))) & !stale[Head,ss](ts)))",
		"stale[Head,ss](v) = stale[Head,ss](v) & !tr_scheduled(v)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the model has no %q", want)
		}
	}
	// The pick and the take are one atomic step: no thread is scheduled
	// at the location between them.
	if !strings.Contains(out.TVP, "push22 push_") || !strings.Contains(out.TVP, "push22_reuse push_") || strings.Contains(out.TVP, "schedule(push22_reuse)") {
		t.Error("the reuse location is missing or is a scheduling point")
	}
	out = compileFile(t, "../programs/stack/treiber.alg")
	for _, no := range []string{"freed", "reuse_pick", "stale["} {
		if strings.Contains(out.TVP, no) {
			t.Errorf("treiber.alg's model mentions %s", no)
		}
	}
}

// free is refused where a freed node could be reused as another type.
func TestFreeWithTwoTypes(t *testing.T) {
	src := `algorithm a;
spec stack;
type Node { next: Node; val: data; }
type Other { link: Other; }
shared Head: Node;
op push(lv: data) {
	local n: Node;
	n = new Node;
	n.val = lv;
	cas(Head, null, n) @lp;
	free n;
}
`
	_, err := Compile("two.alg", []byte(src))
	want := "two.alg:11:2: free in a program with several node types is not supported yet"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// A tagged field (docs/memory-reuse.md): the snapshot
// tnext = sstail.next is stale once any thread writes next in the node
// its sstail points to (the enqueue's own reset of a reused node's next
// included), a cas on sstail.next needs it fresh, and a comparison of a
// tagged shared pointer with its snapshot compares the counters too.
func TestTaggedFieldCompiles(t *testing.T) {
	out := compileFile(t, "../programs/queue/msqueue-tagged.alg")
	for _, want := range []string{
		"%p stale[next,tnext](v) THREAD_PRED",
		"%p stale[Tail,sstail](v) THREAD_PRED",
		// the cas on the tagged field
		"%p (E(ts) tr_scheduled(ts) & ((A(w_2) ((E(w_3) sstail(ts, w_3) & next(w_3, w_2)) <-> tnext(ts, w_2))) & !stale[next,tnext](ts)))",
		// its success writes next in sstail's node: other threads whose
		// sstail is that node and whose tnext is live are now stale
		"stale[next,tnext](v) = (tr_scheduled(v) ? 0 : (stale[next,tnext](v) | ((at[enqueue47](v) | at[enqueue52](v) | at[enqueue44](v) | at[enqueue43](v)) & (E(w_27) sstail(v, w_27) & (E(ts) tr_scheduled(ts) & sstail(ts, w_27))))))",
		// n.next = null on a (possibly reused) node
		"(E(w_29) sstail(v, w_29) & (E(ts) tr_scheduled(ts) & n(ts, w_29)))",
		// with collapsed threads the reset focuses on the threads whose
		// flag it sets, the bounded model keeps its focus
		"#ifdef COLLAPSE_THREADS\n  %f { (E(ts) tr_scheduled(ts) & n(ts, v)), (at[enqueue47](v) | at[enqueue52](v) | at[enqueue44](v) | at[enqueue43](v)) & (E(w_hit) sstail(v, w_hit) & (E(ts) tr_scheduled(ts) & n(ts, w_hit))) }\n#else\n  %f { (E(ts) tr_scheduled(ts) & n(ts, v)) }\n#endif",
		// and so does the cas on sstail.next
		"tr_scheduled(v) & stale[next,tnext](v), (at[enqueue47](v) | at[enqueue52](v) | at[enqueue44](v) | at[enqueue43](v)) & (E(w_hit) sstail(v, w_hit) & (E(ts) tr_scheduled(ts) & sstail(ts, w_hit))) }",
		// with collapsed threads a current snapshot points where the
		// shared pointer does (both forms, as consistency rules)
		"#ifdef COLLAPSE_THREADS\n%r (at[dequeue84](v_1) | at[dequeue83](v_1) | at[dequeue83_lp](v_1) | at[dequeue81](v_1) | at[dequeue73](v_1) | at[dequeue72](v_1) | at[dequeue70](v_1) | at[dequeue70_lp](v_1) | at[dequeue70_lpif](v_1) | at[dequeue66](v_1)) & !stale[Head,sshead](v_1) & sshead(v_1, v_2) ==> Head(v_2)\n",
		"at[dequeue70_lpif](v_1)) & sstail(v_1, v_2) & !Tail(v_2) ==> stale[Tail,sstail](v_1)\n#endif\n",
		// the read takes the counter
		"stale[next,tnext](v) = stale[next,tnext](v) & !tr_scheduled(v)",
		// sstail == Tail compares the counters
		"%p (E(ts) tr_scheduled(ts) & ((A(w_9) (sstail(ts, w_9) <-> Tail(w_9))) & !stale[Tail,sstail](ts)))",
		// the empty linearisation point's test of sshead == Head too
		"((A(w_23) (sshead(ts, w_23) <-> Head(w_23))) & !stale[Head,sshead](ts))",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the model has no %q", want)
		}
	}
	// Untagged, the same comparisons are of addresses only.
	out = compileFile(t, "../programs/queue/msqueue-reuse.alg")
	if strings.Contains(out.TVP, "stale[") {
		t.Error("msqueue-reuse.alg's model has stale predicates")
	}
}

// Assigning the base of a live field snapshot makes it stale: the
// snapshot no longer describes the node the base points to.
func TestTaggedFieldRebase(t *testing.T) {
	src := `algorithm a;
spec stack;
type Node { next: Node tagged; val: data; }
shared Head: Node;
op push(lv: data) {
	local n, b, x: Node;
	n = new Node;
	n.val = lv;
	b = Head;
	x = b.next;
	b = Head;
	yield;
	cas(b.next, x, n) @lp;
}
op pop(): data {
	local ss: Node;
	ss = Head @lp(empty) if ss == null;
	return empty;
}
`
	out, err := Compile("rebase.alg", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := "stale[next,x](v) = stale[next,x](v) | tr_scheduled(v)"; !strings.Contains(out.TVP, want) {
		t.Errorf("the model has no %q", want)
	}
}

// past[x,X] and ordered[x,y] with x a snapshot of a tagged shared
// pointer speak only of threads whose snapshot is current: a stale
// snapshot's node may have been freed and reused anywhere, even put back
// into the list, so the definitions hold vacuously where the stale flag
// does, and their rules apply only where it does not. A variable that
// snapshots nothing (msqueue.alg's, TestPastAndOrdered) keeps the plain
// definitions.
func TestStaleGuardedFamilies(t *testing.T) {
	out := compileFile(t, "../programs/queue/msqueue-tagged.alg")
	for _, want := range []string{
		"%i ordered[sshead,sstail](v) = stale[Head,sshead](v) | !(E(u_1, u_2) sshead(v, u_1) & sstail(v, u_2) & reach[Head](u_1) & !reach[Head](u_2)) nonabs",
		"%r (E(v_1, v_2) ordered[sshead,sstail](v_1) & !stale[Head,sshead](v_1) & sshead(v_1, v_2) & sstail(v_1, v) & reach[Head](v_2)) ==> reach[Head](v)",
		"%i past[sstail,Tail](v) = stale[Tail,sstail](v) | !(E(u) sstail(v, u) & reach[Tail](u) & !Tail(u)) nonabs",
		"%r past[sstail,Tail](v_1) & !stale[Tail,sstail](v_1) & reach[Tail](v_2) & !Tail(v_2) ==> !sstail(v_1, v_2)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the tagged queue's model has no %q", want)
		}
	}
	plain := compileFile(t, "../programs/queue/msqueue.alg")
	if strings.Contains(plain.TVP, "stale[") {
		t.Error("msqueue.alg, which tags nothing, has stale flags")
	}
}

// Ownership (private.go): a node the enqueue took from the freed ones is
// its own until the cas links it, though another thread may still point
// to it through a dangling pointer, never through a variable that owns a
// node itself. So n.val = lv changes another thread's opval[n] only if
// that thread is outside the lines where its n is owned, and n.next =
// null another thread's tonull[n] likewise; a free ends ownership.
func TestOwnedNodeFacts(t *testing.T) {
	out := compileFile(t, "../programs/queue/msqueue-tagged.alg")
	owned := "(tr_scheduled(v) | !(at[enqueue47](v) | at[enqueue52](v) | at[enqueue44](v) | at[enqueue43](v) | at[enqueue41](v) | at[enqueue39](v) | at[enqueue37](v) | at[enqueue36](v)))"
	for _, want := range []string{
		"opval[n](v) = ((E(w_k) n(v, w_k) & (E(ts) tr_scheduled(ts) & n(ts, w_k)) & " + owned + ") ? ",
		"tonull[n](v) = (((E(u) n(v, u) & (E(ts) tr_scheduled(ts) & n(ts, u)) & ((E(ts) tr_scheduled(ts) & 0) ? !has[next](u) : has[next](u)) & " +
			strings.TrimSuffix(owned, ")") + " | !(E(ts) tr_scheduled(ts) & n(ts, u))))",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("the model has no %q", want)
		}
	}
	// The dequeue frees sshead, which it never owns: no fact names it.
	if strings.Contains(out.TVP, "!(at[dequeue") && strings.Contains(out.TVP, "| !(E(ts) tr_scheduled(ts) & sshead(ts,") {
		t.Error("an owner fact names the dequeue's sshead")
	}
	// Without free, stores into private nodes keep the stronger guard.
	out = compileFile(t, "../programs/queue/msqueue.alg")
	if strings.Contains(out.TVP, "(tr_scheduled(v) | !(at[enqueue") {
		t.Error("msqueue.alg, which frees nothing, has owner facts")
	}
}
