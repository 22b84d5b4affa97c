package driver

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/predicates"
)

func TestParseSoftSet(t *testing.T) {
	set, err := ParseSoftSet("x.soft", []byte("# a comment\npair push9 has[ss] doneLP # why\n\nheld if[push9,has[ss]]\npair pop4 has[ss] opval[ss] stale[Head,ss]\nheld nif[idle,doneLP]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := predicates.SoftPair{Location: "push9", Q: "has[ss]", P: "doneLP"}
	guarded := predicates.SoftPair{Location: "pop4", Q: "has[ss]", P: "opval[ss]", G: "stale[Head,ss]"}
	if len(set.Pairs) != 2 || set.Pairs[0] != want || set.Pairs[1] != guarded || strings.Join(set.Names, " ") != "if[push9,has[ss]] nif[idle,doneLP]" {
		t.Errorf("parsed %+v", set)
	}
	for text, want := range map[string]string{
		"held a\npair push9 has[ss]\n": "x.soft:2:1: a pair line is: pair LOCATION Q P, or pair LOCATION Q P G",
		"  held\n":                     "x.soft:1:3: a held line is: held NAME",
		"held a\nkeep b\n":             `x.soft:2:1: "keep": a line of a soft-invariant set starts with pair or held`,
		"# nothing\npair a b c\n":      "x.soft: no soft invariants (held lines) in the set",
	} {
		_, err := ParseSoftSet("x.soft", []byte(text))
		if err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// Only --soft-from and --soft-save on a TVP program without generated
// soft invariants is a flag error; an algorithm with --collapse-threads
// generates them by default, so the flags are fine there.
func TestSoftSetFlagsNeedGeneration(t *testing.T) {
	c := Defaults("x.tvp")
	c.CollapseThreads, c.Soft.Save = true, "x.soft"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--soft-from and --soft-save need generated soft invariants") {
		t.Errorf("TVP without --soft-invariants: %v", err)
	}
	c.Soft.Mode = SoftAuto
	if err := c.Validate(); err != nil {
		t.Errorf("TVP with --soft-invariants auto: %v", err)
	}
}

// Any text either parses into a set with held names or gives a
// positioned error; it never panics.
func FuzzParseSoftSet(f *testing.F) {
	f.Add([]byte("# x\npair push9 has[ss] doneLP\nheld if[push9,has[ss]]\n"))
	f.Add([]byte("held a\npair a b\n"))
	f.Add([]byte("keep\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseSoftSet("f.soft", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.soft:") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if len(set.Names) == 0 {
			t.Fatal("a set without held names parsed")
		}
		for _, p := range set.Pairs {
			if p.Location == "" || p.Q == "" || p.P == "" {
				t.Fatalf("empty field in %+v", p)
			}
		}
	})
}
