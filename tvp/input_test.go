package tvp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvp/cpp"
)

const testBOM = "\xEF\xBB\xBF"

// Every file tvla reads is read no further than its limit and one byte,
// regular or not: /dev/zero as a program or a .properties file used to
// be read until memory ran out.
func TestEndlessInputFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	const want = "/dev/zero: file too large (over 64 MiB, the most a file may hold)"
	if _, _, err := LoadProgram("/dev/zero", LoadConfig{}); err == nil || err.Error() != want {
		t.Errorf("LoadProgram: %v, want %s", err, want)
	}
	if _, err := ReadProperties("/dev/zero"); err == nil || err.Error() != want {
		t.Errorf("ReadProperties: %v, want %s", err, want)
	}
	var tl *cpp.TooLargeError
	if _, err := ReadFile("/dev/zero"); !errors.As(err, &tl) || err.Error() != "read /dev/zero: file too large (over 64 MiB, the most a file may hold)" {
		t.Errorf("ReadFile: %v", err)
	}
}

// A UTF-8 byte-order mark at the start of a program, an included file, a
// TVS file or a .properties file is skipped, not read as text (it was an
// illegal character, or part of the first key).
func TestByteOrderMarkAccepted(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const preds = "%p x(v) unique\n%p n(v1, v2) function\n"
	t.Run("program", func(t *testing.T) {
		if _, _, err := LoadProgram(write("p.tvp", testBOM+preds+"%%\n%%\n"), LoadConfig{}); err != nil {
			t.Error(err)
		}
		// Positions count from after the mark.
		bad := write("bad.tvp", testBOM+"%p x(v)\n%p x(v)\n%%\n%%\n")
		if _, _, err := LoadProgram(bad, LoadConfig{}); err == nil || !strings.HasPrefix(err.Error(), bad+":2:4: ") {
			t.Errorf("got %v, want an error at %s:2:4", err, bad)
		}
	})
	t.Run("include", func(t *testing.T) {
		write("preds.h", testBOM+preds)
		if _, _, err := LoadProgram(write("i.tvp", "#include \"preds.h\"\n%%\n%%\n"), LoadConfig{}); err != nil {
			t.Error(err)
		}
	})
	t.Run("tvs", func(t *testing.T) {
		p, _, err := LoadProgram(write("plain.tvp", preds+"%%\n%%\n"), LoadConfig{})
		if err != nil {
			t.Fatal(err)
		}
		voc := p.Vocabulary.Tvl()
		locs, err := LoadTVS(write("p.tvs", testBOM+"%n = {a, b}\n%p = {\n  x = {a}\n  n = {a->b}\n}\n"), voc, LoadConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if s := locs[0].Structures[0].Structure; s.Size() != 2 || s.Get(voc.Lookup("n"), 0, 1) != logic.True {
			t.Errorf("read as\n%s", s)
		}
		bad := write("bad.tvs", testBOM+"%n = {a}\n%p = {\n  y = {a}\n}\n")
		if _, err := LoadTVS(bad, voc, LoadConfig{}); err == nil || err.Error() != bad+":3:3: unknown predicate y" {
			t.Errorf("bad TVS: %v", err)
		}
	})
	t.Run("properties", func(t *testing.T) {
		pr, err := ReadProperties(write("p.properties", testBOM+"tvla.joinType = rel\n"))
		if err != nil || pr.Join == nil || *pr.Join != "rel" || len(pr.Unknown) != 0 {
			t.Errorf("%v, join %v, unknown %q", err, pr.Join, pr.Unknown)
		}
	})
}
