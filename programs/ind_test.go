package programs_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
)

// breachPrefix starts the message an update that breaks a constraint
// raises. TVLA 3 prints the breach and stops, but does not count it as a
// message; we record it as one, so that the verdict is "not verified".
const breachPrefix = "a constraint is breached after the update"

// TestSingleStructureJoin runs the list programs with --join ind and
// compares with the reference TVLA 3 run with -join ind on the same
// files: one structure at each location it reaches, and its count of
// messages. delete and sort stop, in both tools, at the same constraint
// breached after an update (TVLA's breakIfCoerceAfterUpdateFailed): at
// delete's L8 (y->nxt = t, the definition of shared) and sort's L16
// (z = y->nxt, z unique). For sort the run up to that stop differs
// (docs/reference-differences.md): the reference has 85 messages and no
// structure at L17, we have 62 and one; the row holds ours.
func TestSingleStructureJoin(t *testing.T) {
	cases := []struct {
		name      string
		locations []string // the locations reached, one structure each
		messages  int      // not counting breach messages
		stopped   bool     // stopped at a constraint breached after an update
	}{
		{"reverse", []string{"L1", "L2", "L8", "L3", "L4", "L5", "L6", "L7", "L9", "L10", "exit"}, 1, false},
		{"create", []string{"L1", "L2", "L3", "L7", "L4", "L5", "L6", "L8", "exit"}, 0, false},
		{"insert", []string{"L1", "exit", "L2", "L3", "L7", "L4", "L5", "L6", "L8", "L9", "L10", "L11", "L12", "L13",
			"L14", "L15", "L16"}, 14, false},
		{"delete", []string{"L1", "exit", "L2", "L3", "L4", "L12", "L5", "L6", "L11", "L7", "L8", "L9", "L10", "L13",
			"L14", "L15", "L16"}, 3, true},
		{"search", []string{"L1", "L2", "L5", "L3", "L4", "L6", "exit"}, 3, false},
		{"search_nullderef", []string{"L1", "L2", "L5", "L3", "L4", "exit"}, 4, false},
		{"append", []string{"L1", "exit", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10"}, 6, false},
		{"merge", []string{"L1", "L2", "L30", "L3", "L4", "L5", "L6", "L14", "L7", "L8", "L9", "L11", "L10", "L13",
			"L12", "L16", "L17", "L18", "L15", "L19", "L25", "L26", "L27", "L31", "exit"}, 21, false},
		// The reference: the same locations but L17, and 85 messages.
		{"sort", []string{"L1", "L30", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10", "L11", "L12", "L13",
			"L15", "L14", "L20", "L16", "L17", "L31", "L32", "L33", "L34", "exit"}, 62, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runWith(t, filepath.Join("sll", c.name+".tvp"), engine.Options{Join: engine.JoinIndependent})
			want := map[string]int{}
			for _, l := range c.locations {
				want[l] = 1
			}
			messages, breaches := 0, 0
			for _, l := range res.Locations {
				if l.Structures.Len() != want[l.Label] {
					t.Errorf("%s: %d structures, want %d", l.Label, l.Structures.Len(), want[l.Label])
				}
				for _, m := range l.Messages {
					if strings.HasPrefix(m.Text, breachPrefix) {
						breaches++
					} else {
						messages++
					}
				}
			}
			if messages != c.messages {
				t.Errorf("%d messages, want %d", messages, c.messages)
			}
			if stopped := res.Incomplete && res.StoppedOnMessage && breaches > 0; stopped != c.stopped {
				t.Errorf("stopped at a breach: %v (%s), want %v", stopped, res.StopReason, c.stopped)
			}
		})
	}
}
