package engine

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// A checkpoint is a run's whole state written to a file, so that a run
// longer than one sitting (a batch job's time limit, a machine needed for
// something else) can go on later from where it stopped: the structures
// stored at every location, those still to be processed, the iteration in
// progress and how far it got, the messages and the record of arrivals
// that traces are read from. A run resumed from a checkpoint goes on
// exactly as the run that wrote it would have: its result is the same as
// one run without a stop.
//
// The file is a gob stream: a header, the run's small state, then per
// location its pending versions and its slots in chunks, so that writing
// and reading it never hold a second copy of the structures.

// checkpointFormat names the file's layout; a file of another is
// refused, but for checkpointFormat1, the same without checksums, which
// is read without checking them.
const (
	checkpointFormat  = "tvla checkpoint 2"
	checkpointFormat1 = "tvla checkpoint 1"
)

// CheckpointOptions are what a run writes checkpoints for and resumes from.
type CheckpointOptions struct {
	// Path, when set, is the file a run writes its state to when a limit
	// or an interrupt stops it (not a message limit or a breach, which
	// answer it) and,
	// with Every, every Every while it runs: at the first join of an
	// iteration's results after Every has passed since the last one. The
	// file is replaced whole (written beside it, then renamed).
	Path  string
	Every time.Duration
	// Stage is recorded in the file: which of a caller's runs of the
	// program this is (the soft-invariant round).
	Stage int
	// Resume, when set, is the checkpoint the run goes on from instead
	// of starting from its inputs; the engine must be built from the same
	// program with the same options (Engine.Fingerprint).
	Resume *Checkpoint
	// Log, when set, is told of each checkpoint written, or why one
	// could not be: a run goes on when its checkpoint cannot be written.
	Log func(string)
}

// Checkpoint is a checkpoint file whose header was read (OpenCheckpoint).
type Checkpoint struct {
	Path string
	checkpointHeader
}

// checkpointHeader opens the file.
type checkpointHeader struct {
	Format      string
	Fingerprint string
	Stage       int
	Stored      int
	Examined    int
	Elapsed     time.Duration
	Written     time.Time
}

// Summary says what the checkpoint holds, for a log line.
func (c *Checkpoint) Summary() string {
	return fmt.Sprintf("%d structures stored, %d examined, %s of analysis", c.Stored, c.Examined, c.Elapsed.Round(time.Second))
}

// checkpointState is the run's state other than its structure sets.
type checkpointState struct {
	Stats     Stats
	Clock     uint32
	Discarded []DiscardedInput
	Locations []string
	// The arrival log: location and action names, and the log itself.
	ArrivalLocs, ArrivalActions []string
	ArrivalLog                  []byte
	Messages                    []checkpointMessage
	Seen                        []string
	// Batch is the iteration in progress, nil between iterations.
	Batch *checkpointBatch
}

type checkpointMessage struct {
	Location, Action, Text string
	// Structure is packed; empty when SlotBound (the message shows its
	// stored structure as it ends).
	Structure  string
	Breach     bool
	SourceLoc  string
	SourceSlot int
	SlotBound  bool
}

// checkpointBatch is an iteration in progress: the location, the pending
// versions it took, and how many of its tasks were joined in.
type checkpointBatch struct {
	Location string
	Pending  []checkpointPending
	Done     int
}

type checkpointPending struct {
	Slot   int
	Packed string
}

// checkpointSet opens a location's part: its pending versions and how
// many slots follow, in chunks.
type checkpointSet struct {
	Location string
	Slots    int
	Pending  []checkpointPending
}

// checkpointChunk is a run of consecutive slots with their join keys.
type checkpointChunk struct {
	Packed []string
	Keys   []uint64
}

// The file ends with a checksum of all before it (CRC-32C, 4 bytes, after
// the gob stream): a packing changed on disk would otherwise unpack to
// some other structure, or fail only when a task unpacks it.
var checkpointTable = crc32.MakeTable(crc32.Castagnoli)

var errCheckpointCorrupt = errors.New("the file is damaged (a checksum does not match)")

const checkpointChunkSlots = 4096

// iteration is an iteration in progress: the location, its pending
// versions, and how many of its tasks were folded in.
type iteration struct {
	loc     string
	pending []Pending
	done    int
}

// OpenCheckpoint reads a checkpoint file's header.
func OpenCheckpoint(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	var h checkpointHeader
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&h); err != nil || h.Format != checkpointFormat && h.Format != checkpointFormat1 {
		return nil, fmt.Errorf("checkpoint %s: not a checkpoint file of this version of tvla (%q expected)", path, checkpointFormat)
	}
	return &Checkpoint{Path: path, checkpointHeader: h}, nil
}

// Fingerprint identifies what decides a run's course: the program (its
// predicates, rules, locations, edges and actions, formulas included)
// and the options that change results. A checkpoint resumes only on an
// engine with the fingerprint it was written with.
func (e *Engine) Fingerprint() string {
	h := sha256.New()
	w := func(format string, args ...any) { fmt.Fprintf(h, format+"\n", args...) }
	o := e.opts
	w("join %s order %s break %v differencing %v nocycle %v closure %v watch %q", o.Join, o.ActionOrder,
		o.BreakIfCoerceAfterUpdateFailed, o.Differencing, o.NoCloseCycleMessages, o.Closure, o.Watch)
	if o.SkipSuperseded {
		// Not written otherwise, so that checkpoints written before the
		// option existed keep their fingerprint.
		w("skip superseded")
	}
	for _, p := range e.voc.All() {
		w("pred %s/%d kind %v props %+v abs %v", p.Name, p.Arity, p.Kind, p.Props, p.Abstraction())
		if p.Def != nil {
			w("  def %v = %s", p.Params, logic.String(p.Def))
		}
	}
	for _, c := range e.constraints {
		w("constraint %s", c)
	}
	w("locations %q", e.prog.Locations)
	for _, ed := range e.prog.Edges {
		w("edge %s -> %s: %s", ed.From, ed.To, ed.Action.Title)
	}
	formula := func(what string, f logic.Formula) {
		if f != nil {
			w("  %s %s", what, logic.String(f))
		}
	}
	for _, a := range e.prog.Actions {
		w("action %s", a.Title)
		for _, f := range a.Focus {
			formula("focus", f)
		}
		formula("pre", a.Precondition)
		for _, m := range a.PreMessages {
			formula("message "+m.Text, m.Formula)
		}
		for _, m := range a.PostMessages {
			formula("post message "+m.Text, m.Formula)
		}
		w("  new %v clone %v", a.New, a.Clone)
		formula("new", a.NewFormula)
		formula("clone", a.CloneFormula)
		for _, u := range a.Updates {
			formula(fmt.Sprintf("update %s%v", u.Pred.Name, u.Args), u.Formula)
		}
		formula("retain", a.Retain)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkpointer writes a run's checkpoints.
type checkpointer struct {
	opts CheckpointOptions
	last time.Time
	// fingerprint is the engine's, computed once.
	fingerprint string
}

// checkpointRefused reports why the run's mode cannot checkpoint, or "".
func (e *Engine) checkpointRefused() string {
	switch e.opts.Join {
	case JoinConcrete, JoinDecompose:
		return fmt.Sprintf("checkpoints are for the abstract runs (--join %s), not --join %s", strings.Join([]string{JoinRelational, JoinPartial, JoinIndependent}, ", "), e.opts.Join)
	}
	return ""
}

// due reports whether a periodic checkpoint is due.
func (c *checkpointer) due() bool {
	return c != nil && c.opts.Every > 0 && time.Since(c.last) >= c.opts.Every
}

// maybeCheckpoint writes a checkpoint when one is due.
func (st *state) maybeCheckpoint() {
	if st.checkpoints.due() {
		st.writeCheckpoint()
	}
}

// finish writes a checkpoint of a run that a limit or an interrupt
// stopped (not a message or a breach, which answer the run) and returns
// its result.
func (st *state) finish(r *Result) *Result {
	if st.checkpoints != nil && st.checkpoints.opts.Path != "" && r.Incomplete && !r.StoppedOnMessage && !r.StoppedOnBreach {
		st.writeCheckpoint()
	}
	return r
}

// writeCheckpoint writes the run's state to the checkpoint file, telling
// the log how it went.
func (st *state) writeCheckpoint() {
	c := st.checkpoints
	t0 := time.Now()
	c.last = t0
	n, err := st.saveCheckpoint(c.opts.Path)
	if c.opts.Log == nil {
		return
	}
	if err != nil {
		c.opts.Log(fmt.Sprintf("checkpoint not written: %v", err))
		return
	}
	c.opts.Log(fmt.Sprintf("checkpoint: %s written (%d structures, %.1f MB, %.1fs)", c.opts.Path, st.stored(), float64(n)/1e6, time.Since(t0).Seconds()))
}

// countingWriter counts what goes through it, and sums it.
type countingWriter struct {
	w   io.Writer
	n   int64
	crc uint32
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.crc = crc32.Update(c.crc, checkpointTable, p[:n])
	return n, err
}

// saveCheckpoint writes the state to path (through a file beside it,
// renamed when complete) and returns its size.
func (st *state) saveCheckpoint(path string) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return 0, err
	}
	buf := bufio.NewWriterSize(tmp, 1<<20)
	cw := &countingWriter{w: buf}
	if err := st.encodeCheckpoint(gob.NewEncoder(cw)); err != nil {
		tmp.Close()
		return 0, err
	}
	if _, err := buf.Write(binary.BigEndian.AppendUint32(nil, cw.crc)); err != nil {
		tmp.Close()
		return 0, err
	}
	if err := buf.Flush(); err != nil {
		tmp.Close()
		return 0, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	return cw.n + 4, os.Rename(tmp.Name(), path)
}

func packedList(pending []Pending) []checkpointPending {
	out := make([]checkpointPending, len(pending))
	for i, pd := range pending {
		out[i] = checkpointPending{Slot: pd.Slot, Packed: pd.packed.Encoding()}
	}
	return out
}

// encodeCheckpoint encodes the header, the state and the sets.
func (st *state) encodeCheckpoint(enc *gob.Encoder) error {
	stats := st.stats
	stats.Stored = st.stored()
	stats.Elapsed = time.Since(st.start)
	h := checkpointHeader{Format: checkpointFormat, Fingerprint: st.checkpoints.fingerprint, Stage: st.checkpoints.opts.Stage,
		Stored: stats.Stored, Examined: stats.Examined, Elapsed: stats.Elapsed, Written: time.Now().UTC()}
	if err := enc.Encode(&h); err != nil {
		return err
	}
	cs := checkpointState{Stats: stats, Clock: st.clock, Discarded: st.discarded, Locations: st.e.prog.Locations,
		ArrivalLocs: st.arrivals.names, ArrivalActions: st.arrivals.titles}
	for _, c := range st.arrivals.chunks {
		cs.ArrivalLog = append(cs.ArrivalLog, c...)
	}
	for _, l := range st.e.prog.Locations {
		for _, m := range st.messages[l] {
			cm := checkpointMessage{Location: m.Location, Action: m.Action, Text: m.Text, Breach: m.Breach,
				SourceLoc: m.source.loc, SourceSlot: m.source.slot, SlotBound: m.slotBound}
			if !m.slotBound && m.Structure != nil {
				cm.Structure = m.Structure.Pack().Encoding()
			}
			cs.Messages = append(cs.Messages, cm)
		}
	}
	for k := range st.msgSeen {
		cs.Seen = append(cs.Seen, k)
	}
	if b := st.current; b != nil {
		cs.Batch = &checkpointBatch{Location: b.loc, Pending: packedList(b.pending), Done: b.done}
	}
	if err := enc.Encode(&cs); err != nil {
		return err
	}
	for _, l := range st.e.prog.Locations {
		ss := st.sets[l]
		n := ss.items.len()
		if err := enc.Encode(&checkpointSet{Location: l, Slots: n, Pending: packedList(ss.pending)}); err != nil {
			return err
		}
		keys := make([]uint64, n)
		for k, ks := range ss.index {
			for j := ks.first; j >= 0; j = ss.next[j] {
				keys[j] = k
			}
		}
		for from := 0; from < n; from += checkpointChunkSlots {
			to := min(from+checkpointChunkSlots, n)
			ch := checkpointChunk{Keys: keys[from:to]}
			for i := from; i < to; i++ {
				ch.Packed = append(ch.Packed, ss.items.get(i).Encoding())
			}
			if err := enc.Encode(&ch); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrCheckpointMismatch is what resuming from a checkpoint of another
// program or other options returns (wrapped).
var ErrCheckpointMismatch = errors.New("the checkpoint was written by a run of another program or with other options")

// restore reads the checkpoint into the fresh state st and returns the
// locations with pending structures, and the iteration in progress (nil
// if none).
func (st *state) restore(cp *Checkpoint) (map[string]bool, *iteration, error) {
	fail := func(err error) (map[string]bool, *iteration, error) {
		return nil, nil, fmt.Errorf("checkpoint %s: %w", cp.Path, err)
	}
	if cp.Fingerprint != st.checkpoints.fingerprint {
		return fail(ErrCheckpointMismatch)
	}
	f, err := os.Open(cp.Path)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if cp.Format != checkpointFormat1 {
		if err := verifyChecksum(f); err != nil {
			return fail(err)
		}
	}
	dec := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	var h checkpointHeader
	var cs checkpointState
	if err := dec.Decode(&h); err != nil {
		return fail(err)
	}
	if h.Fingerprint != cp.Fingerprint {
		return fail(errors.New("the file changed since it was opened"))
	}
	if err := dec.Decode(&cs); err != nil {
		return fail(err)
	}

	voc := st.e.voc.Tvl()
	st.stats, st.clock, st.discarded = cs.Stats, cs.Clock, cs.Discarded
	st.stats.Worklist, st.stats.Spill = 0, SpillStats{}
	st.start = time.Now().Add(-cs.Stats.Elapsed)
	for _, name := range cs.ArrivalLocs {
		st.arrivals.locIndex(name)
	}
	for _, t := range cs.ArrivalActions {
		st.arrivals.actionIndex(t)
	}
	if len(cs.ArrivalLog) > 0 {
		st.arrivals.chunks = [][]byte{cs.ArrivalLog}
	}
	for _, cm := range cs.Messages {
		m := Message{Location: cm.Location, Action: cm.Action, Text: cm.Text, Breach: cm.Breach,
			source: slotRef{cm.SourceLoc, cm.SourceSlot}, slotBound: cm.SlotBound}
		if cm.Structure != "" {
			m.Structure = tvl.PackedFromEncoding(cm.Structure).Unpack(voc)
		}
		st.messages[cm.Location] = append(st.messages[cm.Location], m)
	}
	for _, k := range cs.Seen {
		st.msgSeen[k] = true
	}
	work := map[string]bool{}
	for range st.e.prog.Locations {
		var hs checkpointSet
		if err := dec.Decode(&hs); err != nil {
			return fail(err)
		}

		ss := st.sets[hs.Location]
		if ss == nil || ss.items.len() > 0 {
			return fail(fmt.Errorf("location %q is not the program's, or comes twice", hs.Location))
		}
		for ss.items.len() < hs.Slots {
			var ch checkpointChunk
			if err := dec.Decode(&ch); err != nil {
				return fail(err)
			}
			if len(ch.Keys) != len(ch.Packed) || len(ch.Packed) == 0 || ss.items.len()+len(ch.Packed) > hs.Slots {
				return fail(errors.New("a malformed chunk of slots"))
			}

			for i, p := range ch.Packed {
				ss.appendSlot(tvl.PackedFromEncoding(p), ch.Keys[i])
			}
		}
		for _, pd := range hs.Pending {
			if pd.Slot < 0 || pd.Slot >= hs.Slots {
				return fail(errors.New("a pending structure of no slot"))
			}
			ss.pending = append(ss.pending, Pending{Slot: pd.Slot, packed: tvl.PackedFromEncoding(pd.Packed)})
		}
		if len(ss.pending) > 0 {
			work[hs.Location] = true
		}
	}
	if cs.Batch == nil {
		return work, nil, nil
	}
	b := &iteration{loc: cs.Batch.Location, done: cs.Batch.Done}
	if st.sets[b.loc] == nil {
		return fail(fmt.Errorf("the iteration in progress is at %q, not a location of the program", b.loc))
	}
	for _, pd := range cs.Batch.Pending {
		b.pending = append(b.pending, Pending{Slot: pd.Slot, packed: tvl.PackedFromEncoding(pd.Packed)})
	}
	return work, b, nil
}

// verifyChecksum reads the file through, checks its last 4 bytes against
// the checksum of those before, and rewinds it.
func verifyChecksum(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() < 4 {
		return errCheckpointCorrupt
	}
	h := crc32.New(checkpointTable)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, info.Size()-4)); err != nil {
		return err
	}
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], info.Size()-4); err != nil {
		return err
	}
	if binary.BigEndian.Uint32(tail[:]) != h.Sum32() {
		return errCheckpointCorrupt
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}
