package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tvla-go/tvla/driver"
)

// chromiumPath finds Debian's chromium (CI installs it), or skips.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "/usr/bin/chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// headless runs chromium without a window, network or profile of its own,
// on a page, with extra flags (--dump-dom, --screenshot=...), and returns
// what it prints on standard output.
func headless(t *testing.T, chromium, page string, flags ...string) string {
	t.Helper()
	profile, err := os.MkdirTemp("", "tvla-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Chromium's helpers may still be closing files when it returns:
	// remove the profile best-effort, never failing the test over it.
	t.Cleanup(func() { os.RemoveAll(profile) })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + profile}, flags...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, chromium, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, stderr.String())
	}
	return string(out)
}

// TestReportInBrowser loads the HTML report of a run with messages in
// headless Chromium and checks the rendered DOM: the CFG, a structure
// picture for every location that has structures, and each message's
// trace. With TVLA_SCREENSHOT=FILE.png it also saves what a person sees.
func TestReportInBrowser(t *testing.T) {
	needGraphviz(t)
	chromium := chromiumPath(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "out", "report.html")
	code, stdout, stderr := runCLI("run", nullderef, "-q", "--html", page, "--json", filepath.Join(dir, "s.json"))
	if code != exitMessages {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var sum driver.Summary
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}

	// Open it at a structure, as a link from elsewhere would: the script
	// selects that picture for keyboard navigation.
	dom := headless(t, chromium, abs+"#fig-L3-2", "--dump-dom")
	if !regexp.MustCompile(`<figure class="structure current" id="fig-L3-2"`).MatchString(dom) {
		t.Error("the structure named in the address is not selected")
	}

	// The page's script ran and counted the pictures it navigates.
	m := regexp.MustCompile(`<body[^>]*data-structures="(\d+)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the script did not run: no data-structures on <body>\n%.2000s", dom)
	}
	figures := strings.Count(dom, `<figure class="structure`)
	if n, _ := strconv.Atoi(m[1]); n != figures || n == 0 {
		t.Errorf("the script counts %s structures, the page has %d figures", m[1], figures)
	}

	// The CFG: an SVG with a link to every location.
	cfg := between(dom, `<section id="cfg"`, `</section>`)
	if !strings.Contains(cfg, "<svg") {
		t.Error("no CFG picture")
	}
	for _, l := range sum.Locations {
		if !strings.Contains(cfg, `href="#loc-`+l.Label+`"`) {
			t.Errorf("the CFG does not link location %s", l.Label)
		}
	}

	// A picture per structure, at least one at every location reached.
	for _, l := range sum.Locations {
		sec := between(dom, `<section id="loc-`+l.Label+`"`, `</section>`)
		if sec == "" {
			t.Errorf("no section for location %s", l.Label)
			continue
		}
		got := strings.Count(sec, "<svg")
		if l.Structures > 0 && got == 0 {
			t.Errorf("location %s has %d structures and no picture", l.Label, l.Structures)
		}
		if got != l.Structures {
			t.Errorf("location %s: %d pictures for %d structures", l.Label, got, l.Structures)
		}
	}

	// Each message, with a trace of pictures ending where it is raised.
	if sum.Messages == 0 {
		t.Fatal("the run raised no message")
	}
	for i := 1; i <= sum.Messages; i++ {
		art := between(dom, `<article id="msg`+strconv.Itoa(i)+`"`, `</article>`)
		trace := between(art, `<ol class="trace"`, `</ol>`)
		steps := strings.Count(trace, `<li class="step">`)
		if !strings.Contains(art, "null dereference: y-&gt;nxt") || steps < 2 || strings.Count(trace, "<svg") != steps {
			t.Errorf("message %d: trace of %d steps, %d pictures", i, steps, strings.Count(trace, "<svg"))
		}
		if !strings.Contains(trace, `class="structure raises"`) {
			t.Errorf("message %d: the trace does not end at the message", i)
		}
	}

	// Keyboard navigation: a copy of the page with a probe that presses
	// keys and notes the selected structure after each.
	report, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	probe := strings.Replace(string(report), "</body>", keyProbe+"</body>", 1)
	probePage := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probePage, []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	keys := regexp.MustCompile(`data-probe="([^"]*)"`).FindStringSubmatch(headless(t, chromium, probePage, "--dump-dom"))
	want := "j:fig-msg1-step0 j:fig-msg1-step1 k:fig-msg1-step0 z:fig-msg1-step0+zoomed Escape:fig-msg1-step0 ArrowRight:fig-msg1-step1 n:fig-msg2-step0"
	if keys == nil || keys[1] != want {
		t.Errorf("keys select %q, want %q", keys, want)
	}

	if shot := os.Getenv("TVLA_SCREENSHOT"); shot != "" {
		shot, _ = filepath.Abs(shot)
		headless(t, chromium, abs, "--screenshot="+shot, "--window-size=1280,900", "--hide-scrollbars")
		t.Logf("screenshot in %s", shot)
	}
}

// between returns the part of s from the first start to the following
// end (inclusive), or "".
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j+len(end)]
}

// keyProbe presses keys on the report and records, in <body
// data-probe>, which structure is selected after each.
const keyProbe = `<script>
(function () {
  var log = [];
  ["j", "j", "k", "z", "Escape", "ArrowRight", "n"].forEach(function (k) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    var f = document.querySelector("figure.structure.current");
    log.push(k + ":" + (f ? f.id + (f.classList.contains("zoomed") ? "+zoomed" : "") : "-"));
  });
  document.body.setAttribute("data-probe", log.join(" "));
})();
</script>
`
