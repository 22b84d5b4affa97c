package abstraction

import (
	"slices"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Compose is the meet of components of graph decomposition
// (docs/decomposition.md): parts[i] is a stored component of names[i]
// (its individuals where names[i]'s formula is 1, and at most one
// outside individual, marked by outside, standing for all the others).
// It returns the structures, not blurred nor coerced, whose individuals
// are the nodes the parts describe, matched: an individual of part i
// where the formula of names[j] is 1 is matched with an individual of
// part j with the same values wherever both are definite, and one where
// it is 0 stands in part j's outside individual. Every individual of
// every part is matched, a non-summary one exactly once, a summary one
// once or more (a node it stands for matched with a node of another
// part, the others with that part's outside individual); every outside
// individual stands for at least one node; when every part has an
// outside individual, a further individual may stand for the nodes
// outside all of them (both possibilities are returned when both are
// consistent). Values are the meet of the parts' values. A part's
// unary values on a node it does not hold are unknown (1/2), but that
// the node is outside its name: the atoms whose 1 would put it in are
// 0. A part's binary values involving a node it does not hold are those
// of its outside individual: with opts.KeepBinary they are the join of
// the values of the nodes it stands for (Decompose), hence met like the
// others (the reference's linearization_stack states, observed);
// without, they are 0 in the part and read as unknown. The markers of
// names are 1, the nullary values the meet of the parts'. Composing one
// part "opens" its outside individual that way: what an action reads
// there is 1/2 but for the binary values kept. A combination that
// contradicts itself gives nothing.
func Compose(parts []*tvl.Structure, names []Component, outside *tvl.Pred, opts DecomposeOptions) []*tvl.Structure {
	var out []*tvl.Structure
	for _, c := range ComposeMatched(parts, names, outside, opts) {
		out = append(out, c.Structure)
	}
	return out
}

// Composed is a structure Compose makes, with the matching it stands
// for: Tuples[a][i] is the individual of parts[i] that individual a
// was made of, or -1 when a is outside names[i] (in parts[i]'s outside
// individual).
type Composed struct {
	Structure *tvl.Structure
	Tuples    [][]int
}

// ComposeMatched is Compose, with each structure's matching.
func ComposeMatched(parts []*tvl.Structure, names []Component, outside *tvl.Pred, opts DecomposeOptions) []Composed {
	parts = slices.Clone(parts)
	for i, d := range names {
		parts[i] = Reveal(parts[i], d, outside)
	}
	return ComposeRevealed(parts, names, outside, opts)
}

// ComposeRevealed is ComposeMatched on parts already revealed
// (Reveal): a caller that composes the same component many times
// reveals it once.
func ComposeRevealed(parts []*tvl.Structure, names []Component, outside *tvl.Pred, opts DecomposeOptions) []Composed {
	return ComposeRevealedWith(nil, parts, names, outside, opts)
}

// ComposeRevealedWith is ComposeRevealed reading each part's outside
// individual and its names' memberships from cache (nil: none), which
// keeps them for every later composition of the same revealed part.
func ComposeRevealedWith(cache *MembershipCache, parts []*tvl.Structure, names []Component, outside *tvl.Pred, opts DecomposeOptions) []Composed {
	m := newMeet(cache, parts, names, outside)
	if m == nil {
		return nil
	}
	m.keepBinary = opts.KeepBinary
	m.search()
	return m.res
}

// Reveal is s, a component of name d, as a composition reads it: with
// d's hidden predicates 1/2 on its inside individuals (and, for binary
// ones, with its outside individual too); s itself when d hides none.
func Reveal(s *tvl.Structure, d Component, outside *tvl.Pred) *tvl.Structure {
	if len(d.Hidden) == 0 {
		return s
	}
	return reveal(s, d.Hidden, outside)
}

// meet is Compose's search for consistent matchings.
type meet struct {
	parts   []*tvl.Structure
	names   []Component
	outside *tvl.Pred
	inside  [][]int // per part, its inside individuals
	out     []int   // per part, its outside individual, -1: none
	// member[i][j][u] is names[j]'s formula on individual u of part i.
	member [][][]logic.Kleene
	// sig[i][u] are the definite unary values of individual u of part i.
	sig [][]unarySig
	// claimed[i][u] is set once individual u of part i is matched.
	claimed [][]bool
	// tuples are the composed individuals found so far: per part an
	// individual, or -1 for the part's outside.
	tuples [][]int
	outAll bool // every part has an outside individual
	res    []Composed
	unary  []*tvl.Pred
	// keepBinary: the parts' binary values from an individual to their
	// outside individuals are joins, to be met (meetOutgoing).
	keepBinary bool
}

// undecided marks a part of a tuple not matched yet.
const undecided = -2

func newMeet(cache *MembershipCache, parts []*tvl.Structure, names []Component, outside *tvl.Pred) *meet {
	k := len(parts)
	m := &meet{parts: parts, names: names, outside: outside, inside: make([][]int, k), out: make([]int, k),
		member: make([][][]logic.Kleene, k), sig: make([][]unarySig, k), claimed: make([][]bool, k), outAll: true}
	m.unary = cache.unaryOf(parts[0].Vocabulary(), outside)
	// One block each for claimed and member, cut per part: a meet is
	// made for every combination the engine tries.
	size := 0
	for _, s := range parts {
		size += s.Size()
	}
	claimed := make([]bool, size)
	member := make([][]logic.Kleene, k*k)
	for i, s := range parts {
		f := cache.facts(s)
		sp := f.split(s, outside)
		if sp.twoOutside {
			return nil // not a component: two outside individuals
		}
		m.out[i], m.inside[i] = sp.out, sp.inside
		m.sig[i] = f.signatures(s, m.unary)
		m.claimed[i], claimed = claimed[:s.Size():s.Size()], claimed[s.Size():]
		m.member[i] = member[i*k : (i+1)*k : (i+1)*k]
		for j, d := range names {
			m.member[i][j] = f.membership(s, d.In, sp.inside)
		}
		if m.out[i] < 0 {
			m.outAll = false
		}
	}
	return m
}

// MembershipCache keeps, per revealed component, where its outside
// individual is and the values of names' membership formulas on its
// inside individuals: a component composed with many others (the
// decomposing engine's feasibility checks compose each stored one again
// with every new one) has them computed once. The structures it is
// given must not change while it is in use; it is not safe for
// concurrent use. A nil cache computes every time.
type MembershipCache struct {
	// parts holds what is known of each structure, so that a meet looks
	// a part up once, not once per name and per kind of fact.
	parts map[*tvl.Structure]*partFacts
	// unary is the last unaryOf, for its vocabulary and outside.
	unary    []*tvl.Pred
	unaryVoc *tvl.Vocabulary
	unaryOut *tvl.Pred
	// pairs are Compatible's answers (compose_pair.go).
	pairs map[pairKey]bool
}

// partFacts is what a cache knows of one structure: its split (when
// splitDone is set), its unary signatures (when sig is not nil), and the
// membership columns computed so far (a few: one per name).
type partFacts struct {
	splitDone bool
	sp        partSplit
	sig       []unarySig
	columns   []memberColumn
}

type memberColumn struct {
	in  *tvl.Compiled
	col []logic.Kleene
}

// NewMembershipCache returns an empty cache.
func NewMembershipCache() *MembershipCache {
	return &MembershipCache{parts: map[*tvl.Structure]*partFacts{}}
}

// facts is s's entry, made on first use; nil for a nil cache.
func (c *MembershipCache) facts(s *tvl.Structure) *partFacts {
	if c == nil {
		return nil
	}
	f := c.parts[s]
	if f == nil {
		f = &partFacts{}
		c.parts[s] = f
	}
	return f
}

// unaryOf are the unary predicates of voc a meet compares: all but
// outside and sm.
func (c *MembershipCache) unaryOf(voc *tvl.Vocabulary, outside *tvl.Pred) []*tvl.Pred {
	if c != nil && c.unaryVoc == voc && c.unaryOut == outside {
		return c.unary
	}
	all := voc.OfArity(1)
	unary := make([]*tvl.Pred, 0, len(all))
	for _, p := range all {
		if p != outside && p != voc.Summary() {
			unary = append(unary, p)
		}
	}
	if c != nil {
		c.unary, c.unaryVoc, c.unaryOut = unary, voc, outside
	}
	return unary
}

// unarySig is an individual's definite unary values, over a meet's
// unary predicates (bit i for unary[i]): those at 1 and those at 0.
type unarySig struct{ one, zero []uint64 }

// contradicts reports whether some unary predicate is 1 in one and 0
// in the other: the two individuals cannot be one node.
func (a unarySig) contradicts(b unarySig) bool {
	for x := range a.one {
		if a.one[x]&b.zero[x] != 0 || a.zero[x]&b.one[x] != 0 {
			return true
		}
	}
	return false
}

// signatures are the unarySigs of s's individuals over unary (which
// must be the same for every structure of one cache).
func (f *partFacts) signatures(s *tvl.Structure, unary []*tvl.Pred) []unarySig {
	if f != nil && f.sig != nil {
		return f.sig
	}
	words := (len(unary) + 63) / 64
	sig := make([]unarySig, s.Size())
	bits := make([]uint64, 2*words*len(sig))
	for u := range sig {
		o := 2 * words * u
		sig[u] = unarySig{bits[o : o+words : o+words], bits[o+words : o+2*words : o+2*words]}
	}
	for i, p := range unary {
		for u := range sig {
			switch s.Unary(p.Index, u) {
			case logic.True:
				sig[u].one[i/64] |= 1 << (i % 64)
			case logic.False:
				sig[u].zero[i/64] |= 1 << (i % 64)
			}
		}
	}
	if f != nil {
		f.sig = sig
	}
	return sig
}

// partSplit is a part's outside individual (-1: none) and the others.
type partSplit struct {
	out        int
	inside     []int
	twoOutside bool
}

func (f *partFacts) split(s *tvl.Structure, outside *tvl.Pred) partSplit {
	if f != nil && f.splitDone {
		return f.sp
	}
	sp := partSplit{out: -1}
	for u := range s.Size() {
		if s.Get(outside, u) != logic.True {
			sp.inside = append(sp.inside, u)
			continue
		}
		if sp.out >= 0 {
			sp.twoOutside = true
		}
		sp.out = u
	}
	if f != nil {
		f.splitDone, f.sp = true, sp
	}
	return sp
}

// membership is formula in's value on each individual of s (indexed
// by individual; only those of inside are evaluated, the others 0).
func (f *partFacts) membership(s *tvl.Structure, in *tvl.Compiled, inside []int) []logic.Kleene {
	if f != nil {
		for _, c := range f.columns {
			if c.in == in {
				return c.col
			}
		}
	}
	col := make([]logic.Kleene, s.Size())
	b := in.Bind(s)
	for _, u := range inside {
		col[u] = b.Eval(u)
	}
	if f != nil {
		f.columns = append(f.columns, memberColumn{in, col})
	}
	return col
}

// search matches the first individual not matched yet, or, when every
// one is, makes the structures of the matching.
func (m *meet) search() {
	for i := range m.parts {
		for _, u := range m.inside[i] {
			if m.claimed[i][u] {
				continue
			}
			t := make([]int, len(m.parts))
			for j := range t {
				t[j] = undecided
			}
			t[i] = u
			m.claimed[i][u] = true
			m.extend(t, 0)
			m.claimed[i][u] = false
			return
		}
	}
	m.finish()
}

// extend decides the parts of tuple t from j on, in every consistent
// way, and goes on with the search for each.
func (m *meet) extend(t []int, j int) {
	if j == len(t) {
		m.tuples = append(m.tuples, append([]int(nil), t...))
		m.search()
		m.tuples = m.tuples[:len(m.tuples)-1]
		return
	}
	if t[j] != undecided {
		m.extend(t, j+1)
		return
	}
	// What the matched individuals say of the node's membership in j.
	req := logic.Unknown
	for l, u := range t {
		if u < 0 {
			continue
		}
		v := m.member[l][j][u]
		if v == logic.Unknown {
			continue
		}
		if req != logic.Unknown && req != v {
			return
		}
		req = v
	}
	if req != logic.True && m.out[j] >= 0 {
		t[j] = -1
		m.extend(t, j+1)
	}
	if req != logic.False {
		for _, w := range m.inside[j] {
			// A summary individual may stand in several composed
			// individuals (a node matched with one of another part,
			// the rest with that part's outside individual, say).
			if (m.claimed[j][w] && m.parts[j].Get(m.parts[j].Vocabulary().Summary(), w) != logic.Unknown) || !m.fits(t, j, w) {
				continue
			}
			t[j] = w
			was := m.claimed[j][w]
			m.claimed[j][w] = true
			m.extend(t, j+1)
			m.claimed[j][w] = was
		}
	}
	t[j] = undecided
}

// fits reports whether individual w of part j can be the node the
// decided parts of t hold: its memberships agree with them, and no
// unary value contradicts theirs.
func (m *meet) fits(t []int, j, w int) bool {
	for l, u := range t {
		switch {
		case u == undecided || l == j:
		case u == -1:
			if m.member[j][l][w] == logic.True {
				return false
			}
		default:
			if m.member[j][l][w] == logic.False {
				return false
			}
			if m.sig[j][w].contradicts(m.sig[l][u]) {
				return false
			}
		}
	}
	return true
}

// finish makes the structures of a complete matching: without and with
// an individual for the nodes outside every part, as far as each is
// consistent.
func (m *meet) finish() {
	used := true
	for j, o := range m.out {
		if o < 0 {
			continue
		}
		hit := false
		for _, t := range m.tuples {
			hit = hit || t[j] == -1
		}
		used = used && hit
	}
	if used {
		if s, t := m.build(false); s != nil {
			m.res = append(m.res, Composed{s, t})
		}
	}
	if m.outAll {
		if s, t := m.build(true); s != nil {
			m.res = append(m.res, Composed{s, t})
		}
	}
}

// build makes the composed structure of the tuples, with one more
// individual outside every part when extra, and its tuples (a copy);
// nil when values conflict.
func (m *meet) build(extra bool) (*tvl.Structure, [][]int) {
	voc := m.parts[0].Vocabulary()
	tuples := make([][]int, len(m.tuples), len(m.tuples)+1)
	for a, t := range m.tuples {
		tuples[a] = append([]int(nil), t...)
	}
	if extra {
		all := make([]int, len(m.parts))
		for j := range all {
			all[j] = -1
		}
		tuples = append(tuples, all)
	}
	s := tvl.NewSized(voc, len(tuples), voc.OfArity(2)...)
	marker := map[*tvl.Pred]bool{}
	for _, d := range m.names {
		marker[d.Marker] = true
	}
	for _, p := range voc.OfArity(0) {
		if marker[p] {
			s.Set(p, logic.True)
			continue
		}
		v, ok := m.meetOver(func(l int) (logic.Kleene, bool) { return m.parts[l].Get(p), true })
		if !ok {
			return nil, nil
		}
		s.Set(p, v)
	}
	// isNew is 0 on every stored component: no node a part does not
	// hold is new either (read as 1/2 on an opened outside individual, it
	// made set_pldi08/cas/nolin/g's assignNew write dle(Head, outside)
	// = 1/2 where the reference keeps the stored 0).
	isNew, instance := voc.Lookup(predicates.IsNewName), voc.Lookup(predicates.InstanceName)
	unary, binary := voc.OfArity(1), voc.OfArity(2)
	for a, ta := range tuples {
		for _, p := range unary {
			v := logic.Unknown
			if p == m.outside || p == isNew {
				v = logic.False
				if p == m.outside && extra && a == len(tuples)-1 {
					v = logic.True
				}
			} else {
				v = m.unaryAt(p.Index, ta)
			}
			s.SetUnary(p.Index, a, v)
		}
		for b, tb := range tuples {
			for _, p := range binary {
				v, ok := m.binaryAt(p.Index, ta, tb)
				if !ok {
					return nil, nil
				}
				if p == instance && !m.relates(ta, tb) {
					// instance relates a %new or %clone copy to its
					// original during one action (its post clears it),
					// so no part relating the two nodes means none is
					// the other's copy: 0, as the reference's components
					// show, not the 1/2 of a pair no part knows.
					v = logic.False
				}
				s.SetBinary(p.Index, a, b, v)
			}
		}
	}
	// A node outside a part is outside its name: the atoms whose 1 would
	// make the membership formula 1 are 0 on it.
	for j, d := range m.names {
		zero := outsideZero(d.In.Formula())
		for a, ta := range tuples {
			if ta[j] != -1 {
				continue
			}
			for _, name := range zero {
				if p := voc.Lookup(name); p != nil && p.Arity == 1 {
					if s.Get(p, a) == logic.True {
						return nil, nil
					}
					s.Set(p, logic.False, a)
				}
			}
		}
	}
	return s, tuples
}

// meetOver meets f(l) over the parts l where f says it applies: 1/2 when
// none does, ok false when two disagree.
func (m *meet) meetOver(f func(l int) (logic.Kleene, bool)) (logic.Kleene, bool) {
	v := logic.Unknown
	for l := range m.parts {
		x, applies := f(l)
		if !applies {
			continue
		}
		var ok bool
		if v, ok = meetK(v, x); !ok {
			return v, false
		}
	}
	return v, true
}

// meetK is the meet of two values in the information order: ok is false
// when one is 0 and the other 1.
func meetK(a, b logic.Kleene) (logic.Kleene, bool) {
	switch {
	case a == b || b == logic.Unknown:
		return a, true
	case a == logic.Unknown:
		return b, true
	}
	return a, false
}

// reveal is s, a component that does not record the hidden predicates,
// with them 1/2 on its inside individuals.
func reveal(s *tvl.Structure, hidden []*tvl.Pred, outside *tvl.Pred) *tvl.Structure {
	s = s.Clone()
	var in []int
	for u := range s.Size() {
		if s.Get(outside, u) != logic.True {
			in = append(in, u)
		}
	}
	for _, p := range hidden {
		if p.Arity == 2 {
			// Binary values with the outside individual too: they
			// are 0 without keepBinary, a join of hidden ones with it.
			for t := range tvl.Tuples(s.Size(), 2) {
				s.Set(p, logic.Unknown, t...)
			}
			continue
		}
		for t := range tvl.Tuples(len(in), p.Arity) {
			args := make([]int, len(t))
			for i, x := range t {
				args[i] = in[x]
			}
			s.Set(p, logic.Unknown, args...)
		}
	}
	return s
}

// outsideZero lists the unary atoms that are 0 wherever f, a membership
// formula of one variable, is 0: those of an atom, of both sides of a
// disjunction, and of the side of a conjunction whose other side is the
// constant 1 (a hidden predicate's negated atom).
func outsideZero(f logic.Formula) []string {
	switch g := f.(type) {
	case *logic.Atom:
		if len(g.Args) == 1 {
			return []string{g.Pred}
		}
	case *logic.Binary:
		switch g.Op {
		case logic.Or:
			return append(outsideZero(g.Left), outsideZero(g.Right)...)
		case logic.And:
			if isTrue(g.Right) {
				return outsideZero(g.Left)
			}
			if isTrue(g.Left) {
				return outsideZero(g.Right)
			}
		}
	}
	return nil
}

// isTrue reports whether f is the constant 1, written as 1, !0, or a
// conjunction of such.
func isTrue(f logic.Formula) bool {
	switch g := f.(type) {
	case *logic.Const:
		return g.Value == logic.True
	case *logic.Not:
		c, ok := g.Sub.(*logic.Const)
		return ok && c.Value == logic.False
	case *logic.Binary:
		return g.Op == logic.And && isTrue(g.Left) && isTrue(g.Right)
	}
	return false
}
