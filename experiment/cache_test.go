package experiment

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cacheSpec writes a program that includes a file only under a macro, an
// input that includes another, and a spec of them, into a fresh folder.
func cacheSpec(t *testing.T, runs string) (dir string, spec *Spec) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"p.tvp":     "%p x()\n#ifdef EXTRA\n#include \"extra.tvp\"\n#endif\n%%\n%action Set() {\n  %t \"a\"\n  {\n    x() = 1\n  }\n}\n%%\nL1 Set() L2\n",
		"extra.tvp": "%p y()\n",
		"in.tvs":    "#include \"in2.tvs\"\n",
		"in2.tvs":   "%n = {}\n%p = {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, loadCacheSpec(t, dir, runs)
}

func loadCacheSpec(t *testing.T, dir, runs string) *Spec {
	t.Helper()
	path := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(path, []byte("program = \"p.tvp\"\ninput = \"in.tvs\"\n"+runs), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func keys(t *testing.T, c *Cache, s *Spec) []*Key {
	t.Helper()
	var out []*Key
	for _, r := range s.Runs {
		k, err := c.Key(s, r)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		out = append(out, k)
	}
	return out
}

// changed lists the runs whose keys differ.
func changed(a, b []*Key) []int {
	var out []int
	for i := range a {
		if a[i].Sum != b[i].Sum {
			out = append(out, i)
		}
	}
	return out
}

const cacheRuns = "[baseline]\nname = \"b\"\n[[variant]]\nname = \"extra\"\ndefines = { EXTRA = true }\n[[variant]]\nname = \"rel\"\njoin = \"rel\"\n"

// The key holds every file read, as the macros decide: the program, what
// it includes, the input and what that includes, by their paths from the
// spec's folder.
func TestKeyFiles(t *testing.T) {
	_, s := cacheSpec(t, cacheRuns)
	ks := keys(t, &Cache{Tool: "v1"}, s)
	names := func(k *Key) []string {
		var out []string
		for _, f := range k.Files {
			out = append(out, f.Path)
		}
		return out
	}
	if got, want := names(ks[0]), []string{"p.tvp", "in.tvs", "in2.tvs"}; !slices.Equal(got, want) {
		t.Errorf("baseline's files %q, want %q", got, want)
	}
	if got, want := names(ks[1]), []string{"p.tvp", "extra.tvp", "in.tvs", "in2.tvs"}; !slices.Equal(got, want) {
		t.Errorf("extra's files %q, want %q", got, want)
	}
	if len(ks[0].Sum) != 64 || ks[0].Sum == ks[1].Sum || ks[0].Sum == ks[2].Sum {
		t.Errorf("keys %s %s %s", ks[0].Sum, ks[1].Sum, ks[2].Sum)
	}
}

// What can change a result changes the keys of the runs it concerns, and
// only those: a file included under a macro, the input, a macro, a flag,
// the tool. What cannot (a run's own time limit, which stops a run that
// is then not stored) changes none.
func TestKeyChanges(t *testing.T) {
	dir, s := cacheSpec(t, cacheRuns)
	c := &Cache{Tool: "v1"}
	before := keys(t, c, s)
	if again := keys(t, c, s); len(changed(before, again)) != 0 {
		t.Fatal("keys differ from one computation to the next")
	}
	edit := func(name, text string) func() {
		return func() { os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644) }
	}
	for _, c2 := range []struct {
		what   string
		change func()
		tool   string
		runs   string
		want   []int
	}{
		{"the file included under EXTRA", edit("extra.tvp", "%p y()\n%p z()\n"), "v1", cacheRuns, []int{1}},
		{"a file the input includes", edit("in2.tvs", "%n = {}\n%p = {}\n\n"), "v1", cacheRuns, []int{0, 1, 2}},
		{"the program, by a comment", edit("p.tvp", "// c\n%p x()\n#ifdef EXTRA\n#include \"extra.tvp\"\n#endif\n%%\n%action Set() {\n  %t \"a\"\n  {\n    x() = 1\n  }\n}\n%%\nL1 Set() L2\n"), "v1", cacheRuns, []int{0, 1, 2}},
		{"PROGRAM.properties appears", edit("p.properties", "tvla.join = part\n"), "v1", cacheRuns, []int{0, 1, 2}},
		{"a macro of one run", nil, "v1", strings.Replace(cacheRuns, "EXTRA = true", "EXTRA = true, N = 2", 1), []int{1}},
		{"a flag of one run", nil, "v1", strings.Replace(cacheRuns, "join = \"rel\"", "join = \"ind\"", 1), []int{2}},
		{"an abstraction override of the baseline, inherited", nil, "v1", strings.Replace(cacheRuns, "name = \"b\"", "name = \"b\"\nnonabs = [\"x\"]", 1), []int{0, 1, 2}},
		{"a structure limit", nil, "v1", cacheRuns + "max_structures = 10\n", []int{2}},
		{"a run's time limit", nil, "v1", cacheRuns + "timeout = \"1s\"\n", nil},
		{"a name and a description", nil, "v1", strings.Replace(cacheRuns, "name = \"rel\"", "name = \"relational\"\ndescription = \"d\"", 1), nil},
		{"the tool", nil, "v2", cacheRuns, []int{0, 1, 2}},
	} {
		if c2.change != nil {
			c2.change()
		}
		s2 := loadCacheSpec(t, dir, c2.runs)
		after := keys(t, &Cache{Tool: c2.tool}, s2)
		if got := changed(before, after); !slices.Equal(got, c2.want) {
			t.Errorf("%s: keys of runs %v changed, want %v", c2.what, got, c2.want)
		}
		// The next case starts from the files as they are now.
		before = keys(t, c, loadCacheSpec(t, dir, cacheRuns))
	}
}

// KeyOptions keeps every setting but those that cannot change a stored
// result.
func TestKeyOptions(t *testing.T) {
	r := Run{Name: "r", Join: "rel", Defines: map[string]string{"N": "2"}, MaxStructures: 5, Timeout: time.Minute}
	c := r.Config(time.Hour)
	c.Program, c.Inputs, c.Workers, c.MaxMemory, c.CPUProfile, c.MemProfile, c.Soft.Out = "p.tvp", []string{"i.tvs"}, 3, 1<<30, "cpu", "mem", "soft.tvp"
	k := KeyOptions(c)
	if k.Program != "" || k.Inputs != nil || k.Workers != 0 || k.MaxMemory != 0 || k.Timeout != 0 || k.CPUProfile != "" || k.MemProfile != "" || k.Soft.Out != "" {
		t.Errorf("left in: %+v", k)
	}
	if k.Join != "rel" || k.MaxStructures != 5 || !slices.Equal(k.Defines, []string{"N=2"}) || k.ActionOrder != c.ActionOrder {
		t.Errorf("left out: %+v", k)
	}
}

// What is stored: a run that ended by itself, or at a limit that stops
// it at the same point every time.
func TestCacheable(t *testing.T) {
	for _, c := range []struct {
		status     Status
		incomplete bool
		reason     string
		want       bool
	}{
		{Verified, false, "", true},
		{Messages, false, "", true},
		{Messages, true, "the message limit (3) was reached", true},
		{Messages, true, "Coerce found a structure inconsistent after the update of A at L1", true},
		{Limit, true, "the structure limit (20) was exceeded", true},
		{Limit, true, "the time limit (1s) was reached", false},
		{Limit, true, "the memory limit (1.0GiB) was reached", false},
		{Interrupted, true, "interrupted", false},
		{Failed, false, "", false},
	} {
		o := &Outcome{Status: c.status, Summary: &Summary{Incomplete: c.incomplete, StopReason: c.reason}}
		if got := Cacheable(o); got != c.want {
			t.Errorf("%s %q: cacheable %v", c.status, c.reason, got)
		}
	}
	if Cacheable(&Outcome{Status: Verified}) {
		t.Error("an outcome without a summary is cacheable")
	}
}

// Store and Lookup: a stored result comes back as the outcome it was,
// marked reused; Fresh finds none; a file of another key is no result.
func TestCacheStoreLookup(t *testing.T) {
	_, s := cacheSpec(t, cacheRuns)
	c := &Cache{Dir: filepath.Join(t.TempDir(), "cache"), Tool: "v1"}
	k, err := c.Key(s, s.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	o := &Outcome{Run: s.Runs[0], Command: []string{"tvla", "run", "p.tvp"}}
	if err := o.SetResult(1, []byte("{\n  \"structures_stored\": 7,\n  \"messages\": 2,\n  \"incomplete\": false\n}\n")); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Store(k, o); !ok || err != nil {
		t.Fatalf("Store: %v %v", ok, err)
	}
	got, note := c.Lookup(k, s.Runs[0], o.Command)
	if got == nil || note != "" || !got.Reused || got.Key != k.Sum || got.Status != Messages || got.ExitCode != 1 ||
		got.Summary.Stored != 7 || string(got.RawSummary) != string(o.RawSummary) {
		t.Fatalf("Lookup: %+v, %q", got, note)
	}
	if got, _ := (&Cache{Dir: c.Dir, Tool: "v1", Fresh: true}).Lookup(k, s.Runs[0], nil); got != nil {
		t.Error("Fresh found a result")
	}
	k2, _ := c.Key(s, s.Runs[2])
	os.Rename(c.Path(k), c.Path(k2))
	if got, note := c.Lookup(k2, s.Runs[2], nil); got != nil || !strings.Contains(note, "is not the result of this key; running rel again") {
		t.Errorf("another key's file: %+v, %q", got, note)
	}
	stopped := &Outcome{Run: s.Runs[1]}
	stopped.SetResult(3, []byte(`{"incomplete": true, "stop_reason": "the time limit (1s) was reached"}`))
	if ok, _ := c.Store(k, stopped); ok {
		t.Error("a run stopped by its time limit was stored")
	}
}

// The stack's experiment (programs/stack/experiments.toml), keyed without
// running it: keyed again unchanged, every key is the same (nothing would
// run); a variant added has a key of its own and changes no other (one
// run); an included TVP file edited changes every key (all run again).
// cmd/tvla's tests run experiments to show the same with runs made.
func TestStackExperimentKeys(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"experiments.toml", "stack.tvp", "stack.tvs", "stack_preds.tvp", "stack_actions.tvp"} {
		data, err := os.ReadFile(filepath.Join("..", "programs", "stack", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	specPath := filepath.Join(dir, "experiments.toml")
	load := func() *Spec {
		s, err := LoadSpec(specPath)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	c := &Cache{Tool: "v1"}
	first := keys(t, c, load())
	if len(first) != 16 {
		t.Fatalf("%d runs", len(first))
	}
	if got := changed(first, keys(t, c, load())); len(got) != 0 {
		t.Errorf("unchanged: runs %v would run", got)
	}
	spec, _ := os.ReadFile(specPath)
	os.WriteFile(specPath, append(spec, "\n[[variant]]\nname = \"threads-4\"\ncollapse_threads = false\ndefines = { THREADS = 4 }\n"...), 0o644)
	added := keys(t, c, load())
	if got := changed(first, added[:16]); len(got) != 0 {
		t.Errorf("a variant added: runs %v would run again", got)
	}
	for i, k := range first {
		if k.Sum == added[16].Sum {
			t.Errorf("the new variant has the key of run %d", i)
		}
	}
	preds := filepath.Join(dir, "stack_preds.tvp")
	data, _ := os.ReadFile(preds)
	os.WriteFile(preds, append(data, "// edited\n"...), 0o644)
	if got := changed(first, keys(t, c, load())[:16]); len(got) != 16 {
		t.Errorf("stack_preds.tvp edited: only runs %v would run again", got)
	}
}
