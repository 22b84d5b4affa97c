package programs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// TestSoftSetsNameTheirProgram loads every saved soft-invariant set or
// seed beside an algorithm (X.soft beside X.alg, which a collapsed run
// of X.alg reads by default) and checks that each of its pairs names a
// location and thread predicates of the program. Location names are
// line numbers: a line added above an operation renames them, and a
// run then leaves the set's pairs out with only a line on stderr (the
// tagged queue's seed lost 231 of its 386 pairs that way once).
func TestSoftSetsNameTheirProgram(t *testing.T) {
	sets, err := filepath.Glob("*/*.soft")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range sets {
		alg := strings.TrimSuffix(file, ".soft") + ".alg"
		if _, err := os.Stat(alg); err != nil {
			continue
		}
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			set, err := driver.ParseSoftSet(file, data)
			if err != nil {
				t.Fatal(err)
			}
			soft := &predicates.SoftConfig{Pairs: set.Pairs, Saved: true}
			if len(set.Names) > 0 {
				soft.Only = map[string]bool{}
				for _, n := range set.Names {
					soft.Only[n] = true
				}
			}
			cfg := tvp.LoadConfig{Defines: map[string]string{"COLLAPSE_THREADS": "1"}, Soft: soft}
			prog, _, err := algc.Load(alg, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if stale := prog.SoftInvariants.Stale; len(stale) > 0 {
				t.Errorf("%d of %d pair(s) name no location or thread predicate of %s (first: %s %s %s)",
					len(stale), len(set.Pairs), alg, stale[0].Location, stale[0].Q, stale[0].P)
			}
		})
	}
}
