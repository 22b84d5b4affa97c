package driver

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tvla-go/tvla/internal/atomicfile"
)

// Summary is the JSON summary of a run (docs/cli-contract.md).
type Summary struct {
	Tool             string            `json:"tool"`
	Version          string            `json:"version"`
	Program          string            `json:"program"`
	Inputs           []string          `json:"inputs"`
	Options          SummaryOptions    `json:"options"`
	Locations        []SummaryLocation `json:"locations"`
	StructuresStored int               `json:"structures_stored"`
	// UnscheduledStructures counts the stored structures with no thread
	// scheduled (between atomic blocks).
	UnscheduledStructures int      `json:"unscheduled_structures"`
	StructuresExamined    int      `json:"structures_examined"`
	Messages              int      `json:"messages"`
	MessageTexts          []string `json:"message_texts"`
	// MessageGroups are the messages by location, text and action, each
	// with the number of structures it was raised on (what the table
	// prints on one line).
	MessageGroups      []SummaryMessageGroup `json:"message_groups"`
	ConstraintBreaches int                   `json:"constraint_breaches"`
	Iterations         int                   `json:"iterations"`
	TimeSeconds        float64               `json:"time_seconds"`
	PeakHeapBytes      uint64                `json:"peak_heap_bytes"`
	Verified           bool                  `json:"verified"`
	// NothingExplored is set when the run explored nothing (no location,
	// no input structure, every input discarded by Coerce, or a stop
	// before the run began): a verified run then proves nothing.
	NothingExplored bool   `json:"nothing_explored,omitempty"`
	Incomplete      bool   `json:"incomplete"`
	StopReason      string `json:"stop_reason,omitempty"`
	// SoftInvariants is there when soft invariants were generated.
	SoftInvariants *SoftSummary `json:"soft_invariants,omitempty"`
}

// SummaryOptions are the settings a run's summary records.
type SummaryOptions struct {
	Join            string            `json:"join"`
	Action          string            `json:"action"`
	CollapseThreads bool              `json:"collapse_threads"`
	Defines         map[string]string `json:"defines"`
	// Abs and NonAbs are the predicates the Config names, sorted.
	Abs    []string `json:"abs"`
	NonAbs []string `json:"nonabs"`
	// SkipSuperseded is --skip-superseded (only when set).
	SkipSuperseded bool `json:"skip_superseded,omitempty"`
}

// SummaryMessageGroup is a message raised at a location by an action,
// on Structures structures (each counted in messages).
type SummaryMessageGroup struct {
	Location   string `json:"location"`
	Text       string `json:"text"`
	Action     string `json:"action"`
	Structures int    `json:"structures"`
	// Breach marks the constraint breach that stopped the run: listed,
	// not counted among the messages (engine.Message.Breach).
	Breach bool `json:"breach,omitempty"`
}

// SummaryLocation is a location's line of the summary.
type SummaryLocation struct {
	Label          string `json:"label"`
	Structures     int    `json:"structures"`
	MaxIndividuals int    `json:"max_individuals"`
	Messages       int    `json:"messages"`
}

// Summary is the run's JSON summary; version is the tool's.
func (o *Outcome) Summary(version string) Summary {
	c, res := o.Config, o.Result
	s := Summary{
		Tool: "tvla", Version: version, Program: filepath.Base(c.Program), Inputs: baseNames(o.Inputs),
		Options: SummaryOptions{Join: c.Join, Action: c.ActionOrder, CollapseThreads: c.CollapseThreads, Defines: c.DefineMap(), SkipSuperseded: c.SkipSuperseded,
			Abs: sortedSet(c.Abs), NonAbs: sortedSet(c.NonAbs)},
		StructuresStored:      res.Stats.Stored,
		UnscheduledStructures: res.Stats.Unscheduled,
		StructuresExamined:    res.Stats.Examined,
		Messages:              res.Stats.Messages,
		MessageTexts:          []string{},
		MessageGroups:         []SummaryMessageGroup{},
		ConstraintBreaches:    res.Stats.Breaches,
		Iterations:            res.Stats.Iterations,
		TimeSeconds:           res.Stats.Elapsed.Seconds(),
		PeakHeapBytes:         o.PeakHeapBytes,
		Incomplete:            res.Incomplete,
		StopReason:            res.StopReason,
	}
	seen := map[string]bool{}
	for _, l := range res.Locations {
		sl := SummaryLocation{Label: l.Label, Structures: l.Structures.Len(), MaxIndividuals: l.Structures.MaxSize(), Messages: l.MessageCount()}
		s.Locations = append(s.Locations, sl)
		for _, m := range l.Messages {
			if !seen[m.Text] {
				seen[m.Text] = true
				s.MessageTexts = append(s.MessageTexts, m.Text)
			}
		}
		for _, g := range l.MessageGroups() {
			s.MessageGroups = append(s.MessageGroups, SummaryMessageGroup{Location: l.Label, Text: g.Text, Action: g.Action, Structures: len(g.Messages), Breach: g.Messages[0].Breach})
		}
	}
	s.Verified = !res.Incomplete && res.Stats.Messages == 0
	s.NothingExplored = NothingExplored(res) != ""
	if s.Locations == nil {
		s.Locations = []SummaryLocation{} // a program without locations
	}
	if o.Soft != nil {
		s.SoftInvariants = newSoftSummary(c.Soft.Mode, o.Soft)
	}
	return s
}

// baseNames are the paths' file names (never nil).
func baseNames(paths []string) []string {
	out := []string{}
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

// WriteJSON writes v indented, with a final newline, to the file at path
// (atomically) or, when path is "-", to stdout.
func WriteJSON(path string, v any, stdout io.Writer) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return WriteFileAtomic(path, data)
}

// WriteFileAtomic writes a file whole or not at all (atomicfile.Write):
// the path holds the old contents or the new ones.
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data, true) }

// OneLine shows a message's \n escapes and line breaks as spaces.
func OneLine(s string) string {
	s = strings.ReplaceAll(s, `\n`, " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// NothingExplored says why a run explored nothing (it stored no
// structure at any location, applied no action, raised no message), ""
// when it explored something: a verdict must then not read as a proof.
func NothingExplored(res *Result) string {
	st := res.Stats
	switch {
	case st.Stored > 0 || st.Examined > 0 || st.Messages > 0:
		return ""
	case len(res.Locations) == 0:
		return "the program has no location, so no state was explored"
	case st.Inputs == 0:
		return "the inputs hold no structure, so no state was explored"
	case st.InputsDiscarded == st.Inputs:
		return fmt.Sprintf("Coerce discarded every input structure (%d), which breaks a constraint, so no state was explored", st.Inputs)
	}
	return "no structure was stored at any location, so no state was explored"
}
