package tvl

import (
	"context"
	"fmt"
	"sort"

	"github.com/tvla-go/tvla/logic"
)

// EmbedOutcome is the answer of an embedding search.
type EmbedOutcome uint8

const (
	// NoEmbedding: no surjective map embeds the structure.
	NoEmbedding EmbedOutcome = iota
	// Embeds: a map was found.
	Embeds
	// Undecided: the search gave up after its step budget.
	Undecided
)

// leq is the information order on values: a ⊑ b when a equals b or b is
// 1/2.
func leq(a, b Kleene) bool { return a == b || b == logic.Unknown }

// Embedding looks for an embedding of c into a (thesis §4.1.2): a
// surjective map f from c's individuals onto a's such that every
// predicate value of c is ⊑ the value of a at the image tuple. Equality
// counts as a predicate: two individuals of c may share an image only if
// that image is a summary individual, and a summary individual of c may
// only go to a summary individual (sm is compared like any unary
// predicate). c is usually a concrete (2-valued) structure, but any
// three-valued structure works.
//
// The search maps c's individuals one at a time, those with the fewest
// possible images first; an individual's possible images are those whose
// unary values and self-loop binary values it is ⊑, and each new pair is
// checked against every binary predicate and the pairs already mapped.
// It prunes as soon as some not-yet-hit individual of a can no longer be
// hit. maxSteps bounds the number of tentative assignments (0: no
// bound); past it the answer is Undecided. f[u] is u's image.
func Embedding(c, a *Structure, maxSteps int) (f []int, out EmbedOutcome) {
	return EmbeddingOptional(c, a, maxSteps, nil)
}

// EmbeddingOptional is Embedding where the individuals of a on which the
// unary predicate may is 1/2 need not be hit: under TVLA's
// single-structure join such an individual may not exist (may is inac),
// so a state need not have anything it stands for. may nil is
// Embedding.
func EmbeddingOptional(c, a *Structure, maxSteps int, may *Pred) (f []int, out EmbedOutcome) {
	return EmbeddingOptionalContext(context.Background(), c, a, maxSteps, may)
}

// EmbeddingOptionalContext is EmbeddingOptional that gives up (Undecided)
// soon after ctx ends: it checks ctx every 1,024 tentative assignments
// (a search of a million steps takes seconds).
func EmbeddingOptionalContext(ctx context.Context, c, a *Structure, maxSteps int, may *Pred) (f []int, out EmbedOutcome) {
	if c.voc != a.voc || !nullaryLeq(c, a) {
		return nil, NoEmbedding
	}
	required, mustHit := requiredImages(a, may)
	if c.n < mustHit {
		return nil, NoEmbedding // not surjective
	}
	if c.n == 0 {
		return []int{}, Embeds
	}
	e := newEmbedSearch(c, a, required, mustHit, maxSteps)
	if e == nil {
		return nil, NoEmbedding
	}
	e.ctx = ctx
	if e.search(0) {
		return e.f, Embeds
	}
	if e.gaveUp {
		return nil, Undecided
	}
	return nil, NoEmbedding
}

// nullaryLeq reports whether every nullary value of c is ⊑ a's.
func nullaryLeq(c, a *Structure) bool {
	for i := range c.nullary {
		if !leq(c.nullary[i], a.nullary[i]) {
			return false
		}
	}
	return true
}

// requiredImages marks the individuals of a that an embedding must hit
// (all but those where may is 1/2) and counts them.
func requiredImages(a *Structure, may *Pred) (required []bool, count int) {
	required = make([]bool, a.n)
	for w := range required {
		required[w] = may == nil || a.Unary(may.Index, w) != logic.Unknown
		if required[w] {
			count++
		}
	}
	return required, count
}

// summaries marks a's summary individuals.
func summaries(a *Structure) []bool {
	sm := a.voc.sm.Index
	summary := make([]bool, a.n)
	for w := range summary {
		summary[w] = a.Unary(sm, w) == logic.Unknown
	}
	return summary
}

// embedSearch is the state of EmbeddingOptional's backtracking search
// for a surjective map from c's individuals onto a's required ones.
type embedSearch struct {
	c, a     *Structure
	cand     [][]int // the images each individual of c is self-compatible with
	cover    []int   // unassigned individuals that may still hit w
	order    []int   // the order in which c's individuals are mapped
	summary  []bool  // a's summary individuals, which may be hit twice
	required []bool  // a's individuals that must be hit
	f        []int   // the map so far, -1 where unassigned
	hits     []int   // how many individuals map to w
	unhit    int     // required individuals not hit yet
	steps    int
	maxSteps int
	gaveUp   bool
	ctx      context.Context // gives up when it ends
}

// newEmbedSearch prepares the search, or returns nil when some individual
// of c has no possible image or some required individual of a can be no
// one's image.
func newEmbedSearch(c, a *Structure, required []bool, mustHit, maxSteps int) *embedSearch {
	n, m := c.n, a.n
	e := &embedSearch{c: c, a: a, required: required, unhit: mustHit, maxSteps: maxSteps}
	e.cand = make([][]int, n)
	e.cover = make([]int, m)
	for u := 0; u < n; u++ {
		for w := 0; w < m; w++ {
			if selfCompatible(c, a, u, w) {
				e.cand[u] = append(e.cand[u], w)
				e.cover[w]++
			}
		}
		if len(e.cand[u]) == 0 {
			return nil
		}
	}
	for w := 0; w < m; w++ {
		if e.cover[w] == 0 && required[w] {
			return nil
		}
	}
	// The individuals with the fewest possible images first.
	e.order = make([]int, n)
	for i := range e.order {
		e.order[i] = i
	}
	sort.SliceStable(e.order, func(i, j int) bool { return len(e.cand[e.order[i]]) < len(e.cand[e.order[j]]) })
	e.summary = summaries(a)
	e.f = make([]int, n)
	for i := range e.f {
		e.f[i] = -1
	}
	e.hits = make([]int, m)
	return e
}

// search maps the individuals order[k:], given a map of order[:k], and
// reports whether it found an embedding (in f).
func (e *embedSearch) search(k int) bool {
	n := len(e.f)
	if k == n {
		return karyCompatible(e.c, e.a, e.f)
	}
	u := e.order[k]
	// u no longer counts as a way to hit its candidates.
	for _, w := range e.cand[u] {
		e.cover[w]--
	}
	defer func() {
		for _, w := range e.cand[u] {
			e.cover[w]++
		}
	}()
	for _, w := range e.cand[u] {
		e.steps++
		if e.maxSteps > 0 && e.steps > e.maxSteps || e.steps&1023 == 0 && e.ctx.Err() != nil {
			e.gaveUp = true
			return false
		}
		if e.hits[w] > 0 && !e.summary[w] {
			continue
		}
		if !pairsCompatible(e.c, e.a, e.f, e.order[:k], u, w) {
			continue
		}
		e.assign(u, w)
		if e.canStillHitAll(n-k-1) && e.search(k+1) {
			return true
		}
		e.unassign(u, w)
		if e.gaveUp {
			return false
		}
	}
	return false
}

func (e *embedSearch) assign(u, w int) {
	e.f[u] = w
	e.hits[w]++
	if e.hits[w] == 1 && e.required[w] {
		e.unhit--
	}
}

func (e *embedSearch) unassign(u, w int) {
	if e.hits[w] == 1 && e.required[w] {
		e.unhit++
	}
	e.hits[w]--
	e.f[u] = -1
}

// canStillHitAll reports whether the left individuals still to map are
// enough for the required individuals not hit yet, and each of those is
// still some unmapped individual's candidate.
func (e *embedSearch) canStillHitAll(left int) bool {
	if e.unhit > left {
		return false
	}
	for x, h := range e.hits {
		if h == 0 && e.cover[x] == 0 && e.required[x] {
			return false
		}
	}
	return true
}

// selfCompatible reports whether c's individual u may map to a's w: every
// unary value, and every binary value of the pair (u, u), is ⊑ w's.
func selfCompatible(c, a *Structure, u, w int) bool {
	for i := range c.unaryCount() {
		if !leq(c.Unary(i, u), a.Unary(i, w)) {
			return false
		}
	}
	for i := range c.binary {
		if !leq(c.Binary(i, u, u), a.Binary(i, w, w)) {
			return false
		}
	}
	return true
}

// pairsCompatible checks the binary values between u (mapped to w) and
// every individual already mapped.
func pairsCompatible(c, a *Structure, f []int, done []int, u, w int) bool {
	for i := range c.binary {
		for _, x := range done {
			y := f[x]
			if !leq(c.Binary(i, u, x), a.Binary(i, w, y)) || !leq(c.Binary(i, x, u), a.Binary(i, y, w)) {
				return false
			}
		}
	}
	return true
}

// karyCompatible checks predicates of arity three and more under a
// complete map. A tuple of c missing from its table is 0, which must meet
// 0 or 1/2 in a; a tuple of a that is 1 must be 1 in c for every tuple
// mapped onto it.
func karyCompatible(c, a *Structure, f []int) bool {
	for k := 3; k < len(c.kary); k++ {
		for i := range c.kary[k] {
			cv, av := c.kary[k][i].vals, a.kary[k][i].vals
			// Tuples of c that are not 0.
			for key, v := range cv {
				args := key.Tuple()
				for j, x := range args {
					args[j] = f[x]
				}
				if !leq(v, av[KeyOf(args)]) {
					return false
				}
			}
			// Tuples of a that are 1 need every preimage tuple at 1.
			for key, v := range av {
				if v != logic.True {
					continue
				}
				img := key.Tuple()
				if !allPreimagesTrue(cv, f, img) {
					return false
				}
			}
		}
	}
	return true
}

func allPreimagesTrue(cv map[TupleKey]Kleene, f []int, img []int) bool {
	pre := make([][]int, len(img))
	for j, w := range img {
		for u, x := range f {
			if x == w {
				pre[j] = append(pre[j], u)
			}
		}
	}
	args := make([]int, len(img))
	var rec func(j int) bool
	rec = func(j int) bool {
		if j == len(img) {
			return cv[KeyOf(args)] == logic.True
		}
		for _, u := range pre[j] {
			args[j] = u
			if !rec(j + 1) {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// Mismatch is one reason a map fails to embed c into a.
type Mismatch struct {
	// Pred is the predicate whose value does not fit ("=" for equality:
	// two individuals on one non-summary individual; "" for an individual
	// of a that nothing maps to, or one of c that has no image).
	Pred string
	// C and A are the tuples in c and their image in a.
	C, A []int
	// CV and AV are the values there.
	CV, AV Kleene
}

func (m Mismatch) String() string {
	names := func(us []int) string {
		s := ""
		for i, u := range us {
			if i > 0 {
				s += ", "
			}
			s += IndividualName(u)
		}
		return s
	}
	switch m.Pred {
	case "":
		if len(m.C) > 0 {
			return fmt.Sprintf("concrete %s has no image", names(m.C))
		}
		return fmt.Sprintf("abstract %s receives no individual", names(m.A))
	case "=":
		return fmt.Sprintf("concrete %s both go to the non-summary abstract %s", names(m.C), IndividualName(m.A[0]))
	}
	return fmt.Sprintf("%s(%s) is %s in the concrete structure, but %s(%s) is %s in the abstract one",
		m.Pred, names(m.C), m.CV, m.Pred, names(m.A), m.AV)
}

// Closest finds a map from c's individuals to a's with the fewest
// mismatches: predicate tuples whose value in c is not ⊑ the image's,
// pairs of individuals sent to one non-summary individual, and
// individuals of a that nothing maps to. It is a branch-and-bound search
// bounded by maxSteps tentative assignments, so for large structures the
// map is the best one found. It returns the map and its mismatches (none
// exactly when the map is an embedding).
func Closest(c, a *Structure, maxSteps int) (f []int, mismatches []Mismatch) {
	n, m := c.n, a.n
	if m == 0 {
		f = make([]int, n)
		for i := range f {
			f[i] = -1
		}
		return f, c.mismatches(a, f)
	}
	if n == 0 {
		return []int{}, c.mismatches(a, []int{})
	}
	base := 0
	for i := range c.nullary {
		if !leq(c.nullary[i], a.nullary[i]) {
			base++
		}
	}
	s := newClosestSearch(c, a, maxSteps)
	s.search(0, base)
	return s.bestF, c.mismatches(a, s.bestF)
}

// closestSearch is the state of Closest's branch and bound.
type closestSearch struct {
	c, a     *Structure
	self     [][]int // self[u][w]: the mismatches of u -> w alone
	order    []int   // the order in which c's individuals are mapped
	rest     []int   // rest[k]: a lower bound of the cost of order[k:]
	summary  []bool  // a's summary individuals
	cur      []int   // the map so far, -1 where unassigned
	hits     []int   // how many individuals map to w
	unhit    int     // a's individuals not hit yet
	best     int     // the cost of bestF, -1 before the first complete map
	bestF    []int
	steps    int
	maxSteps int
}

func newClosestSearch(c, a *Structure, maxSteps int) *closestSearch {
	n, m := c.n, a.n
	s := &closestSearch{c: c, a: a, summary: summaries(a), unhit: m, best: -1, maxSteps: maxSteps}
	var minSelf []int
	s.self, minSelf = selfMismatches(c, a)
	s.order = make([]int, n)
	for i := range s.order {
		s.order[i] = i
	}
	// Individuals with a clear best image first.
	sort.SliceStable(s.order, func(i, j int) bool { return minSelf[s.order[i]] > minSelf[s.order[j]] })
	s.rest = make([]int, n+1)
	for k := n - 1; k >= 0; k-- {
		s.rest[k] = s.rest[k+1] + minSelf[s.order[k]]
	}
	s.bestF = make([]int, n)
	s.cur = make([]int, n)
	for i := range s.cur {
		s.cur[i] = -1
	}
	s.hits = make([]int, m)
	return s
}

// selfMismatches counts, for each individual u of c and w of a, the unary
// values of u and binary values of (u, u) that are not ⊑ w's, and the
// least count of each u.
func selfMismatches(c, a *Structure) (self [][]int, minSelf []int) {
	n, m := c.n, a.n
	self = make([][]int, n)
	minSelf = make([]int, n)
	for u := 0; u < n; u++ {
		self[u] = make([]int, m)
		minSelf[u] = -1
		for w := 0; w < m; w++ {
			k := 0
			for i := range c.unaryCount() {
				if !leq(c.Unary(i, u), a.Unary(i, w)) {
					k++
				}
			}
			for i := range c.binary {
				if !leq(c.Binary(i, u, u), a.Binary(i, w, w)) {
					k++
				}
			}
			self[u][w] = k
			if minSelf[u] < 0 || k < minSelf[u] {
				minSelf[u] = k
			}
		}
	}
	return self, minSelf
}

// search maps order[k:] given a map of order[:k] that costs cost, and
// records the best complete map.
func (s *closestSearch) search(k, cost int) {
	n := len(s.cur)
	if k == n {
		s.complete(cost)
		return
	}
	u := s.order[k]
	for _, w := range s.cheapestImages(u) {
		if s.best >= 0 && s.maxSteps > 0 && s.steps > s.maxSteps {
			return
		}
		s.steps++
		add := s.self[u][w]
		if s.hits[w] > 0 && !s.summary[w] {
			add++
		}
		add += pairMismatches(s.c, s.a, s.cur, s.order[:k], u, w)
		s.cur[u] = w
		s.hits[w]++
		if s.hits[w] == 1 {
			s.unhit--
		}
		bound := cost + add + s.rest[k+1] + max(0, s.unhit-(n-k-1))
		if s.best < 0 || bound < s.best {
			s.search(k+1, cost+add)
		}
		if s.hits[w] == 1 {
			s.unhit++
		}
		s.hits[w]--
		s.cur[u] = -1
	}
}

// complete scores the complete map cur, keeping it if it is the best so
// far.
func (s *closestSearch) complete(cost int) {
	total := cost + s.unhit
	if s.best >= 0 && total >= s.best {
		return
	}
	total += karyMismatches(s.c, s.a, s.cur)
	if s.best < 0 || total < s.best {
		s.best = total
		copy(s.bestF, s.cur)
	}
}

// cheapestImages lists a's individuals, the cheapest images of u first.
func (s *closestSearch) cheapestImages(u int) []int {
	ws := make([]int, len(s.hits))
	for i := range ws {
		ws[i] = i
	}
	sort.SliceStable(ws, func(i, j int) bool { return s.self[u][ws[i]] < s.self[u][ws[j]] })
	return ws
}

// pairMismatches counts the binary values between u (mapped to w) and
// every individual already mapped that are not ⊑ their images'.
func pairMismatches(c, a *Structure, f []int, done []int, u, w int) int {
	k := 0
	for _, x := range done {
		y := f[x]
		for i := range c.binary {
			if !leq(c.Binary(i, u, x), a.Binary(i, w, y)) {
				k++
			}
			if !leq(c.Binary(i, x, u), a.Binary(i, y, w)) {
				k++
			}
		}
	}
	return k
}

// karyMismatches counts the tuples of predicates of arity three and more
// whose value in c is not ⊑ their image's under the complete map f.
func karyMismatches(c, a *Structure, f []int) int {
	k := 0
	for ar := 3; ar < len(c.kary); ar++ {
		for _, p := range c.voc.OfArity(ar) {
			img := make([]int, ar)
			for args := range Tuples(c.n, ar) {
				for j, u := range args {
					img[j] = f[u]
				}
				if !leq(c.Get(p, args...), a.Get(p, img...)) {
					k++
				}
			}
		}
	}
	return k
}

// mismatches lists what keeps f from embedding c into a. f[u] < 0 means
// u is not mapped (it is then not compared).
func (c *Structure) mismatches(a *Structure, f []int) []Mismatch {
	var out []Mismatch
	for _, p := range c.voc.OfArity(0) {
		if cv, av := c.nullary[p.Index], a.nullary[p.Index]; !leq(cv, av) {
			out = append(out, Mismatch{Pred: p.Name, CV: cv, AV: av})
		}
	}
	for _, p := range c.voc.OfArity(1) {
		for u, w := range f {
			if w < 0 {
				continue
			}
			if cv, av := c.Unary(p.Index, u), a.Unary(p.Index, w); !leq(cv, av) {
				out = append(out, Mismatch{Pred: p.Name, C: []int{u}, A: []int{w}, CV: cv, AV: av})
			}
		}
	}
	for _, p := range c.voc.OfArity(2) {
		for u, w := range f {
			for x, y := range f {
				if w < 0 || y < 0 {
					continue
				}
				if cv, av := c.Binary(p.Index, u, x), a.Binary(p.Index, w, y); !leq(cv, av) {
					out = append(out, Mismatch{Pred: p.Name, C: []int{u, x}, A: []int{w, y}, CV: cv, AV: av})
				}
			}
		}
	}
	for k := 3; k < len(c.kary); k++ {
		for _, p := range c.voc.OfArity(k) {
			mapped := true
			for _, w := range f {
				mapped = mapped && w >= 0
			}
			if !mapped {
				continue
			}
			for args := range Tuples(c.n, k) {
				img := make([]int, k)
				for j, u := range args {
					img[j] = f[u]
				}
				if cv, av := c.Get(p, args...), a.Get(p, img...); !leq(cv, av) {
					out = append(out, Mismatch{Pred: p.Name, C: append([]int(nil), args...), A: img, CV: cv, AV: av})
				}
			}
		}
	}
	sm := c.voc.sm.Index
	hit := make([]bool, a.n)
	for u, w := range f {
		if w < 0 {
			out = append(out, Mismatch{C: []int{u}})
			continue
		}
		if hit[w] && a.Unary(sm, w) != logic.Unknown {
			// Name the first individual that went there, and this one.
			for x := 0; x < u; x++ {
				if f[x] == w {
					out = append(out, Mismatch{Pred: "=", C: []int{x, u}, A: []int{w}, CV: logic.False, AV: logic.True})
					break
				}
			}
		}
		hit[w] = true
	}
	for w := 0; w < a.n; w++ {
		if !hit[w] {
			out = append(out, Mismatch{A: []int{w}})
		}
	}
	return out
}
