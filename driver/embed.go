package driver

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/tvla-go/tvla/soundness"
)

// EmbedOptions bound an embedding check beyond its Config.
type EmbedOptions struct {
	// MaxStructures bounds the concrete run and its inputs.
	MaxStructures int
	// Explain is how many failures get a trace and the closest abstract
	// structures (0: none).
	Explain int
}

// EmbedOutcome is what an embedding check found.
type EmbedOutcome struct {
	Config  *Config
	Options EmbedOptions
	// Inputs are the TVS files read.
	Inputs []string
	// Abstract and Concrete are the two runs; Report is nil when the
	// abstract run did not reach its fixpoint.
	Abstract, Concrete *Result
	ConcreteInputs     int
	Report             *soundness.Report
	// StopReason is set when ctx ended the check.
	StopReason string
	Elapsed    time.Duration
}

// Embed runs the loaded program abstractly (dropping, not stopping at, a
// structure Coerce rejects after an update) and concretely from the
// concrete instances of its inputs, and checks the concrete run against
// the abstract one (soundness.Embed). It stops early, with what it has,
// when ctx ends.
func (s *Session) Embed(ctx context.Context, o EmbedOptions) (*EmbedOutcome, error) {
	if s.Config.Join == JoinDecompose {
		return nil, ErrDecomposeEmbed
	}
	start := time.Now()
	outcome, err := soundness.Embed(ctx, s.Loaded.Program, s.Loaded.Structures, s.Config.embedOptions(o))
	if buildStopped(err) && ctx.Err() != nil {
		return StoppedEmbedOutcome(&s.Config, o, &StoppedError{Phase: PhaseBuilding, Reason: stopReason(ctx)}), nil
	}
	if err != nil {
		return nil, err
	}
	rep := outcome.Concretized
	if err := s.reportConcretized(len(s.Loaded.Structures), len(outcome.ConcreteInputs), concretized{rep.PerInput, rep.Truncated},
		o.MaxStructures, ctx.Err() == nil); err != nil {
		return nil, err
	}
	e := &EmbedOutcome{Config: &s.Config, Options: o, Inputs: s.Loaded.Inputs,
		Abstract: outcome.Abstract, Concrete: outcome.Concrete, ConcreteInputs: len(outcome.ConcreteInputs), Report: outcome.Report}
	if ctx.Err() != nil {
		e.StopReason = stopReason(ctx)
	}
	e.Elapsed = time.Since(start)
	return e, nil
}

// EmbedSummary is the JSON summary of an embedding check.
type EmbedSummary struct {
	Tool               string                `json:"tool"`
	Version            string                `json:"version"`
	Program            string                `json:"program"`
	Inputs             []string              `json:"inputs"`
	Options            EmbedSummaryOptions   `json:"options"`
	Locations          []EmbedSummaryLoc     `json:"locations"`
	ConcreteInputs     int                   `json:"concrete_inputs"`
	ConcreteStructures int                   `json:"concrete_structures"`
	ConcreteComplete   bool                  `json:"concrete_complete"`
	ConcreteStopReason string                `json:"concrete_stop_reason,omitempty"`
	AbstractStructures int                   `json:"abstract_structures"`
	AbstractComplete   bool                  `json:"abstract_complete"`
	Checked            int                   `json:"checked"`
	Failed             int                   `json:"failed"`
	Undecided          int                   `json:"undecided"`
	MissedMessages     []EmbedSummaryMessage `json:"missed_messages"`
	FalseClaims        []EmbedSummaryMessage `json:"false_claims"`
	Notes              []EmbedSummaryMessage `json:"notes"`
	FailureLocations   []string              `json:"failure_locations"`
	Sound              bool                  `json:"sound"`
	Incomplete         bool                  `json:"incomplete"`
	StopReason         string                `json:"stop_reason,omitempty"`
	TimeSeconds        float64               `json:"time_seconds"`
}

// EmbedSummaryOptions are the settings an embedding summary records.
type EmbedSummaryOptions struct {
	Join          string            `json:"join"`
	Action        string            `json:"action"`
	Copies        int               `json:"copies"`
	Threads       int               `json:"threads"`
	MaxDepth      int               `json:"max_depth"`
	MaxStructures int               `json:"max_structures"`
	Defines       map[string]string `json:"defines"`
}

// EmbedSummaryLoc is a location's line of the embedding summary.
type EmbedSummaryLoc struct {
	Label     string `json:"label"`
	Concrete  int    `json:"concrete"`
	Abstract  int    `json:"abstract"`
	Failed    int    `json:"failed"`
	Undecided int    `json:"undecided"`
}

// EmbedSummaryMessage is a message at a location.
type EmbedSummaryMessage struct {
	Location string `json:"location"`
	Text     string `json:"text"`
}

// Summary is the check's JSON summary; version is the tool's.
func (e *EmbedOutcome) Summary(version string) EmbedSummary {
	c, abs, conc := e.Config, e.Abstract, e.Concrete
	s := EmbedSummary{
		Tool: "tvla", Version: version, Program: filepath.Base(c.Program), Inputs: baseNames(e.Inputs),
		Options: EmbedSummaryOptions{Join: c.Join, Action: c.ActionOrder, Copies: c.Concrete.Copies, Threads: c.Concrete.threads(),
			MaxDepth: c.Concrete.MaxDepth, MaxStructures: e.Options.MaxStructures, Defines: c.DefineMap()},
		ConcreteInputs: e.ConcreteInputs, ConcreteStructures: conc.Stats.Stored, ConcreteComplete: !conc.Incomplete,
		ConcreteStopReason: conc.StopReason, AbstractStructures: abs.Stats.Stored, AbstractComplete: !abs.Incomplete,
		MissedMessages: []EmbedSummaryMessage{}, FalseClaims: []EmbedSummaryMessage{}, Notes: []EmbedSummaryMessage{}, FailureLocations: []string{},
		StopReason: e.StopReason, TimeSeconds: e.Elapsed.Seconds(),
	}
	rep := e.Report
	if rep == nil {
		s.Incomplete = true
		return s
	}
	for _, l := range rep.Locations {
		s.Locations = append(s.Locations, EmbedSummaryLoc{Label: l.Label, Concrete: l.Concrete, Abstract: l.Abstract, Failed: l.Failed, Undecided: l.Undecided})
	}
	s.Checked, s.Failed, s.Undecided = rep.Checked, rep.FailedCount(), rep.UndecidedCount()
	for _, m := range DistinctNotes(rep) {
		s.Notes = append(s.Notes, EmbedSummaryMessage{m.Location, m.Text})
	}
	for _, m := range rep.Broken {
		s.FalseClaims = append(s.FalseClaims, EmbedSummaryMessage{m.Location, m.Text})
	}
	for _, m := range rep.Missed {
		s.MissedMessages = append(s.MissedMessages, EmbedSummaryMessage{m.Location, m.Text})
	}
	locSeen := map[string]bool{}
	for _, f := range rep.Failures {
		if !f.Undecided && !locSeen[f.Location] {
			locSeen[f.Location] = true
			s.FailureLocations = append(s.FailureLocations, f.Location)
		}
	}
	s.Sound = rep.Sound()
	s.Incomplete = rep.Incomplete || e.StopReason != "" || rep.UndecidedCount() > 0
	return s
}

// DistinctNotes are the concrete run's notes, the first of each text at
// each location.
func DistinctNotes(rep *soundness.Report) []Message {
	var out []Message
	seen := map[string]bool{}
	for _, m := range rep.Notes {
		if key := m.Location + "\x00" + m.Text; !seen[key] {
			seen[key] = true
			out = append(out, m)
		}
	}
	return out
}

// ErrDecomposeEmbed says why a decomposing run is not checked: it stores
// components, not heaps, and the embedding check maps concrete heaps
// into stored structures.
var ErrDecomposeEmbed = errors.New("--join decomp (graph decomposition) cannot be checked by embed: its locations hold components, not heaps, and the check embeds concrete heaps into stored structures")
