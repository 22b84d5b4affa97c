package viz

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"
	"time"

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
	"plural": plural,
	"inc":    func(i int) int { return i + 1 },
}).Parse(reportTemplate))

// reportData is what the template reads.
type reportData struct {
	Title     string
	Info      Info
	Verdict   string
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
	switch {
	case res.Incomplete:
		d.Verdict, d.Reason, d.Tone = "stopped early", res.StopReason, "warn"
		if res.Stats.Messages > 0 {
			d.Verdict += ", " + plural(res.Stats.Messages, "message") + " raised"
		}
	case res.Stats.Messages > 0:
		d.Verdict, d.Tone = "not verified: "+plural(res.Stats.Messages, "message")+" raised", "bad"
	default:
		d.Verdict, d.Tone = "verified: fixpoint reached, no message raised", "ok"
	}
	st := res.Stats
	d.Stats = []Field{
		{"structures stored", fmt.Sprint(st.Stored)},
		{"structures examined", fmt.Sprint(st.Examined)},
		{"constraint breaches", fmt.Sprint(st.Breaches)},
		{"iterations", fmt.Sprint(st.Iterations)},
		{"messages", fmt.Sprint(st.Messages)},
		{"time", fmt.Sprintf("%.3fs (focus %s, coerce %s, update %s, blur %s, join %s)",
			st.Elapsed.Seconds(), secs(st.FocusTime), secs(st.CoerceTime), secs(st.UpdateTime), secs(st.BlurTime), secs(st.JoinTime))},
	}
	if res.Incomplete {
		d.Stats = append(d.Stats, Field{"stopped early", res.StopReason})
	}
	d.Stats = append(d.Stats, info.Stats...)
	for i, lr := range res.Locations {
		row := locationRow{View: v.Locations[i]}
		for _, s := range lr.Structures {
			row.MaxIndividuals = max(row.MaxIndividuals, s.Size())
		}
		d.Locations = append(d.Locations, row)
	}
	var buf bytes.Buffer
	if err := report.Execute(&buf, d); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteHTML renders every picture of a run and writes the HTML report.
func WriteHTML(ctx context.Context, w io.Writer, prog *model.Program, res *engine.Result, info Info, progress func(done, total int)) error {
	v, err := Render(ctx, prog, res, progress)
	if err != nil {
		return err
	}
	return v.WriteHTML(w, info)
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

var (
	svgComment = regexp.MustCompile(`(?s)<!--.*?-->\n?`)
	svgTitle   = regexp.MustCompile(`<title>[^<]*</title>\n?`)
)

// inlineSVG makes a picture's SVG fit for a page: without the XML prolog,
// comments and the <title>s that would show dot's node names as tooltips
// (the tooltips that matter are link titles), labelled for screen readers.
// dot escapes the text of the picture, so the result is trusted as HTML.
func inlineSVG(p *Picture) template.HTML {
	svg := p.SVG
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
