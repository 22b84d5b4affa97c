package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tvla-go/tvla/driver"
)

// printSoftTable writes, after the run's table, the rounds and which
// soft invariants held: a row per thread predicate and a column per
// location for the unconditional ones, as the thesis' Tables 8.1 and 8.3
// give a thread predicate's value at each location, then the
// conditional ones that held, by location.
func printSoftTable(w io.Writer, r *driver.SoftResult) {
	set := r.Set
	fmt.Fprintf(w, "\nsoft invariants: %d round(s)\n", len(r.Rounds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tgenerated\tconditional\theld\tstored\ttime s\t")
	for i, rd := range r.Rounds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.3f\t  %s\n", i+1, rd.Generated, rd.Conditional, rd.Held, rd.Stored, rd.TimeSeconds, rd.Verdict)
	}
	tw.Flush()
	if len(set.Skipped) > 0 {
		fmt.Fprintf(w, "not generated, the model declares these names: %s\n", strings.Join(set.Skipped, " "))
	}
	if !r.Complete {
		fmt.Fprintln(w, "(the last round stopped early: these held on what it explored, which is not a fixpoint)")
	}
	c := r.Counts()
	fmt.Fprintf(w, "\nunconditional: %d (%d location(s) matching %s, %d thread predicate(s), if and nif), %d held\n",
		c.Unconditional, len(set.Locations), set.Pattern, len(set.Preds), c.HeldUnconditional)
	tw = tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprint(tw, " ")
	for _, l := range set.LocationNames {
		fmt.Fprintf(tw, "\t%s", l)
	}
	fmt.Fprintln(tw)
	for _, p := range set.Preds {
		fmt.Fprintf(tw, "  %s", p.Name)
		for _, l := range set.LocationNames {
			fmt.Fprintf(tw, "\t%s", r.Value(l, p))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w, "  1: if[L,p] held (every thread at L has p); 0: nif[L,p] held (none has p);")
	fmt.Fprintln(w, "  1/2: neither; -: both (no thread is ever at L); blank: the model declares the names")
	if c.Conditional == 0 {
		return
	}
	fmt.Fprintf(w, "\nconditional: %d, %d held", c.Conditional, c.HeldConditional)
	if c.Implied > 0 {
		fmt.Fprintf(w, ", of which %d the unconditional ones imply (not listed)", c.Implied)
	}
	fmt.Fprintln(w)
	for _, l := range set.LocationNames {
		if props := r.ReportedAt(l); len(props) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", l, strings.Join(props, "; "))
		}
	}
}
