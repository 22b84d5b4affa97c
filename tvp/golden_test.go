package tvp_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// goldenDir holds the construct programs and their golden dumps.
const goldenDir = "testdata"

// goldenPrograms are the programs of testdata/constructs, which
// together use every construct of TVP the loader supports. Each is
// loaded (with its TVS inputs, if any), dumped with model.Program.Dump,
// and compared with testdata/<name>.golden.
var goldenPrograms = []struct {
	name    string // of the golden file
	file    string // the program, constructs/<file>.tvp; "" means name
	defines map[string]string
	inputs  []string // TVS files beside the program
}{
	{name: "decls", inputs: []string{"decls.tvs"}},
	{name: "formulas"},
	{name: "actions", inputs: []string{"actions.tvs"}},
	{name: "unsupported"},
	{name: "extensions"},
	{name: "preproc", defines: map[string]string{"WITH_Z": "1", "DEPTH": "2", "SUFFIX(s)": "s ## _v"}},
	{name: "preproc_nodefs", file: "preproc"},
}

func TestGolden(t *testing.T) {
	for _, g := range goldenPrograms {
		t.Run(g.name, func(t *testing.T) {
			file := g.file
			if file == "" {
				file = g.name
			}
			got := goldenDump(t, file, g.defines, g.inputs)
			file = filepath.Join(goldenDir, g.name+".golden")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./tvp/ -run Golden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("dump of %s differs from %s (run go test ./tvp/ -run Golden -update to accept):\n%s", g.name, file, firstDifference(string(want), got))
			}
		})
	}
}

// TestGoldenCoversEveryProgram makes sure no construct program is left
// out of goldenPrograms.
func TestGoldenCoversEveryProgram(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "constructs", "*.tvp"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, g := range goldenPrograms {
		listed[g.name] = true
		listed[g.file] = true
	}
	for _, f := range files {
		if !listed[strings.TrimSuffix(filepath.Base(f), ".tvp")] {
			t.Errorf("%s has no entry in goldenPrograms", f)
		}
	}
}

// TestDumpIgnoresWhereTheProgramIs loads a program that includes files
// by a relative and by an absolute path: the dumps must be equal.
func TestDumpIgnoresWhereTheProgramIs(t *testing.T) {
	rel := filepath.Join(goldenDir, "constructs", "preproc.tvp")
	abs, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	var dumps []string
	for _, path := range []string{rel, abs} {
		prog, _, err := tvp.LoadProgram(path, tvp.LoadConfig{})
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, prog.DumpString())
	}
	if dumps[0] != dumps[1] {
		t.Errorf("dump depends on the program's path:\n%s", firstDifference(dumps[0], dumps[1]))
	}
	if strings.Contains(dumps[1], filepath.Dir(abs)) {
		t.Errorf("dump holds the absolute folder %s", filepath.Dir(abs))
	}
}

// goldenDump loads constructs/<file>.tvp and returns its dump followed by
// the files read and its TVS inputs as read back.
func goldenDump(t *testing.T, file string, defines map[string]string, inputs []string) string {
	t.Helper()
	dir := filepath.Join(goldenDir, "constructs")
	path := filepath.Join(dir, file+".tvp")
	cfg := tvp.LoadConfig{Defines: defines}
	prog, files, err := tvp.LoadProgram(path, cfg)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	var b bytes.Buffer
	if err := prog.Dump(&b); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n%% files read\n")
	for _, f := range files {
		r, err := filepath.Rel(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(filepath.ToSlash(r) + "\n")
	}
	for _, in := range inputs {
		locs, err := tvp.LoadTVS(filepath.Join(dir, in), prog.Vocabulary.Tvl(), cfg)
		if err != nil {
			t.Fatalf("loading %s: %v", in, err)
		}
		b.WriteString("\n%% input " + in + "\n")
		if err := tvp.WriteTVS(&b, locs); err != nil {
			t.Fatal(err)
		}
	}
	// Running the dump twice gives the same text.
	if again := prog.DumpString(); !strings.HasPrefix(b.String(), again) {
		t.Errorf("Dump is not deterministic")
	}
	return b.String()
}

// firstDifference shows the first differing line of two texts.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(no line differs)"
}
