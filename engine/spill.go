package engine

import (
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/tvla-go/tvla/tvl"
)

// Spilling: a run whose stored structures no longer fit in memory writes
// the packings of the slots it touched least recently to a file and
// keeps, per spilled slot, where its packing is and a hash of it. The
// join index (keys and chains), the queues, the traces' arrivals and the
// unpacked cache stay in memory: a structure whose key no stored one has
// is stored without reading the file, and one whose key some spilled
// slot has is compared with it by hash first, so that the file is read
// only to confirm an equal structure or to join with the stored one (the
// join needs its values). The run's result is the same; only where the
// packings are differs.

// spillLenBits is how many low bits of a spillRef's at hold the
// packing's length; the rest hold its offset (a terabyte of file).
const spillLenBits = 24

// spillBlockShift sets the blocks of slots spilled together, and whose
// last use is tracked: 256 slots.
const spillBlockShift = 8

// spillRef is where a spilled slot's packing is in the spill file:
// offset<<spillLenBits | length (0: the slot is not spilled), and the
// packing's hash (never 0), which tells most unequal packings apart
// without reading the file.
type spillRef struct{ at, hash uint64 }

func (r spillRef) offset() int64 { return int64(r.at >> spillLenBits) }
func (r spillRef) length() int   { return int(r.at & (1<<spillLenBits - 1)) }

// SpillStats say what a run spilled.
type SpillStats struct {
	// Structures and Bytes count the packings written to the file
	// (a slot that grew after it was spilled, and was spilled again,
	// twice); Rounds the times the run spilled.
	Structures int
	Bytes      int64
	Rounds     int
	// Reads counts the packings read back.
	Reads int64
	// Err is why spilling stopped early (a write failed), or "".
	Err string
}

// spillFile is a run's spill file: append-only, each packing read back
// by its offset and length. It is removed from its folder as soon as it
// is made; the run holds it open, so the space goes back when the
// process ends, however it ends, and no file is left behind.
type spillFile struct {
	f     *os.File
	dir   string
	size  int64
	seed  maphash.Seed
	buf   []byte
	refs  []spillRef
	reads atomic.Int64
}

// openSpill makes a spill file in dir.
func openSpill(dir string) (*spillFile, error) {
	f, err := os.CreateTemp(dir, "tvla-spill-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return &spillFile{f: f, dir: dir, seed: maphash.MakeSeed()}, nil
}

// CheckSpillDir reports whether a run could spill into dir: a folder in
// which a file can be made.
func CheckSpillDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	sf, err := openSpill(dir)
	if err != nil {
		return err
	}
	return sf.f.Close()
}

// hash is p's hash, never 0.
func (sf *spillFile) hash(p tvl.Packed) uint64 {
	return maphash.String(sf.seed, p.Encoding()) | 1
}

// spillFailure carries a failed read of the spill file up to Run, which
// ends the run with it as an error: the engine cannot go on without the
// structure, and the file is its own, so this is the machine failing.
type spillFailure struct{ err error }

// read returns the packing at r.
func (sf *spillFile) read(r spillRef) tvl.Packed {
	b := make([]byte, r.length())
	if _, err := sf.f.ReadAt(b, r.offset()); err != nil {
		panic(spillFailure{fmt.Errorf("reading a spilled structure back from the spill file in %s: %w", sf.dir, err)})
	}
	sf.reads.Add(1)
	// b is not written again: the string may share it.
	return tvl.PackedFromEncoding(unsafe.String(&b[0], len(b)))
}

// packedSlots are a set's stored structures, by slot: packed in memory,
// or spilled (refs[i].at != 0, mem[i] zero). refs is nil until the set
// first spills, and shorter than mem when slots were added since.
type packedSlots struct {
	mem  []tvl.Packed
	refs []spillRef
	file *spillFile
}

func (ps *packedSlots) len() int { return len(ps.mem) }

// spilled reports whether slot i's packing is in the file.
func (ps *packedSlots) spilled(i int) bool { return i < len(ps.refs) && ps.refs[i].at != 0 }

// get returns slot i's packing, read from the file if it is there.
func (ps *packedSlots) get(i int) tvl.Packed {
	if ps.spilled(i) {
		return ps.file.read(ps.refs[i])
	}
	return ps.mem[i]
}

// set makes p slot i's packing, in memory.
func (ps *packedSlots) set(i int, p tvl.Packed) {
	ps.mem[i] = p
	if i < len(ps.refs) {
		ps.refs[i] = spillRef{}
	}
}

func (ps *packedSlots) add(p tvl.Packed) { ps.mem = append(ps.mem, p) }

// holds reports whether slot i's packing is p. *h is p's hash, computed
// when first needed (0 until then): a spilled slot is read only when its
// length and hash are p's.
func (ps *packedSlots) holds(i int, p tvl.Packed, h *uint64) bool {
	if !ps.spilled(i) {
		return ps.mem[i] == p
	}
	r := ps.refs[i]
	if r.length() != p.Len() {
		return false
	}
	if *h == 0 {
		*h = ps.file.hash(p)
	}
	return r.hash == *h && ps.file.read(r) == p
}

// size is slot i's number of individuals.
func (ps *packedSlots) size(i int) int { return ps.get(i).Size() }

// bytes is the length of slot i's packing.
func (ps *packedSlots) bytes(i int) int {
	if ps.spilled(i) {
		return ps.refs[i].length()
	}
	return ps.mem[i].Len()
}

// memBytes is the bytes of the packings of slots lo to hi-1 that are in
// memory.
func (ps *packedSlots) memBytes(lo, hi int) int {
	n := 0
	for _, p := range ps.mem[lo:hi] {
		n += p.Len()
	}
	return n
}

// spill writes the packings of slots lo to hi-1 that are in memory to
// the file and drops them from memory; it returns the bytes written. On
// a failed write the slots stay in memory.
func (ps *packedSlots) spill(lo, hi int) (int, int, error) {
	f := ps.file
	f.buf, f.refs = f.buf[:0], f.refs[:0]
	for _, p := range ps.mem[lo:hi] {
		if p.IsZero() || p.Len() >= 1<<spillLenBits {
			f.refs = append(f.refs, spillRef{})
			continue
		}
		at := uint64(f.size+int64(len(f.buf)))<<spillLenBits | uint64(p.Len())
		f.refs = append(f.refs, spillRef{at, f.hash(p)})
		f.buf = append(f.buf, p.Encoding()...)
	}
	if len(f.buf) == 0 {
		return 0, 0, nil
	}
	if _, err := f.f.WriteAt(f.buf, f.size); err != nil {
		return 0, 0, err
	}
	f.size += int64(len(f.buf))
	if len(ps.refs) < hi {
		ps.refs = append(ps.refs, make([]spillRef, hi-len(ps.refs))...)
	}
	count := 0
	for j, r := range f.refs {
		if r.at != 0 {
			ps.refs[lo+j], ps.mem[lo+j] = r, tvl.Packed{}
			count++
		}
	}
	return count, len(f.buf), nil
}

// touch records that slot i was used now, for choosing what to spill.
func (ss *StructureSet) touch(i int) {
	if ss.clock == nil {
		return
	}
	b := i >> spillBlockShift
	for len(ss.touched) <= b {
		ss.touched = append(ss.touched, 0)
	}
	ss.touched[b] = *ss.clock
}

// spillBlock is a block of slots of a set that has packings in memory.
type spillBlock struct {
	set     *StructureSet
	lo, hi  int
	touched uint32
}

// spillSome writes to the spill file the blocks of slots used least
// recently, until half the bytes of packings in memory are written. A
// write that fails stops spilling for the rest of the run.
func (st *state) spillSome() {
	var blocks []spillBlock
	total := 0
	for _, l := range st.e.prog.Locations {
		set := st.sets[l]
		for lo := 0; lo < set.items.len(); lo += 1 << spillBlockShift {
			hi := min(lo+1<<spillBlockShift, set.items.len())
			if n := set.items.memBytes(lo, hi); n > 0 {
				b := spillBlock{set: set, lo: lo, hi: hi}
				if k := lo >> spillBlockShift; k < len(set.touched) {
					b.touched = set.touched[k]
				}
				blocks = append(blocks, b)
				total += n
			}
		}
	}
	slices.SortStableFunc(blocks, func(a, b spillBlock) int { return cmp.Compare(a.touched, b.touched) })
	st.stats.Spill.Rounds++
	written := 0
	for _, b := range blocks {
		if written >= total/2 {
			break
		}
		count, n, err := b.set.items.spill(b.lo, b.hi)
		if err != nil {
			st.stats.Spill.Err = err.Error()
			return
		}
		written += n
		st.stats.Spill.Structures += count
		st.stats.Spill.Bytes += int64(n)
	}
}

// spillTestEvery, when not 0, makes a run that may spill do so every
// that many worklist iterations, whatever the heap (tests set it).
var spillTestEvery = 0

// maybeSpill spills when the run may and should: the options' SpillNow
// says so, or, at the start of an iteration (atIteration), the tests'
// period has come.
func (st *state) maybeSpill(atIteration bool) {
	if st.spill == nil || st.stats.Spill.Err != "" {
		return
	}
	due := atIteration && spillTestEvery > 0 && st.stats.Iterations%spillTestEvery == 0
	if !due && st.e.opts.SpillNow != nil {
		due = st.e.opts.SpillNow()
	}
	if due {
		st.spillSome()
	}
}

// startSpill prepares a run that may spill: the file, and each set's
// record of its blocks' last use.
func (st *state) startSpill() error {
	if st.e.opts.SpillDir == "" || st.e.mode.concrete() {
		return nil // concrete runs do not spill
	}
	sf, err := openSpill(st.e.opts.SpillDir)
	if err != nil {
		return fmt.Errorf("spill folder: %w", err)
	}
	st.spill = sf
	for _, set := range st.sets {
		set.items.file, set.clock = sf, &st.clock
	}
	return nil
}

// recoverSpill turns a failed read of the spill file (spillFailure)
// into err.
func recoverSpill(err *error) {
	if r := recover(); r != nil {
		var f spillFailure
		if sf, ok := r.(spillFailure); ok {
			f = sf
		} else {
			panic(r)
		}
		*err = errors.Join(*err, f.err)
	}
}
