package viz

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
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
		if got := strings.Count(sections[i][2], "<svg"); got != len(lr.Structures) {
			t.Errorf("%s: %d pictures, want %d", lr.Label, got, len(lr.Structures))
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
