package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/tvl"
)

// printTraces writes, for every message, a shortest abstract trace from an
// input structure: each step's location, the action that led there, and
// the predicates whose values changed on the way. A message raised on
// several structures at a location gets one trace, its first's.
func printTraces(w io.Writer, res *driver.Result) {
	n := 0
	for _, l := range res.Locations {
		for _, g := range l.MessageGroups() {
			m := g.Messages[0]
			n++
			note := ""
			if len(g.Messages) > 1 {
				note = fmt.Sprintf(" (%d structures; the first's trace)", len(g.Messages))
			}
			fmt.Fprintf(w, "\ntrace %d: %q at %s%s\n", n, driver.OneLine(m.Text), l.Label, note)
			steps := res.Trace(m)
			for i, st := range steps {
				switch {
				case i == 0:
					fmt.Fprintf(w, "  %2d  %-8s input structure (%d individuals)\n", i, st.Location, st.Structure.Size())
				case i == len(steps)-1:
					fmt.Fprintf(w, "  %2d  %-8s %s raises the message (changed: %s)\n", i, st.Location, st.Action, changedPreds(steps[i-1].Structure, st.Structure))
				default:
					fmt.Fprintf(w, "  %2d  %-8s after %s (changed: %s)\n", i, st.Location, st.Action, changedPreds(steps[i-1].Structure, st.Structure))
				}
			}
		}
	}
}

// changedPreds names the predicates whose values changed between two
// steps of a trace, or says nothing did.
func changedPreds(a, b *tvl.Structure) string {
	if changed := tvl.Changed(a, b); len(changed) > 0 {
		return strings.Join(changed, ", ")
	}
	return "nothing"
}
