package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

const nullderef = "../../programs/sll/search_nullderef.tvp"

func needGraphviz(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
	}
}

// TestViewsEndToEnd runs the faulty search with every picture output and
// checks what lands on disk: a DOT file Graphviz reads whole, a folder of
// SVG files (CFG, structures, messages, trace steps) and the report.
func TestViewsEndToEnd(t *testing.T) {
	needGraphviz(t)
	dir := t.TempDir()
	dotFile := filepath.Join(dir, "dot", "run.dot")
	svgDir := filepath.Join(dir, "svg")
	html := filepath.Join(dir, "html", "report.html")
	code, stdout, stderr := runCLI("run", nullderef, "--dot", dotFile, "--svg", svgDir, "--html", html,
		"--json", filepath.Join(dir, "s.json"))
	if code != exitMessages {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitMessages, stdout, stderr)
	}
	if strings.Contains(stderr, "rendering") {
		t.Errorf("a progress bar was drawn on a non-terminal: %q", stderr)
	}
	var sum driver.Summary
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}

	// --dot: the CFG, every structure and every message's structure, all
	// accepted by dot -Tsvg.
	text, err := os.ReadFile(dotFile)
	if err != nil {
		t.Fatal(err)
	}
	graphs := bytes.Count(text, []byte("digraph "))
	if want := 1 + sum.StructuresStored + sum.Messages; graphs != want {
		t.Errorf("--dot wrote %d graphs, want %d", graphs, want)
	}
	out, err := exec.Command("dot", "-Tsvg", dotFile).CombinedOutput()
	if err != nil {
		t.Fatalf("dot -Tsvg %s: %v\n%s", dotFile, err, out)
	}
	if n := bytes.Count(out, []byte("<svg")); n != graphs {
		t.Errorf("dot drew %d of %d graphs", n, graphs)
	}

	// --svg: one file per picture.
	files, err := os.ReadDir(svgDir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name()] = true
		if strings.HasPrefix(f.Name(), ".") {
			t.Errorf("temporary file left behind: %s", f.Name())
		}
		b, err := os.ReadFile(filepath.Join(svgDir, f.Name()))
		if err != nil || !bytes.HasPrefix(b, []byte("<?xml")) || !bytes.Contains(b, []byte("</svg>")) {
			t.Errorf("%s is not an SVG document", f.Name())
		}
	}
	for _, want := range []string{"cfg.svg", "L1-1.svg", "L3-9.svg", "exit-3.svg", "msg1.svg", "msg1-step0.svg", "msg4.svg"} {
		if !names[want] {
			t.Errorf("--svg did not write %s", want)
		}
	}
	if len(files) < 1+sum.StructuresStored+sum.Messages {
		t.Errorf("--svg wrote %d files, fewer than the CFG, structures and messages", len(files))
	}

	// --html: one page, every picture inline.
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(page, []byte("<svg")); n != len(files) {
		t.Errorf("the report has %d pictures, the SVG folder %d", n, len(files))
	}
	for _, want := range []string{`id="cfg"`, `id="loc-L3"`, `id="msg1"`, `class="trace"`, "not verified: 4 messages raised",
		`<th scope="row">join</th><td>part</td>`, "tvla " + versionString()} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the report lacks %s", want)
		}
	}
}

// TestViewsNeedGraphviz: without dot on PATH, --svg and --html stop before
// the analysis with exit 2 and name the package; --dot alone needs nothing.
func TestViewsNeedGraphviz(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", filepath.Join(dir, "empty"))
	html := filepath.Join(dir, "r.html")
	for _, args := range [][]string{{"--svg", filepath.Join(dir, "svg")}, {"--html", html}} {
		code, stdout, stderr := runCLI(append([]string{"run", nullderef}, args...)...)
		if code != exitInput || !strings.Contains(stderr, "graphviz") || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v without dot: exit %d, stderr %q", args, code, stderr)
		}
		if strings.Contains(stdout, "structures stored") {
			t.Errorf("%v without dot: the analysis ran", args)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "svg")); err == nil {
		t.Error("the SVG folder was created")
	}
	if _, err := os.Stat(html); err == nil {
		t.Error("the report was written")
	}
	dotFile := filepath.Join(dir, "run.dot")
	if code, _, stderr := runCLI("run", nullderef, "-q", "--dot", dotFile); code != exitMessages {
		t.Errorf("--dot without Graphviz: exit %d, %s", code, stderr)
	}
	if b, err := os.ReadFile(dotFile); err != nil || !bytes.HasPrefix(b, []byte("digraph ")) {
		t.Errorf("--dot without Graphviz wrote nothing: %v", err)
	}
}
