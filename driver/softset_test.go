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
		"# nothing\n\n":                "x.soft:2:1: the set is empty: a set needs held lines (the soft invariants to generate) or pair lines (the pairs of thread predicates whose conditional soft invariants to generate, with all the others); for no set, --soft-from none",
		"":                             "x.soft:1:1: the set is empty: a set needs held lines (the soft invariants to generate) or pair lines (the pairs of thread predicates whose conditional soft invariants to generate, with all the others); for no set, --soft-from none",
	} {
		_, err := ParseSoftSet("x.soft", []byte(text))
		if err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// A set of pairs alone is a seed: it parses, and restricts nothing (no
// Only), so the first round generates every soft invariant with its
// pairs, which the loader takes leniently, as a saved set's.
func TestParseSoftSetPairsOnly(t *testing.T) {
	set, err := ParseSoftSet("x.soft", []byte("# a seed\npair a b c\npair d e f g\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Pairs) != 2 || len(set.Names) != 0 || set.only() != nil {
		t.Errorf("parsed %+v, only %v; want 2 pairs, no names, no Only", set, set.only())
	}
	c := Defaults("x.alg")
	c.Soft.Mode, c.CollapseThreads, c.Soft.set = SoftAuto, true, set
	soft := c.LoadConfig().Soft
	if soft.Only != nil || !soft.Saved || len(soft.Pairs) != 2 {
		t.Errorf("load configuration %+v; want no Only, Saved, 2 pairs", soft)
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

// Any text either parses into a set with held names or pairs or gives a
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
		if len(set.Names) == 0 && len(set.Pairs) == 0 {
			t.Fatal("a set without held names or pairs parsed")
		}
		for _, p := range set.Pairs {
			if p.Location == "" || p.Q == "" || p.P == "" {
				t.Fatalf("empty field in %+v", p)
			}
		}
	})
}
