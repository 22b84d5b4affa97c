package experiment

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseSpec feeds ParseSpec any bytes: it never panics; it fails only
// with SpecErrors, each naming the spec and, when placed, a line and
// column inside it; a spec it accepts has the baseline first and
// variants with distinct, well-formed names, and every run renders as
// tvla run flags.
//
// Run longer with: go test ./experiment -run XXX -fuzz FuzzParseSpec -fuzztime 60s
func FuzzParseSpec(f *testing.F) {
	// The seeds are small: the fuzzer minimizes every new input that
	// widens coverage, and on a spec of kilobytes that takes its minute.
	if data, err := os.ReadFile("../cmd/tvla/testdata/experiment/reverse.toml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(reverse + "[baseline]\n"))
	f.Add([]byte(reverse + "title = \"t\"\n[baseline]\ndefines = { THREADS = 2, X = true, Y = false, Z = \"v\" }\njoin = \"rel\"\n" +
		"[[variant]]\nname = \"a\"\nabs = [\"p\"]\nnonabs = [\"q\"]\nmax_structures = 10\ntimeout = \"90s\"\ncollapse_threads = true\n"))
	f.Add([]byte("program = 3\n[baseline]\nbogus = 1\n[[variant]]\nname = \"bad name\"\ntimeout = \"x\"\n"))
	f.Add([]byte("[[variant]\nname = "))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 2048 {
			return
		}
		path := filepath.Join("testdata", "fuzz.toml")
		s, err := ParseSpec(path, data)
		if err != nil {
			var errs SpecErrors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error %v (%T) is not SpecErrors", err, err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			for _, e := range errs {
				if e.File != path || e.Line < 0 || e.Line > lines || e.Col < 0 || e.Msg == "" {
					t.Errorf("error %q: file %q, line %d of %d, column %d", e.Error(), e.File, e.Line, lines, e.Col)
				}
			}
			return
		}
		if s == nil || len(s.Runs) == 0 || !s.Runs[0].Baseline || s.Program == "" {
			t.Fatalf("accepted spec without a program or a baseline: %+v", s)
		}
		names := map[string]bool{}
		for i, r := range s.Runs {
			if r.Baseline != (i == 0) || names[r.Name] || !nameSyntax.MatchString(r.Name) {
				t.Errorf("run %d: name %q, baseline %v (names so far %v)", i, r.Name, r.Baseline, names)
			}
			names[r.Name] = true
			if r.Join != "part" && r.Join != "rel" && r.Join != "ind" {
				t.Errorf("run %q: join %q", r.Name, r.Join)
			}
			_ = r.Flags(0)
		}
	})
}
