package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// A pipe (as /dev/null or /dev/stdout would be, which a test must not
// risk replacing) is written into and stays a pipe: renaming over it
// would leave a regular file in its place.
func TestWriteIntoAPipeKeepsIt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		got <- string(data)
	}()
	if err := Write(path, []byte("through the pipe"), true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		// The reader waits on the pipe, which is gone: do not wait.
		t.Fatalf("after the write the path is %v (%v), want the pipe", fi.Mode(), err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got nothing in 10 s")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

// A symbolic link stays a link: the file it names gets the new contents.
func TestWriteThroughALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(link, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("the target holds %q", data)
	}
}
