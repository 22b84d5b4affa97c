package algc

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/alg"
)

// Tagged fields and tagged comparisons (docs/algorithms.md, "Memory
// reuse"). A tagged pointer field f carries a counter per node,
// incremented by every write of the field in that node (a store or a
// successful cas). A thread's snapshot x = b.f (b a thread-local
// variable) holds the pair (pointer, counter) of b's node's f; it is
// stale[f,x](t) once that field has been written, or once b has been
// assigned while x is live (x then no longer describes b's node). A cas
// on b.f with x succeeds only when b.f == x and the snapshot is not
// stale. A comparison x == S or S == x between a tagged shared pointer
// and its snapshot compares the counters too, as Michael and Scott's
// tail == Q->Tail does.

// staleOnFieldWrite records that s writes the field f of the node lhs.X
// points to, when f is tagged.
func (b *builder) staleOnFieldWrite(s *step, lhs *alg.Field) {
	tagged := false
	for _, fs := range b.s.fsnap {
		tagged = tagged || fs.Field == lhs.Name
	}
	if !tagged {
		return
	}
	s.tagField = lhs.Name
	s.tagNode = sched(b.g.val(lhs.X, "ts", "@W@"))
}

// staleOnRebase records that s assigns x, the base of field snapshots.
func (b *builder) staleOnRebase(s *step, x string) {
	for _, y := range sortedKeys(b.s.fsnap) {
		if b.s.fsnap[y].Base == x {
			s.rebased = append(s.rebased, y)
		}
	}
}

// staleFieldUpdates: a write of the tagged field f in node w makes
// stale every live snapshot of f read through a base variable that
// points to w, on every thread (the writer's own too, if it stays
// live); assigning the base of a live snapshot makes it stale.
func (c *compiler) staleFieldUpdates(st *step) []update {
	var out []update
	for _, x := range sortedKeys(c.s.fsnap) {
		fs := c.s.fsnap[x]
		p := staleName(fs.Field, x) + "(v)"
		live := st.to != nil && c.live[st.to][x]
		rebased := false
		for _, y := range st.rebased {
			rebased = rebased || y == x
		}
		if st.tagField != fs.Field {
			if rebased && live {
				out = append(out, update{p, p + " | tr_scheduled(v)"})
			}
			continue
		}
		w := c.b.g.fresh()
		hit := fmt.Sprintf("(E(%s) %s(v, %s) & %s)", w, fs.Base, w, strings.ReplaceAll(st.tagNode, "@W@", w))
		others := p
		if at := c.liveAt(x); at != "" {
			others = fmt.Sprintf("(%s | ((%s) & %s))", p, at, hit)
		}
		self := "0"
		switch {
		case live && rebased:
			self = "1"
		case live:
			self = "(" + p + " | " + hit + ")"
		}
		out = append(out, update{p, fmt.Sprintf("(tr_scheduled(v) ? %s : %s)", self, others)})
	}
	return out
}

// casFieldTag is the extra condition of a cas on a tagged field b.f
// with b's snapshot x: the snapshot is not stale.
func (b *builder) casFieldTag(c *alg.CAS) string {
	f, ok1 := c.Loc.(*alg.Field)
	old, ok2 := c.Old.(*alg.Name)
	if !ok1 || !ok2 {
		return ""
	}
	base, ok := f.X.(*alg.Name)
	if !ok || b.s.fsnap[old.Name] != (alg.FieldSnap{Base: base.Name, Field: f.Name}) {
		return ""
	}
	return " & !" + staleName(f.Name, old.Name) + "(ts)"
}

// tagEq is the extra condition of a comparison a == b between a tagged
// shared pointer and a snapshot of it: the snapshot is not stale.
func (g *fgen) tagEq(a, b alg.Expr, t string) string {
	x, ok1 := a.(*alg.Name)
	y, ok2 := b.(*alg.Name)
	if !ok1 || !ok2 {
		return ""
	}
	if g.s.tagged[x.Name] {
		x, y = y, x
	}
	if !g.s.tagged[y.Name] || g.s.snap[x.Name] != y.Name {
		return ""
	}
	return fmt.Sprintf(" & !%s(%s)", staleName(y.Name, x.Name), t)
}

// staleFieldFocus: with collapsed threads, a write of a tagged field f
// in node w focuses on which threads its stale[f,x] update hits (those
// at a location where x is live whose base variable points to w). On
// the summary thread that hit is 1/2, and every fact the write changes
// for the threads whose base points to w (a predicate reading w's f, say
// "sstail is a waiting node whose next is null" at a reuse's reset)
// would change in a 1/2 of its own, which three-valued logic cannot
// relate to the flag's: a conditional soft invariant "at L, a thread
// whose snapshot is current has p" would then go 1/2 there, though no
// thread whose snapshot the write leaves current is affected. Focused,
// the hit is 0 or 1 on every thread, and the flag and the fact change
// together. Bounded runs are left as they were.
func (c *compiler) staleFieldFocus() {
	for _, st := range c.b.steps {
		if st.tagField == "" {
			continue
		}
		for _, x := range sortedKeys(c.s.fsnap) {
			fs := c.s.fsnap[x]
			at := c.liveAt(x)
			if fs.Field != st.tagField || at == "" {
				continue
			}
			// A name of its own, so that the updates' fresh names
			// stay as they were.
			w := "w_hit"
			node := strings.ReplaceAll(st.tagNode, "@W@", w)
			st.collapsedFocus = append(st.collapsedFocus, fmt.Sprintf("(%s) & (E(%s) %s(v, %s) & %s)", at, w, fs.Base, w, node))
		}
	}
}
