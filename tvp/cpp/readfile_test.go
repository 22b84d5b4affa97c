package cpp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// device skips the test where the device file does not exist.
func device(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s here", path)
	}
	return path
}

// A file that is not regular (/dev/zero, /dev/urandom) is read no further
// than the limit and one byte: it used to be read until memory ran out,
// whether named as the program or included.
func TestPreprocessEndlessFiles(t *testing.T) {
	zero := device(t, "/dev/zero")
	_, err := cpp.Preprocess(zero, cpp.Config{})
	if err == nil || err.Error() != "/dev/zero: file too large (over 64 MiB, the most a file may hold)" {
		t.Errorf("Preprocess(/dev/zero): %v", err)
	}
	dir := t.TempDir()
	main := filepath.Join(dir, "main.tvp")
	if err := os.WriteFile(main, []byte("%s S {}\n#include \"/dev/zero\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err = cpp.Preprocess(main, cpp.Config{})
	if want := main + `:2:1: include file "/dev/zero": file too large (over 64 MiB`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("#include \"/dev/zero\": %v, want %s...", err, want)
	}
	random := device(t, "/dev/urandom")
	_, err = cpp.Preprocess(random, cpp.Config{MaxBytes: 1 << 20})
	if err == nil || err.Error() != "/dev/urandom: file too large (over 1 MiB, the most a file may hold)" {
		t.Errorf("Preprocess(/dev/urandom): %v", err)
	}
}

// ReadFile takes a file of exactly the limit and refuses one byte more,
// saying which file.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for _, size := range []int{0, 1000, 1001, 5000} {
		if err := os.WriteFile(path, make([]byte, size), 0o666); err != nil {
			t.Fatal(err)
		}
		data, err := cpp.ReadFile(path, 1000)
		var tl *cpp.TooLargeError
		switch {
		case size <= 1000 && (err != nil || len(data) != size):
			t.Errorf("size %d: %d bytes, %v", size, len(data), err)
		case size > 1000 && !errors.As(err, &tl):
			t.Errorf("size %d: %v, want a TooLargeError", size, err)
		case size > 1000 && err.Error() != "read "+path+": file too large (over 1000 bytes, the most a file may hold)":
			t.Errorf("size %d: %v", size, err)
		}
	}
	if _, err := cpp.ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// A file that cannot be read has no position: file: message.
	_, err := cpp.Preprocess(dir, cpp.Config{})
	if err == nil || !strings.HasPrefix(err.Error(), dir+": cannot read file: ") {
		t.Errorf("Preprocess(a folder): %v", err)
	}
}

// A UTF-8 byte-order mark at the start of the main file or of an included
// one is not text: positions count from the character after it.
func TestPreprocessByteOrderMark(t *testing.T) {
	const bom = "\xEF\xBB\xBF"
	files := map[string]string{
		"main.tvp": bom + "a\n#include \"inc.h\"\nB\n",
		"inc.h":    bom + "#define B c\n",
	}
	pp, err := cpp.Preprocess("main.tvp", cpp.Config{ReadFile: mapFiles(files)})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := tvp.Lex(pp)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks[:len(toks)-1] {
		got = append(got, tk.Text+"@"+tk.Pos.String())
	}
	if want := "a@main.tvp:1:1 c@main.tvp:3:1"; strings.Join(got, " ") != want {
		t.Errorf("tokens %v, want %s", got, want)
	}
	if _, err := cpp.PreprocessText("t.tvp", bom+"x\n", cpp.Config{}); err != nil {
		t.Errorf("PreprocessText: %v", err)
	}
}

// ReadFile of a pipe stops at the limit: the writer is left blocked, not
// drained.
func TestReadFilePipeStopsAtLimit(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan int64)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			done <- -1
			return
		}
		defer w.Close()
		var n int64
		chunk := make([]byte, 4096)
		for n < 1<<30 {
			k, err := w.Write(chunk)
			n += int64(k)
			if err != nil {
				break
			}
		}
		done <- n
	}()
	_, err := cpp.ReadFile(fifo, 100_000)
	var tl *cpp.TooLargeError
	if !errors.As(err, &tl) {
		t.Errorf("got %v, want a TooLargeError", err)
	}
	if n := <-done; n < 0 || n >= 1<<30 {
		t.Errorf("the writer wrote %d bytes", n)
	}
}
