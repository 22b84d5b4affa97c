package viz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/emicklei/dot"

	"github.com/tvla-go/tvla/tvl"
)

// A trace's steps share one layout: an individual that persists from
// step to step keeps its place, one that appears gets a place of its own.
//
// The individuals of consecutive steps are matched (matchIndividuals)
// and so get trace-wide keys; the union of the steps' graphs, a node per
// key the size of its largest drawing and every edge any step draws, is
// laid out once with dot; each step is then drawn with those positions
// (nodes, edges and edge labels: neato -n2 only draws them), its absent
// nodes invisible, and the SVGs put on one canvas (alignSteps) so that a
// node's place in the picture is the same in every step.

// Node names in a structure's graph: a pointer predicate's node and an
// individual's (see drawPointers and individualNode).
const (
	pointerPrefix    = "0:"
	individualPrefix = "1:"
)

// matchIndividuals pairs the individuals of cur with those of prev:
// match[w] is cur's individual w's partner in prev, or -1. Individuals
// of the same shape pair up greedily, the most alike first: alike means
// the same value of more unary predicates (sm included), ties going to
// the lower numbers, which Blur's canonical order makes the same
// abstraction.
func matchIndividuals(prev, cur *tvl.Structure, shapePrev, shapeCur []string) []int {
	var unary []*tvl.Pred
	for _, p := range cur.Vocabulary().Preds() {
		if p.Arity == 1 {
			unary = append(unary, p)
		}
	}
	type pair struct{ u, w, score int }
	var pairs []pair
	for w := 0; w < cur.Size(); w++ {
		for u := 0; u < prev.Size(); u++ {
			if shapePrev[u] != shapeCur[w] {
				continue
			}
			score := 0
			for _, p := range unary {
				if prev.Vocabulary() == cur.Vocabulary() && prev.Get(p, u) == cur.Get(p, w) {
					score++
				}
			}
			pairs = append(pairs, pair{u, w, score})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if d := abs(a.u-a.w) - abs(b.u-b.w); d != 0 {
			return d < 0
		}
		if a.w != b.w {
			return a.w < b.w
		}
		return a.u < b.u
	})
	match := make([]int, cur.Size())
	for i := range match {
		match[i] = -1
	}
	taken := make([]bool, prev.Size())
	for _, p := range pairs {
		if match[p.w] < 0 && !taken[p.u] {
			match[p.w] = p.u
			taken[p.u] = true
		}
	}
	return match
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// traceKeys gives every individual of every step a key that the
// individual it is matched with in the previous step shares: keys[i][u]
// is step i's individual u's.
func traceKeys(steps []*tvl.Structure, shapes [][]string) [][]string {
	keys := make([][]string, len(steps))
	next := 0
	for i, s := range steps {
		keys[i] = make([]string, s.Size())
		var match []int
		if i > 0 {
			match = matchIndividuals(steps[i-1], s, shapes[i-1], shapes[i])
		}
		for w := range keys[i] {
			if match != nil && match[w] >= 0 {
				keys[i][w] = keys[i-1][match[w]]
				continue
			}
			keys[i][w] = "i" + strconv.Itoa(next)
			next++
		}
	}
	return keys
}

// nodeShapes is the shape of each individual's node in a structure's
// graph (by unaryLines, as drawIndividual draws it).
func nodeShapes(s *tvl.Structure, info []*predInfo) []string {
	out := make([]string, s.Size())
	for u := range out {
		out[u], _ = unaryLines(s, info, u)
	}
	return out
}

// stepGraph is one step's drawing with the trace-wide key of each node.
type stepGraph struct {
	g    *dot.Graph
	keys map[string]string // node name → key
}

// keyOf is a node's key: a pointer predicate's node is the same in every
// step, an individual's by traceKeys.
func keyOf(name string, keys []string) string {
	if id, ok := strings.CutPrefix(name, pointerPrefix); ok {
		if n, err := strconv.Atoi(id); err == nil {
			return "p" + strconv.Itoa(n)
		}
		return ""
	}
	if num, ok := strings.CutPrefix(name, individualPrefix); ok {
		if u, err := strconv.Atoi(num); err == nil && u < len(keys) {
			return keys[u]
		}
	}
	return ""
}

// edgeID says which edge of the union a drawn edge is: its ends' keys,
// label and look.
func edgeID(e dot.Edge, keys map[string]string) string {
	return strings.Join([]string{keys[e.From().ID()], keys[e.To().ID()], attrString(e.GetAttr("label")),
		attrString(e.GetAttr("style")), attrString(e.GetAttr("color"))}, "\x00")
}

func attrString(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// edgesOf lists a graph's edges in a fixed order.
func edgesOf(g *dot.Graph) []dot.Edge {
	m := g.EdgesMap()
	var from []string
	for k := range m {
		from = append(from, k)
	}
	sort.Strings(from)
	var out []dot.Edge
	for _, k := range from {
		out = append(out, m[k]...)
	}
	return out
}

// jsonGraph is what dot -Tjson0 says of a graph we need.
type jsonGraph struct {
	Objects []struct {
		Comment string `json:"comment"`
		Pos     string `json:"pos"`
		Width   string `json:"width"`
		Height  string `json:"height"`
	} `json:"objects"`
	Edges []struct {
		Comment string `json:"comment"`
		Pos     string `json:"pos"`
		LP      string `json:"lp"`
	} `json:"edges"`
}

// layOut runs dot -Tjson0 on graphs, one after another in one process.
func layOut(ctx context.Context, graphs [][]byte) ([]jsonGraph, error) {
	var in bytes.Buffer
	for _, g := range graphs {
		in.Write(g)
		in.WriteByte('\n')
	}
	out, err := runGraphviz(ctx, []string{"-Tjson0"}, in.Bytes())
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var res []jsonGraph
	for {
		var jg jsonGraph
		if err := dec.Decode(&jg); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("dot -Tjson0: %v", err)
		}
		res = append(res, jg)
	}
	if len(res) != len(graphs) {
		return nil, fmt.Errorf("dot -Tjson0 gave %d layouts for %d graphs", len(res), len(graphs))
	}
	return res, nil
}

// reserved is the room a key's node takes in the union: the largest
// drawing of it in any step.
type reserved struct {
	w, h        float64 // inches
	shape       string
	peripheries string
}

// layOutTrace draws the steps of one trace in one layout: it returns
// their DOT texts, for neato -n2, and the place of each key's node
// ("x,y" in points).
func layOutTrace(ctx context.Context, steps []stepGraph) ([][]byte, map[string]string, error) {
	room, order, err := reserveRoom(ctx, steps)
	if err != nil {
		return nil, nil, err
	}
	pos, routes, err := layOutUnion(ctx, steps, room, order)
	if err != nil {
		return nil, nil, err
	}
	return placeSteps(steps, room, order, pos, routes), pos, nil
}

// reserveRoom sizes every key's node: the largest it is in any step, as
// dot draws it, with its shape. order lists the keys as first seen.
func reserveRoom(ctx context.Context, steps []stepGraph) (map[string]*reserved, []string, error) {
	// dot names nodes by number: a node's comment says which it is.
	texts := make([][]byte, len(steps))
	for i, st := range steps {
		for _, n := range st.g.FindNodes() {
			if st.keys[n.ID()] != "" {
				n.Attr("comment", n.ID())
			}
		}
		texts[i] = graphText(st.g)
	}
	sized, err := layOut(ctx, texts)
	if err != nil {
		return nil, nil, err
	}
	room := map[string]*reserved{}
	var order []string
	for i, st := range steps {
		for _, o := range sized[i].Objects {
			k := st.keys[o.Comment]
			if k == "" {
				continue
			}
			w, _ := strconv.ParseFloat(o.Width, 64)
			h, _ := strconv.ParseFloat(o.Height, 64)
			r := room[k]
			if r == nil {
				n, _ := st.g.FindNodeById(o.Comment)
				r = &reserved{shape: attrString(n.GetAttr("shape")), peripheries: attrString(n.GetAttr("peripheries"))}
				room[k] = r
				order = append(order, k)
			}
			r.w, r.h = max(r.w, w), max(r.h, h)
			if n, ok := st.g.FindNodeById(o.Comment); ok && attrString(n.GetAttr("peripheries")) > r.peripheries {
				r.peripheries = attrString(n.GetAttr("peripheries"))
			}
		}
	}
	return room, order, nil
}

// route is where dot drew an edge of the union and its label.
type route struct{ pos, lp string }

// layOutUnion lays out the union of the steps once: a node per key at its
// reserved size, an edge per edge drawn in some step. It returns each
// key's position and each edge's route.
func layOutUnion(ctx context.Context, steps []stepGraph, room map[string]*reserved, order []string) (map[string]string, map[string]route, error) {
	u := newGraph()
	u.Attrs("rankdir", "LR", "nodesep", "0.3", "ranksep", "0.45")
	for _, k := range order {
		r := room[k]
		n := u.Node(k)
		n.Attrs("comment", k, "label", "", "fixedsize", "true", "width", num(r.w), "height", num(r.h))
		if r.shape != "" {
			n.Attr("shape", r.shape)
		}
		if r.peripheries != "" {
			n.Attr("peripheries", r.peripheries)
		}
	}
	seen := map[string]bool{}
	for _, st := range steps {
		for _, e := range edgesOf(st.g) {
			id := edgeID(e, st.keys)
			if seen[id] {
				continue
			}
			seen[id] = true
			ue := u.Edge(u.Node(st.keys[e.From().ID()]), u.Node(st.keys[e.To().ID()]))
			for _, a := range []string{"label", "style", "color", "constraint", "arrowsize"} {
				if v := e.GetAttr(a); v != nil {
					ue.Attr(a, v)
				}
			}
			ue.Attr("comment", strconv.Quote(id))
		}
	}
	laid, err := layOut(ctx, [][]byte{graphText(u)})
	if err != nil {
		return nil, nil, err
	}
	pos := map[string]string{}
	for _, o := range laid[0].Objects {
		pos[o.Comment] = o.Pos
	}
	routes := map[string]route{}
	for _, e := range laid[0].Edges {
		id, err := strconv.Unquote(e.Comment)
		if err != nil {
			continue
		}
		routes[id] = route{e.Pos, e.LP}
	}
	return pos, routes, nil
}

// placeSteps puts each step at the union's places, every node at its
// reserved size, the nodes it lacks invisible so that every step has
// the union's extent.
func placeSteps(steps []stepGraph, room map[string]*reserved, order []string, pos map[string]string, routes map[string]route) [][]byte {
	out := make([][]byte, len(steps))
	for i, st := range steps {
		g := st.g
		g.Attrs("splines", "true")
		have := map[string]bool{}
		for _, n := range g.FindNodes() {
			k := st.keys[n.ID()]
			if k == "" {
				continue
			}
			have[k] = true
			r := room[k]
			n.Attrs("pos", pos[k]+"!", "class", "tvla_"+k, "fixedsize", "true", "width", num(r.w), "height", num(r.h))
		}
		for _, k := range order {
			if have[k] {
				continue
			}
			r := room[k]
			g.Node("9:"+k).Attrs("pos", pos[k]+"!", "style", "invis", "label", "", "fixedsize", "true",
				"width", num(r.w), "height", num(r.h), "shape", "box")
		}
		for _, e := range edgesOf(g) {
			if rt, ok := routes[edgeID(e, st.keys)]; ok && rt.pos != "" {
				e.Attr("pos", rt.pos)
				if rt.lp != "" {
					e.Attr("lp", rt.lp)
				}
			}
		}
		out[i] = graphText(g)
	}
	return out
}

var (
	svgHead      = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"\s+viewBox="0\.00 0\.00 ([0-9.]+) ([0-9.]+)"`)
	svgTranslate = regexp.MustCompile(`(<g id="[^"]*" class="graph" transform="scale\(1 1\) rotate\(0\) translate\()([-0-9.]+) ([-0-9.]+)\)`)
	svgNode      = regexp.MustCompile(`(?s)<g id="[^"]*" class="node tvla_([a-z0-9]+)">.*?</g>`)
	svgEllipse   = regexp.MustCompile(`<ellipse[^>]* cx="([-0-9.]+)" cy="([-0-9.]+)"`)
	svgPolygon   = regexp.MustCompile(`<polygon[^>]* points="([^"]+)"`)
)

// nodeCentres reads, from a step's SVG, the centre of each keyed node
// drawn with an ellipse or a polygon, in the SVG's coordinates (the
// graph's translation added).
func nodeCentres(svg []byte) map[string][2]float64 {
	t := svgTranslate.FindSubmatch(svg)
	if t == nil {
		return nil
	}
	tx, _ := strconv.ParseFloat(string(t[2]), 64)
	ty, _ := strconv.ParseFloat(string(t[3]), 64)
	out := map[string][2]float64{}
	for _, m := range svgNode.FindAllSubmatch(svg, -1) {
		if c, ok := shapeCentre(m[0]); ok {
			out[string(m[1])] = [2]float64{tx + c[0], ty + c[1]}
		}
	}
	return out
}

// shapeCentre is the centre of a node's first ellipse or polygon.
func shapeCentre(node []byte) ([2]float64, bool) {
	e := svgEllipse.FindSubmatchIndex(node)
	p := svgPolygon.FindSubmatchIndex(node)
	if e != nil && (p == nil || e[0] < p[0]) {
		x, err1 := strconv.ParseFloat(string(node[e[2]:e[3]]), 64)
		y, err2 := strconv.ParseFloat(string(node[e[4]:e[5]]), 64)
		return [2]float64{x, y}, err1 == nil && err2 == nil
	}
	if p == nil {
		return [2]float64{}, false
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pt := range strings.Fields(string(node[p[2]:p[3]])) {
		xy := strings.Split(pt, ",")
		if len(xy) != 2 {
			return [2]float64{}, false
		}
		x, err1 := strconv.ParseFloat(xy[0], 64)
		y, err2 := strconv.ParseFloat(xy[1], 64)
		if err1 != nil || err2 != nil {
			return [2]float64{}, false
		}
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	return [2]float64{(minX + maxX) / 2, (minY + maxY) / 2}, true
}

// alignSteps puts the SVGs of a trace's steps on one canvas: neato -n2
// moves each drawing by its own bounding box (edges and the title
// differ), so each is shifted until every node is where the union placed
// it, relative to the others' — the same point of every step's picture —
// and all get the largest size. A step whose SVG shows no keyed node, or
// is not as dot writes it, is left alone.
func alignSteps(svgs [][]byte, pos map[string]string) {
	type placed struct {
		ox, oy, w, h float64
		ok           bool
	}
	at := make([]placed, len(svgs))
	var maxOX, maxOY float64
	first := true
	for i, svg := range svgs {
		h := svgHead.FindSubmatch(svg)
		if h == nil {
			continue
		}
		w, _ := strconv.ParseFloat(string(h[1]), 64)
		ht, _ := strconv.ParseFloat(string(h[2]), 64)
		vw, _ := strconv.ParseFloat(string(h[3]), 64)
		vh, _ := strconv.ParseFloat(string(h[4]), 64)
		if math.Abs(w-vw) > 1 || math.Abs(ht-vh) > 1 {
			continue // scaled: not ours to move
		}
		w, ht = vw, vh
		centres := nodeCentres(svg)
		for _, k := range sortedKeys(centres) {
			c := centres[k]
			var px, py float64
			if _, err := fmt.Sscanf(pos[k], "%g,%g", &px, &py); err != nil {
				continue
			}
			// The SVG's y grows downwards; the layout's upwards.
			at[i] = placed{ox: c[0] - px, oy: c[1] + py, w: w, h: ht, ok: true}
			break
		}
		if !at[i].ok {
			continue
		}
		if first || at[i].ox > maxOX {
			maxOX = at[i].ox
		}
		if first || at[i].oy > maxOY {
			maxOY = at[i].oy
		}
		first = false
	}
	var W, H float64
	for _, a := range at {
		if a.ok {
			W, H = max(W, a.w+maxOX-a.ox), max(H, a.h+maxOY-a.oy)
		}
	}
	for i, a := range at {
		if !a.ok {
			continue
		}
		dx, dy := maxOX-a.ox, maxOY-a.oy
		svg := svgs[i]
		t := svgTranslate.FindSubmatchIndex(svg)
		tx, _ := strconv.ParseFloat(string(svg[t[4]:t[5]]), 64)
		ty, _ := strconv.ParseFloat(string(svg[t[6]:t[7]]), 64)
		var b bytes.Buffer
		b.Write(svg[:t[4]])
		b.WriteString(num(tx+dx) + " " + num(ty+dy) + ")")
		b.Write(svg[t[1]:])
		svg = b.Bytes()
		hd := svgHead.FindIndex(svg)
		head := fmt.Sprintf(`<svg width="%spt" height="%spt"
 viewBox="0.00 0.00 %s %s"`, num(W), num(H), num(W), num(H))
		svgs[i] = append(append(append([]byte{}, svg[:hd[0]]...), head...), svg[hd[1]:]...)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
