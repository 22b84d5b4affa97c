package algc

import (
	"os"
	"strings"
	"testing"
)

// private[n] on Treiber's push: n.next = ss, stored while n's node is
// the thread's own, holds until the cas publishes it or the loop reads
// ss again: one rule guarded by the cas's location (yield only makes it
// a scheduling point), none where ss is re-read; a program that frees
// nodes is refused.
func TestPrivateFacts(t *testing.T) {
	src, err := os.ReadFile("../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "opval[n], opval[ss];", "opval[n], opval[ss], private[n];", 1)
	if text == string(src) {
		t.Fatal("treiber.alg's instrument line changed: the test no longer edits it")
	}
	out, err := Compile("treiber.alg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, l := range strings.Split(out.TVP, "\n") {
		if strings.Contains(l, "& n(v_1, v_2) & ss(v_1, v_3) ==>") {
			rules = append(rules, l)
		}
	}
	want := "%r (at[push31](v_1)) & n(v_1, v_2) & ss(v_1, v_3) ==> next(v_2, v_3)"
	if len(rules) != 1 || rules[0] != want {
		t.Fatalf("private[n]'s rules: %q, want [%q]", rules, want)
	}
	plain, err := Compile("treiber.alg", src)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.TVP, "ss(v_1, v_3) ==> next(v_2, v_3)") {
		t.Error("the rule is generated without private[n]")
	}

	bad := map[string]string{
		"private[Head]": "private takes one thread-local node variable: private[x]",
		"private[n,ss]": "private takes one thread-local node variable: private[x]",
		"private[lv]":   "private takes one thread-local node variable: private[x]",
		"private[n]":    "",
	}
	for name, want := range bad {
		text := strings.Replace(string(src), "opval[n], opval[ss];", "opval[n], opval[ss], "+name+";", 1)
		_, err := Compile("treiber.alg", []byte(text))
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", name, err, want)
		}
	}
	reuse, err := os.ReadFile("../programs/stack/treiber-reuse.alg")
	if err != nil {
		t.Fatal(err)
	}
	text = strings.Replace(string(reuse), "opval[n], opval[ss];", "opval[n], opval[ss], private[n];", 1)
	if text == string(reuse) {
		t.Fatal("treiber-reuse.alg's instrument line changed: the test no longer edits it")
	}
	if _, err := Compile("treiber-reuse.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), "private[n]: the program frees nodes") {
		t.Errorf("private[n] with free: error %v", err)
	}
}
