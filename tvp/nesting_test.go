package tvp

import (
	"strings"
	"testing"
)

// nested is E(v0) (E(v1) (... x(v0))), depth quantifiers deep.
func nested(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		b.WriteString("E(v")
		b.WriteString(itoaTest(i))
		b.WriteString(") (")
	}
	return b.String() + "x(v0)" + strings.Repeat(")", depth)
}

func itoaTest(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoaTest(i/10) + string(rune('0'+i%10))
}

// TestFormulaNestingLimit: 10,000 nested quantifiers load; one more is
// an error at the quantifier that crosses the limit, not a deep stack.
func TestFormulaNestingLimit(t *testing.T) {
	prog := func(depth int) string {
		return "%p x(v)\n%i q() = " + nested(depth) + "\n%%\n%%\n"
	}
	if _, err := ParseProgram("main.tvp", NewPlainSource("main.tvp", prog(10000))); err != nil {
		t.Fatalf("depth 10000: %v", err)
	}
	_, err := ParseProgram("main.tvp", NewPlainSource("main.tvp", prog(10001)))
	// "%i q() = " is 9 columns; each level before the last is
	// "E(vN) (" and the 10,001st quantifier starts after 10,000 of them.
	col := 10 + len(nested(10000)) - len("x(v0)") - 10000
	want := "main.tvp:2:" + itoaTest(col) + ": formula nested too deeply: more than 20000 levels of quantifiers, negations and parentheses"
	if err == nil || err.Error() != want {
		t.Fatalf("depth 10001: got %v, want %s", err, want)
	}
}
