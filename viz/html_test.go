package viz

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
)

var (
	reLocation = regexp.MustCompile(`(?s)<section id="([^"]+)" class="location section">(.*?)</section>`)
	reMessage  = regexp.MustCompile(`(?s)<article id="([^"]+)" class="message section">(.*?)</article>`)
	reID       = regexp.MustCompile(`\sid="([^"]+)"`)
	reHref     = regexp.MustCompile(`href="#([^"]*)"`)
)

func TestHTMLReport(t *testing.T) {
	needDot(t)
	prog, res := runProgram(t, "../programs/sll/search_nullderef.tvp")
	v, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	info := Info{Generator: "tvla test", Command: "tvla run search_nullderef.tvp --html r.html",
		Options: []Field{{"join", "part"}}, Stats: []Field{{"peak heap", "1 MiB"}}}
	if err := v.WriteHTML(&buf, info); err != nil {
		t.Fatal(err)
	}
	page := buf.String()

	// The time line labels the phases as the table does (issue 19): they
	// are summed over the workers.
	if !regexp.MustCompile(`\d\.\d{3}s \((on 1 worker|summed over \d+ workers): focus `).MatchString(page) {
		t.Error("the report's time line does not say how the phase times add up")
	}

	// Self-contained: nothing to fetch.
	for _, bad := range []string{"<link", " src=", "@import", "url(", "https://", "<!DOCTYPE svg", "<?xml"} {
		if strings.Contains(page, bad) {
			t.Errorf("the report contains %q", bad)
		}
	}
	for _, u := range regexp.MustCompile(`http://[^"\s]*`).FindAllString(page, -1) {
		if u != "http://www.w3.org/2000/svg" && u != "http://www.w3.org/1999/xlink" {
			t.Errorf("the report refers to %s", u)
		}
	}

	// Ids are unique and every internal link has a target.
	ids := map[string]int{}
	for _, m := range reID.FindAllStringSubmatch(page, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q appears %d times", id, n)
		}
	}
	for _, m := range reHref.FindAllStringSubmatch(page, -1) {
		if ids[m[1]] == 0 {
			t.Errorf("link to #%s has no target", m[1])
		}
	}
	for _, id := range []string{"cfg", "messages", "stats", "options", "toc", "help"} {
		if ids[id] != 1 {
			t.Errorf("no element #%s", id)
		}
	}

	// The CFG links every location.
	cfg := page[strings.Index(page, `<section id="cfg"`):strings.Index(page, `<section id="messages"`)]
	for _, lv := range v.Locations {
		if !strings.Contains(cfg, `xlink:href="#`+lv.Anchor+`"`) {
			t.Errorf("the CFG does not link %s", lv.Label)
		}
	}

	// A gallery per location, one picture per structure.
	sections := reLocation.FindAllStringSubmatch(page, -1)
	if len(sections) != len(res.Locations) {
		t.Fatalf("%d location sections, want %d", len(sections), len(res.Locations))
	}
	for i, lr := range res.Locations {
		if sections[i][1] != v.Locations[i].Anchor {
			t.Errorf("section %d is %s, want %s", i, sections[i][1], v.Locations[i].Anchor)
		}
		if got := strings.Count(sections[i][2], "<svg"); got != lr.Structures.Len() {
			t.Errorf("%s: %d pictures, want %d", lr.Label, got, lr.Structures.Len())
		}
	}

	// Every message with its trace, the last step raising it.
	msgs := reMessage.FindAllStringSubmatch(page, -1)
	if len(msgs) != res.Stats.Messages || len(msgs) == 0 {
		t.Fatalf("%d messages shown, want %d", len(msgs), res.Stats.Messages)
	}
	for i, m := range msgs {
		mv := v.Messages[i]
		if m[1] != mv.Anchor || !strings.Contains(m[2], "null dereference") {
			t.Errorf("message %d: id %s", i+1, m[1])
		}
		if got := strings.Count(m[2], `<li class="step">`); got != len(mv.Trace) || got < 2 {
			t.Errorf("message %d: %d trace steps, want %d", i+1, got, len(mv.Trace))
		}
		if strings.Count(m[2], "<svg") != len(mv.Trace) || !strings.Contains(m[2], `class="structure raises"`) {
			t.Errorf("message %d: trace pictures missing", i+1)
		}
	}

	for _, want := range []string{"not verified: 4 messages raised", "structures stored", "peak heap", "1 MiB",
		"<code>tvla run search_nullderef.tvp --html r.html</code>", `<th scope="row">join</th><td>part</td>`, `role="img"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestHTMLNeedsRenderedPictures(t *testing.T) {
	prog, res := runProgram(t, "../programs/sll/search_nullderef.tvp")
	v := Build(prog, res)
	if err := v.WriteHTML(&bytes.Buffer{}, Info{}); err == nil || !strings.Contains(err.Error(), "not rendered") {
		t.Errorf("WriteHTML before Render: %v", err)
	}
	if err := v.WriteSVGDir(t.TempDir()); err == nil {
		t.Error("WriteSVGDir before Render succeeded")
	}
}

// TestHTMLHeaderByOutcome: the header and the notes say how the run
// ended; a run that stopped early is never said to be at its fixpoint.
func TestHTMLHeaderByOutcome(t *testing.T) {
	needDot(t)
	prog, res := tinyRun(t)
	res.Locations[1].Messages = nil
	v, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		set      func(r *engine.Result)
		want     []string
		fixpoint bool
	}{
		{"verified", func(r *engine.Result) {},
			[]string{`class="verdict ok" id="verdict">verified: fixpoint reached, no message raised<`}, true},
		{"messages", func(r *engine.Result) { r.Stats.Messages = 3 },
			[]string{`class="verdict bad" id="verdict">not verified: 3 messages raised, fixpoint reached<`}, true},
		{"stopped at a message", func(r *engine.Result) {
			r.Stats.Messages, r.Incomplete, r.StoppedOnMessage, r.StopReason = 2, true, true, "the message limit (1) was reached"
		}, []string{`class="verdict bad" id="verdict">stopped at a message: 2 messages raised<`,
			`<strong>Stopped at a message:</strong> the message limit (1) was reached.`, "stored there when the run stopped"}, false},
		{"stopped early", func(r *engine.Result) {
			r.Incomplete, r.StopReason = true, "the structure limit (50) was exceeded"
		}, []string{`class="verdict warn" id="verdict">stopped early: the structure limit (50) was exceeded<`,
			`<strong>Stopped early:</strong> the structure limit (50) was exceeded.`, "stored there when the run stopped"}, false},
		{"stopped early with messages", func(r *engine.Result) {
			r.Stats.Messages, r.Incomplete, r.StopReason = 1, true, "interrupted"
		}, []string{`id="verdict">stopped early: interrupted; 1 message raised<`}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := *res
			c.set(&r)
			v.Result = &r
			var buf bytes.Buffer
			if err := v.WriteHTML(&buf, Info{}); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("the report lacks %q", w)
				}
			}
			if got := strings.Contains(page, "fixpoint reached") || strings.Contains(page, "at the fixpoint"); got != c.fixpoint {
				t.Errorf("the report speaks of a fixpoint reached: %v, want %v", got, c.fixpoint)
			}
		})
	}
}

var (
	reStep    = regexp.MustCompile(`(?s)<li class="step"><figure [^>]*style="width: calc\(([0-9.]+)pt [^"]*"[^>]*>\s*<svg role="img"[^>]*? width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	reSVGSize = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
)

// TestHTMLTraceFrame: the steps of a trace share one frame, the largest
// picture's width and height, so that stepping through it keeps each
// picture in place; each picture keeps its scale.
func TestHTMLTraceFrame(t *testing.T) {
	needDot(t)
	prog, res := runProgram(t, "../programs/sll/search_nullderef.tvp")
	v, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := v.WriteHTML(&buf, Info{}); err != nil {
		t.Fatal(err)
	}
	msgs := reMessage.FindAllStringSubmatch(buf.String(), -1)
	if len(msgs) != len(v.Messages) || len(msgs) == 0 {
		t.Fatalf("%d messages shown, want %d", len(msgs), len(v.Messages))
	}
	differ := false
	for i, m := range msgs {
		mv := v.Messages[i]
		var w, h float64
		sizes := map[string]bool{}
		for _, st := range mv.Trace {
			sz := reSVGSize.FindSubmatch(st.Picture.SVG)
			sizes[string(sz[1])+"x"+string(sz[2])] = true
			w, h = max(w, atof(t, string(sz[1]))), max(h, atof(t, string(sz[2])))
		}
		differ = differ || len(sizes) > 1
		steps := reStep.FindAllStringSubmatch(m[2], -1)
		if len(steps) != len(mv.Trace) {
			t.Fatalf("message %d: %d framed steps, want %d", i+1, len(steps), len(mv.Trace))
		}
		for j, st := range steps {
			if atof(t, st[1]) != w || atof(t, st[2]) != w || atof(t, st[3]) != h {
				t.Errorf("message %d, step %d: figure %spt, picture %sx%spt; want the frame %vx%vpt", i+1, j, st[1], st[2], st[3], w, h)
			}
		}
	}
	if !differ {
		t.Error("the traces' pictures all have one size: the test shows nothing")
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestHTMLFoldsThreadPredicates: a thread's soft invariants are not in
// its picture's text but in a closed fold under it, a table with a column
// per thread.
func TestHTMLFoldsThreadPredicates(t *testing.T) {
	needDot(t)
	s, voc := manyThreadPreds(t)
	s.Freeze()
	prog := &model.Program{File: "threads.tvp", Vocabulary: voc, Locations: []string{"L2"}}
	res := &engine.Result{Locations: []*engine.LocationResult{{Label: "L2", Structures: engine.StructuresOf(s)}}}
	v, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pic := v.Locations[0].Structures[0]; len(pic.Folded) != 2 {
		t.Fatalf("the picture folds %d individuals, want 2", len(pic.Folded))
	}
	var buf bytes.Buffer
	if err := v.WriteHTML(&buf, Info{}); err != nil {
		t.Fatal(err)
	}
	fig := regexp.MustCompile(`(?s)<figure class="structure" id="fig-L2-1".*?</figure>`).FindString(buf.String())
	svg := fig[:strings.Index(fig, "</svg>")]
	for _, text := range regexp.MustCompile(`<text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		if strings.Contains(text[1], "if[L") || strings.Contains(text[1], "ifc[") {
			t.Errorf("the picture shows %s", text[1])
		}
	}
	for _, w := range []string{"+28 soft invariants", "+24 soft invariants", "at[L2]"} {
		if !strings.Contains(svg, w+"</text>") {
			t.Errorf("the picture lacks %q", w)
		}
	}
	for _, w := range []string{`<details class="fold"><summary>soft invariants of the threads (u0: 28, u1: 24)</summary>`,
		`<th scope="col">u0</th><th scope="col">u1 (summary)</th>`,
		`<tr><th scope="row">nif[L1,has[n]]</th><td>1</td><td>1/2</td></tr>`,
		`<tr><th scope="row">ifc[L1,doneLP,has[n]]</th><td>1</td><td></td></tr>`} {
		if !strings.Contains(fig, w) {
			t.Errorf("the figure lacks %q", w)
		}
	}
	if strings.Contains(fig, "<details open") {
		t.Error("the fold is open")
	}
}
