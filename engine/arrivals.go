package engine

// arrival records that an action applied to a stored structure produced
// a structure that went into another slot (from.slot < 0 for an input).
type arrival struct {
	from   slotRef
	action string
}

// arrivalLog keeps every arrival of a run, for the traces of messages. A
// large run records millions, so they are packed as indices, without
// pointers the collector would have to follow.
type arrivalLog struct {
	locs    map[string]int32
	names   []string
	actions map[string]int32
	titles  []string
	into    map[uint64][]packedArrival
}

// packedArrival is an arrival with its location and action as indices
// (loc < 0 for an input).
type packedArrival struct {
	loc, slot, action int32
}

func newArrivalLog() *arrivalLog {
	return &arrivalLog{locs: map[string]int32{}, actions: map[string]int32{}, into: map[uint64][]packedArrival{}}
}

func (l *arrivalLog) locIndex(loc string) int32 {
	i, ok := l.locs[loc]
	if !ok {
		i = int32(len(l.names))
		l.locs[loc] = i
		l.names = append(l.names, loc)
	}
	return i
}

func (l *arrivalLog) key(at slotRef) uint64 {
	return uint64(l.locIndex(at.loc))<<32 | uint64(uint32(at.slot))
}

// add records that the action took the structure at from (slot < 0: an
// input) into the slot at.
func (l *arrivalLog) add(at, from slotRef, action string) {
	a := packedArrival{loc: -1, slot: -1}
	if from.slot >= 0 {
		a.loc, a.slot = l.locIndex(from.loc), int32(from.slot)
	}
	i, ok := l.actions[action]
	if !ok {
		i = int32(len(l.titles))
		l.actions[action] = i
		l.titles = append(l.titles, action)
	}
	a.action = i
	k := l.key(at)
	l.into[k] = append(l.into[k], a)
}

// arrivalsInto returns the arrivals into the slot at, in the order they
// happened.
func (l *arrivalLog) arrivalsInto(at slotRef) []arrival {
	i, ok := l.locs[at.loc]
	if !ok {
		return nil
	}
	packed := l.into[uint64(i)<<32|uint64(uint32(at.slot))]
	out := make([]arrival, len(packed))
	for j, a := range packed {
		out[j].action = l.titles[a.action]
		out[j].from = slotRef{slot: -1}
		if a.loc >= 0 {
			out[j].from = slotRef{loc: l.names[a.loc], slot: int(a.slot)}
		}
	}
	return out
}
