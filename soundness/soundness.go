// Package soundness checks an abstract analysis against concrete runs of
// the same program, by the Embedding Theorem (thesis §4.1.3): every
// concrete state the program reaches at a location must embed into some
// abstract structure the analysis keeps there, and every message a
// concrete run raises at a location must be raised there by the analysis
// too.
package soundness

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Options tune the check.
type Options struct {
	// Workers is how many goroutines search for embeddings; 0 means one
	// per CPU. The report does not depend on it.
	Workers int
	// MaxSteps bounds each embedding search (tentative assignments); 0
	// means 1,000,000. A search that gives up makes its concrete
	// structure undecided, not failed.
	MaxSteps int
	// Candidates is how many closest abstract structures a failure
	// lists; 0 means 3.
	Candidates int
	// Explained is how many failures get their closest candidates and a
	// trace; the others are only counted. 0 means 5, a negative number
	// none.
	Explained int
	// Active is inac when the abstract run used the single-structure
	// join: the concrete individuals exist (inac 1), and an abstract
	// individual at inac 1/2 needs no concrete one.
	Active *tvl.Pred
}

// LocationReport counts what was checked at one location.
type LocationReport struct {
	Label     string
	Concrete  int // concrete structures reached
	Abstract  int // abstract structures kept
	Failed    int // concrete structures that embed into none
	Undecided int
}

// Candidate is an abstract structure close to a concrete one that does
// not embed: the map from concrete to abstract individuals with the
// fewest mismatches found, and those mismatches.
type Candidate struct {
	Index      int // among the location's abstract structures
	Structure  *tvl.Structure
	Map        []int
	Mismatches []tvl.Mismatch
}

// Failure is a concrete structure that embeds into no abstract structure
// at its location (or whose search gave up, when Undecided).
type Failure struct {
	Location  string
	Index     int // among the location's concrete structures
	Concrete  *tvl.Structure
	Undecided bool
	// Trace leads from a concrete input to the structure (explained
	// failures only).
	Trace []engine.TraceStep
	// Candidates are the closest abstract structures, fewest mismatches
	// first (explained failures only).
	Candidates []Candidate
}

// MissedMessage is a message a concrete run raised at a location that the
// abstract analysis did not raise there.
type MissedMessage struct {
	engine.Message
	Trace []engine.TraceStep
}

// Report is the outcome of a check.
type Report struct {
	Locations []LocationReport
	Checked   int // concrete structures checked
	Failures  []Failure
	Missed    []MissedMessage
	// Broken are the claims of the program that the concrete run found
	// false on a state it reaches (messages starting with
	// engine.BrokenRule or engine.WrongUpdate): a consistency
	// rule, which Coerce takes as true of every concrete state, or an
	// update formula that disagrees with its predicate's definition. Each
	// is a failure, listed once, with the shortest trace to it among the
	// first occurrences. A broken claim
	// need not make a concrete state embed nowhere (an abstract structure
	// may keep the value unknown), but it may on other inputs.
	Broken []MissedMessage
	// Notes are the concrete run's other checks (engine.ConcreteCheck),
	// such as a choice no value satisfies; they are not failures.
	Notes []engine.Message
	// Incomplete is set when ctx ended the check early.
	Incomplete bool
	Elapsed    time.Duration
}

// Sound reports whether nothing failed: every concrete structure checked
// embeds, no concrete message was missed, and no claim of the program was
// found false. Undecided structures do not count as failures.
func (r *Report) Sound() bool {
	return r.FailedCount() == 0 && len(r.Missed) == 0 && len(r.Broken) == 0
}

// FailedCount is the number of concrete structures that embed into no
// abstract structure.
func (r *Report) FailedCount() int {
	n := 0
	for _, l := range r.Locations {
		n += l.Failed
	}
	return n
}

// UndecidedCount is the number of concrete structures whose search gave
// up.
func (r *Report) UndecidedCount() int {
	n := 0
	for _, l := range r.Locations {
		n += l.Undecided
	}
	return n
}

type job struct {
	loc  int // index into the locations
	slot int
}

// Check compares a concrete run with an abstract run of the same program.
// Both results list the same locations in the same order.
func Check(ctx context.Context, conc, abs *engine.Result, o Options) *Report {
	start := time.Now()
	o = o.withDefaults()
	rep := &Report{}
	var jobs []job
	// Every structure is read many times: each location's are unpacked
	// once.
	absAt := make([][]*tvl.Structure, len(conc.Locations))
	concAt := make([][]*tvl.Structure, len(conc.Locations))
	for i, cl := range conc.Locations {
		concAt[i] = cl.Structures.Slice()
		lr := LocationReport{Label: cl.Label, Concrete: cl.Structures.Len()}
		if al := abs.Location(cl.Label); al != nil {
			absAt[i] = al.Structures.Slice()
			lr.Abstract = al.Structures.Len()
		}
		rep.Locations = append(rep.Locations, lr)
		for s := range concAt[i] {
			jobs = append(jobs, job{i, s})
		}
	}
	concrete := func(j job) *tvl.Structure { return concAt[j.loc][j.slot] }
	outcomes, done := searchAll(ctx, len(jobs), o.Workers, func(i int) tvl.EmbedOutcome {
		j := jobs[i]
		return embedsSomewhere(ctx, existing(concrete(j), o.Active), absAt[j.loc], o.MaxSteps, o.Active)
	})
	rep.tally(jobs, outcomes, done, concrete)
	for _, i := range explainFirst(rep.Failures, o.Explained) {
		if ctx.Err() != nil {
			break
		}
		f := &rep.Failures[i]
		f.Trace = conc.TraceTo(f.Location, f.Index)
		f.Candidates = closest(ctx, existing(f.Concrete, o.Active), abs.Location(f.Location), o.Candidates)
	}
	// Messages: the program's own messages must be raised abstractly at
	// the same location.
	broken := map[string]int{} // index in rep.Broken
	tried := map[string]int{}
	for _, cl := range conc.Locations {
		raised := map[string]bool{}
		if al := abs.Location(cl.Label); al != nil {
			for _, m := range al.Messages {
				raised[m.Text] = true
			}
		}
		reported := map[string]bool{}
		for _, m := range cl.Messages {
			if strings.HasPrefix(m.Text, engine.BrokenRule) || strings.HasPrefix(m.Text, engine.WrongUpdate) {
				// The occurrence with the shortest trace, among the
				// first few.
				i, seen := broken[m.Text]
				if tried[m.Text] >= maxTraced {
					continue
				}
				tried[m.Text]++
				tr := conc.Trace(m)
				switch {
				case !seen:
					broken[m.Text] = len(rep.Broken)
					rep.Broken = append(rep.Broken, MissedMessage{Message: m, Trace: tr})
				case len(tr) < len(rep.Broken[i].Trace):
					rep.Broken[i] = MissedMessage{Message: m, Trace: tr}
				}
				continue
			}
			if strings.HasPrefix(m.Text, engine.ConcreteCheck) {
				rep.Notes = append(rep.Notes, m)
				continue
			}
			if raised[m.Text] || reported[m.Text] {
				continue
			}
			reported[m.Text] = true
			rep.Missed = append(rep.Missed, MissedMessage{Message: m, Trace: conc.Trace(m)})
		}
	}
	if ctx.Err() != nil {
		rep.Incomplete = true
	}
	rep.Elapsed = time.Since(start)
	return rep
}

// withDefaults fills in the options left 0.
func (o Options) withDefaults() Options {
	if o.MaxSteps <= 0 {
		o.MaxSteps = 1_000_000
	}
	if o.Candidates <= 0 {
		o.Candidates = 3
	}
	if o.Explained <= 0 {
		o.Explained = 5
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// searchAll runs embed(i) for every job i < n on workers goroutines until
// ctx ends. Each outcome goes to its own slot; done marks the jobs that
// ran before ctx ended (embed gives up soon after it ends: what it
// returns then is not an answer).
func searchAll(ctx context.Context, n, workers int, embed func(i int) tvl.EmbedOutcome) (outcomes []tvl.EmbedOutcome, done []bool) {
	outcomes = make([]tvl.EmbedOutcome, n)
	done = make([]bool, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				out := embed(i)
				if ctx.Err() != nil {
					return
				}
				outcomes[i], done[i] = out, true
			}
		}()
	}
	wg.Wait()
	return outcomes, done
}

// tally counts the jobs' outcomes into the location reports and lists
// the concrete structures that did not embed, in job order; a job that
// did not run makes the report incomplete.
func (rep *Report) tally(jobs []job, outcomes []tvl.EmbedOutcome, done []bool, concrete func(job) *tvl.Structure) {
	for i, j := range jobs {
		if !done[i] {
			rep.Incomplete = true
			continue
		}
		rep.Checked++
		lr := &rep.Locations[j.loc]
		switch outcomes[i] {
		case tvl.Embeds:
			continue
		case tvl.Undecided:
			lr.Undecided++
		default:
			lr.Failed++
		}
		rep.Failures = append(rep.Failures, Failure{Location: lr.Label, Index: j.slot,
			Concrete: concrete(j), Undecided: outcomes[i] == tvl.Undecided})
	}
}

// explainFirst sorts failures undecided last and picks up to k to
// explain: the first failure at each location, in CFG order, then the
// next ones. It returns their indices.
func explainFirst(failures []Failure, k int) []int {
	sort.SliceStable(failures, func(a, b int) bool { return !failures[a].Undecided && failures[b].Undecided })
	var pick []int
	taken := make([]bool, len(failures))
	for len(pick) < k {
		seen := map[string]bool{}
		for i, f := range failures {
			if len(pick) < k && !taken[i] && !seen[f.Location] {
				seen[f.Location] = true
				taken[i] = true
				pick = append(pick, i)
			}
		}
		if len(seen) == 0 {
			break
		}
	}
	return pick
}

// maxTraced bounds the occurrences of a false claim whose traces are
// compared.
const maxTraced = 64

// embedsSomewhere tries the abstract structures in order.
func embedsSomewhere(ctx context.Context, c *tvl.Structure, abs []*tvl.Structure, maxSteps int, active *tvl.Pred) tvl.EmbedOutcome {
	out := tvl.NoEmbedding
	for _, a := range abs {
		if ctx.Err() != nil {
			return tvl.Undecided
		}
		switch _, r := tvl.EmbeddingOptionalContext(ctx, c, a, maxSteps, active); r {
		case tvl.Embeds:
			return tvl.Embeds
		case tvl.Undecided:
			out = tvl.Undecided
		}
	}
	return out
}

// existing is c with every individual at inac 1 (active), for the
// single-structure join; c itself when active is nil.
func existing(c *tvl.Structure, active *tvl.Pred) *tvl.Structure {
	if active == nil {
		return c
	}
	e := c.Clone()
	for u := 0; u < e.Size(); u++ {
		e.Set(active, logic.True, u)
	}
	return e
}

// closest ranks the location's abstract structures by the fewest
// mismatches of a map from c, and returns the first k.
func closest(ctx context.Context, c *tvl.Structure, loc *engine.LocationResult, k int) []Candidate {
	if loc == nil {
		return nil
	}
	var cs []Candidate
	for i, a := range loc.Structures.All() {
		if ctx.Err() != nil {
			break // the report is incomplete; the candidates so far
		}
		f, ms := tvl.Closest(c, a, 200_000)
		cs = append(cs, Candidate{Index: i, Structure: a, Map: f, Mismatches: ms})
	}
	sort.SliceStable(cs, func(i, j int) bool { return len(cs[i].Mismatches) < len(cs[j].Mismatches) })
	if len(cs) > k {
		cs = cs[:k]
	}
	return cs
}
