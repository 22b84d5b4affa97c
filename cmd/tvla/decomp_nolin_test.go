package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// set_pldi08/cas/nolin/g under the decomposing engine (its own
// cas.properties select dtvla): a rely-guarantee model whose
// interference action composes a thread's saved view R with the framed
// transition G ((tid[G](v2) <-> ψ) in its %compose;
// engine/join_decomp_frame.go) and declares a %frame_pre, which the
// reference ignores (docs/decomposition.md). Both tools stop at the same
// breach after x_i = new T() at l_00a with the same components at every
// location (compared with the reference's -tvs output up to
// isomorphism): 2,778 and one message. Before the framed disjuncts were
// implemented the run went on without a breach (3,005 components at
// -ms 3000). About a minute of CPU, so only with TVLA_LONG_TESTS=1.
func TestCasNolinGAsTheReference(t *testing.T) {
	dir := refPath(t, longRun, "linearization", "set_pldi08", "cas", "nolin", "g")
	want := map[string]int{
		"fixpoint": 502, "ready": 131, "tmp": 502, "l_dispatch": 133, "l_0": 36, "l_00a": 48, "l_2": 48,
		"l_3": 78, "ld_2a": 50, "ld_3a": 50, "l_00": 291, "l_00p": 267, "l_1": 51, "l_1p": 15, "l_2p": 18,
		"ll_dispatch": 42, "l_4": 24, "l_5": 24, "l_6": 24, "l_7": 24, "l_8": 42, "l_8p": 42, "li_1": 14,
		"ld_1": 14, "lf_1": 14, "l_exit": 96, "lf_2": 8, "lf_3": 14, "li_5": 8, "li_2": 14, "li_3": 16,
		"li_4a": 22, "li_4": 22, "ld_5": 14, "ld_2": 8, "ld_2p": 14, "ld_3": 14, "ld_3succ": 14, "ld_4": 30,
	}
	s := refRun{[]string{filepath.Join(dir, "cas.tvp"), filepath.Join(dir, "cas.tvs"), "--props", filepath.Join(dir, "cas.properties")}, want, 2778, 1}.check(t)
	if !strings.Contains(s.StopReason, "x_i= new T() at l_00a") {
		t.Errorf("stop reason %q; want the breach after x_i= new T() at l_00a", s.StopReason)
	}
}
