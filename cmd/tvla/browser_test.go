package main

import (
	"context"
	"encoding/json"
	"html"
	"math"
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

	// The header by the outcome: a complete run reached its fixpoint.
	verdict := regexp.MustCompile(`<span class="verdict [a-z]+" id="verdict">([^<]*)</span>`).FindStringSubmatch(dom)
	if verdict == nil || verdict[1] != "not verified: 4 messages raised, fixpoint reached" {
		t.Errorf("verdict %q, want the fixpoint reached and 4 messages", verdict)
	}
	if strings.Contains(dom, "when the run stopped") || strings.Contains(dom, `id="reason"`) {
		t.Error("a complete run is said to have stopped")
	}

	// The steps of each trace in one frame, as the browser lays them out.
	checkTraceFrames(t, withProbes(t, chromium, dir, string(report), frameProbe), sum.Messages)

	if shot := os.Getenv("TVLA_SCREENSHOT"); shot != "" {
		shot, _ = filepath.Abs(shot)
		headless(t, chromium, abs, "--screenshot="+shot, "--window-size=1280,900", "--hide-scrollbars")
		t.Logf("screenshot in %s", shot)
	}
}

// stackProgram is Treiber's stack; with --collapse-threads its threads
// carry dozens of soft invariants.
const stackProgram = "../../programs/stack/stack.tvp"

// TestReportInBrowserStopped loads the reports of runs that stopped early
// — the faulty stack at its first message, the correct one at a structure
// limit — and checks what the page says and shows: the header by the
// outcome, never "at the fixpoint"; each thread's soft invariants folded
// out of its picture into a closed table under it, which opens without
// enlarging the picture; the steps of a trace in one frame.
func TestReportInBrowserStopped(t *testing.T) {
	needGraphviz(t)
	chromium := chromiumPath(t)
	reVerdict := regexp.MustCompile(`<span class="verdict [a-z]+" id="verdict">([^<]*)</span>`)
	for _, c := range []struct {
		name    string
		args    []string
		code    int
		verdict string
		reason  string
	}{
		{"message", []string{"-D", "BUG_POP_EARLY_LP", "--max-messages", "1"}, exitMessages,
			"stopped at a message: 1 message raised", "<strong>Stopped at a message:</strong> the message limit (1) was reached."},
		{"limit", []string{"--max-structures", "50"}, exitLimit,
			"stopped early: the structure limit (50) was exceeded", "<strong>Stopped early:</strong> the structure limit (50) was exceeded."},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			args := append([]string{"run", stackProgram, "--collapse-threads", "-q", "--html", page}, c.args...)
			if code, stdout, stderr := runCLI(args...); code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, stdout, stderr)
			}
			report, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			dom := headless(t, chromium, page, "--dump-dom")

			if v := reVerdict.FindStringSubmatch(dom); v == nil || v[1] != c.verdict {
				t.Errorf("verdict %q, want %q", v, c.verdict)
			}
			if !strings.Contains(dom, c.reason) {
				t.Errorf("the page does not say why the run stopped (%s)", c.reason)
			}
			if !strings.Contains(dom, "stored there when the run stopped") {
				t.Error("the CFG's note does not say the run stopped")
			}
			for _, bad := range []string{"at the fixpoint", "fixpoint reached"} {
				if strings.Contains(dom, bad) {
					t.Errorf("a run that stopped early is said to be %q", bad)
				}
			}

			// Every thread's soft invariants folded: no if[ in a picture's
			// text, a count in the thread's node, the table under it.
			figs := regexp.MustCompile(`(?s)<figure class="structure[^"]*" id="(fig-[^"]+)".*?</figure>`).FindAllStringSubmatch(dom, -1)
			if len(figs) == 0 {
				t.Fatal("no structure pictures")
			}
			reText := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
			reCount := regexp.MustCompile(`<text[^>]*>\+(\d+) soft invariants</text>`)
			folds, listing := 0, []string{}
			for _, f := range figs {
				fig := f[0]
				end := strings.Index(fig, "</svg>")
				if end < 0 {
					t.Fatalf("%s: no picture", f[1])
				}
				for _, text := range reText.FindAllStringSubmatch(fig[:end], -1) {
					if strings.Contains(text[1], "if[") {
						listing = append(listing, f[1]+": "+text[1])
						break
					}
				}
				counts := reCount.FindAllStringSubmatch(fig[:end], -1)
				fold := between(fig, `<details class="fold">`, `</details>`)
				if len(counts) == 0 {
					if fold != "" {
						t.Errorf("%s: a fold and no thread counts one", f[1])
					}
					continue
				}
				folds++
				rows := strings.Count(fold, `<th scope="row">`)
				want := 0
				for _, n := range counts {
					k, _ := strconv.Atoi(n[1])
					want = max(want, k)
				}
				if rows < want || !strings.Contains(fold, `<th scope="row">if[`) {
					t.Errorf("%s: the fold lists %d soft invariants, the nodes count %v", f[1], rows, counts)
				}
			}
			if len(listing) > 0 {
				t.Errorf("%d of %d pictures list soft invariants, as %s", len(listing), len(figs), listing[0])
			}
			if folds < len(figs)/2 {
				t.Errorf("%d of %d pictures fold soft invariants", folds, len(figs))
			}

			// The steps of each trace in one frame; the fold opens on a
			// click, without enlarging the picture.
			probed := withProbes(t, chromium, dir, string(report), frameProbe, foldProbe, nodeProbe)
			if c.name == "message" {
				checkTraceFrames(t, probed, 1)
				checkTraceNodes(t, probed, 1)
			}
			m := regexp.MustCompile(`data-fold="([^"]*)"`).FindStringSubmatch(probed)
			if m == nil || !regexp.MustCompile(`^closed open rows=[1-9]\d* tall=[1-9]\d* zoomed=false$`).MatchString(m[1]) {
				t.Errorf("clicking a fold: %q, want it closed, then open with rows, and the picture not enlarged", m)
			}
		})
	}
}

// foldProbe clicks the first fold's summary and records, in <body
// data-fold>, whether the fold was closed, is open, its rows, and whether
// the click enlarged its picture.
const foldProbe = `<script>
(function () {
  var d = document.querySelector("details.fold"), log = [];
  if (!d) { document.body.setAttribute("data-fold", "none"); return; }
  var f = d.closest("figure");
  log.push(d.open ? "open" : "closed");
  d.querySelector("summary").click();
  log.push(d.open ? "open" : "closed");
  log.push("rows=" + d.querySelectorAll("tr th[scope=row]").length);
  log.push("tall=" + Math.round(d.querySelector("table").getBoundingClientRect().height));
  log.push("zoomed=" + f.classList.contains("zoomed"));
  document.body.setAttribute("data-fold", log.join(" "));
})();
</script>
`

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

// frameProbe measures, in <body data-frames>, every trace step's figure
// and picture as laid out: per trace (separated by "|"), per step
// "figure width:picture width x height@picture's offset in its figure".
const frameProbe = `<script>
(function () {
  function r(x) { return Math.round(x * 10) / 10; }
  var out = [];
  document.querySelectorAll("ol.trace").forEach(function (ol) {
    var steps = [];
    ol.querySelectorAll(":scope > li.step > figure").forEach(function (f) {
      var fr = f.getBoundingClientRect(), s = f.querySelector("svg").getBoundingClientRect();
      steps.push(r(fr.width) + ":" + r(s.width) + "x" + r(s.height) + "@" + r(s.left - fr.left) + "," + r(s.top - fr.top));
    });
    out.push(steps.join(" "));
  });
  document.body.setAttribute("data-frames", out.join("|"));
})();
</script>
`

// withProbes loads a copy of a report with probe scripts at the end of its
// body, in a window of a fixed size, and returns the DOM they leave.
func withProbes(t *testing.T, chromium, dir, report string, probes ...string) string {
	t.Helper()
	page := filepath.Join(dir, "probed.html")
	if err := os.WriteFile(page, []byte(strings.Replace(report, "</body>", strings.Join(probes, "")+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return headless(t, chromium, page, "--dump-dom", "--window-size=1400,1000")
}

// checkTraceFrames checks, in the DOM frameProbe left, that the steps of
// each trace have one size and their pictures one place, with nothing of
// zero size.
func checkTraceFrames(t *testing.T, dom string, traces int) {
	t.Helper()
	m := regexp.MustCompile(`data-frames="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("the frame probe did not run")
	}
	t.Logf("trace steps (figure width:picture size@offset): %s", m[1])
	got := strings.Split(m[1], "|")
	if len(got) != traces {
		t.Fatalf("%d traces measured, want %d: %q", len(got), traces, m[1])
	}
	for i, tr := range got {
		steps := strings.Fields(tr)
		if len(steps) < 2 {
			t.Errorf("trace %d: %d steps measured: %q", i+1, len(steps), tr)
			continue
		}
		for _, st := range steps {
			if st != steps[0] {
				t.Errorf("trace %d: the steps differ in size or place: %q", i+1, tr)
				break
			}
		}
		if strings.HasPrefix(steps[0], "0:") || strings.Contains(steps[0], ":0x") || strings.Contains(steps[0], "x0@") {
			t.Errorf("trace %d: a step of zero size: %q", i+1, tr)
		}
	}
}

// nodeProbe measures, in <body data-nodes> (JSON: per trace, per step,
// per node), where each individual's node is on the screen in every step
// of every trace: what its tooltip says of the individual without its
// name (u3 may be u2 in the next step), and the centre of its shape
// relative to its figure.
const nodeProbe = `<script>
(function () {
  var out = [];
  document.querySelectorAll("ol.trace").forEach(function (ol) {
    var steps = [];
    ol.querySelectorAll(":scope > li.step > figure").forEach(function (f) {
      var fr = f.getBoundingClientRect(), nodes = [];
      f.querySelectorAll("svg g.node").forEach(function (g) {
        var a = g.querySelector("a"), s = g.querySelector("ellipse, polygon");
        if (!a || !s) { return; }
        var b = s.getBoundingClientRect();
        nodes.push({tip: (a.getAttribute("xlink:title") || "").replace(/^u[0-9]+/, ""),
          x: b.left + b.width / 2 - fr.left, y: b.top + b.height / 2 - fr.top});
      });
      steps.push(nodes);
    });
    out.push(steps);
  });
  document.body.setAttribute("data-nodes", JSON.stringify(out));
})();
</script>
`

// checkTraceNodes checks, in the DOM nodeProbe left, that an individual
// that persists through a trace unchanged (its node says the same in
// every step) keeps its place on the screen, within a pixel, and that
// each trace has one.
func checkTraceNodes(t *testing.T, dom string, traces int) {
	t.Helper()
	m := regexp.MustCompile(`data-nodes="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("the node probe did not run")
	}
	type node struct {
		Tip  string
		X, Y float64
	}
	var got [][][]node
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
		t.Fatalf("the node probe's output: %v", err)
	}
	if len(got) != traces {
		t.Fatalf("%d traces measured, want %d", len(got), traces)
	}
	for i, steps := range got {
		at := make([]map[string][]node, len(steps))
		for j, st := range steps {
			at[j] = map[string][]node{}
			for _, n := range st {
				at[j][n.Tip] = append(at[j][n.Tip], n)
			}
		}
		persist := 0
		for tip := range at[0] {
			var places []node
			for _, a := range at {
				if len(a[tip]) != 1 {
					places = nil
					break
				}
				places = append(places, a[tip][0])
			}
			if places == nil {
				continue
			}
			persist++
			for j, p := range places {
				if math.Abs(p.X-places[0].X) > 1 || math.Abs(p.Y-places[0].Y) > 1 {
					t.Errorf("trace %d: the node%s moves: %v (step %d)", i+1, tip, places, j)
					break
				}
			}
		}
		t.Logf("trace %d: %d individuals persist through %d steps", i+1, persist, len(steps))
		if persist == 0 || len(steps) < 2 {
			t.Errorf("trace %d: no individual persists through its %d steps: the check shows nothing", i+1, len(steps))
		}
	}
}
