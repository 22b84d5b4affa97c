package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/driver"
)

func testdata(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...)
}

// ownTestdata is a file of this package's own test data (testdata/ here);
// testdata is the repository's, which other packages share.
func ownTestdata(parts ...string) string {
	return filepath.Join(append([]string{"testdata"}, parts...)...)
}

// tvla embed passes on the team's list programs: exit 0, the per-location
// table of concrete and abstract structures, and the verdict.
func TestEmbedListProgram(t *testing.T) {
	code, out, errOut := runCLI("embed", sll("reverse.tvp"), "-q")
	if code != exitVerified {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"  location  concrete  abstract  failed\n        L1         5         3       0\n        L2        15        12       0\n",
		"concrete run   90 structures from 5 concrete inputs, 0 messages (fixpoint)",
		"abstract run   66 structures, 0 messages (fixpoint)",
		"checked        90 of 90 concrete structures: 0 embed nowhere, 0 undecided",
		"sound on these inputs: every concrete structure embeds into an abstract structure at its location",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// --nonabs changes the model embed checks, as it changes tvla run's: with
// x no abstraction predicate the abstract run keeps 55 structures, not 66,
// and its one message; the concrete run still embeds. A predicate the
// program lacks is bad input, as for run.
func TestEmbedTakesTheAbstractionOverrides(t *testing.T) {
	code, out, errOut := runCLI("embed", sll("reverse.tvp"), "-q", "--nonabs", "x")
	if code != exitVerified || !strings.Contains(out, "abstract run   55 structures, 1 messages (fixpoint)") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if code, _, errOut := runCLI("embed", sll("reverse.tvp"), "-q", "--nonabs", "r[x]"); code != exitInput || !strings.Contains(errOut, "--nonabs r[x]: the program has no predicate r[x]") {
		t.Errorf("exit %d, %q: want 2 and the missing predicate named", code, errOut)
	}
}

// The planted silent rule: tvla run verifies the program, tvla embed
// exits 1 and explains the first failure at L3 with the concrete trace,
// the concrete structure and the closest abstract structure, which
// differs in the one edge the rule cut.
func TestEmbedCatchesThePlantedRule(t *testing.T) {
	prog := testdata("embed", "unsound_silent.tvp")
	if code, out, _ := runCLI("run", prog, "-q"); code != exitVerified || !strings.Contains(out, "verified: fixpoint reached") {
		t.Fatalf("tvla run: exit %d\n%s", code, out)
	}
	code, out, _ := runCLI("embed", prog, "-q", "--explain", "1")
	if code != exitMessages {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"        L3        22         3      13\n",
		"MISSED MESSAGE at L4: the concrete run raises \"y's list had two or more nodes\" (action report y), the analysis does not raise it there",
		"FAILURE 1 of 39: at L3, concrete structure 2 embeds into none of the 3 abstract structures there\n" +
			"  how the concrete run got there:\n" +
			"     0  L1       input structure (2 individuals)\n" +
			"     1  L2       after x = malloc()\n" +
			"     2  L3       after x->nxt = y\n" +
			"  concrete structure:\n" +
			"    %n = {u0, u1, u2}\n" +
			"    %p = {\n" +
			"      x = {u2}\n" +
			"      y = {u0}\n" +
			"      nxt = {u0->u1, u2->u0}\n" +
			"    }\n" +
			"  closest abstract structures:\n" +
			"    abstract structure 1 at L3: 1 mismatch(es) under u0→u1, u1→u0, u2→u2\n" +
			"      nxt(u0, u1) is 1 in the concrete structure, but nxt(u1, u0) is 0 in the abstract one\n",
		"(38 more failures not explained; see --explain)",
		"NOT SOUND: 39 concrete structure(s) embed into no abstract structure at their location, 1 concrete message(s) missed, 1 claim(s) of the program false on a reached state",
		"FALSE CLAIM at L2: a reached state breaks the constraint x(v1) & nxt(v1, v2) ==> !nxt(v2, v3)",
		"  the state x->nxt = y reaches, which breaks the constraint:\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Without the rule: sound.
	if code, out, _ := runCLI("embed", prog, "-q", "-D", "SOUND"); code != exitVerified {
		t.Errorf("-D SOUND: exit %d\n%s", code, out)
	}
	// The rule the wrong way round is caught at L3 too.
	code, out, _ = runCLI("embed", testdata("embed", "unsound_reach.tvp"), "-q")
	if code != exitMessages || !strings.Contains(out, "FAILURE 1 of 8: at L3,") {
		t.Errorf("unsound_reach: exit %d\n%s", code, out)
	}
}

// The JSON summary of a check names the failing locations.
func TestEmbedJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "embed.json")
	code, _, errOut := runCLI("embed", testdata("embed", "unsound_silent.tvp"), "-q", "--json", path, "--copies", "2")
	if code != exitMessages {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s driver.EmbedSummary
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Sound || s.Incomplete || !s.ConcreteComplete || !s.AbstractComplete || s.Options.Copies != 2 ||
		!reflect.DeepEqual(s.FailureLocations, []string{"L3", "L4", "L5"}) || len(s.MissedMessages) != 1 || len(s.FalseClaims) != 1 ||
		s.Checked != s.ConcreteStructures || s.Failed == 0 || len(s.Locations) != 5 {
		t.Errorf("summary %+v", s)
	}
}

func TestEmbedRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"embed", sll("reverse.tvp"), "--join", "conc"}, "--join conc is the concrete side already"},
		{[]string{"embed", sll("reverse.tvp"), "--copies", "0"}, "--copies must be at least 1"},
		{[]string{"embed", sll("reverse.tvp"), "--max-memory", "lots"}, `want a size such as 512MiB`},
		{[]string{"embed", sll("nope.tvp")}, "nope.tvp: no such file or directory"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != exitInput || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, errOut, c.msg)
		}
	}
}

// tvla run --join conc: the concrete run, with its own bounds.
func TestRunConcrete(t *testing.T) {
	code, out, errOut := runCLI("run", sll("reverse.tvp"), "--join", "conc", "--json", "-")
	if code != exitVerified {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s driver.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.StructuresStored != 90 || s.Options.Join != "conc" || !s.Verified || s.Locations[1].Structures != 15 {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(errOut, "concrete inputs: 5 structure(s) from 3 input structure(s) (summary individuals as 1 to 3 individuals, threads 1 to 3)") {
		t.Errorf("stderr %q", errOut)
	}
	// The null dereference is real: exit 1 with its message.
	code, out, _ = runCLI("run", sll("search_nullderef.tvp"), "--join", "conc", "--copies", "1", "-q")
	if code != exitMessages || !strings.Contains(out, "L3: null dereference: y->nxt (action y = y->nxt)") {
		t.Errorf("search_nullderef: exit %d\n%s", code, out)
	}
	// The depth limit stops it: exit 3 and what was explored.
	code, out, errOut = runCLI("run", sll("reverse.tvp"), "--join", "conc", "--max-depth", "3", "-q")
	if code != exitLimit || !strings.Contains(errOut, "the depth limit (3) was reached") ||
		!strings.Contains(out, "explored: 20 structures at 6 of 11 locations (15 examined, 3 iterations") {
		t.Errorf("depth limit: exit %d, %q\n%s", code, errOut, out)
	}
}

// The new flags and the embed command are documented, with examples.
func TestRobustnessFlagsAreDocumented(t *testing.T) {
	_, out, _ := runCLI("run", "--help")
	for _, want := range []string{"--timeout", "--max-memory", "--max-depth", "--copies", "--threads", "rel, part, ind, decomp, or conc", "--decompose",
		"tvla run programs/sll/merge.tvp --timeout 30s --max-memory 2GiB", "A second Ctrl-C quits at once"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
	_, out, _ = runCLI("embed", "--help")
	for _, want := range []string{"Embedding Theorem", "--copies", "--threads", "--max-depth", "--timeout", "--max-memory", "--explain", "--json",
		"tvla embed programs/sll/reverse.tvp"} {
		if !strings.Contains(out, want) {
			t.Errorf("embed --help lacks %q", want)
		}
	}
	if _, out, _ = runCLI("--help"); !strings.Contains(out, "embed") {
		t.Error("--help does not list embed")
	}
}

// The stack model with the spec orientation thesis §7.6.2 shows invalid
// (PLANT_UNSOUND_SPEC): tvla run verifies it, tvla embed exits 1 with the
// false rule and the states after a push and a pop that the analysis
// dropped. Without the macro the same check passes.
func TestEmbedCatchesTheInvalidSpecOrientation(t *testing.T) {
	stack := filepath.Join("..", "..", "programs", "stack", "stack.tvp")
	args := []string{stack, "-D", "THREADS=1", "-D", "PURE_INIT", "--max-depth", "30", "-q"}
	planted := append([]string{"-D", "PLANT_UNSOUND_SPEC"}, args...)
	if code, out, _ := runCLI(append([]string{"run"}, planted...)...); code != exitVerified {
		t.Fatalf("tvla run: exit %d\n%s", code, out)
	}
	code, out, _ := runCLI(append([]string{"embed", "--explain", "1"}, planted...)...)
	if code != exitMessages {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"FALSE CLAIM at push11: a reached state breaks the constraint E(v_3) matching(v_1) & val(v_1, v_3) & val(v_2, v_3) ==> spec(v_1, v_2)",
		"    10  push11   specPush() [push11] raises the message\n",
		"FAILURE 1 of 39: at ready,",
		"    24  pop48    after specPop() [pop40]\n",
		"NOT SOUND: 39 concrete structure(s) embed into no abstract structure",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI(append([]string{"embed"}, args...)...); code != exitVerified {
		t.Errorf("without the planted rule: exit %d\n%s", code, out)
	}
}
