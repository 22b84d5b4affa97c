package tvp

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// Writing TVS, the inverse of ParseTVS: tvla writes its results so.

// WriteTVS prints locations (with messages) in TVS syntax; ParseTVS of the
// output gives equal structures, in the same order, with the same labels,
// messages and descriptions. A single location labelled "" is written as
// bare structures, any other list as %location groups. Individuals keep
// their names when these are distinct identifiers, one per individual;
// otherwise they are written u0, u1, ... A structure with both messages
// and a description is written with both, which TVLA's own reader does not
// accept. Text that TVS cannot quote (a string holding '"' or a line
// break) is an error, and so is text over MaxTVSBytes, which LoadTVS
// would refuse to read back: nothing is written then.
func WriteTVS(w io.Writer, locs []TVSLocation) error {
	var b strings.Builder
	bare := len(locs) == 1 && locs[0].Label == ""
	for i, loc := range locs {
		indent := ""
		if !bare {
			if i > 0 {
				b.WriteByte('\n')
			}
			label, err := tvsLabel(loc.Label)
			if err != nil {
				return err
			}
			b.WriteString("%location " + label + " = {\n")
			indent = "  "
		}
		for j, st := range loc.Structures {
			if j > 0 {
				b.WriteByte('\n')
			}
			if err := writeTVSStructure(&b, indent, st); err != nil {
				if err == errTVSTooLarge {
					return err
				}
				return fmt.Errorf("location %q, structure %d: %w", loc.Label, j, err)
			}
		}
		if !bare {
			b.WriteString("}\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tvsWriteLimit is MaxTVSBytes; tests lower it.
var tvsWriteLimit int64 = MaxTVSBytes

// errTVSTooLarge is WriteTVS's refusal of text LoadTVS would refuse.
var errTVSTooLarge error = tvsTooLarge{}

type tvsTooLarge struct{}

func (tvsTooLarge) Error() string {
	return fmt.Sprintf("tvs: the structures take over %s as TVS text, the most a TVS file may hold: tvla could not read them back", cpp.SizeString(tvsWriteLimit))
}

// isTVSWord reports whether s lexes as exactly one identifier.
func isTVSWord(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIDChar(s[i]) {
			return false
		}
	}
	return true
}

func tvsQuote(s string) (string, error) {
	if strings.ContainsAny(s, "\"\n") {
		return "", fmt.Errorf("tvs: %q cannot be written as a TVS string", s)
	}
	return `"` + s + `"`, nil
}

func tvsLabel(l string) (string, error) {
	if isTVSWord(l) {
		return l, nil
	}
	return tvsQuote(l)
}

// tvsNodeNames returns the names to print for st's individuals.
func tvsNodeNames(st TVSStructure) []string {
	n := st.Structure.Size()
	if len(st.Names) == n {
		seen := make(map[string]bool, n)
		ok := true
		for _, name := range st.Names {
			if !isTVSWord(name) || seen[name] {
				ok = false
				break
			}
			seen[name] = true
		}
		if ok {
			return st.Names
		}
	}
	names := make([]string, n)
	for u := range names {
		names[u] = tvl.IndividualName(u)
	}
	return names
}

func writeTVSStructure(b *strings.Builder, indent string, st TVSStructure) error {
	s := st.Structure
	if s == nil {
		return fmt.Errorf("tvs: no structure")
	}
	for _, m := range st.Messages {
		q, err := tvsQuote(m)
		if err != nil {
			return err
		}
		b.WriteString(indent + "%message " + q + "\n")
	}
	if st.Description != "" {
		q, err := tvsQuote(st.Description)
		if err != nil {
			return err
		}
		b.WriteString(indent + "%d = {" + q + "}\n")
	}
	names := tvsNodeNames(st)
	b.WriteString(indent + "%n = {" + strings.Join(names, ", ") + "}\n")
	b.WriteString(indent + "%p = {\n")
	voc := s.Vocabulary()
	for k := 0; k <= voc.MaxArity(); k++ {
		for _, p := range voc.OfArity(k) {
			if err := writeTVSPred(b, indent+"  ", s, p, names); err != nil {
				return err
			}
		}
	}
	b.WriteString(indent + "}\n")
	return nil
}

// writeTVSPred writes p's values. It stops with errTVSTooLarge as soon
// as the text would pass tvsWriteLimit, so that a structure too large to
// read back is not built whole in memory first.
func writeTVSPred(b *strings.Builder, indent string, s *tvl.Structure, p *tvl.Pred, names []string) error {
	if p.Arity == 0 {
		if v := s.Get(p); v != logic.False {
			b.WriteString(indent + p.Name + " = " + v.String() + "\n")
		}
		return checkTVSSize(b.Len())
	}
	var items []string
	size := b.Len()
	var tooLarge bool
	add := func(args []int, v logic.Kleene) {
		if tooLarge {
			return
		}
		var t strings.Builder
		switch len(args) {
		case 1:
			t.WriteString(names[args[0]])
		case 2:
			t.WriteString(names[args[0]] + "->" + names[args[1]])
		default:
			t.WriteByte('(')
			for i, a := range args {
				if i > 0 {
					t.WriteString(", ")
				}
				t.WriteString(names[a])
			}
			t.WriteByte(')')
		}
		if v == logic.Unknown {
			t.WriteString(":1/2")
		}
		items = append(items, t.String())
		size += t.Len() + 2
		tooLarge = checkTVSSize(size) != nil
	}
	n := s.Size()
	switch p.Arity {
	case 1:
		for u := 0; u < n; u++ {
			if v := s.Unary(p.Index, u); v != logic.False {
				add([]int{u}, v)
			}
		}
	case 2:
		for u := 0; u < n && !tooLarge; u++ {
			for w := 0; w < n; w++ {
				if v := s.Binary(p.Index, u, w); v != logic.False {
					add([]int{u, w}, v)
				}
			}
		}
	default:
		type tuple struct {
			args []int
			v    logic.Kleene
		}
		var ts []tuple
		s.EachKary(p, func(args []int, v logic.Kleene) { ts = append(ts, tuple{append([]int(nil), args...), v}) })
		sort.Slice(ts, func(i, j int) bool {
			x, y := ts[i].args, ts[j].args
			for k := range x {
				if x[k] != y[k] {
					return x[k] < y[k]
				}
			}
			return false
		})
		for _, t := range ts {
			add(t.args, t.v)
		}
	}
	if tooLarge {
		return errTVSTooLarge
	}
	if len(items) > 0 {
		b.WriteString(indent + p.Name + " = {" + strings.Join(items, ", ") + "}\n")
	}
	return checkTVSSize(b.Len())
}

func checkTVSSize(n int) error {
	if int64(n) > tvsWriteLimit {
		return errTVSTooLarge
	}
	return nil
}
