package experiment

import (
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"
)

// The example the help shows is a spec the parser accepts, with the runs
// it describes (read as if beside the bundled stack, whose files it names).
func TestExampleSpecParses(t *testing.T) {
	s, err := ParseSpec(filepath.Join("..", "programs", "stack", "example.toml"), []byte(ExampleSpec))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range s.Runs {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"collapsed", "threads-2", "rel-join", "doneLP-abs"}) || s.Program != "stack.tvp" || s.Input != "stack.tvs" {
		t.Fatalf("runs %q, program %q, input %q", names, s.Program, s.Input)
	}
	rel, abs := s.Runs[2], s.Runs[3]
	if rel.Join != "rel" || rel.MaxStructures != 20000 || rel.Timeout != 2*time.Minute || !rel.CollapseThreads {
		t.Errorf("rel-join: %+v", rel)
	}
	if !slices.Equal(abs.Abs, []string{"doneLP"}) || abs.Join != "part" {
		t.Errorf("doneLP-abs: %+v", abs)
	}
}

// Every key the parser knows is documented in SpecFormat.
func TestSpecFormatNamesEveryKey(t *testing.T) {
	text := SpecFormat()
	for _, k := range append(slices.Clone(topKeys), runKeys...) {
		if !regexp.MustCompile(`(^|[\s\[,])` + regexp.QuoteMeta(k) + `[\s\],]`).MatchString(text) {
			t.Errorf("SpecFormat does not name key %q", k)
		}
	}
	if !regexp.MustCompile(`"part" \(default\), "rel"`).MatchString(text) {
		t.Errorf("the joins are not listed, default first:\n%s", text)
	}
}
