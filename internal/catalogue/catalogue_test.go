package catalogue

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parse writes a program beside the catalogue text and parses it.
func parse(t *testing.T, text string) ([]Entry, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.alg"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return Parse(filepath.Join(dir, "catalogue.toml"), []byte(text))
}

const good = `
[[entry]]
name = "p-2"
algorithm = "P"
variant = ".alg"
program = "p.alg"
args = ["-D", "THREADS=2", "--max-messages", "1"]
expect = "fault"
stored = 12
message = "linearisability"
source = "Someone 1999"
[entry.replay]
copies = 2
threads = 2
depth = 30

[[entry]]
name = "p-collapsed"
algorithm = "P"
variant = ".alg"
program = "p.alg"
args = ["--collapse-threads"]
expect = "verified"
stored = 7
rounds = 2
source = "Someone 1999"
`

func TestParse(t *testing.T) {
	entries, err := parse(t, good)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d entries", len(entries))
	}
	e := entries[0]
	if e.Name != "p-2" || e.Stored != 12 || e.Replay == nil || e.Replay.Depth != 30 || e.Threads() != "2" {
		t.Errorf("entry 1 read as %+v (threads %s)", e, e.Threads())
	}
	if got := entries[1].Threads(); got != "unbounded (collapsed)" {
		t.Errorf("collapsed entry: threads %q", got)
	}
	if got := entries[1].Defines(); !slices.Equal(got, []string{"COLLAPSE_THREADS"}) {
		t.Errorf("collapsed entry: defines %q", got)
	}
	// A bench entry may carry a replay or an embed table: go run ./bench
	// catalogue runs them.
	bench := strings.Replace(good, "[entry.replay]", "bench = true\n[entry.replay]", 1) + "bench = true\nembed = { copies = 2, threads = 2, depth = 40, min_concrete = 5 }\n"
	entries, err = parse(t, bench)
	if err != nil {
		t.Fatal(err)
	}
	if !entries[0].Bench || entries[0].Replay == nil || !entries[1].Bench || entries[1].Embed == nil || entries[1].Embed.Threads != 2 {
		t.Errorf("bench entries with tables read as %+v", entries)
	}
}

// Every mistake is reported, naming the entry.
func TestParseErrors(t *testing.T) {
	cases := []struct{ edit, want string }{
		{`stored = 7`, `entry 2 (p-collapsed): stored is missing`},
		{`expect = "verified"`, `entry 2 (p-collapsed): expect is missing`},
		{`rounds = 2`, ``}, // optional: no error
		{`source = "Someone 1999"`, `source is missing or empty`},
		{`program = "p.alg"`, `program is missing or empty`},
		{`args = ["--collapse-threads"]`, `args is missing`},
		{`message = "linearisability"`, `entry 1 (p-2): message is missing or empty`},
	}
	for _, c := range cases {
		text := strings.Replace(good, c.edit+"\n", "", 1)
		if c.edit == `stored = 7` || c.edit == `expect = "verified"` || c.edit == `args = ["--collapse-threads"]` || c.edit == `rounds = 2` {
			// The second entry's line (the first has its own values).
			i := strings.LastIndex(good, c.edit+"\n")
			text = good[:i] + good[i+len(c.edit)+1:]
		}
		_, err := parse(t, text)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("without %s: %v", c.edit, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("without %s: error %v, want %q", c.edit, err, c.want)
		}
	}
	bad := []struct{ add, want string }{
		{"colour = \"red\"\n", `entry 2 (p-collapsed): unknown key "colour"`},
		{"[entry.embed]\ncopies = 2\nmin_concrete = 1\nsize = 3\n", `entry 2 (p-collapsed): unknown key "size" in embed`},
		{"expect2 = 1\n", `unknown key "expect2"`},
		{"[entry.embed]\ncopies = 2\n", `min_concrete is positive`},
		{"embed = { copies = 2, depth = 40, min_concrete = 3, colour = 1 }\n", `unknown key "colour" in embed`},
		{"bench = true\nslow = true\n", `a bench entry runs only in go run ./bench`},
	}
	for _, b := range bad {
		_, err := parse(t, good+b.add)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("with %q: error %v, want %q", b.add, err, b.want)
		}
	}
	if _, err := parse(t, strings.Replace(good, `"verified"`, `"proved"`, 1)); err == nil || !strings.Contains(err.Error(), `expect "proved"`) {
		t.Errorf("a bad verdict: %v", err)
	}
	if _, err := parse(t, strings.Replace(good, `name = "p-collapsed"`, `name = "p-2"`, 1)); err == nil || !strings.Contains(err.Error(), "the name is used twice") {
		t.Errorf("a name used twice: %v", err)
	}
	if _, err := parse(t, strings.Replace(good, `program = "p.alg"`, `program = "q.alg"`, 1)); err == nil || !strings.Contains(err.Error(), "q.alg: no such program") {
		t.Errorf("a missing program: %v", err)
	}
	if _, err := parse(t, "[[entry]\n"); err == nil || !strings.Contains(err.Error(), "catalogue.toml:1:") {
		t.Errorf("a TOML syntax error is positioned: %v", err)
	}
	if _, err := parse(t, "top = 1\n"); err == nil || !strings.Contains(err.Error(), `unknown key "top"`) {
		t.Errorf("a key outside the entries: %v", err)
	}
}

func TestThreadsAndDefines(t *testing.T) {
	cases := []struct {
		args    []string
		threads string
		defines []string
	}{
		{[]string{"-D", "THREADS=1"}, "1", []string{"THREADS=1"}},
		{[]string{"-DTHREADS", "-D", "DGLM"}, "1", []string{"THREADS", "DGLM"}},
		{[]string{"--define", "THREADS=3"}, "3", []string{"THREADS=3"}},
		{[]string{"--define=X", "--max-messages", "1"}, "unbounded", []string{"X"}},
		{[]string{"-D", "DGLM", "--collapse-threads"}, "unbounded (collapsed)", []string{"DGLM", "COLLAPSE_THREADS"}},
	}
	for _, c := range cases {
		e := Entry{Args: c.args}
		if got := e.Threads(); got != c.threads {
			t.Errorf("%q: threads %q, want %q", c.args, got, c.threads)
		}
		if got := e.Defines(); !slices.Equal(got, c.defines) {
			t.Errorf("%q: defines %q, want %q", c.args, got, c.defines)
		}
	}
}

func TestEmbedArgs(t *testing.T) {
	e := Entry{Args: []string{"-D", "THREADS=2", "-DBUG", "--define=X=1", "--collapse-threads", "--skip-superseded"}}
	got, err := e.EmbedArgs(".")
	if want := []string{"-D", "THREADS=2", "-D", "BUG", "-D", "X=1", "--collapse-threads", "--skip-superseded"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("embed args %q (%v), want %q", got, err, want)
	}
	// --abs and --nonabs change the model: the embed check takes them.
	e = Entry{Args: []string{"--collapse-threads", "--nonabs", "shared[n]", "--abs=p"}}
	if got, err := e.EmbedArgs("."); err != nil || !slices.Equal(got, []string{"--collapse-threads", "--nonabs", "shared[n]", "--abs=p"}) {
		t.Errorf("embed args %q (%v), want --nonabs and --abs kept with their values", got, err)
	}
	if _, err := (Entry{Args: []string{"--nonabs"}}).EmbedArgs("."); err == nil || !strings.Contains(err.Error(), "--nonabs") {
		t.Errorf("--nonabs without its predicate: %v, want an error naming it", err)
	}
	e = Entry{Args: []string{"-D", "THREADS=2", "--max-messages", "1"}}
	if got, err := e.EmbedArgs("."); err == nil || !strings.Contains(err.Error(), `"--max-messages"`) {
		t.Errorf("a run limit is not an embed argument: %q, %v", got, err)
	}
	// A properties file is relative to programs/, like the program.
	e = Entry{Args: []string{"--collapse-threads", "--props", "queue/q.properties"}}
	if got, err := e.EmbedArgs("programs"); err != nil || !slices.Equal(got, []string{"--collapse-threads", "--props", "programs/queue/q.properties"}) {
		t.Errorf("embed args %q (%v), want the properties file under programs/", got, err)
	}
	if got := e.RunArgs("programs"); !slices.Equal(got, []string{"--collapse-threads", "--props", "programs/queue/q.properties"}) || e.Args[2] != "queue/q.properties" {
		t.Errorf("run args %q (entry args %q), want the properties file under programs/, the entry unchanged", got, e.Args)
	}
	text := strings.Replace(good, `args = ["--collapse-threads"]`, `args = ["--collapse-threads", "--timeout", "5m"]`, 1) + "embed = { copies = 2, min_concrete = 3 }\n"
	if _, err := parse(t, text); err == nil || !strings.Contains(err.Error(), `entry 2 (p-collapsed): embed: "--timeout": an entry with an embed table takes`) {
		t.Errorf("an embed table on an entry with a run limit: %v", err)
	}
}
