package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every output path is checked before anything is read: a path that
// could not be written is bad input (exit 2) at once, with the path as
// the user gave it; nothing is analysed (no table) and no temporary file
// is left anywhere.
func TestOutputPathsAreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "folder")
	file := filepath.Join(dir, "file")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing-dir", "x.json")
	reverse := sll("reverse.tvp")
	soft := []string{"run", "../../programs/stack/stack.tvp", "--collapse-threads", "--soft-invariants", "auto", "--soft-invariants-out"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", reverse, "--tvs", folder}, "--tvs " + folder + ": is a folder"},
		{[]string{"run", reverse, "--json", folder}, "--json " + folder + ": is a folder"},
		{[]string{"run", reverse, "--dot", folder}, "--dot " + folder + ": is a folder"},
		{[]string{"run", reverse, "--html", folder}, "--html " + folder + ": is a folder"},
		{[]string{"run", reverse, "--svg", file}, "--svg " + file + ": is a file, not a folder"},
		{append(soft, folder), "--soft-invariants-out " + folder + ": is a folder"},
		{[]string{"run", reverse, "--json", missing}, "--json " + missing + ": the folder " + filepath.Dir(missing) + " does not exist"},
		{[]string{"run", reverse, "--tvs", missing}, "--tvs " + missing + ": the folder " + filepath.Dir(missing) + " does not exist"},
		{append(soft, missing), "--soft-invariants-out " + missing + ": the folder"},
		// --dot, --html and --svg make their folders, but not under a file.
		{[]string{"run", reverse, "--dot", filepath.Join(file, "x.dot")}, "--dot " + filepath.Join(file, "x.dot") + ": " + file + " is a file, not a folder"},
		{[]string{"run", reverse, "--html", filepath.Join(file, "a", "x.html")}, "is a file, not a folder"},
		{[]string{"run", reverse, "--svg", filepath.Join(file, "svg")}, "--svg " + filepath.Join(file, "svg") + ": " + file + " is a file, not a folder"},
		{[]string{"embed", reverse, "--json", folder}, "--json " + folder + ": is a folder"},
		{[]string{"embed", reverse, "--json", missing}, "--json " + missing + ": the folder"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != exitInput || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, ".tmp") || strings.Contains(errOut, "rename") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args[2:], code, errOut, tc.want)
		}
		if out != "" {
			t.Errorf("%v: the analysis ran before the output was found wanting:\n%.300s", tc.args[2:], out)
		}
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), ".tmp") {
				t.Errorf("%v: temporary file left: %s", tc.args[2:], path)
				os.Remove(path)
			}
			return nil
		})
	}
	// The paths that can be written still are: a missing folder for
	// --dot, an existing file to replace.
	dot, tvs := filepath.Join(dir, "new", "x.dot"), filepath.Join(dir, "file")
	if code, _, errOut := runCLI("run", reverse, "-q", "--dot", dot, "--tvs", tvs, "--json", "-"); code != exitVerified {
		t.Errorf("exit %d: %s", code, errOut)
	}
	for _, p := range []string{dot, tvs} {
		if fi, err := os.Stat(p); err != nil || fi.Size() < 100 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("file left: %s", e.Name())
		}
	}
}
