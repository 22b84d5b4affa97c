package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tvla-go/tvla/driver"
)

// printTable writes TVLA's per-location table and the totals.
func printTable(w io.Writer, res *driver.Result, constraints int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "location\tstructures\tmax individuals\tmessages\t")
	for _, l := range res.Locations {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", l.Label, l.Structures.Len(), l.Structures.MaxSize(), l.MessageCount())
	}
	tw.Flush()
	st := res.Stats
	fmt.Fprintf(w, "\nstructures stored     %d\n", st.Stored)
	if st.Unscheduled > 0 {
		fmt.Fprintf(w, "  unscheduled         %d (no thread scheduled)\n", st.Unscheduled)
	}
	fmt.Fprintf(w, "structures examined   %d\n", st.Examined)
	fmt.Fprintf(w, "constraints           %d\n", constraints)
	fmt.Fprintf(w, "constraint breaches   %d\n", st.Breaches)
	fmt.Fprintf(w, "iterations            %d\n", st.Iterations)
	fmt.Fprintf(w, "messages              %d\n", st.Messages)
	fmt.Fprintf(w, "time                  %s\n", st.TimeLine())
	// A message raised on several structures at a location is one line.
	var msgs []string
	for _, l := range res.Locations {
		for _, g := range l.MessageGroups() {
			msgs = append(msgs, fmt.Sprintf("  %s: %s (action %s)%s", l.Label, driver.OneLine(g.Text), g.Action, structuresNote(len(g.Messages))))
		}
	}
	if len(msgs) > 0 {
		fmt.Fprintln(w, "\nmessages:")
		for _, m := range msgs {
			fmt.Fprintln(w, m)
		}
	}
	switch {
	case res.Incomplete:
		fmt.Fprintf(w, "\nstopped early: %s\n", res.StopReason)
		fmt.Fprintln(w, explored(res))
	case driver.NothingExplored(res) != "":
		// Nothing was analysed: say so rather than claim a proof.
		fmt.Fprintf(w, "\nverified, vacuously: %s\n", driver.NothingExplored(res))
	case st.Messages == 0:
		fmt.Fprintln(w, "\nverified: fixpoint reached, no message raised")
	default:
		fmt.Fprintf(w, "\nnot verified: %d message(s) raised\n", st.Messages)
	}
}

// explored says what a run that stopped early had explored: what its
// outputs hold.
func explored(res *driver.Result) string {
	reached := 0
	for _, l := range res.Locations {
		if l.Structures.Len() > 0 {
			reached++
		}
	}
	st := res.Stats
	return fmt.Sprintf("explored: %d structures at %d of %d locations (%d examined, %d iterations, %d messages) in %.3fs; the outputs hold these",
		st.Stored, reached, len(res.Locations), st.Examined, st.Iterations, st.Messages, st.Elapsed.Seconds())
}

// structuresNote says on how many structures a message was raised, when
// more than one.
func structuresNote(n int) string {
	if n < 2 {
		return ""
	}
	return fmt.Sprintf(" (%d structures)", n)
}
