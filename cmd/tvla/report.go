package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tvla-go/tvla/engine"
)

// summary is the JSON summary of a run (docs: cli-contract.md).
type summary struct {
	Tool             string            `json:"tool"`
	Version          string            `json:"version"`
	Program          string            `json:"program"`
	Inputs           []string          `json:"inputs"`
	Options          summaryOptions    `json:"options"`
	Locations        []summaryLocation `json:"locations"`
	StructuresStored int               `json:"structures_stored"`
	// UnscheduledStructures counts the stored structures with no thread
	// scheduled (between atomic blocks).
	UnscheduledStructures int      `json:"unscheduled_structures"`
	StructuresExamined    int      `json:"structures_examined"`
	Messages              int      `json:"messages"`
	MessageTexts          []string `json:"message_texts"`
	ConstraintBreaches    int      `json:"constraint_breaches"`
	Iterations            int      `json:"iterations"`
	TimeSeconds           float64  `json:"time_seconds"`
	PeakHeapBytes         uint64   `json:"peak_heap_bytes"`
	Verified              bool     `json:"verified"`
	Incomplete            bool     `json:"incomplete"`
	StopReason            string   `json:"stop_reason,omitempty"`
	// SoftInvariants is there when --soft-invariants is auto or report.
	SoftInvariants *summarySoft `json:"soft_invariants,omitempty"`
}

type summaryOptions struct {
	Join            string            `json:"join"`
	Action          string            `json:"action"`
	CollapseThreads bool              `json:"collapse_threads"`
	Defines         map[string]string `json:"defines"`
	// Abs and NonAbs are the predicates --abs and --nonabs named, sorted.
	Abs    []string `json:"abs"`
	NonAbs []string `json:"nonabs"`
}

type summaryLocation struct {
	Label          string `json:"label"`
	Structures     int    `json:"structures"`
	MaxIndividuals int    `json:"max_individuals"`
	Messages       int    `json:"messages"`
}

func buildSummary(program string, inputs []string, o *runOptions, defines map[string]string, res *engine.Result, peak uint64, soft *softResult) summary {
	s := summary{
		Tool: "tvla", Version: versionString(), Program: filepath.Base(program), Inputs: []string{},
		Options: summaryOptions{Join: o.join, Action: o.action, CollapseThreads: o.collapseThreads, Defines: defines,
			Abs: sortedSet(o.abs), NonAbs: sortedSet(o.nonabs)},
		StructuresStored:      res.Stats.Stored,
		UnscheduledStructures: res.Stats.Unscheduled,
		StructuresExamined:    res.Stats.Examined,
		Messages:              res.Stats.Messages,
		MessageTexts:          []string{},
		ConstraintBreaches:    res.Stats.Breaches,
		Iterations:            res.Stats.Iterations,
		TimeSeconds:           res.Stats.Elapsed.Seconds(),
		PeakHeapBytes:         peak,
		Incomplete:            res.Incomplete,
		StopReason:            res.StopReason,
	}
	for _, in := range inputs {
		s.Inputs = append(s.Inputs, filepath.Base(in))
	}
	seen := map[string]bool{}
	for _, l := range res.Locations {
		sl := summaryLocation{Label: l.Label, Structures: len(l.Structures), Messages: len(l.Messages)}
		for _, st := range l.Structures {
			sl.MaxIndividuals = max(sl.MaxIndividuals, st.Size())
		}
		s.Locations = append(s.Locations, sl)
		for _, m := range l.Messages {
			if !seen[m.Text] {
				seen[m.Text] = true
				s.MessageTexts = append(s.MessageTexts, m.Text)
			}
		}
	}
	s.Verified = !res.Incomplete && res.Stats.Messages == 0
	if soft != nil {
		s.SoftInvariants = buildSoftSummary(o.soft.mode, soft)
	}
	return s
}

// sortedSet returns the distinct strings of xs, sorted (never nil).
func sortedSet(xs []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func writeJSON(path string, s summary, stdout io.Writer) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return writeFileAtomic(path, data)
}

// writeFileAtomic writes through a temporary file in the same folder,
// synced to disk, and a rename, so that a reader (or a crash, or a second
// Ctrl-C) never leaves half a file: the path holds the old contents or the
// new ones. The file is readable by all, as files made by os.Create are
// under the usual umask.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// printTable writes TVLA's per-location table and the totals.
func printTable(w io.Writer, res *engine.Result, constraints int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "location\tstructures\tmax individuals\tmessages\t")
	for _, l := range res.Locations {
		maxN := 0
		for _, s := range l.Structures {
			maxN = max(maxN, s.Size())
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", l.Label, len(l.Structures), maxN, len(l.Messages))
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
	fmt.Fprintf(w, "time                  %.3fs (focus %.3f, coerce %.3f, update %.3f, blur %.3f, join %.3f)\n",
		st.Elapsed.Seconds(), st.FocusTime.Seconds(), st.CoerceTime.Seconds(), st.UpdateTime.Seconds(),
		st.BlurTime.Seconds(), st.JoinTime.Seconds())
	var msgs []string
	for _, l := range res.Locations {
		for _, m := range l.Messages {
			msgs = append(msgs, fmt.Sprintf("  %s: %s (action %s)", l.Label, oneLine(m.Text), m.Action))
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
	case st.Messages == 0 && st.Inputs > 0 && st.InputsDiscarded == st.Inputs:
		// Nothing was analysed: say so rather than claim a proof.
		fmt.Fprintf(w, "\nverified, vacuously: Coerce discarded every input structure (%d), which breaks a constraint, so no state was explored\n", st.Inputs)
	case st.Messages == 0:
		fmt.Fprintln(w, "\nverified: fixpoint reached, no message raised")
	default:
		fmt.Fprintf(w, "\nnot verified: %d message(s) raised\n", st.Messages)
	}
}

// explored says what a run that stopped early had explored: what its
// outputs hold.
func explored(res *engine.Result) string {
	reached := 0
	for _, l := range res.Locations {
		if len(l.Structures) > 0 {
			reached++
		}
	}
	st := res.Stats
	return fmt.Sprintf("explored: %d structures at %d of %d locations (%d examined, %d iterations, %d messages) in %.3fs; the outputs hold these",
		st.Stored, reached, len(res.Locations), st.Examined, st.Iterations, st.Messages, st.Elapsed.Seconds())
}

// oneLine shows a message's \n escapes and line breaks as spaces.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, `\n`, " ")
	return strings.ReplaceAll(s, "\n", " ")
}
