package tvp

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
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
		"tvla.dot.rotate = true\n" +
		"tvla.dot.predicateAttributes.t[Lock] = shape=box\n" +
		"tvla.engine.type = tvla\n" +
		"tvla.engine.freezeStructuresWithMessages = FALSE\n" +
		"tvla.parser.externalMacros = CYCLIC  DEBUG\n" +
		"tvla.parser.searchPath = ;inc; lib\n" +
		"tvla.focus.coerceDuringFocus = true\n" +
		"tvla.decompose.mustOutside = true\n"
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
	if p.MaxStructures == nil || *p.MaxStructures != 0 || p.MaxMessages == nil || *p.MaxMessages != 8 {
		t.Errorf("max structures %v (TVLA's -1 is no limit, 0), max messages %v (TVLA's 7 stops at the 8th)", p.MaxStructures, p.MaxMessages)
	}
	if p.Differencing == nil || *p.Differencing || p.BreakIfCoerceFails != nil {
		t.Errorf("differencing %v, break %v", p.Differencing, p.BreakIfCoerceFails)
	}
	sort.Strings(p.Ignored)
	if !reflect.DeepEqual(p.Ignored, []string{"tvla.dot.predicateAttributes.t[Lock]", "tvla.dot.rotate"}) {
		t.Errorf("ignored %q", p.Ignored)
	}
	if !reflect.DeepEqual(p.Unknown, []string{"tvla.focus.coerceDuringFocus"}) {
		t.Errorf("unknown %q", p.Unknown)
	}
	if p.MustOutside == nil || !*p.MustOutside {
		t.Errorf("mustOutside %v, want true", p.MustOutside)
	}
	if !reflect.DeepEqual(p.Defines, []string{"CYCLIC", "DEBUG"}) || !reflect.DeepEqual(p.SearchPath, []string{"inc", "lib"}) {
		t.Errorf("defines %q, search path %q", p.Defines, p.SearchPath)
	}
}

func TestReadPropertiesErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.properties")
	os.WriteFile(bad, []byte("tvla.engine.maxMessages = many\n"), 0o644)
	if _, err := ReadProperties(bad); err == nil || err.Error() != bad+`: tvla.engine.maxMessages = "many": want an integer` {
		t.Errorf("bad value: %v", err)
	}
	// A documented property that would change the analysis in a way not
	// implemented here is refused, never ignored.
	for _, c := range []struct{ text, msg string }{
		{"tvla.engine.type = tvmc\n", `tvla.engine.type = "tvmc" is not supported: only the classic engine (tvla) and the decomposing one (dtvla) are implemented, not tvmc, ddfs or pasta`},
		{"tvla.engine.freezeStructuresWithMessages = true\n", `tvla.engine.freezeStructuresWithMessages = "true" is not supported: structures with messages are always propagated here (accepted: "false")`},
		{"tvla.cfg.saveLocations = back\n", `tvla.cfg.saveLocations = "back" is not supported: every location stores its structures (accepted: "all")`},
		{"tvla.differencing.differenceNonIdForms = true\n", `tvla.differencing.differenceNonIdForms = "true" is not supported`},
		{"tvla.implementation = functional\n", `tvla.implementation = "functional" is not supported`},
		{"tvla.parser.externalMacros = A;B\n", `tvla.parser.externalMacros = "A;B": want macro names separated by white space`},
	} {
		os.WriteFile(bad, []byte(c.text), 0o644)
		if _, err := ReadProperties(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": "+c.msg) {
			t.Errorf("%q: %v", c.text, err)
		}
	}
	missing := filepath.Join(dir, "missing.properties")
	if _, err := ReadProperties(missing); err == nil || err.Error() != missing+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
}
