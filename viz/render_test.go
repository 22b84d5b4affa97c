package viz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// needDot skips a test when Graphviz is missing (CI installs it).
func needDot(t *testing.T) {
	t.Helper()
	if _, err := DotPath(); err != nil {
		t.Skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
	}
}

// runProgram analyses a bundled program with its PROGRAM.tvs input and
// TVLA's defaults.
func runProgram(t testing.TB, path string) (*model.Program, *engine.Result) {
	t.Helper()
	prog, _, err := tvp.LoadProgram(path, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []*tvl.Structure
	if tvs := strings.TrimSuffix(path, ".tvp") + ".tvs"; fileExists(tvs) {
		locs, err := tvp.LoadTVS(tvs, prog.Vocabulary.Tvl(), tvp.LoadConfig{})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range locs {
			for _, s := range l.Structures {
				inputs = append(inputs, s.Structure)
			}
		}
	}
	e, err := engine.New(prog, engine.Options{Differencing: true, BreakIfCoerceAfterUpdateFailed: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return prog, res
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// bundled lists the bundled list programs that run (not the included
// files): small enough to draw every structure of in a test.
func bundled(t *testing.T) []string {
	paths, err := filepath.Glob("../programs/sll/*.tvp")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if fileExists(strings.TrimSuffix(p, ".tvp") + ".tvs") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatal("no bundled program found")
	}
	return out
}

// dotAccepts runs dot -Tsvg on a file as a person would, and returns the
// number of SVG documents it wrote.
func dotAccepts(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("dot", "-Tsvg", path).Output()
	if err != nil {
		msg := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = string(ee.Stderr)
		}
		t.Fatalf("dot -Tsvg %s: %v\n%s", path, err, msg)
	}
	return bytes.Count(out, []byte("<svg"))
}

func TestGoldenDOTAcceptedByGraphviz(t *testing.T) {
	needDot(t)
	files, _ := filepath.Glob("testdata/*.dot")
	if len(files) == 0 {
		t.Fatal("no golden DOT files")
	}
	for _, f := range files {
		if n := dotAccepts(t, f); n != 1 {
			t.Errorf("%s: %d pictures, want 1", f, n)
		}
	}
}

// TestWrittenDOTAcceptedByGraphviz writes every bundled program's run (up
// to a thousand structures) as --dot does, and every picture --svg and --html draw (traces included),
// and has Graphviz read them all.
func TestWrittenDOTAcceptedByGraphviz(t *testing.T) {
	needDot(t)
	dir := t.TempDir()
	for _, path := range bundled(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".tvp")
		t.Run(name, func(t *testing.T) {
			prog, res := runProgram(t, path)
			if res.Stats.Stored > 1000 {
				// Graphviz takes over a minute on the insertion sort's
				// 2,822 structures; the smaller runs cover the drawing.
				t.Skipf("%d structures: too many to draw in a test", res.Stats.Stored)
			}
			var buf bytes.Buffer
			if err := WriteDOT(&buf, prog, res); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, name+".dot")
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			graphs := bytes.Count(buf.Bytes(), []byte("digraph "))
			want := 1
			for _, l := range res.Locations {
				want += l.Structures.Len() + len(l.Messages)
			}
			if graphs != want {
				t.Errorf("%d graphs written, want %d (CFG, structures, messages)", graphs, want)
			}
			if n := dotAccepts(t, file); n != graphs {
				t.Errorf("dot drew %d of %d graphs", n, graphs)
			}

			v := Build(prog, res)
			var all bytes.Buffer
			for _, p := range v.Pictures() {
				all.Write(p.DOT)
				all.WriteByte('\n')
			}
			pics := filepath.Join(dir, name+"-pictures.dot")
			if err := os.WriteFile(pics, all.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if n := dotAccepts(t, pics); n != len(v.Pictures()) {
				t.Errorf("dot drew %d of %d pictures", n, len(v.Pictures()))
			}
		})
	}
}

// TestRenderIsDeterministic renders a run twice, in batches on parallel
// workers, and checks that the pictures do not depend on the batches and
// that the files and the page come out byte for byte the same.
func TestRenderIsDeterministic(t *testing.T) {
	needDot(t)
	prog, res := runProgram(t, "../programs/sll/search_nullderef.tvp")
	var calls, last int
	v1, err := Render(context.Background(), prog, res, func(done, total int) {
		calls++
		if done < last || done > total {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	n := len(v1.Pictures())
	if calls == 0 || last != n {
		t.Errorf("progress: %d calls, last %d, want %d pictures", calls, last, n)
	}
	v2, err := Render(context.Background(), prog, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := v1.Pictures(), v2.Pictures()
	for i := range p1 {
		if p1[i].Name != p2[i].Name || !bytes.Equal(p1[i].SVG, p2[i].SVG) {
			t.Fatalf("picture %s differs between two renderings", p1[i].Name)
		}
	}
	// One picture alone is drawn as in its batch (a trace's steps are
	// placed in their trace's layout, drawn by neato and aligned).
	for _, i := range []int{0, 1, n / 2, n - 1} {
		if p1[i].placed {
			continue
		}
		alone, err := RenderSVGs(context.Background(), [][]byte{p1[i].DOT}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(alone[0], p1[i].SVG) {
			t.Errorf("picture %s drawn alone differs from its batch", p1[i].Name)
		}
	}
	var h1, h2 bytes.Buffer
	info := Info{Generator: "tvla test"}
	if err := v1.WriteHTML(&h1, info); err != nil {
		t.Fatal(err)
	}
	if err := v2.WriteHTML(&h2, info); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(h1.Bytes(), h2.Bytes()) {
		t.Error("two reports of one run differ")
	}
	d1, d2 := t.TempDir(), t.TempDir()
	if err := v1.WriteSVGDir(d1); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVGDir(context.Background(), d2, prog, res, nil); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(d1)
	if len(files) != n {
		t.Errorf("%d files in the SVG folder, want %d", len(files), n)
	}
	for _, f := range files {
		a, _ := os.ReadFile(filepath.Join(d1, f.Name()))
		b, err := os.ReadFile(filepath.Join(d2, f.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two writes", f.Name())
		}
		if !bytes.HasPrefix(a, []byte("<?xml")) || !bytes.Contains(a, []byte("</svg>")) {
			t.Errorf("%s is not an SVG document", f.Name())
		}
	}
}

func TestRenderWithoutDot(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := DotPath(); !errors.Is(err, ErrNoDot) {
		t.Fatalf("DotPath with an empty PATH: %v", err)
	}
	if !strings.Contains(ErrNoDot.Error(), "graphviz") {
		t.Errorf("%q does not name the package", ErrNoDot)
	}
	if _, err := RenderSVGs(context.Background(), [][]byte{[]byte("digraph {}")}, nil); !errors.Is(err, ErrNoDot) {
		t.Errorf("RenderSVGs without dot: %v", err)
	}
}

func TestRenderErrors(t *testing.T) {
	needDot(t)
	if _, err := RenderSVG(context.Background(), []byte("digraph { a -> }")); err == nil || !strings.Contains(err.Error(), "dot -Tsvg") {
		t.Errorf("bad DOT: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	graphs := [][]byte{[]byte("digraph { a -> b }"), []byte("digraph { c }")}
	if _, err := RenderSVGs(ctx, graphs, nil); err == nil {
		t.Error("a cancelled rendering succeeded")
	}
	out, err := RenderSVGs(context.Background(), graphs, nil)
	if err != nil || len(out) != 2 || !bytes.Contains(out[1], []byte(">c</text>")) {
		t.Errorf("two graphs: %v, %d pictures", err, len(out))
	}
}
