package suggest

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{"collapse-threads", "closure", "copies", "json", "join", "max-memory", "max-messages", "max-structures"}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"colapse-threads", []string{"collapse-threads"}},                 // one letter missing
		{"jon", []string{"json", "join"}},                                 // one letter missing from either, in the order given
		{"max", []string{"max-memory", "max-messages", "max-structures"}}, // a prefix of three letters
		{"Join", []string{"join"}},                                        // case does not count
		{"zzzz", nil},                                                     // nothing near
		{"ma", nil},                                                       // too short a prefix, too far
	} {
		if got := Nearest(c.name, names); !slices.Equal(got, c.want) {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestOr(t *testing.T) {
	names := []string{"a", "b", "c"}
	for n, want := range []string{"", "--a", "--a or --b", "--a, --b or --c"} {
		if got := Or(names[:n], "--"); got != want {
			t.Errorf("Or(%q) = %q, want %q", names[:n], got, want)
		}
	}
	if names[0] != "a" {
		t.Error("Or changed its argument")
	}
}
