package engine

import (
	"fmt"
	"iter"
	"time"

	"github.com/tvla-go/tvla/tvl"
)

// Stats are the totals of a run, as TVLA reports them.
type Stats struct {
	Stored int // structures stored at the end, over all locations
	// Unscheduled counts the stored structures in which no thread is
	// scheduled (no individual has tr_scheduled at 1): the states between
	// atomic blocks, the thesis' "Uns." column. 0 for programs without
	// the predicate tr_scheduled.
	Unscheduled int
	Examined    int // structures produced by actions, before joining
	Breaches    int // Coerce sharpenings and discards
	Iterations  int // locations taken from the worklist
	Messages    int
	// Inputs is the number of input structures; InputsDiscarded those
	// Coerce found inconsistent (they represent no state).
	Inputs, InputsDiscarded int
	Worklist                int
	Elapsed                 time.Duration
	// Time per phase. Focus, Coerce, Update and Blur run on the workers:
	// their times are summed over the Workers, so with two or more they
	// may add up to more than Elapsed. Join runs on the one goroutine
	// that folds the outcomes in order.
	FocusTime, CoerceTime, UpdateTime, BlurTime, JoinTime time.Duration
	// Workers is the number of goroutines that applied actions.
	Workers int
	// Spill says what the run spilled to disk (Options.SpillDir).
	Spill SpillStats
}

// Message is a message raised by an action at a location. Structure is
// the structure the action was looking at (after Focus and Coerce) when
// the message's formula held.
type Message struct {
	Location  string
	Action    string
	Text      string
	Structure *tvl.Structure
	// Breach marks the constraint breached after an update that stopped
	// the run (TVLA's breakIfCoerceAfterUpdateFailed). It is listed with
	// the messages, so that a report shows where the run stopped, but not
	// counted as one: TVLA prints the breach and counts only the
	// program's messages, and so do Stats.Messages and MessageCount.
	Breach bool
	// source is the stored structure the action started from.
	source slotRef
	// slotBound: the message was raised on the stored structure itself
	// under a join in place, and shows it as it ends.
	slotBound bool
}

// slotRef names a stored structure: a location and a slot in its set.
type slotRef struct {
	loc  string
	slot int
}

// LocationResult is what the analysis found at one CFG location.
type LocationResult struct {
	Label      string
	Structures Structures
	Messages   []Message
}

// MessageCount is the number of the location's messages, the breach that
// stopped a run (Message.Breach) not counted.
func (l *LocationResult) MessageCount() int {
	n := 0
	for _, m := range l.Messages {
		if !m.Breach {
			n++
		}
	}
	return n
}

// Structures are a location's stored structures, in the order they were
// first stored. They are kept packed (tvl.Packed), as the run stored
// them, and unpacked one at a time when asked for: a large run's result
// would not fit in memory unpacked. A caller that reads a structure many
// times keeps what At returns, or takes Slice.
type Structures struct {
	voc   *tvl.Vocabulary
	items packedSlots
}

// StructuresOf makes Structures of the given ones (for results made by
// hand). They must share a vocabulary.
func StructuresOf(ss ...*tvl.Structure) Structures {
	var out Structures
	for _, s := range ss {
		out.voc = s.Vocabulary()
		out.items.add(s.Pack())
	}
	return out
}

// Len is the number of structures.
func (s Structures) Len() int { return s.items.len() }

// At returns structure i, unpacked: a frozen structure of its own.
func (s Structures) At(i int) *tvl.Structure { return s.items.get(i).Unpack(s.voc) }

// All yields each structure's index and the structure, unpacked.
func (s Structures) All() iter.Seq2[int, *tvl.Structure] {
	return func(yield func(int, *tvl.Structure) bool) {
		for i := range s.items.len() {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Slice returns the structures unpacked, all at once.
func (s Structures) Slice() []*tvl.Structure {
	out := make([]*tvl.Structure, s.items.len())
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}

// MaxSize is the largest number of individuals of a structure (0 when
// there is none), read without unpacking them.
func (s Structures) MaxSize() int {
	m := 0
	for i := range s.items.len() {
		m = max(m, s.items.size(i))
	}
	return m
}

// PackedBytes is the size of the structures' packings, in bytes.
func (s Structures) PackedBytes() int {
	n := 0
	for i := range s.items.len() {
		n += s.items.bytes(i)
	}
	return n
}

// MessageGroup is the messages of a location with the same text, raised
// by the same action on different structures. A message is recorded once
// per location, text and structure (as TVLA counts them), so the same
// text often comes several times; a report prints a group once, with the
// number of structures and the first message's trace.
type MessageGroup struct {
	Text, Action string
	// Messages are the group's, in the order they were recorded.
	Messages []Message
}

// MessageGroups groups the location's messages by text and action, in
// the order of each group's first message.
func (l *LocationResult) MessageGroups() []MessageGroup {
	var groups []MessageGroup
	index := map[[2]string]int{}
	for _, m := range l.Messages {
		k := [2]string{m.Text, m.Action}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, MessageGroup{Text: m.Text, Action: m.Action})
		}
		groups[i].Messages = append(groups[i].Messages, m)
	}
	return groups
}

// Result is the outcome of a run.
type Result struct {
	Locations []*LocationResult
	Stats     Stats
	// Incomplete is set when a limit or an interrupt ended the run early;
	// StopReason says which.
	Incomplete bool
	StopReason string
	// StoppedOnMessage is set when the run ended early because of a
	// message: the message limit, or an update that broke a constraint.
	// Its verdict (messages raised) stands, whatever the rest of the
	// state space holds.
	StoppedOnMessage bool
	// StoppedOnBreach is set (with StoppedOnMessage) when an update broke
	// a constraint: the breach is listed among the messages
	// (Message.Breach), not counted in Stats.Messages.
	StoppedOnBreach bool
	// DiscardedInputs are the input structures Coerce found inconsistent
	// (they represent no state, so the run starts without them).
	DiscardedInputs []DiscardedInput
	sets            map[string]*StructureSet
	arrivals        *arrivalLog
}

// TimeLine is the run's time and its phases', as the reports print it.
// Focus, Coerce, Update and Blur run on the workers, so their times are
// summed over them and, with two or more, may add up to more than the
// total: the label says so. Join runs in order on one goroutine.
func (s Stats) TimeLine() string {
	over := "on 1 worker"
	if s.Workers > 1 {
		over = fmt.Sprintf("summed over %d workers", s.Workers)
	}
	return fmt.Sprintf("%.3fs (%s: focus %.3f, coerce %.3f, update %.3f, blur %.3f; join %.3f)",
		s.Elapsed.Seconds(), over, s.FocusTime.Seconds(), s.CoerceTime.Seconds(), s.UpdateTime.Seconds(),
		s.BlurTime.Seconds(), s.JoinTime.Seconds())
}

// DiscardedInput is an input structure Coerce found inconsistent: its
// index among the inputs Run was given, and the constraint it breaks.
type DiscardedInput struct {
	Input    int
	Violated string
}

// TraceStep is one step of an abstract trace: a structure at a location,
// and the action that led to it from the previous step ("" for the
// first step, an input structure).
type TraceStep struct {
	Location  string
	Action    string
	Structure *tvl.Structure
}

// Trace returns a shortest abstract trace that leads from an input
// structure to the message: the stored structures along the way (as they
// are at the end of the run, which may be more general than when the step
// was taken) and, last, the structure that raised the message.
func (r *Result) Trace(m Message) []TraceStep {
	// Breadth-first search backwards from the message's source to an
	// input.
	type node struct {
		at   slotRef
		next *node
		via  string // action from this node to next
	}
	start := &node{at: m.source}
	seen := map[slotRef]bool{m.source: true}
	queue := []*node{start}
	var found *node
	for len(queue) > 0 && found == nil {
		n := queue[0]
		queue = queue[1:]
		for _, a := range r.arrivals.arrivalsInto(n.at) {
			if a.from.slot < 0 {
				found = n
				break
			}
			if !seen[a.from] {
				seen[a.from] = true
				queue = append(queue, &node{at: a.from, next: n, via: a.action})
			}
		}
	}
	if found == nil {
		return []TraceStep{{Location: m.Location, Action: m.Action, Structure: m.Structure}}
	}
	var steps []TraceStep
	action := ""
	for n := found; n != nil; n = n.next {
		steps = append(steps, TraceStep{Location: n.at.loc, Action: action, Structure: r.sets[n.at.loc].At(n.at.slot)})
		action = n.via
	}
	return append(steps, TraceStep{Location: m.Location, Action: m.Action, Structure: m.Structure})
}

// Location returns the result at a label, or nil.
func (r *Result) Location(label string) *LocationResult {
	for _, l := range r.Locations {
		if l.Label == label {
			return l
		}
	}
	return nil
}

// TraceTo returns a shortest trace from an input structure to the
// structure stored in a slot of a location (its index in the location's
// Structures).
func (r *Result) TraceTo(loc string, slot int) []TraceStep {
	steps := r.Trace(Message{Location: loc, source: slotRef{loc, slot}})
	if len(steps) <= 1 {
		// No recorded arrival: the structure alone.
		return []TraceStep{{Location: loc, Structure: r.sets[loc].At(slot)}}
	}
	return steps[:len(steps)-1]
}
