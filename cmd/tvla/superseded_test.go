package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --skip-superseded: the JSON summary says so, the collapsed DGLM queue
// still verifies with fewer structures examined, and its abstract run
// stays sound: every concrete structure of a bounded run embeds.
func TestSkipSuperseded(t *testing.T) {
	dglm := filepath.Join("..", "..", "programs", "queue", "dglm.alg")
	dir := t.TempDir()
	examined := map[bool]float64{}
	for _, skip := range []bool{false, true} {
		path := filepath.Join(dir, "run.json")
		args := []string{"run", dglm, "--collapse-threads", "-q", "--json", path}
		if skip {
			args = append(args, "--skip-superseded")
		}
		if code, _, errOut := runCLI(args...); code != exitVerified {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var s map[string]any
		data, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(data, &s) != nil {
			t.Fatalf("summary: %v", err)
		}
		if got := s["options"].(map[string]any)["skip_superseded"]; (got == true) != skip {
			t.Errorf("skip %v: options.skip_superseded is %v", skip, got)
		}
		examined[skip] = s["structures_examined"].(float64)
	}
	if examined[true] >= examined[false] {
		t.Errorf("examined %v with --skip-superseded, %v without", examined[true], examined[false])
	}
	code, out, errOut := runCLI("embed", dglm, "--collapse-threads", "--skip-superseded", "-q", "--max-structures", "5000")
	if code != exitVerified || !strings.Contains(out, "sound on these inputs") {
		t.Errorf("embed: exit %d: %s\n%s", code, errOut, out)
	}
}
