package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Chart layout, in SVG user units.
const (
	chartWidth  = 820
	labelWidth  = 190 // variant names, right-aligned
	barLeft     = labelWidth + 10
	barWidth    = 470 // the longest bar
	rowHeight   = 22
	barHeight   = 14
	panelTop    = 46 // a panel's title and axis labels above its first bar
	panelBottom = 18
)

// chartPanel is one bar chart: a figure of every run.
type chartPanel struct {
	title  string
	value  func(*Summary) float64
	format func(float64) string
}

var chartPanels = []chartPanel{
	{"Structures stored", func(s *Summary) float64 { return float64(s.Stored) }, count},
	{"Analysis time (s)", func(s *Summary) float64 { return s.TimeSeconds }, seconds},
}

// Chart is chart.svg: for each run, a bar of its stored structures and
// one of its analysis time, on logarithmic scales (the figures of a
// thesis table span orders of magnitude), with the baseline's value
// marked across each panel. A run that stopped early has a hatched bar
// labelled ">N"; a run without figures, a note instead of a bar.
func (r *Report) Chart() []byte {
	var b strings.Builder
	panelHeight := panelTop + rowHeight*len(r.Outcomes) + panelBottom
	height := 40 + panelHeight*len(chartPanels) + 30
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	b.WriteString(`<defs><pattern id="stopped" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="#c6d6ea"/><line x1="0" y1="0" x2="0" y2="6" stroke="#4a78b0" stroke-width="2"/></pattern></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartWidth, height)
	title := r.Spec.Title
	if title == "" {
		title = "Experiment " + baseName(r.Spec.File)
	}
	fmt.Fprintf(&b, `<text x="10" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", xmlEscape(title))
	y := 40
	for _, p := range chartPanels {
		r.panel(&b, p, y)
		y += panelHeight
	}
	fmt.Fprintf(&b, `<text x="10" y="%d" fill="#555">Logarithmic scales. Dark bar: the baseline; hatched: stopped early (a lower bound); dashed line: the baseline's value.</text>`+"\n", y+14)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// panel draws one panel whose top is at y.
func (r *Report) panel(b *strings.Builder, p chartPanel, y int) {
	fmt.Fprintf(b, `<text x="10" y="%d" font-size="13" font-weight="bold">%s</text>`+"\n", y+16, xmlEscape(p.title))
	elo, ehi := logRange(r.Outcomes, p.value)
	lo, hi := math.Pow(10, float64(elo)), math.Pow(10, float64(ehi))
	x := func(v float64) float64 {
		if v <= lo {
			return barLeft
		}
		return barLeft + barWidth*(math.Log10(v)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))
	}
	top, bottom := y+panelTop-8, y+panelTop+rowHeight*len(r.Outcomes)
	// Grid lines and labels at the powers of ten.
	for e := elo; e <= ehi; e++ {
		t := math.Pow(10, float64(e))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(t), top, x(t), bottom)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", x(t), top-4, tickLabel(t))
	}
	for i, o := range r.Outcomes {
		rowY := y + panelTop + rowHeight*i
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelWidth, rowY+barHeight-3, xmlEscape(o.Run.Name))
		if o.Summary == nil {
			note := o.Verdict()
			if r := []rune(note); len(r) > 90 {
				note = string(r[:89]) + "…"
			}
			fmt.Fprintf(b, `<text x="%d" y="%d" fill="#a33">%s</text>`+"\n", barLeft+4, rowY+barHeight-3, xmlEscape(note))
			continue
		}
		v := p.value(o.Summary)
		fill := "#7ea6d8"
		if o.Run.Baseline {
			fill = "#2f5d95"
		}
		text := p.format(v)
		if !o.Complete() {
			fill, text = "url(#stopped)", ">"+text
		}
		end := x(v)
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", barLeft, rowY, end-barLeft, barHeight, fill)
		fmt.Fprintf(b, `<text x="%.1f" y="%d">%s</text>`+"\n", end+4, rowY+barHeight-3, xmlEscape(text))
	}
	if base := r.Outcomes[0]; base.Summary != nil {
		bx := x(p.value(base.Summary))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#2f5d95" stroke-dasharray="4 3"/>`+"\n", bx, top, bx, bottom)
	}
}

// logRange is the scale of a panel, as exponents of ten: from the power
// of ten below the smallest positive value to the power at or above the
// largest.
func logRange(outcomes []*Outcome, value func(*Summary) float64) (lo, hi int) {
	minV, maxV := math.Inf(1), 0.0
	for _, o := range outcomes {
		if o.Summary == nil {
			continue
		}
		if v := value(o.Summary); v > 0 {
			minV, maxV = math.Min(minV, v), math.Max(maxV, v)
		}
	}
	if maxV == 0 {
		return 0, 1
	}
	lo = int(math.Floor(math.Log10(minV)))
	if math.Pow(10, float64(lo)) >= minV {
		lo--
	}
	hi = max(int(math.Ceil(math.Log10(maxV))), lo+1)
	return lo, hi
}

// tickLabel writes a power of ten: 0.01, 1, 100, 1k, 1M.
func tickLabel(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
