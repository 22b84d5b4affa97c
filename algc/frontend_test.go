package algc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
)

// A run loads the model and then its initial structure; both come from
// one compilation of an unchanged file, and an edited file is compiled
// again.
func TestCompileFileReusesUnchangedSource(t *testing.T) {
	src, err := os.ReadFile("../programs/stack/treiber.alg")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "treiber.alg")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := CompileFile(path, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := CompileFile(path, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Error("an unchanged file was compiled a second time")
	}
	edited := strings.Replace(string(src), "algorithm treiber;", "algorithm treiber2;", 1)
	if edited == string(src) {
		t.Fatal("the test's edit did not apply: treiber.alg has no `algorithm treiber;` line")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := CompileFile(path, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if changed == first || changed.Name != "treiber2" {
		t.Errorf("the edited file gave the old compilation (name %q)", changed.Name)
	}
}
