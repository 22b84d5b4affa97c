package viz

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
)

// Info describes a run for the HTML report, beyond what the program and
// the result say.
type Info struct {
	// Title names the run; empty means the program's file name.
	Title string
	// Generator names the tool that made the report ("tvla 1.0").
	Generator string
	// Command is the command line that ran the analysis.
	Command string
	// Options are the run's settings, shown in this order.
	Options []Field
	// Stats are more statistics, shown after the result's own.
	Stats []Field
}

// Field is a named value of a table of the report.
type Field struct{ Name, Value string }

//go:embed report.html.tmpl
var reportTemplate string

var report = template.Must(template.New("report").Funcs(template.FuncMap{
	"svg":    inlineSVG,
	"framed": framedSVG,
	"frame":  traceFrame,
	"fold":   foldTable,
	"plural": plural,
	"inc":    func(i int) int { return i + 1 },
}).Parse(reportTemplate))

// reportData is what the template reads.
type reportData struct {
	Title     string
	Info      Info
	Verdict   string
	Complete  bool   // the run reached its fixpoint
	Stop      string // how it stopped, if early: "Stopped early", "Stopped at a message"
	Reason    string // why the run stopped early
	Tone      string // ok, bad or warn
	Views     *Views
	Program   *model.Program
	Stats     []Field
	Locations []locationRow
	Pictures  int
}

type locationRow struct {
	View           *LocationView
	MaxIndividuals int
}

// WriteHTML writes the report of a rendered run (see Render) as one
// self-contained HTML page: the CFG with its counts and links, the
// messages with their traces, a gallery of structures per location, the
// statistics and the options. Every picture is inline SVG; the style and
// the keyboard navigation (j/k, arrows, n/p, z) are inline too, so the
// page needs no network.
func (v *Views) WriteHTML(w io.Writer, info Info) error {
	for _, p := range v.Pictures() {
		if !bytes.Contains(p.SVG, []byte("<svg")) {
			return fmt.Errorf("picture %s was not rendered", p.Name)
		}
	}
	res := v.Result
	d := reportData{Title: info.Title, Info: info, Views: v, Program: v.Program, Pictures: len(v.Pictures())}
	if d.Title == "" {
		d.Title = filepath.Base(v.Program.File)
	}
	d.Verdict, d.Complete, d.Stop, d.Reason, d.Tone = verdict(res)
	st := res.Stats
	d.Stats = []Field{
		{"structures stored", fmt.Sprint(st.Stored)},
		{"structures examined", fmt.Sprint(st.Examined)},
		{"constraint breaches", fmt.Sprint(st.Breaches)},
		{"iterations", fmt.Sprint(st.Iterations)},
		{"messages", fmt.Sprint(st.Messages)},
		{"time", st.TimeLine()},
	}
	if res.Incomplete {
		d.Stats = append(d.Stats, Field{"stopped early", res.StopReason})
	}
	d.Stats = append(d.Stats, info.Stats...)
	for i, lr := range res.Locations {
		row := locationRow{View: v.Locations[i]}
		row.MaxIndividuals = lr.Structures.MaxSize()
		d.Locations = append(d.Locations, row)
	}
	var buf bytes.Buffer
	if err := report.Execute(&buf, d); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// verdict words the outcome of a run for the report's header: whether
// it reached its fixpoint, stopped at a message (the message limit, or a
// breached constraint after an update) or stopped early for another
// reason (a limit, an interrupt), and the messages raised. A run that
// stopped early is never said to be at its fixpoint.
func verdict(res *engine.Result) (text string, complete bool, stop, reason, tone string) {
	msgs := res.Stats.Messages
	switch {
	case res.Incomplete && res.StoppedOnMessage:
		text = "stopped at a message: " + plural(msgs, "message") + " raised"
		return text, false, "Stopped at a message", res.StopReason, "bad"
	case res.Incomplete:
		text = "stopped early: " + res.StopReason
		if msgs > 0 {
			text += "; " + plural(msgs, "message") + " raised"
		}
		return text, false, "Stopped early", res.StopReason, "warn"
	case msgs > 0:
		return "not verified: " + plural(msgs, "message") + " raised, fixpoint reached", true, "", "", "bad"
	}
	return "verified: fixpoint reached, no message raised", true, "", "", "ok"
}

// WriteHTML renders every picture of a run and writes the HTML report.
func WriteHTML(ctx context.Context, w io.Writer, prog *model.Program, res *engine.Result, info Info, progress func(done, total int)) error {
	v, err := Render(ctx, prog, res, progress)
	if err != nil {
		return err
	}
	return v.WriteHTML(w, info)
}

var (
	svgComment = regexp.MustCompile(`(?s)<!--.*?-->\n?`)
	svgTitle   = regexp.MustCompile(`<title>[^<]*</title>\n?`)
)

// inlineSVG makes a picture's SVG fit for a page: without the XML prolog,
// comments and the <title>s that would show dot's node names as tooltips
// (the tooltips that matter are link titles), labelled for screen readers.
// dot escapes the text of the picture, so the result is trusted as HTML.
func inlineSVG(p *Picture) template.HTML { return inline(p, p.SVG) }

// inline does inlineSVG's work on a picture's SVG text.
func inline(p *Picture, svg []byte) template.HTML {
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	svg = svgComment.ReplaceAll(svg, nil)
	svg = svgTitle.ReplaceAll(svg, nil)
	label := p.Caption.Location
	if p.Caption.Detail != "" {
		if label != "" {
			label += ", "
		}
		label += p.Caption.Detail
	}
	if p.Caption.Message != "" {
		label += ": " + p.Caption.Message
	}
	attrs := ` role="img" aria-label="` + template.HTMLEscapeString(label) + `"`
	svg = append([]byte("<svg"+attrs), svg[len("<svg"):]...)
	return template.HTML(svg)
}

// Size is the size of a picture, in the units of its SVG's width and
// height (points, from dot).
type Size struct{ W, H float64 }

var svgSize = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"\s+viewBox="([-0-9. ]+)"`)

// sizeOf reads the size dot gave a picture's SVG and its viewBox.
func sizeOf(svg []byte) (size Size, box [4]float64, ok bool) {
	m := svgSize.FindSubmatch(svg)
	if m == nil {
		return Size{}, box, false
	}
	w, err1 := strconv.ParseFloat(string(m[1]), 64)
	h, err2 := strconv.ParseFloat(string(m[2]), 64)
	f := strings.Fields(string(m[3]))
	if err1 != nil || err2 != nil || len(f) != 4 || w <= 0 || h <= 0 {
		return Size{}, box, false
	}
	for i := range box {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Size{}, box, false
		}
		box[i] = v
	}
	return Size{w, h}, box, true
}

// traceFrame is the frame every step of a message's trace is drawn in:
// the largest width and the largest height of the steps' pictures, so
// that stepping through the trace keeps each picture in place.
func traceFrame(mv *MessageView) Size {
	var f Size
	for _, st := range mv.Trace {
		if sz, _, ok := sizeOf(st.Picture.SVG); ok {
			f.W, f.H = max(f.W, sz.W), max(f.H, sz.H)
		}
	}
	return f
}

// framedSVG is inlineSVG with the picture's canvas grown to the frame,
// at its own scale, the drawing at the top left: pictures of one frame
// have the same size and their titles the same place.
func framedSVG(p *Picture, f Size) template.HTML {
	sz, box, ok := sizeOf(p.SVG)
	if !ok || f.W < sz.W || f.H < sz.H {
		return inlineSVG(p)
	}
	bw, bh := box[2]*f.W/sz.W, box[3]*f.H/sz.H
	head := fmt.Sprintf(`<svg width="%spt" height="%spt" viewBox="%s %s %s %s" preserveAspectRatio="xMinYMin meet"`,
		num(f.W), num(f.H), num(box[0]), num(box[1]), num(bw), num(bh))
	loc := svgSize.FindIndex(p.SVG)
	svg := append(append(append([]byte{}, p.SVG[:loc[0]]...), head...), p.SVG[loc[1]:]...)
	return inline(p, svg)
}

// num prints a coordinate with at most two decimals.
func num(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

// foldView is the table of the predicates a picture folded out of its
// nodes: a column per individual, a row per predicate.
type foldView struct {
	Summary string
	Heads   []string
	Rows    []foldRow
}

type foldRow struct {
	Name  string
	Cells []string
}

// foldTable lays out what a picture folded (nil if nothing).
func foldTable(p *Picture) *foldView {
	if len(p.Folded) == 0 {
		return nil
	}
	fv := &foldView{}
	var counts []string
	row := map[string]int{}
	for i, f := range p.Folded {
		head := f.Individual
		if f.Summary {
			head += " (summary)"
		}
		fv.Heads = append(fv.Heads, head)
		counts = append(counts, fmt.Sprintf("%s: %d", f.Individual, len(f.Values)))
		for _, v := range f.Values {
			r, ok := row[v.Name]
			if !ok {
				r = len(fv.Rows)
				row[v.Name] = r
				fv.Rows = append(fv.Rows, foldRow{Name: v.Name, Cells: make([]string, len(p.Folded))})
			}
			fv.Rows[r].Cells[i] = v.Value
		}
	}
	fv.Summary = "soft invariants of the threads (" + strings.Join(counts, ", ") + ")"
	return fv
}

// LocationAnchor is the HTML id of a location's section ("" if the result
// has no such location).
func (v *Views) LocationAnchor(label string) string {
	for _, lv := range v.Locations {
		if lv.Label == label {
			return lv.Anchor
		}
	}
	return ""
}
