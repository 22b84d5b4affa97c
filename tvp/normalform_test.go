package tvp

import (
	"strings"
	"testing"
	"time"
)

// nestedIff is x(v) <-> (x(v) <-> (... x(v))), n deep.
func nestedIff(n int) string {
	f := "x(v)"
	for i := 0; i < n; i++ {
		f = "(x(v) <-> " + f + ")"
	}
	return f
}

// Nested <-> double the negation normal form the loader builds at every
// level: 30 levels never finished loading (the fuzzer found the like).
// The parser refuses such a formula at once, at its <->, and takes one
// whose normal form fits.
func TestNestedIffIsRefusedNotExpanded(t *testing.T) {
	start := time.Now()
	_, err := ParseProgram("iff.tvp", NewPlainSource("iff.tvp", "%p x(v)\n%i d(v) = "+nestedIff(30)+"\n%%\n%action A1() {\n}\n%%\nL1 A1() L2\n"))
	if err == nil || !strings.Contains(err.Error(), "iff.tvp:2:") || !strings.Contains(err.Error(), "formula too large") {
		t.Fatalf("30 nested <->: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
	if _, err := ParseFormula("f", nestedIff(10)); err != nil {
		t.Errorf("10 nested <->: %v", err)
	}
}
