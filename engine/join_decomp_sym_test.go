package engine

import (
	"reflect"
	"testing"
)

// A permutation of %pset members renames a predicate word by word:
// members as whole names or bracketed arguments, nothing inside a
// longer word.
func TestRenameMembers(t *testing.T) {
	swap := map[string]string{"t1": "t2", "t2": "t1"}
	for in, want := range map[string]string{
		"t1":            "t2",
		"r_by[x_c,t1]":  "r_by[x_c,t2]",
		"dname[t2]":     "dname[t1]",
		"id_eq[t1,t2]":  "id_eq[t2,t1]",
		"at[l_t1,t_]":   "at[l_t1,t_]",
		"t12":           "t12",
		"r_by[Top]":     "r_by[Top]",
		"at[ld_3, t1]":  "at[ld_3, t2]",
		"sm":            "sm",
		"dname[t1 t2]":  "dname[t2 t1]",
		"ready[t1][t2]": "ready[t2][t1]",
	} {
		if got := renameMembers(in, swap); got != want {
			t.Errorf("renameMembers(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPermutations(t *testing.T) {
	got := permutations([]string{"a", "b", "c"})
	want := [][]string{{"a", "b", "c"}, {"a", "c", "b"}, {"b", "a", "c"}, {"b", "c", "a"}, {"c", "a", "b"}, {"c", "b", "a"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("permutations = %v, want %v", got, want)
	}
}
