package viz

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	reNodeGroup = regexp.MustCompile(`(?s)<g id="[^"]*" class="node[^"]*">.*?</g>\n</g>`)
	reNodeTip   = regexp.MustCompile(`<a xlink:title="u\d+([^"]*)">`)
)

// stepNodes reads the nodes of a step's SVG: for each individual's
// tooltip without its name (what the node says of it), the centres of
// the nodes that say so, in the picture's coordinates.
func stepNodes(t *testing.T, svg []byte) map[string][][2]float64 {
	t.Helper()
	tr := svgTranslate.FindSubmatch(svg)
	if tr == nil {
		t.Fatalf("no graph translation in\n%.500s", svg)
	}
	tx, _ := strconv.ParseFloat(string(tr[2]), 64)
	ty, _ := strconv.ParseFloat(string(tr[3]), 64)
	out := map[string][][2]float64{}
	for _, g := range reNodeGroup.FindAll(svg, -1) {
		tip := reNodeTip.FindSubmatch(g)
		c, ok := shapeCentre(g)
		if tip == nil || !ok {
			continue
		}
		out[string(tip[1])] = append(out[string(tip[1])], [2]float64{tx + c[0], ty + c[1]})
	}
	return out
}

// TestTraceLayoutStable: in a trace of three steps, an individual that
// persists unchanged (the same node text in every step) keeps its
// node's centre in the steps' pictures, within a pixel.
func TestTraceLayoutStable(t *testing.T) {
	needDot(t)
	prog, res := runProgram(t, "../programs/sll/search_nullderef.tvp")
	v, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, mv := range v.Messages {
		if len(mv.Trace) < 3 {
			continue
		}
		steps := mv.Trace[len(mv.Trace)-3:]
		nodes := make([]map[string][][2]float64, 3)
		for i, st := range steps {
			nodes[i] = stepNodes(t, st.Picture.SVG)
		}
		for tip, at := range nodes[0] {
			if len(at) != 1 || len(nodes[1][tip]) != 1 || len(nodes[2][tip]) != 1 {
				continue
			}
			checked++
			for i := 1; i < 3; i++ {
				c := nodes[i][tip][0]
				if math.Abs(c[0]-at[0][0]) > 1 || math.Abs(c[1]-at[0][1]) > 1 {
					t.Errorf("message %d, %s: the node%s moves from %v to %v in step %d",
						mv.Number, steps[i].Picture.Name, strings.TrimSpace(tip), at[0], c, i)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no trace of three steps with an individual in all of them: the test shows nothing")
	}
}
