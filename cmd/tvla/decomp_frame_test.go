package main

import (
	"path/filepath"
	"testing"
)

// set_pldi08/dcas/othread under the decomposing engine: its %compose
// disjuncts frame the scheduled thread's component ((trnm(v1) <-> ψ) &
// !at[l](v1) & ... & otrnm(v2); engine/join_decomp_frame.go). Both tools
// stop at the same breach (updateNext at li_2, "Closed cycle for
// acyclic predicate rv[n]") in iteration 63 with the same components
// at every location (compared with the reference's -tvs output up to
// isomorphism): 1,384 and one message. Composing the framed names
// unframed stored 1,344 (the reference itself 1,350 with the frames
// taken out); meeting the framed results whole with the results alone
// 1,444. About two minutes, so only with TVLA_LONG_TESTS=1.
func TestDcasOthreadAsTheReference(t *testing.T) {
	dir := refPath(t, longRun, "linearization", "set_pldi08", "dcas", "othread")
	want := map[string]int{
		"pre_schedule": 70, "l_ready": 46, "l_dispatch": 50, "l_00": 43, "l_0": 46, "l_2": 64, "l_3": 72, "l_8": 46,
		"l_00a": 40, "l_1": 52, "ll_dispatch": 91, "l_4": 45, "li_1": 73, "ld_1": 74, "lf_1": 74, "lis_0": 73,
		"lis_1": 16, "l_ver": 31, "lds_0": 8, "lds_1": 8, "lfs_0": 8, "lfs_1": 8, "l_exit": 31, "lf_3": 8, "lf_4": 8,
		"li_5": 57, "li_2": 85, "li_3": 8, "li_check_lin": 14, "li_4": 16, "li_6": 57, "ld_3": 46, "ld_5": 8, "ld_6": 8,
	}
	refRun{[]string{filepath.Join(dir, "dcas.tvp"), filepath.Join(dir, "dcas.tvs"), "--decompose"}, want, 0, 1}.check(t)
}
