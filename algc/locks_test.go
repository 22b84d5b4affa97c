package algc

import (
	"os"
	"strings"
	"testing"
)

// A lock left held on some path to a return, or taken again while held,
// is an error at the lock statement; a lock released on every path is
// not.
func TestLockReleasedOnEveryPath(t *testing.T) {
	src, err := os.ReadFile("../programs/queue/twolock.alg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile("twolock.alg", src); err != nil {
		t.Fatalf("twolock.alg: %v", err)
	}
	cases := []struct{ old, new, want string }{
		// The empty dequeue returns without unlocking.
		{"\t\tunlock HeadLock;\n\t\treturn empty;", "\t\treturn empty;",
			"twolock.alg:40:2: lock HeadLock is not released on every path: dequeue can return holding it (after line 44)"},
		// The enqueue never unlocks.
		{"\tunlock TailLock;\n", "",
			"twolock.alg:29:2: lock TailLock is not released on every path: enqueue can return holding it (after line 33)"},
		// The enqueue takes its lock a second time.
		{"\tunlock TailLock;\n", "\tlock TailLock;\n\tunlock TailLock;\n",
			"twolock.alg:29:2: lock TailLock may be taken again at line 34 while this thread holds it: the thread would wait for itself forever"},
	}
	for _, c := range cases {
		text := strings.Replace(string(src), c.old, c.new, 1)
		if text == string(src) {
			t.Fatalf("%q not in twolock.alg", c.old)
		}
		_, err := Compile("twolock.alg", []byte(text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.new, err, c.want)
		}
	}
}
