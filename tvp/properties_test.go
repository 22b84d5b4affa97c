package tvp

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

func TestReadProperties(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.properties")
	text := "# a comment\n! another\ntvla.joinType = rel\n" +
		"tvla.engine.actionOrder: fpucb\n" +
		"tvla.engine.maxStructures -1\n" +
		"tvla.engine.maxMessages=\\\n  7\n" +
		"tvla.differencing.difference = false\n" +
		"tvla.dot.rotate = true\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ReadProperties(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Join == nil || *p.Join != "rel" || p.ActionOrder == nil || *p.ActionOrder != "fpucb" {
		t.Errorf("join %v, action order %v", p.Join, p.ActionOrder)
	}
	if p.MaxStructures == nil || *p.MaxStructures != 0 || p.MaxMessages == nil || *p.MaxMessages != 7 {
		t.Errorf("max structures %v (TVLA's -1 is no limit, 0), max messages %v", p.MaxStructures, p.MaxMessages)
	}
	if p.Differencing == nil || *p.Differencing || p.BreakIfCoerceFails != nil {
		t.Errorf("differencing %v, break %v", p.Differencing, p.BreakIfCoerceFails)
	}
	sort.Strings(p.Unknown)
	if !reflect.DeepEqual(p.Unknown, []string{"tvla.dot.rotate"}) {
		t.Errorf("unknown %q", p.Unknown)
	}
}

func TestReadPropertiesErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.properties")
	os.WriteFile(bad, []byte("tvla.engine.maxMessages = many\n"), 0o644)
	if _, err := ReadProperties(bad); err == nil || err.Error() != bad+`: tvla.engine.maxMessages = "many": want an integer` {
		t.Errorf("bad value: %v", err)
	}
	missing := filepath.Join(dir, "missing.properties")
	if _, err := ReadProperties(missing); err == nil || err.Error() != missing+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
}
