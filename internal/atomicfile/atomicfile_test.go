package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole, readable by all, and leaves
// nothing behind; when it cannot write, the old file stays.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	os.WriteFile(path, []byte("old contents, longer than the new"), 0o600)
	if err := Write(path, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(data) != "new" || fi.Mode().Perm() != 0o644 {
		t.Errorf("contents %q, mode %v", data, fi.Mode())
	}
	if err := Write(filepath.Join(dir, "missing", "x.txt"), []byte("x"), true); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}
