package tvl

import (
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
	if c.voc != a.voc {
		return nil, NoEmbedding
	}
	for i := range c.nullary {
		if !leq(c.nullary[i], a.nullary[i]) {
			return nil, NoEmbedding
		}
	}
	n, m := c.n, a.n
	required := make([]bool, m)
	mustHit := 0
	for w := range required {
		required[w] = may == nil || a.Unary(may.Index, w) != logic.Unknown
		if required[w] {
			mustHit++
		}
	}
	if n < mustHit {
		return nil, NoEmbedding // not surjective
	}
	if n == 0 {
		return []int{}, Embeds
	}
	sm := c.voc.sm.Index
	cand := make([][]int, n)
	cover := make([]int, m) // unassigned individuals that may still hit w
	for u := 0; u < n; u++ {
		for w := 0; w < m; w++ {
			if selfCompatible(c, a, u, w) {
				cand[u] = append(cand[u], w)
				cover[w]++
			}
		}
		if len(cand[u]) == 0 {
			return nil, NoEmbedding
		}
	}
	for w := 0; w < m; w++ {
		if cover[w] == 0 && required[w] {
			return nil, NoEmbedding
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(cand[order[i]]) < len(cand[order[j]]) })
	summary := make([]bool, m)
	for w := 0; w < m; w++ {
		summary[w] = a.Unary(sm, w) == logic.Unknown
	}
	f = make([]int, n)
	for i := range f {
		f[i] = -1
	}
	hits := make([]int, m)
	unhit := mustHit
	steps := 0
	gaveUp := false
	var search func(k int) bool
	search = func(k int) bool {
		if k == n {
			return karyCompatible(c, a, f)
		}
		u := order[k]
		// u no longer counts as a way to hit its candidates.
		for _, w := range cand[u] {
			cover[w]--
		}
		defer func() {
			for _, w := range cand[u] {
				cover[w]++
			}
		}()
		// Every unhit individual must stay reachable from the individuals
		// left, and enough of them must be left.
		for _, w := range cand[u] {
			steps++
			if maxSteps > 0 && steps > maxSteps {
				gaveUp = true
				return false
			}
			if hits[w] > 0 && !summary[w] {
				continue
			}
			if !pairsCompatible(c, a, f, order[:k], u, w) {
				continue
			}
			f[u] = w
			hits[w]++
			if hits[w] == 1 && required[w] {
				unhit--
			}
			ok := unhit <= n-k-1
			if ok {
				for x := 0; x < m; x++ {
					if hits[x] == 0 && cover[x] == 0 && required[x] {
						ok = false
						break
					}
				}
			}
			if ok && search(k+1) {
				return true
			}
			if hits[w] == 1 && required[w] {
				unhit++
			}
			hits[w]--
			f[u] = -1
			if gaveUp {
				return false
			}
		}
		return false
	}
	if search(0) {
		return f, Embeds
	}
	if gaveUp {
		return nil, Undecided
	}
	return nil, NoEmbedding
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
	base := 0
	for i := range c.nullary {
		if !leq(c.nullary[i], a.nullary[i]) {
			base++
		}
	}
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
	sm := c.voc.sm.Index
	summary := make([]bool, m)
	for w := 0; w < m; w++ {
		summary[w] = a.Unary(sm, w) == logic.Unknown
	}
	self := make([][]int, n) // cost of u -> w alone
	minSelf := make([]int, n)
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
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Individuals with a clear best image first.
	sort.SliceStable(order, func(i, j int) bool { return minSelf[order[i]] > minSelf[order[j]] })
	rest := make([]int, n+1) // lower bound of the individuals from k on
	for k := n - 1; k >= 0; k-- {
		rest[k] = rest[k+1] + minSelf[order[k]]
	}
	best := -1
	bestF := make([]int, n)
	cur := make([]int, n)
	for i := range cur {
		cur[i] = -1
	}
	hits := make([]int, m)
	unhit := m
	steps := 0
	var search func(k, cost int)
	search = func(k, cost int) {
		if k == n {
			total := cost + unhit
			if best >= 0 && total >= best {
				return
			}
			total += karyMismatches(c, a, cur)
			if best < 0 || total < best {
				best = total
				copy(bestF, cur)
			}
			return
		}
		u := order[k]
		// Try the cheapest images first.
		ws := make([]int, m)
		for i := range ws {
			ws[i] = i
		}
		sort.SliceStable(ws, func(i, j int) bool { return self[u][ws[i]] < self[u][ws[j]] })
		for _, w := range ws {
			if best >= 0 && maxSteps > 0 && steps > maxSteps {
				return
			}
			steps++
			add := self[u][w]
			if hits[w] > 0 && !summary[w] {
				add++
			}
			for _, x := range order[:k] {
				y := cur[x]
				for i := range c.binary {
					if !leq(c.Binary(i, u, x), a.Binary(i, w, y)) {
						add++
					}
					if !leq(c.Binary(i, x, u), a.Binary(i, y, w)) {
						add++
					}
				}
			}
			cur[u] = w
			hits[w]++
			if hits[w] == 1 {
				unhit--
			}
			bound := cost + add + rest[k+1] + max(0, unhit-(n-k-1))
			if best < 0 || bound < best {
				search(k+1, cost+add)
			}
			if hits[w] == 1 {
				unhit++
			}
			hits[w]--
			cur[u] = -1
		}
	}
	search(0, base)
	return bestF, c.mismatches(a, bestF)
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
