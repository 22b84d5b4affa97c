package algc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/tvp"
)

// The deque specification: popRight moves Tail_S back to its
// predecessor and checks the right end's value; pushLeft and pushRight
// set the other end when the deque was empty; messages name the end.
func TestCompileDeque(t *testing.T) {
	out := compileFile(t, "../programs/deque/lockdeque.alg")
	for _, want := range []string{"%p Head_S(v) unique pointer", "%p Tail_S(v) unique pointer",
		"%i has_T[spec](v) = E(u) Tail_S(u) & spec(v, u)",
		// The doubly linked invariant, on request (inv[f,g]).
		"%i inv[left,right](v) = is_node(v) & (A(w) left(v, w) -> right(w, v))",
		"%r inv[left,right](v_1) & left(v_1, v_2) ==> right(v_2, v_1)",
		"%r inv[left,right](v_1) & !right(v_2, v_1) ==> !left(v_1, v_2)"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	popR := action(out.TVP, "popRight, line 88: linearisation point: the specification's popRight() returns lv")
	for _, want := range []string{
		"%p !(E(ts) tr_scheduled(ts) & doneLP(ts)) & !!(E(w) Head_S(w)) & !(E(w_v, dd) Tail_S(w_v) & val(w_v, dd) & !(E(ts) tr_scheduled(ts) & lv(ts, dd)))",
		"Tail_S(v) = E(w) Tail_S(w) & right(v, w)",
		"Head_S(v) = Head_S(v) & !Tail_S(v)",
		"right(v_1, v_2) = right(v_1, v_2) & !Tail_S(v_2)",
		"gone_S(v) = Tail_S(v)",
		// The cut is the specification list's: no cycle and no
		// implementation reachability changes.
		"circ(v) = circ(v)", "reach[Left](v) = reach[Left](v)", "reach[Right](v) = reach[Right](v)",
	} {
		if !strings.Contains(popR, want) {
			t.Errorf("popRight's point lacks %q:\n%s", want, popR)
		}
	}
	// A removal that empties the deque sets sawEmpty on the threads that
	// may still reach an empty point (a pop before its test of the
	// deque), not on pushers nor on a pop past its test, which never read
	// it; the remover itself is past its test, and its bit is cleared.
	saw := ""
	for _, line := range strings.Split(popR, "\n") {
		if strings.Contains(line, "sawEmpty(v) = (sawEmpty(v) |") {
			saw = line
		}
	}
	for _, want := range []string{"isthread(v) & (at[popLeft57](v) | ", "at[popLeft56](v)", "at[popRight78](v)", "at[popRight77](v)", ") & !doneLP(v) & (E(w) Head_S(w) & Tail_S(w))) & !tr_scheduled(v)"} {
		if !strings.Contains(saw, want) {
			t.Errorf("popRight's sawEmpty update lacks %q: %q", want, saw)
		}
	}
	for _, not := range []string{"at[push", "at[idle]", "at[popRight88]", "at[popLeft69]", sawEmptyMark} {
		if strings.Contains(saw, not) {
			t.Errorf("popRight's sawEmpty update has %q: %q", not, saw)
		}
	}
	if begin := action(out.TVP, "pushRight, line 37: begin pushRight"); !strings.Contains(begin, "sawEmpty(v) = ((tr_scheduled(v) ? 0 : sawEmpty(v))) & !tr_scheduled(v)") {
		t.Errorf("a push's begin does not clear sawEmpty:\n%s", begin)
	}
	popL := action(out.TVP, "popLeft, line 69: linearisation point: the specification's popLeft() returns lv")
	for _, want := range []string{"Head_S(w_v) & val(w_v, dd)", "Head_S(v) = E(w) Head_S(w) & right(w, v)", "Tail_S(v) = Tail_S(v) & !Head_S(v)", "gone_S(v) = Head_S(v)"} {
		if !strings.Contains(popL, want) {
			t.Errorf("popLeft's point lacks %q:\n%s", want, popL)
		}
	}
	pushL := action(out.TVP, "pushLeft, line 33: linearisation point: the specification's pushLeft(lv)")
	pushR := action(out.TVP, "pushRight, line 49: linearisation point: the specification's pushRight(lv)")
	for _, c := range []struct{ act, want string }{
		{pushL, "Head_S(v) = isNew(v)"}, {pushL, "Tail_S(v) = Tail_S(v) | isNew(v) & !(E(w) Head_S(w))"},
		{pushL, "right(v_1, v_2) = right(v_1, v_2) | isNew(v_1) & Head_S(v_2)"},
		{pushR, "Tail_S(v) = isNew(v)"}, {pushR, "Head_S(v) = Head_S(v) | isNew(v) & !(E(w) Head_S(w))"},
		{pushR, "right(v_1, v_2) = right(v_1, v_2) | Tail_S(v_1) & isNew(v_2)"},
	} {
		if !strings.Contains(c.act, c.want) {
			t.Errorf("push lacks %q:\n%s", c.want, c.act)
		}
	}
	// Cutting a link of a list without a cycle: the nodes from the old
	// successor on lose their reachability, exactly.
	cut := action(out.TVP, "popRight, line 92: ssprev.right = null")
	if want := "(!(E(w_c) reach[Left](w_c) & circ(w_c)) ? (reach[Left](v) & !(E(w_a, w_b) (E(ts) tr_scheduled(ts) & ssprev(ts, w_a)) & right(w_a, w_b) & right*(w_b, v))) :"; !strings.Contains(cut, want) {
		t.Errorf("the cut lacks %q:\n%s", want, cut)
	}
	for _, want := range []string{
		"linearisability: popRight returns a value other than the specification's right end (popRight, line 88)",
		"linearisability: popLeft returns a value other than the specification's left end (popLeft, line 69)",
		"linearisability: popRight returns empty but the specification deque was not empty at any moment of the call (popRight, line 78)",
		"linearisability: popLeft of a value while the specification deque is empty (popLeft, line 69)",
	} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks the message %q", want)
		}
	}
}

// inv[f,g] takes two different pointer fields.
func TestInvFamilyErrors(t *testing.T) {
	src, err := os.ReadFile("../programs/deque/lockdeque.alg")
	if err != nil {
		t.Fatal(err)
	}
	for bad, want := range map[string]string{
		"inv[left,val]":    "inv[left,val]: val is not a pointer field",
		"inv[left,left]":   "inv takes two different pointer fields",
		"inv[left,nosuch]": "inv[left,nosuch]: nosuch is not a pointer field",
	} {
		text := strings.Replace(string(src), "inv[left,right]", bad, 1)
		if _, err := Compile("lockdeque.alg", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", bad, err, want)
		}
	}
}

// self[f]: the node's f points to itself (Snark's dead nodes and Dummy).
func TestSelfFamily(t *testing.T) {
	out := compileFile(t, "../programs/deque/snark.alg")
	for _, want := range []string{"%i self[left](v) = left(v, v)", "%i self[right](v) = right(v, v)", "%p sawEmpty(v) THREAD_PRED"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	if !strings.Contains(out.TVS, "self[left] = {gn:1/2}") {
		t.Errorf("the collapsed garbage lacks self[left]:\n%s", out.TVS)
	}
}

// snarkReuseInstruments is snark-reuse.alg's last line, which the
// instrument tests replace.
const snarkReuseInstruments = "instrument nonabs circ, reach[LeftHat], reach[RightHat];"

// sourceWith reads path and checks that it holds line.
func sourceWith(t *testing.T, path, line string) []byte {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), line) {
		t.Fatalf("%s lacks %q", path, line)
	}
	return src
}

// instrument nonabs makes generated predicates non-abstraction ones,
// and only those: snark-reuse.alg names circ and two reach[X].
func TestInstrumentNonAbs(t *testing.T) {
	const path, line = "../programs/deque/snark-reuse.alg", snarkReuseInstruments
	out := compileFile(t, path)
	for _, want := range []string{"%i circ(v) = right+(v, v) nonabs\n",
		"%i reach[LeftHat](v) = E(u) LeftHat(u) & right*(u, v) nonabs\n",
		"%i reach[RightHat](v) = E(u) RightHat(u) & right*(u, v) nonabs\n",
		"%i reach[Dummy](v) = E(u) Dummy(u) & right*(u, v)\n"} {
		if !strings.Contains(out.TVP, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	src := sourceWith(t, path, line)
	for bad, msg := range map[string]string{
		"reach[Head]":     "instrument nonabs reach[Head]: no such generated predicate",
		"private[nd]":     "instrument nonabs private[nd]: no such generated predicate",
		"same[rh,lh]":     "instrument nonabs same[rh,lh]: a thread predicate, whose abstraction THREAD_PRED decides",
		"inv[left,right]": "",
	} {
		text := strings.Replace(string(src), line, "instrument nonabs "+bad+";", 1)
		_, err := Compile(path, []byte(text))
		switch {
		case msg == "" && err != nil:
			t.Errorf("%s: %v", bad, err)
		case msg != "" && (err == nil || !strings.Contains(err.Error(), msg)):
			t.Errorf("%s: error %v, want %q", bad, err, msg)
		}
	}
}

// instrument off removes a generated predicate with the rules of other
// families that read it (snark-reuse.alg's reach[X] rules assume
// !circ); a statement whose translation reads a switched-off predicate
// is an error that says so, at the statement.
func TestInstrumentOff(t *testing.T) {
	const path, line = "../programs/deque/snark-reuse.alg", snarkReuseInstruments
	src := sourceWith(t, path, line)
	dir := t.TempDir()
	write := func(decl string) string {
		p := filepath.Join(dir, "off.alg")
		if err := os.WriteFile(p, []byte(strings.Replace(string(src), line, decl, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := compileFile(t, path)
	if !strings.Contains(full.TVP, "!circ(v_1)") {
		t.Fatal("the full model has no rule reading circ: the test tests nothing")
	}
	out, err := Compile(path, []byte(strings.Replace(string(src), line, "instrument off circ;", 1)))
	if err != nil {
		t.Fatalf("instrument off circ: %v", err)
	}
	if strings.Contains(out.TVP, "circ(") {
		t.Errorf("instrument off circ leaves circ in the model")
	}
	if !strings.Contains(out.TVP, "%r reach[LeftHat](v_1) & !reach[LeftHat](v_2) ==> !right(v_1, v_2)") {
		t.Errorf("instrument off circ dropped a reach rule that does not read circ")
	}
	if _, _, err := Load(write("instrument off circ;"), tvp.LoadConfig{}); err != nil {
		t.Errorf("the model without circ does not load: %v", err)
	}
	_, _, err = Load(write("instrument off has[val];"), tvp.LoadConfig{})
	const want = "undeclared predicate has[val] (switched off by instrument off at 188:16, but this statement's translation reads it)"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "off.alg:113:8:") {
		t.Errorf("instrument off has[val]: error %v, want %q at off.alg:113:8", err, want)
	}
}
