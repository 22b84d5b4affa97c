package viz

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/emicklei/dot"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Caption is the title drawn above a structure.
type Caption struct {
	// Location is the CFG location the structure is at.
	Location string
	// Detail says which structure it is: "structure 2 of 9", "after y = x".
	Detail string
	// Message is the text of the message the structure raised, if any.
	Message string
}

// Names of the unary predicates that give an individual its sort, and so
// its shape.
var (
	threadSortNames = []string{predicates.IsThreadName, "is_thread", "thread"}
	dataSortNames   = []string{"is_data", "isdata", "data"}
)

// Colours and fonts shared by every picture.
const (
	fontName     = "Helvetica"
	fontSize     = "11"
	smallSize    = "9"
	dimColour    = "#777777" // the individual's name, instrumentation edges
	messageColor = "#b00000"
)

// predInfo is what a picture needs to know about a predicate.
type predInfo struct {
	pred    *tvl.Pred
	core    bool // a core predicate (or one we know nothing of)
	pointer bool // drawn as a named arrow
	soft    bool // a soft invariant of a thread (IsSoftInvariant)
	sort    string
	show    []logic.Kleene
}

// shows reports whether value v of the predicate is drawn: by default the
// values 1 and 1/2, or those of the declaration's display hint {...}.
func (pi *predInfo) shows(v logic.Kleene) bool {
	if len(pi.show) == 0 {
		return v != logic.False
	}
	for _, s := range pi.show {
		if s == v {
			return true
		}
	}
	return false
}

// describe gathers what the pictures need about the predicates of s's
// vocabulary. voc may be nil, or a different vocabulary: then every
// predicate is an undecorated core predicate.
func describe(s *tvl.Structure, voc *predicates.Vocabulary) []*predInfo {
	tv := s.Vocabulary()
	var out []*predInfo
	for _, p := range tv.Preds() {
		pi := &predInfo{pred: p, core: true}
		if voc != nil && voc.Tvl() == tv {
			d := voc.Of(p)
			pi.core = d.Kind != predicates.Instrumentation
			pi.pointer = p.Arity == 1 && (d.Props.Pointer || d.Props.Box)
			pi.show = d.Props.Show
			pi.soft = IsSoftInvariant(d)
		}
		if p.Arity == 1 {
			switch {
			case contains(threadSortNames, p.Name):
				pi.sort = "thread"
			case contains(dataSortNames, p.Name):
				pi.sort = "data"
			}
		}
		out = append(out, pi)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// newGraph returns a directed graph whose nodes and edges all get the
// pictures' font.
func newGraph() *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.Attrs("fontname", fontName, "fontsize", fontSize)
	g.NodeInitializer(func(n dot.Node) {
		n.Attrs("fontname", fontName, "fontsize", fontSize)
	})
	g.EdgeInitializer(func(e dot.Edge) {
		e.Attrs("fontname", fontName, "fontsize", smallSize)
	})
	return g
}

// StructureGraph draws s as a graph. voc supplies the predicates' display
// properties (pointer, box, the {1, 1/2} hint) and kinds; it may be nil.
// The caption becomes the graph's title, above the table of nullary
// predicates. Every drawn value is in the picture (TVLA's style): see
// DrawStructure for a drawing that folds a thread's soft invariants.
func StructureGraph(s *tvl.Structure, voc *predicates.Vocabulary, c Caption) *dot.Graph {
	g, _ := DrawStructure(s, voc, c, DrawOptions{})
	return g
}

// DrawOptions change how DrawStructure draws a structure.
type DrawOptions struct {
	// FoldThreadPredicates leaves a thread's soft invariants (see
	// IsSoftInvariant) out of its node, which otherwise lists dozens of
	// them and dwarfs the heap: the node says how many there are and
	// lists them in its tooltip, and DrawStructure returns them so that a
	// page can show them beside the picture.
	FoldThreadPredicates bool
}

// Folded is the predicates a drawing left out of one individual's node,
// with their values, in the vocabulary's order.
type Folded struct {
	Individual string
	Summary    bool
	Values     []Field // predicate name, value (1, 1/2 or 0)
}

// softPrefixes start the names of soft invariants: if[L,p] and nif[L,p]
// as predicates.AddSoftInvariants generates them (and the conditional
// if[L,q,p]), and the families of the bundled models' hand-written ones
// (if[...], nif[...], ifc[...], nifc[...]).
var softPrefixes = []string{"if[", "nif[", "ifc[", "nifc["}

// IsSoftInvariant reports whether a predicate is a soft invariant of a
// thread: a unary instrumentation predicate named if[...], nif[...],
// ifc[...] or nifc[...] (those predicates.AddSoftInvariants generates
// among them). A drawing that folds thread predicates leaves these out of
// a thread's node.
func IsSoftInvariant(p *predicates.Predicate) bool {
	if p == nil || p.Arity != 1 || p.Kind != predicates.Instrumentation {
		return false
	}
	for _, pre := range softPrefixes {
		if strings.HasPrefix(p.Name, pre) && strings.HasSuffix(p.Name, "]") {
			return true
		}
	}
	return false
}

// DrawStructure draws s like StructureGraph, with options; it returns the
// graph and what it left out of the nodes (nil unless opts fold
// something).
func DrawStructure(s *tvl.Structure, voc *predicates.Vocabulary, c Caption, opts DrawOptions) (*dot.Graph, []Folded) {
	g := newGraph()
	g.Attrs("rankdir", "LR", "labelloc", "t", "labeljust", "l", "nodesep", "0.3", "ranksep", "0.45")
	info := describe(s, voc)
	note := ""
	if s.Size() == 0 {
		note = "no individuals"
	}
	if label := titleLabel(c, note, valueTable(s, info)); label != "" {
		g.Attr("label", dot.HTML(label))
	}
	// Pointer predicates first, so that dot places them at the left.
	drawPointers(g, s, info)
	var folded []Folded
	for u := 0; u < s.Size(); u++ {
		if f := drawIndividual(g, s, info, u, opts); len(f.Values) > 0 {
			folded = append(folded, f)
		}
	}
	drawBinaryEdges(g, s, info)
	return g, folded
}

// valueTable lists the drawn values of the nullary predicates, then the
// drawn tuples of the predicates of arity three or more: name, value.
func valueTable(s *tvl.Structure, info []*predInfo) [][2]string {
	var table [][2]string
	for _, pi := range info {
		if pi.pred.Arity != 0 {
			continue
		}
		if v := s.Get(pi.pred); pi.shows(v) {
			table = append(table, [2]string{pi.pred.Name, v.String()})
		}
	}
	for _, pi := range info {
		if pi.pred.Arity < 3 {
			continue
		}
		table = append(table, karyRows(s, pi)...)
	}
	return table
}

// drawPointers draws each pointer predicate as a named node with an arrow
// to every individual it holds on (dotted where it is 1/2).
func drawPointers(g *dot.Graph, s *tvl.Structure, info []*predInfo) {
	for _, pi := range info {
		if !pi.pointer {
			continue
		}
		var targets []int
		for u := 0; u < s.Size(); u++ {
			if v := s.Get(pi.pred, u); v != logic.False && pi.shows(v) {
				targets = append(targets, u)
			}
		}
		if len(targets) == 0 {
			continue
		}
		pn := g.Node(fmt.Sprintf("0:%06d", pi.pred.ID)).Label(pi.pred.Name)
		pn.Attrs("shape", "plaintext", "margin", "0.02")
		for _, u := range targets {
			e := g.Edge(pn, individualNode(g, u)).Attr("arrowsize", "0.7")
			if s.Get(pi.pred, u) == logic.Unknown {
				e.Dotted()
			}
		}
	}
}

// drawIndividual labels u's node with its name and the unary values
// drawn on it, shaped by its sort, with two borders if it is a summary.
// A thread's soft invariants, when opts fold them, become a count in the
// node and a list in its tooltip, and are returned.
func drawIndividual(g *dot.Graph, s *tvl.Structure, info []*predInfo, u int, opts DrawOptions) Folded {
	nd := individualNode(g, u)
	shape, all := unaryLines(s, info, u)
	fold := opts.FoldThreadPredicates && shape == "hexagon"
	out := Folded{Individual: tvl.IndividualName(u), Summary: s.IsSummary(u)}
	var lines, folded []string
	for _, l := range all {
		if fold && l.soft {
			folded = append(folded, l.text)
			out.Values = append(out.Values, Field{Name: l.name, Value: l.value.String()})
			continue
		}
		lines = append(lines, l.text)
	}
	label := `<FONT POINT-SIZE="` + smallSize + `" COLOR="` + dimColour + `">` + esc(tvl.IndividualName(u)) + `</FONT>`
	for _, l := range lines {
		label += `<BR/>` + esc(l)
	}
	if len(folded) > 0 {
		label += `<BR/><FONT POINT-SIZE="` + smallSize + `" COLOR="` + dimColour + `">+` + plural(len(folded), "soft invariant") + `</FONT>`
	}
	nd.Attr("label", dot.HTML(label))
	nd.Attrs("shape", shape, "margin", "0.04")
	tip := tvl.IndividualName(u)
	if s.IsSummary(u) {
		nd.Attr("peripheries", "2")
		tip += " (summary)"
	}
	if len(lines) > 0 {
		tip += ": " + strings.Join(lines, ", ")
	}
	if len(folded) > 0 {
		tip += "; soft invariants: " + strings.Join(folded, ", ")
	}
	nd.Attr("tooltip", tip)
	return out
}

// unaryLine is one line of an individual's label: a unary predicate
// drawn on it.
type unaryLine struct {
	name  string
	value logic.Kleene
	text  string // "p" for 1, else "p=1/2" or "p=0"
	soft  bool   // a soft invariant
}

// unaryLines returns the shape of u's node (a hexagon for a thread, a box
// for data, else a circle) and the lines of its label: the unary
// predicates drawn on it that are 1, then those at 1/2, then those at 0.
func unaryLines(s *tvl.Structure, info []*predInfo, u int) (shape string, lines []unaryLine) {
	var holds, half, zero []unaryLine
	shape = "circle"
	for _, pi := range info {
		if pi.pred.Arity != 1 || pi.pointer || pi.pred.Name == tvl.SummaryName {
			continue
		}
		v := s.Get(pi.pred, u)
		if pi.sort != "" && v == logic.True {
			if pi.sort == "thread" {
				shape = "hexagon"
			} else if shape != "hexagon" {
				shape = "box"
			}
			continue
		}
		if !pi.shows(v) {
			continue
		}
		l := unaryLine{name: pi.pred.Name, value: v, text: pi.pred.Name, soft: pi.soft}
		switch v {
		case logic.True:
			holds = append(holds, l)
		case logic.Unknown:
			l.text += "=1/2"
			half = append(half, l)
		default:
			l.text += "=0"
			zero = append(zero, l)
		}
	}
	return shape, append(append(holds, half...), zero...)
}

// edgeKey is a pair of individuals and a value.
type edgeKey struct {
	u, w int
	v    logic.Kleene
}

// edgeBundle is the binary predicates with one value on one pair.
type edgeBundle struct {
	names []string
	core  bool // some of them is a core predicate
}

// drawBinaryEdges draws the binary predicates: one edge per pair of
// individuals and value, naming every predicate with that value on the
// pair.
func drawBinaryEdges(g *dot.Graph, s *tvl.Structure, info []*predInfo) {
	bundles, order := binaryBundles(s, info)
	for _, k := range order {
		b := bundles[k]
		e := g.Edge(individualNode(g, k.u), individualNode(g, k.w), strings.Join(b.names, ", "))
		if k.v == logic.Unknown {
			e.Dotted()
		}
		if !b.core {
			// Instrumentation only: drawn lighter, and left out of the
			// layout so that the core fields shape the picture.
			e.Attrs("color", dimColour, "fontcolor", dimColour, "constraint", "false")
		}
	}
}

// binaryBundles groups the drawn binary values by pair and value, and
// orders the groups by pair, 1 before 1/2 on a pair.
func binaryBundles(s *tvl.Structure, info []*predInfo) (map[edgeKey]*edgeBundle, []edgeKey) {
	n := s.Size()
	bundles := map[edgeKey]*edgeBundle{}
	var order []edgeKey
	for _, pi := range info {
		if pi.pred.Arity != 2 {
			continue
		}
		for u := 0; u < n; u++ {
			for w := 0; w < n; w++ {
				v := s.Get(pi.pred, u, w)
				if v == logic.False || !pi.shows(v) {
					continue
				}
				k := edgeKey{u, w, v}
				b := bundles[k]
				if b == nil {
					b = &edgeBundle{}
					bundles[k] = b
					order = append(order, k)
				}
				b.names = append(b.names, pi.pred.Name)
				b.core = b.core || pi.core
			}
		}
	}
	sortKeys(order, func(a, b edgeKey) bool {
		if a.u != b.u {
			return a.u < b.u
		}
		if a.w != b.w {
			return a.w < b.w
		}
		return a.v > b.v
	})
	return bundles, order
}

// individualNode is the node of individual u (created on first use).
func individualNode(g *dot.Graph, u int) dot.Node {
	return g.Node(fmt.Sprintf("1:%06d", u))
}

// karyRows lists the tuples of a predicate of arity three or more that are
// drawn, in order.
func karyRows(s *tvl.Structure, pi *predInfo) [][2]string {
	var rows [][2]string
	s.EachKary(pi.pred, func(args []int, v logic.Kleene) {
		if !pi.shows(v) {
			return
		}
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = tvl.IndividualName(a)
		}
		rows = append(rows, [2]string{pi.pred.Name + "(" + strings.Join(names, ", ") + ")", v.String()})
	})
	sortKeys(rows, func(a, b [2]string) bool { return a[0] < b[0] })
	return rows
}

// titleLabel is the HTML-like label of a structure: the location in bold,
// the detail, the message in red, a note in italics, then the table of
// predicate values.
func titleLabel(c Caption, note string, table [][2]string) string {
	var rows []string
	head := ""
	if c.Location != "" {
		head = "<B>" + esc(c.Location) + "</B>"
	}
	if c.Detail != "" {
		if head != "" {
			head += "  "
		}
		head += esc(c.Detail)
	}
	if head != "" {
		rows = append(rows, `<TR><TD ALIGN="LEFT">`+head+`</TD></TR>`)
	}
	if c.Message != "" {
		rows = append(rows, `<TR><TD ALIGN="LEFT"><FONT COLOR="`+messageColor+`">message: `+escLines(c.Message)+`</FONT></TD></TR>`)
	}
	if note != "" {
		rows = append(rows, `<TR><TD ALIGN="LEFT"><I>`+esc(note)+`</I></TD></TR>`)
	}
	if len(table) > 0 {
		t := `<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2" COLOR="` + dimColour + `">`
		for _, r := range table {
			t += `<TR><TD ALIGN="LEFT">` + esc(r[0]) + `</TD><TD ALIGN="RIGHT">` + esc(r[1]) + `</TD></TR>`
		}
		t += `</TABLE>`
		rows = append(rows, `<TR><TD ALIGN="LEFT">`+t+`</TD></TR>`)
	}
	if len(rows) == 0 {
		return ""
	}
	return `<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">` + strings.Join(rows, "") + `</TABLE>`
}

// esc escapes text for a Graphviz HTML-like label.
func esc(s string) string { return html.EscapeString(s) }

// escLines escapes text and turns its line breaks into <BR/>.
func escLines(s string) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, p := range parts {
		parts[i] = esc(p)
	}
	return strings.Join(parts, `<BR ALIGN="LEFT"/>`)
}

// sortKeys sorts xs stably by less.
func sortKeys[T any](xs []T, less func(a, b T) bool) {
	sort.SliceStable(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
}
