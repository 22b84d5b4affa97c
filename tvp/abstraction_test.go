package tvp

import (
	"errors"
	"reflect"
	"testing"
)

// LoadConfig.Abstraction overrides abs and nonabs as declared, for unary
// and nullary predicates, and names the predicate when it cannot.
func TestAbstractionOverrides(t *testing.T) {
	files := map[string]string{"main.tvp": "%p x(v) unique\n%p y(v) nonabs\n%p done() \n%p n(v_1, v_2)\n%%\n%%\n"}
	abstraction := func(over map[string]bool) (unary, nullary []string, err error) {
		prog, _, err := LoadProgram("main.tvp", LoadConfig{ReadFile: mapFiles(files), Abstraction: over})
		if err != nil {
			return nil, nil, err
		}
		for _, p := range prog.Vocabulary.Declared() {
			if p.Abstraction() {
				if p.Arity == 0 {
					nullary = append(nullary, p.Name)
				} else {
					unary = append(unary, p.Name)
				}
			}
		}
		return unary, nullary, nil
	}
	cases := []struct {
		over           map[string]bool
		unary, nullary []string
	}{
		{nil, []string{"x"}, []string{"done"}},
		{map[string]bool{"y": true, "x": false}, []string{"y"}, []string{"done"}},
		{map[string]bool{"done": false, "isthread": false}, []string{"x"}, nil},
	}
	for _, c := range cases {
		u, n, err := abstraction(c.over)
		if err != nil || !reflect.DeepEqual(u, c.unary) || !reflect.DeepEqual(n, c.nullary) {
			t.Errorf("%v: unary %q, nullary %q, %v; want %q, %q", c.over, u, n, err, c.unary, c.nullary)
		}
	}
	// The first bad name in alphabetical order is reported.
	_, _, err := abstraction(map[string]bool{"z": true, "n": false, "x": true})
	var ae *AbstractionError
	if !errors.As(err, &ae) || ae.Pred != "n" || ae.Abs ||
		err.Error() != "cannot make n a non-abstraction predicate: n has arity 2: only unary and nullary predicates are abstraction predicates" {
		t.Errorf("error %v", err)
	}
}
