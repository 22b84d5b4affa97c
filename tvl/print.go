package tvl

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/logic"
)

// IndividualName is how individual u is named in printed structures.
func IndividualName(u int) string { return "u" + strconv.Itoa(u) }

// String prints the structure in TVS syntax: the universe, then every
// predicate with a value other than 0, by arity and then in declaration
// order. The output depends only on the structure's contents, and the TVS
// reader gives back an equal structure.
func (s *Structure) String() string {
	var b strings.Builder
	s.WriteTVS(&b, "")
	return b.String()
}

// WriteTVS prints the structure as String does, each line prefixed by
// indent.
func (s *Structure) WriteTVS(b *strings.Builder, indent string) {
	b.WriteString(indent)
	b.WriteString("%n = {")
	for u := 0; u < s.n; u++ {
		if u > 0 {
			b.WriteString(", ")
		}
		b.WriteString(IndividualName(u))
	}
	b.WriteString("}\n")
	b.WriteString(indent)
	b.WriteString("%p = {\n")
	for k := 0; k <= s.voc.MaxArity(); k++ {
		for _, p := range s.voc.OfArity(k) {
			s.writePred(b, indent+"  ", p)
		}
	}
	b.WriteString(indent)
	b.WriteString("}\n")
}

func (s *Structure) writePred(b *strings.Builder, indent string, p *Pred) {
	if p.Arity == 0 {
		if v := s.nullary[p.Index]; v != logic.False {
			b.WriteString(indent + p.Name + " = " + v.String() + "\n")
		}
		return
	}
	var items []string
	item := func(args []int, v Kleene) string {
		var t strings.Builder
		switch len(args) {
		case 1:
			t.WriteString(IndividualName(args[0]))
		case 2:
			t.WriteString(IndividualName(args[0]) + "->" + IndividualName(args[1]))
		default:
			t.WriteByte('(')
			for i, a := range args {
				if i > 0 {
					t.WriteString(", ")
				}
				t.WriteString(IndividualName(a))
			}
			t.WriteByte(')')
		}
		if v == logic.Unknown {
			t.WriteString(":1/2")
		}
		return t.String()
	}
	switch p.Arity {
	case 1:
		for u := 0; u < s.n; u++ {
			if v := s.Unary(p.Index, u); v != logic.False {
				items = append(items, item([]int{u}, v))
			}
		}
	case 2:
		for u := 0; u < s.n; u++ {
			for w := 0; w < s.n; w++ {
				if v := s.Binary(p.Index, u, w); v != logic.False {
					items = append(items, item([]int{u, w}, v))
				}
			}
		}
	default:
		type entry struct {
			args []int
			v    Kleene
		}
		var es []entry
		s.EachKary(p, func(args []int, v Kleene) { es = append(es, entry{args, v}) })
		sort.Slice(es, func(i, j int) bool {
			x, y := es[i].args, es[j].args
			for k := range x {
				if x[k] != y[k] {
					return x[k] < y[k]
				}
			}
			return false
		})
		for _, e := range es {
			items = append(items, item(e.args, e.v))
		}
	}
	if len(items) == 0 {
		return
	}
	b.WriteString(indent + p.Name + " = {" + strings.Join(items, ", ") + "}\n")
}

// Changed names the predicates whose printed interpretations differ
// between two structures of one vocabulary, in the vocabulary's order,
// after the change of size if any ("2→3 individuals"). Individuals are
// compared by number, which Blur's canonical order makes meaningful
// between the steps of a trace.
func Changed(a, b *Structure) []string {
	var out []string
	if a.n != b.n {
		out = append(out, strconv.Itoa(a.n)+"→"+strconv.Itoa(b.n)+" individuals")
	}
	var pa, pb strings.Builder
	for _, p := range a.voc.Preds() {
		pa.Reset()
		pb.Reset()
		a.writePred(&pa, "", p)
		b.writePred(&pb, "", p)
		if pa.String() != pb.String() {
			out = append(out, p.Name)
		}
	}
	return out
}
