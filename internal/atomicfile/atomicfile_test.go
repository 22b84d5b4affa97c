package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
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

// A path that is a folder cannot be replaced: the error names the path,
// not the temporary file, and no temporary file is left beside it.
func TestWriteOverAFolderLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	err := Write(path, []byte("x"), true)
	if err == nil {
		t.Fatal("writing over a folder succeeded")
	}
	if msg := err.Error(); !strings.Contains(msg, path) || strings.Contains(msg, ".tmp") || strings.Contains(msg, "rename") {
		t.Errorf("error %q: want the path, not the temporary file or the rename", msg)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}
