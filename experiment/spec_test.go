package experiment

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Specs are read as if they were in testdata/, from where the program is
// this path.
const specPath = "testdata/spec.toml"
const reverse = `program = "../../programs/sll/reverse.tvp"` + "\n"

// A variant is the baseline with what it sets: keys replace the
// baseline's, macros change one by one (false removes one).
func TestParseSpecInheritsFromTheBaseline(t *testing.T) {
	src := `title = "T"
description = "D"
` + reverse + `input = "../../programs/sll/reverse.tvs"

[baseline]
name = "base"
description = "the baseline"
defines = { A = 1, B = "x", C = true }
nonabs = ["y", "t", "y"]
max_structures = 500
timeout = "1m"

[[variant]]
name = "v1"
defines = { A = 2, C = false, D = true }
join = "rel"
abs = ["t"]
nonabs = []

[[variant]]
name = "v2.x_y+z"
collapse_threads = true
max_structures = 0
timeout = "0s"
`
	s, err := ParseSpec(specPath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "T" || s.Description != "D" || s.Dir != "testdata" ||
		s.ProgramPath() != "../programs/sll/reverse.tvp" || s.InputPath() != "../programs/sll/reverse.tvs" {
		t.Errorf("spec %+v", s)
	}
	if len(s.Runs) != 3 {
		t.Fatalf("%d runs", len(s.Runs))
	}
	want := []struct {
		name, desc string
		baseline   bool
		flags      string
	}{
		{"base", "the baseline", true, "-D A=1 -D B=x -D C=1 --nonabs t --nonabs y --max-structures 500 --timeout 1m0s"},
		{"v1", "", false, "-D A=2 -D B=x -D D=1 --join rel --abs t --max-structures 500 --timeout 1m0s"},
		// No timeout of its own: the experiment's applies.
		{"v2.x_y+z", "", false, "-D A=1 -D B=x -D C=1 --collapse-threads --nonabs t --nonabs y --timeout 5s"},
	}
	for i, w := range want {
		r := s.Runs[i]
		flags := strings.Join(r.Flags(5*time.Second), " ")
		if r.Name != w.name || r.Description != w.desc || r.Baseline != w.baseline || flags != w.flags {
			t.Errorf("run %d: %q %q %v %q; want %q %q %v %q", i, r.Name, r.Description, r.Baseline, flags, w.name, w.desc, w.baseline, w.flags)
		}
	}
	if !reflect.DeepEqual(s.Runs[0].NonAbs, []string{"t", "y"}) || len(s.Runs[1].NonAbs) != 0 {
		t.Errorf("nonabs %q, %q", s.Runs[0].NonAbs, s.Runs[1].NonAbs)
	}
}

// The smallest spec: a program and an empty baseline.
func TestParseSpecMinimal(t *testing.T) {
	s, err := ParseSpec(specPath, []byte(reverse+"[baseline]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || s.Runs[0].Name != "baseline" || s.Runs[0].Join != "part" || len(s.Runs[0].Flags(0)) != 0 || s.InputPath() != "" {
		t.Errorf("runs %+v", s.Runs)
	}
}

// Every mistake is reported, in the file's order, at its line and column
// where the spec shows it.
func TestParseSpecErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"TOML syntax", reverse + "[baseline\n",
			`testdata/spec.toml:2:10: TOML: expected '.' or ']' to end table name, but got '\n' instead`},
		{"no program, no baseline", "title = \"x\"\n",
			"testdata/spec.toml: the spec names no program (program = \"FILE.tvp\", relative to the spec)\n" +
				"testdata/spec.toml: the spec has no [baseline] table (it may be empty: the program with no option)"},
		{"missing files", "program = \"nosuch.tvp\"\ninput = \"nosuch.tvs\"\n[baseline]\n",
			"testdata/spec.toml:1:1: program nosuch.tvp: no such file (paths are relative to the spec's folder)\n" +
				"testdata/spec.toml:2:1: input nosuch.tvs: no such file (paths are relative to the spec's folder)"},
		{"unknown keys", reverse + "colour = 1\n[baseline]\n  Join = \"rel\"\n[[variant]]\nname = \"v\"\nmax_structure = 3\n",
			"testdata/spec.toml:2:1: unknown key colour (known: title, description, program, input, baseline, variant)\n" +
				"testdata/spec.toml:4:3: unknown key Join in the baseline (known: name, description, defines, join, collapse_threads, abs, nonabs, max_structures, timeout)\n" +
				`testdata/spec.toml:7:1: unknown key max_structure in variant "v" (known: name, description, defines, join, collapse_threads, abs, nonabs, max_structures, timeout)`},
		{"wrong kinds", reverse + "title = 3\nbaseline = \"b\"\nvariant = 1\n",
			"testdata/spec.toml:2:1: title must be a string, not an integer\n" +
				"testdata/spec.toml:3:1: baseline must be a table ([baseline]), not a string\n" +
				"testdata/spec.toml:4:1: variant must be an array of tables ([[variant]]), not an integer"},
		{"bad values", reverse + `[baseline]
join = "conc"
defines = { THREADS = 2.5, "1X" = 1, S = "a\nb" }
collapse_threads = "yes"
abs = "x"
max_structures = -1
timeout = 30
[[variant]]
name = "v"
nonabs = ["p", 3]
max_structures = "many"
timeout = "-1s"
defines = [1]
`,
			"testdata/spec.toml:3:1: the baseline: join must be \"part\", \"rel\", \"ind\" or \"decomp\", not \"conc\"\n" +
				"testdata/spec.toml:4:13: the baseline: macro THREADS must be true, false (not defined), an integer or a string, not a float\n" +
				"testdata/spec.toml:4:28: the baseline: \"1X\" is not a macro name\n" +
				"testdata/spec.toml:4:38: the baseline: the value of macro S is on more than one line\n" +
				"testdata/spec.toml:5:1: the baseline: collapse_threads must be true or false, not a string\n" +
				"testdata/spec.toml:6:1: the baseline: abs must be a list of predicate names (abs = [\"p\", \"q\"]), not a string\n" +
				"testdata/spec.toml:7:1: the baseline: max_structures must be a number of structures (0: no limit), not -1\n" +
				"testdata/spec.toml:8:1: the baseline: timeout must be a duration such as \"90s\" or \"5m\" (\"0s\": no limit), not 30\n" +
				"testdata/spec.toml:11:1: variant \"v\": nonabs must be a list of predicate names (nonabs = [\"p\", \"q\"]), not an array\n" +
				"testdata/spec.toml:12:1: variant \"v\": max_structures must be a number of structures (0: no limit), not \"many\"\n" +
				"testdata/spec.toml:13:1: variant \"v\": timeout must be a duration such as \"90s\" or \"5m\" (\"0s\": no limit), not \"-1s\"\n" +
				"testdata/spec.toml:14:1: variant \"v\": defines must be a table of macros (defines = { THREADS = 2 }), not an array"},
		{"names", reverse + `[baseline]
name = "b"
[[variant]]
description = "nameless"
[[variant]]
name = "b"
[[variant]]
name = "two words"
[[variant]]
name = "w"
[[variant]]
name = "w"
`,
			"testdata/spec.toml:4:1: variant 1 has no name\n" +
				"testdata/spec.toml:7:1: variant \"b\" has the name of the baseline\n" +
				"testdata/spec.toml:9:1: the name \"two words\" of variant \"two words\" must be letters, digits and - _ . + (starting with a letter or a digit)\n" +
				"testdata/spec.toml:13:1: variant \"w\" has the name of variant \"w\""},
		{"abs and nonabs", reverse + "[baseline]\nnonabs = [\"x\"]\n[[variant]]\nname = \"v\"\nabs = [\"x\"]\n",
			`testdata/spec.toml:6:1: variant "v": predicate x is in both abs and nonabs (a variant inherits the list it does not set from the baseline)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec(specPath, []byte(c.src))
			if _, ok := err.(SpecErrors); !ok {
				t.Fatalf("error %T %v", err, err)
			}
			if err.Error() != c.want {
				t.Errorf("errors:\n%s\nwant:\n%s", err, c.want)
			}
		})
	}
}

func TestLoadSpecMissingFile(t *testing.T) {
	_, err := LoadSpec("testdata/nosuch.toml")
	if err == nil || err.Error() != "testdata/nosuch.toml: no such file or directory" {
		t.Errorf("error %v", err)
	}
}

// Check loads the program under every run's options: what only loading
// shows (a predicate the program lacks, a macro the program rejects) is
// a spec error at the run's key, reported once when inherited.
func TestCheckLoadsEveryRun(t *testing.T) {
	src := reverse + `[baseline]
[[variant]]
name = "ok"
nonabs = ["y"]
[[variant]]
name = "no-pred"
abs = ["z"]
[[variant]]
name = "binary"
nonabs = ["nxt"]
`
	s, err := ParseSpec(specPath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "testdata/spec.toml:8:1: variant \"no-pred\": abs z: the program has no predicate z\n" +
		"testdata/spec.toml:11:1: variant \"binary\": nonabs nxt: nxt has arity 2: only unary and nullary predicates are abstraction predicates"
	if err := Check(s); err == nil || err.Error() != want {
		t.Errorf("Check:\n%v\nwant:\n%s", err, want)
	}
	s, err = ParseSpec(specPath, []byte(reverse+"[baseline]\nabs = [\"q\"]\n[[variant]]\nname = \"v\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(s); err == nil || err.Error() != "testdata/spec.toml:3:1: the baseline: abs q: the program has no predicate q" {
		t.Errorf("Check: %v", err)
	}
}
