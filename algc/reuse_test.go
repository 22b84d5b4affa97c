package algc

import (
	"os"
	"strings"
	"testing"
)

// What memory reuse compiles to (docs/algorithms.md, "Memory reuse"):
// free marks the node freed; new has a reuse outcome through an
// internal location that picks one freed node; a cas on the tagged
// Head also needs a fresh snapshot, and a write of Head makes the live
// snapshots stale. Without free and tagged, none of it is generated.
func TestReuseCompiles(t *testing.T) {
	src, err := os.ReadFile("../programs/stack/treiber-tagged.alg")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile("treiber-tagged.alg", src)
	if err != nil {
		t.Fatal(err)
	}
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
	plain, err := os.ReadFile("../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	out, err = Compile("treiber.alg", plain)
	if err != nil {
		t.Fatal(err)
	}
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
