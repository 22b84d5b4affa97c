package abstraction

import (
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// A collapsed model's soft invariants read the thread predicates, and
// finite differencing inlines into each soft invariant's update the
// update of every predicate it reads, quantifiers and all, simplified
// in that soft invariant's context. Across one action the same
// quantified subformulas of the thread variable recur: in round 2 of
// the tagged queue, 61,763 occurrences of 940 texts over 78 actions
// (docs/performance.md, "The soft invariants' updates"). Each distinct
// one is compiled once per action and named by a shared atom
// (sharedPrefix and its index); an update is evaluated a word of
// threads at a time, and a shared atom's value is computed once per
// structure, the first time a word formula reads it. The formulas are
// those differencing gave, so the results are the same.

const sharedPrefix = "$shared:"

// sharedVar is the variable a shared subformula is compiled over.
const sharedVar logic.Var = "$v"

// sharedIndex returns the index a shared atom's name carries.
func sharedIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, sharedPrefix)
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil
}

// share replaces in f, an update of the unary predicate over v, every
// maximal quantified subformula whose only free variable is v by a
// shared atom, compiling the new ones; it reports whether it replaced
// any.
func (c *actionCompiler) share(f logic.Formula, v logic.Var) (logic.Formula, bool, error) {
	replaced := false
	var firstErr error
	out := logic.Rewrite(f, func(g logic.Formula) (logic.Formula, bool) {
		switch g.(type) {
		case *logic.Quant, *logic.Closure, *logic.TC:
		default:
			return nil, false
		}
		if free := logic.FreeVars(g); len(free) != 1 || free[0] != v {
			return g, true
		}
		k, err := c.sharedAtom(g, v)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return g, true
		}
		replaced = true
		return logic.NewAtom(sharedPrefix+strconv.Itoa(k), v), true
	})
	return out, replaced, firstErr
}

// sharedAtom returns the index of subformula g of v, compiling it the
// first time its text is seen in the action.
func (c *actionCompiler) sharedAtom(g logic.Formula, v logic.Var) (int, error) {
	g = logic.Rename(g, map[logic.Var]logic.Var{v: sharedVar})
	text := logic.String(g)
	if k, ok := c.sharedText[text]; ok {
		return k, nil
	}
	k, err := c.compile(g, []logic.Var{sharedVar}, "shared subformula")
	if err != nil {
		return 0, err
	}
	c.sharedText[text] = len(c.a.shared)
	c.a.shared = append(c.a.shared, k)
	return len(c.a.shared) - 1, nil
}

// sharedValues are what an action's word-parallel updates share on one
// structure, each computed when first read: the shared subformulas'
// values and the covers' masks.
type sharedValues struct {
	a  *Action
	s  *tvl.Structure
	bs Bindings
	// bound[k] is formula k bound to s, once a reader needs it.
	bound []*tvl.Bound
	// one and nz hold formula k's words at [k*words, (k+1)*words),
	// right on the individuals known holds.
	one, nz, known []uint64
	words          int
	// masks holds cover k's words at [k*words, (k+1)*words) once
	// maskDone[k].
	masks    []uint64
	maskDone []bool
}

func (a *Action) newSharedValues(s *tvl.Structure, bs Bindings) *sharedValues {
	if len(a.shared) == 0 && len(a.covers) == 0 {
		return nil
	}
	words := (s.Size() + 63) / 64
	return &sharedValues{a: a, s: s, bs: bs, bound: make([]*tvl.Bound, len(a.shared)),
		one: make([]uint64, words*len(a.shared)), nz: make([]uint64, words*len(a.shared)), known: make([]uint64, words*len(a.shared)), words: words,
		masks: make([]uint64, words*len(a.covers)), maskDone: make([]bool, len(a.covers))}
}

// coverMask returns word w of the individuals cover k holds.
func (sv *sharedValues) coverMask(k, w int) uint64 {
	base := k * sv.words
	if !sv.maskDone[k] {
		sv.maskDone[k] = true
		for i := 0; i < sv.words; i++ {
			sv.masks[base+i] = sv.a.covers[k].mask(sv.a.coverAtoms, sv.s, i)
		}
	}
	return sv.masks[base+w]
}

// word returns word w of shared subformula k: where it is 1, where it is
// not 0, right on the individuals of care (each evaluated once, when a
// reader first cares about it).
func (sv *sharedValues) word(k, w int, care uint64) (uint64, uint64) {
	i := k*sv.words + w
	if need := care &^ sv.known[i] & validMask(sv.s, w); need != 0 {
		if sv.bound[k] == nil {
			sv.bound[k] = sv.bs.bind(sv.a.shared[k], sv.s)
		}
		sv.known[i] |= need
		for ; need != 0; need &= need - 1 {
			bit := need & -need
			switch sv.bound[k].Eval(w*64 + bits.TrailingZeros64(bit)) {
			case logic.True:
				sv.one[i] |= bit
				sv.nz[i] |= bit
			case logic.Unknown:
				sv.nz[i] |= bit
			}
		}
	}
	return sv.one[i], sv.nz[i]
}

// addSharedUpdate compiles the derived update of unary p by f with its
// quantified subformulas of p's variable shared, when the rest has a
// word-parallel form; it reports whether it did (otherwise nothing is
// compiled and the caller compiles f as it is). The cover is f's.
func (c *actionCompiler) addSharedUpdate(p *predicates.Predicate, f logic.Formula) (bool, error) {
	if sharedOff || len(p.Params) != 1 || c.opts.Restrict != nil {
		return false, nil
	}
	v := p.Params[0]
	if containsVar(c.a.preVars, v) {
		return false, nil
	}
	before := len(c.a.shared)
	g, replaced, err := c.share(f, v)
	if err != nil || !replaced {
		c.dropShared(before)
		return false, err
	}
	where := (&coverAnalysis{voc: c.voc.Tvl(), pred: p.Pred, args: p.Params}).changes(f)
	word := compileWordUpdate(c.voc.Tvl(), p.Pred, p.Params, g, c.a.preVars, where)
	if word == nil {
		c.dropShared(before)
		return false, nil
	}
	c.a.updates = append(c.a.updates, compiledUpdate{pred: p.Pred, where: where, word: word, coverID: c.wordCover(word, where)})
	c.updated[p.Name] = true
	c.a.changes = append(c.a.changes, p.Pred)
	return true, nil
}

// dropShared forgets the shared subformulas from index n on (those of an
// update that is compiled as it is after all).
func (c *actionCompiler) dropShared(n int) {
	if len(c.a.shared) == n {
		return
	}
	for text, k := range c.sharedText {
		if k >= n {
			delete(c.sharedText, text)
		}
	}
	c.a.shared = c.a.shared[:n]
}

// sharedOff turns sharing off (TVLA_NO_SHARED=1), to compare.
var sharedOff = os.Getenv("TVLA_NO_SHARED") != ""
