package tvp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// FuzzReadProperties feeds the .properties reader any bytes: it never
// panics; an error names the file; otherwise every key the file has is
// either one of those that change results (and set), a documented one at
// a supported value, or listed ignored or unknown, and the limits are
// never negative (TVLA's -1 is no limit, 0).
//
// Run longer with: go test ./tvp -run XXX -fuzz FuzzReadProperties -fuzztime 60s
func FuzzReadProperties(f *testing.F) {
	f.Add([]byte("# a comment\n! another\ntvla.joinType = rel\ntvla.engine.actionOrder: fpucb\n" +
		"tvla.engine.maxStructures -1\ntvla.engine.maxMessages=\\\n  7\ntvla.differencing.difference = false\ntvla.dot.rotate = true\n"))
	f.Add([]byte("tvla.engine.breakIfCoerceAfterUpdateFailed=true\ntvla.engine.freezeStructuresWithMessages = 1\n"))
	f.Add([]byte("tvla.engine.freezeStructuresWithMessages = FALSE\ntvla.engine.type = tvla\ntvla.parser.externalMacros = A B\ntvla.parser.searchPath = a;;b\n"))
	f.Add([]byte("tvla.engine.maxStructures = many\n"))
	f.Add([]byte("key\\\n\\\n"))
	f.Add([]byte("\xff\xfe=\t:\n  tvla.joinType\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "x.properties")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadProperties(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		kv, err := readPropertiesFile(path)
		if err != nil {
			t.Fatalf("read again: %v", err)
		}
		set := map[string]bool{
			"tvla.joinType":                              p.Join != nil,
			"tvla.engine.actionOrder":                    p.ActionOrder != nil,
			"tvla.engine.maxStructures":                  p.MaxStructures != nil,
			"tvla.engine.maxMessages":                    p.MaxMessages != nil,
			"tvla.engine.breakIfCoerceAfterUpdateFailed": p.BreakIfCoerceFails != nil,
			"tvla.differencing.difference":               p.Differencing != nil,
		}
		var ignored, unknown []string
		for k, v := range kv {
			d, documented := documentedProperties[k]
			switch isSet, known := set[k]; {
			case known:
				if !isSet {
					t.Errorf("key %q = %q is not taken", k, v)
				}
			case !documented && hasOutputPrefix(k) || documented && d.use == noEffect:
				ignored = append(ignored, k)
			case !documented:
				unknown = append(unknown, k)
			case d.use == defaultOnly && !accepted(d.accept, v):
				t.Errorf("%s = %q is taken, but it is not supported", k, v)
			}
		}
		gotIgnored := append([]string(nil), p.Ignored...)
		sort.Strings(gotIgnored)
		sort.Strings(ignored)
		if strings.Join(gotIgnored, "\n") != strings.Join(ignored, "\n") {
			t.Errorf("ignored keys %q, want %q", gotIgnored, ignored)
		}
		for k, isSet := range set {
			if _, in := kv[k]; isSet && !in {
				t.Errorf("%s is set, but the file does not have it", k)
			}
		}
		got := append([]string(nil), p.Unknown...)
		sort.Strings(got)
		sort.Strings(unknown)
		if strings.Join(got, "\n") != strings.Join(unknown, "\n") {
			t.Errorf("unknown keys %q, want %q", got, unknown)
		}
		for _, n := range []*int{p.MaxStructures, p.MaxMessages} {
			if n != nil && *n < 0 {
				t.Errorf("a negative limit: %d", *n)
			}
		}
		if p.Join != nil && strings.TrimSpace(*p.Join) != *p.Join {
			t.Errorf("join %q is not trimmed", *p.Join)
		}
	})
}
