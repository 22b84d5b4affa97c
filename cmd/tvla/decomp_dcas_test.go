package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// set_pldi08/dcas/dcas under the decomposing engine with the frames
// taken out of its %compose disjuncts ((trnm(v1) <-> ψ) read as
// trnm(v1), in a copy made here): the reference stops at a breach
// (updateNext at li_2) after 173 iterations with 869 components and one
// message, these at every location. Its updateNext composes t1 with t2
// and t1 with member: the results of t1 are the meets of the two
// disjuncts' (engine/join_decomp_meet.go); storing both kept a t1
// component at li_3 the reference has not (890 in all). About 20
// seconds, so only with TVLA_LONG_TESTS=1.
func TestDcasUnframedAsTheReference(t *testing.T) {
	src := refPath(t, longRun, "linearization", "set_pldi08", "dcas")
	dir := t.TempDir()
	for _, f := range []string{"dcas.tvp", "dcas_pred.tvp", "dcas_stat.tvp", "dcas.tvs"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if f == "dcas_stat.tvp" {
			var n int
			text, n = unframe(text)
			if n != 15 {
				t.Fatalf("%d frames taken out of dcas_stat.tvp, want 15", n)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]int{
		"pre_schedule": 35, "l_ready": 25, "l_dispatch": 28, "l_0": 37, "l_1": 28, "l_2": 35, "l_3": 34, "l_00": 20,
		"ls_check": 50, "ll_dispatch": 34, "l_4": 25, "l_5": 2, "l_6": 2, "l_7": 2, "l_8": 2, "ls_check_1": 37,
		"ls_insert": 25, "ls_delete": 26, "ls_find": 26, "lis_failed_0": 22, "lds_failed_0": 17, "lfs_0": 17,
		"li_1": 32, "ld_1": 26, "lf_1": 26, "lis_0": 21, "lis_1": 13, "l_ver": 25, "lds_failed_1": 11, "lfs_1": 11,
		"l_exit": 20, "lf_2": 2, "lf_3": 23, "li_5": 2, "li_2": 32, "li_3": 25, "li_4": 21, "ld_3": 25, "ld_5": 23,
		"ld_2": 2,
	}
	refRun{[]string{filepath.Join(dir, "dcas.tvp"), filepath.Join(dir, "dcas.tvs"), "--decompose"}, want, 0, 1}.check(t)
}

// unframe replaces each framed atom of a %compose disjunct,
// "(trnm(v1) <-> ψ)", by "trnm(v1)", and counts them.
func unframe(text string) (string, int) {
	const key = "(trnm(v1) <->"
	var b strings.Builder
	n := 0
	for {
		i := strings.Index(text, key)
		if i < 0 {
			b.WriteString(text)
			return b.String(), n
		}
		b.WriteString(text[:i])
		depth, j := 0, i
		for ; j < len(text); j++ {
			if text[j] == '(' {
				depth++
			} else if text[j] == ')' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		b.WriteString("trnm(v1)")
		n++
		text = text[min(j+1, len(text)):]
	}
}

// set_pldi08/dcas/dcas as it is (framed %compose disjuncts) under the
// decomposing engine: the reference stops at the same breach (updateNext
// at li_2) after 165 iterations with 903 components and one message,
// these at every location (the same components, compared up to
// isomorphism with its -tvs output). 32 of them descend from the 8 t1
// components without an outside individual at ls_check, which isNotNull
// (framed) and isChoice (alone) carry on only when a component alone is
// coerced without the closed constraints over its name's hidden
// predicates (engine/join_decomp_alonecoerce.go; 871 before). About 10
// seconds of CPU, so only with TVLA_LONG_TESTS=1.
func TestDcasFramedAsTheReference(t *testing.T) {
	src := refPath(t, longRun, "linearization", "set_pldi08", "dcas")
	want := map[string]int{
		"pre_schedule": 37, "l_ready": 27, "l_dispatch": 28, "l_0": 37, "l_1": 28, "l_2": 35, "l_3": 36, "l_00": 20,
		"ls_check": 50, "ll_dispatch": 36, "l_4": 29, "l_5": 2, "l_6": 2, "l_7": 2, "l_8": 2, "ls_check_1": 47,
		"ls_insert": 29, "ls_delete": 31, "ls_find": 31, "lis_failed_0": 26, "lds_failed_0": 14, "lfs_0": 14,
		"li_1": 34, "ld_1": 26, "lf_1": 26, "lis_0": 21, "lis_1": 13, "l_ver": 25, "lds_failed_1": 9, "lfs_1": 9,
		"l_exit": 20, "lf_2": 2, "lf_3": 23, "li_5": 2, "li_2": 34, "li_3": 25, "li_4": 21, "ld_3": 25, "ld_5": 23,
		"ld_2": 2,
	}
	refRun{[]string{filepath.Join(src, "dcas.tvp"), filepath.Join(src, "dcas.tvs"), "--decompose"}, want, 0, 1}.check(t)
}
