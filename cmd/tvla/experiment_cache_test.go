package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// experimentRuns runs tvla experiment with args in this process, its runs
// being this test binary (TestMain), and returns the exit code, the
// table, the progress and the arguments of each run made (one `tvla run`
// process each, in the order they started).
func experimentRuns(t *testing.T, args ...string) (code int, stdout, stderr string, made []string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "runs.log")
	t.Setenv("TVLA_TEST_MAIN", "1")
	t.Setenv("TVLA_TEST_ARGS_LOG", log)
	code, stdout, stderr = runCLI(append([]string{"experiment"}, args...)...)
	return code, stdout, stderr, runsLogged(t, log)
}

// runsLogged reads the argument log TestMain writes: the `run` lines (a
// test that runs tvla experiment as a child logs its line too).
func runsLogged(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var made []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "run ") {
			made = append(made, l)
		}
	}
	return made
}

// unmark removes the marks of reused runs from a table.
func unmark(table string) string {
	return strings.NewReplacer(" (baseline, reused) |", " (baseline) |", " (reused) |", " |").Replace(table)
}

// writeSpec writes a spec into dir: the program at an absolute path, then
// the runs' TOML.
func writeSpec(t *testing.T, dir, program, runs string) string {
	t.Helper()
	abs, err := filepath.Abs(program)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(path, []byte("program = "+strconvQuote(abs)+"\n"+runs), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// An experiment run again unchanged makes no run and prints the same
// table, each row marked reused (a run stopped by max_structures
// included: it stops at the same point every time); results.json says
// reused and holds the same summaries.
func TestExperimentCacheReusesEveryRun(t *testing.T) {
	out := t.TempDir()
	spec := ownTestdata("experiment", "reverse.toml")
	code, first, _, made := experimentRuns(t, spec, "--out", out)
	if code != 0 || len(made) != 5 {
		t.Fatalf("first call: exit %d, %d runs made", code, len(made))
	}
	json1, _ := os.ReadFile(filepath.Join(out, "results.json"))
	code, second, progress, made := experimentRuns(t, spec, "--out", out, "--jobs", "2")
	if code != 0 || len(made) != 0 {
		t.Fatalf("second call: exit %d, runs made %q\n%s", code, made, progress)
	}
	if strings.Count(second, "(reused)")+strings.Count(second, "(baseline, reused)") != 5 {
		t.Errorf("not every row is marked reused:\n%s", second)
	}
	if unmark(second) != first {
		t.Errorf("second table:\n%s\nfirst:\n%s", second, first)
	}
	for _, want := range []string{"[5/5] limit: >21 stored, stopped: max structures (20) (reused: ", "experiment: 0 runs made, 5 reused;"} {
		if !strings.Contains(progress, want) {
			t.Errorf("progress lacks %q:\n%s", want, progress)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "results.md"))
	if !strings.Contains(string(md), "(reused): 5 of the 5 runs were not made again") {
		t.Errorf("results.md does not say what reused means:\n%s", md)
	}
	csv, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); !strings.HasSuffix(lines[0], ",command,reused") || !strings.HasSuffix(lines[1], ",true") {
		t.Errorf("results.csv:\n%s", csv)
	}
	type runs struct {
		Runs []struct {
			Reused  bool            `json:"reused"`
			Key     string          `json:"key"`
			Summary json.RawMessage `json:"summary"`
		} `json:"runs"`
	}
	var a, b runs
	json2, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if json.Unmarshal(json1, &a) != nil || json.Unmarshal(json2, &b) != nil || len(a.Runs) != 5 || len(b.Runs) != 5 {
		t.Fatalf("results.json:\n%s\n%s", json1, json2)
	}
	for i := range a.Runs {
		if a.Runs[i].Reused || !b.Runs[i].Reused || a.Runs[i].Key == "" || a.Runs[i].Key != b.Runs[i].Key || string(a.Runs[i].Summary) != string(b.Runs[i].Summary) {
			t.Errorf("run %d: first %+v\nsecond %+v", i, a.Runs[i], b.Runs[i])
		}
		if _, err := os.Stat(filepath.Join(out, "cache", a.Runs[i].Key+".json")); err != nil {
			t.Error(err)
		}
	}

	// --fresh makes them all again, and stores them again.
	code, _, _, made = experimentRuns(t, spec, "--out", out, "--fresh")
	if code != 0 || len(made) != 5 {
		t.Errorf("--fresh: exit %d, %d runs made", code, len(made))
	}
	if _, _, _, made = experimentRuns(t, spec, "--out", out); len(made) != 0 {
		t.Errorf("after --fresh: %d runs made", len(made))
	}
}

// Adding a variant makes one run; changing one variant's macro or flag
// makes that run only; a cache folder of its own (--cache) serves
// another results folder.
func TestExperimentCacheRunsWhatChanged(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	base := "\n[baseline]\nname = \"declared\"\n\n[[variant]]\nname = \"nonabs-y\"\nnonabs = [\"y\"]\n"
	spec := writeSpec(t, dir, sll("reverse.tvp"), "input = "+strconvQuote(mustAbs(t, sll("reverse.tvs")))+base)
	if code, _, _, made := experimentRuns(t, spec, "--cache", cache); code != 0 || len(made) != 2 {
		t.Fatalf("first call: exit %d, %q", code, made)
	}
	if _, err := os.Stat(filepath.Join(dir, "spec-results", "cache")); err == nil {
		t.Error("--cache DIR, yet a cache in the results folder")
	}
	os.WriteFile(spec, append(mustRead(t, spec), "\n[[variant]]\nname = \"rel\"\njoin = \"rel\"\n"...), 0o644)
	code, table, _, made := experimentRuns(t, spec, "--cache", cache, "--out", t.TempDir())
	if code != 0 || len(made) != 1 || !strings.Contains(made[0], "--join rel") {
		t.Fatalf("a variant added: exit %d, runs made %q", code, made)
	}
	if !strings.Contains(table, "| nonabs-y (reused) |") || !strings.Contains(table, "| rel | 0 |") {
		t.Errorf("table:\n%s", table)
	}
	// A macro of one variant, then a flag of another.
	data := strings.Replace(string(mustRead(t, spec)), "nonabs = [\"y\"]", "nonabs = [\"y\"]\ndefines = { UNUSED = 1 }", 1)
	os.WriteFile(spec, []byte(data), 0o644)
	if _, _, _, made = experimentRuns(t, spec, "--cache", cache); len(made) != 1 || !strings.Contains(made[0], "-D UNUSED=1 --nonabs y") {
		t.Errorf("a macro changed: runs made %q", made)
	}
	os.WriteFile(spec, []byte(strings.Replace(data, "join = \"rel\"", "join = \"ind\"", 1)), 0o644)
	if _, _, _, made = experimentRuns(t, spec, "--cache", cache); len(made) != 1 || !strings.Contains(made[0], "--join ind") {
		t.Errorf("a flag changed: runs made %q", made)
	}
	// What does not change a finished result changes no key: the jobs,
	// the workers, the memory budget, a time limit.
	if _, _, _, made = experimentRuns(t, spec, "--cache", cache, "--jobs", "3", "--workers", "1", "--max-memory", "1GiB", "--timeout", "1h"); len(made) != 0 {
		t.Errorf("jobs, workers, memory, time limit: runs made %q", made)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Editing a file the program includes (or one the input includes) makes
// every run again; touching one without changing it makes none: the key
// is of the text.
func TestExperimentCacheFilesInKey(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"reverse.tvp", "list_preds.tvp", "list_actions.tvp", "reverse.tvs", "lists_x.tvs"} {
		if err := os.WriteFile(filepath.Join(dir, f), mustRead(t, sll(f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := filepath.Join(dir, "spec.toml")
	os.WriteFile(spec, []byte("program = \"reverse.tvp\"\n\n[baseline]\nname = \"declared\"\n\n[[variant]]\nname = \"nonabs-y\"\nnonabs = [\"y\"]\n\n[[variant]]\nname = \"rel\"\njoin = \"rel\"\n"), 0o644)
	if code, _, _, made := experimentRuns(t, spec); code != 0 || len(made) != 3 {
		t.Fatalf("first call: exit %d, %q", code, made)
	}
	later := time.Now().Add(time.Hour)
	for _, f := range []string{"list_preds.tvp", "lists_x.tvs"} {
		os.Chtimes(filepath.Join(dir, f), later, later)
	}
	if _, _, _, made := experimentRuns(t, spec); len(made) != 0 {
		t.Errorf("files touched, not changed: runs made %q", made)
	}
	for _, f := range []string{"list_preds.tvp", "lists_x.tvs", "reverse.properties"} {
		// reverse.properties: tvla run reads PROGRAM.properties beside the
		// program; a new one changes every key too.
		f := filepath.Join(dir, f)
		data, _ := os.ReadFile(f)
		os.WriteFile(f, append(data, "\n// edited\n"...), 0o644)
		if strings.HasSuffix(f, ".properties") {
			os.WriteFile(f, []byte("# edited\n"), 0o644)
		}
		if code, _, progress, made := experimentRuns(t, spec); code != 0 || len(made) != 3 {
			t.Errorf("%s edited: exit %d, runs made %q\n%s", filepath.Base(f), code, made, progress)
		}
	}
}

// A result is the tool's: another version reuses none.
func TestExperimentCacheVersionInKey(t *testing.T) {
	defer func(v string) { version = v }(version)
	out := t.TempDir()
	spec := ownTestdata("experiment", "reverse.toml")
	for _, c := range []struct {
		version string
		made    int
	}{{"v1.0.0", 5}, {"v1.0.0", 0}, {"v1.0.1", 5}, {"v1.0.1", 0}} {
		version = c.version
		if code, _, _, made := experimentRuns(t, spec, "--out", out); code != 0 || len(made) != c.made {
			t.Errorf("version %s: exit %d, %d runs made, want %d", c.version, code, len(made), c.made)
		}
	}
}

// A run stopped by a time limit is not stored: run again, it may go
// further. One stopped by max_structures is (the same point every time).
// A stored result that does not read is run again, with a note.
func TestExperimentCacheSkipsTimedOutRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes for a while")
	}
	dir := t.TempDir()
	spec := writeSpec(t, dir, ownTestdata("robust", "slow.tvp"),
		"\n[baseline]\nname = \"timed\"\ntimeout = \"100ms\"\n\n[[variant]]\nname = \"capped\"\nmax_structures = 50\ntimeout = \"10m\"\n")
	if code, table, _, made := experimentRuns(t, spec); code != 0 || len(made) != 2 || !strings.Contains(table, "stopped: timeout (100ms)") {
		t.Fatalf("first call: exit %d, %q\n%s", code, made, table)
	}
	code, table, _, made := experimentRuns(t, spec)
	if code != 0 || len(made) != 1 || !strings.Contains(made[0], "--timeout 100ms") || !strings.Contains(table, "| capped (reused) | >") {
		t.Errorf("second call: exit %d, runs made %q\n%s", code, made, table)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "spec-results", "cache", "*.json"))
	if len(files) != 1 {
		t.Fatalf("cache: %q", files)
	}
	os.WriteFile(files[0], []byte("{\"format\": "), 0o644)
	code, _, progress, made := experimentRuns(t, spec)
	if code != 0 || len(made) != 2 || !strings.Contains(progress, "experiment: cache: "+files[0]+" does not read (unexpected end of JSON input); running capped again") {
		t.Errorf("a cached result spoilt: exit %d, runs made %q\n%s", code, made, progress)
	}
	if _, _, _, made := experimentRuns(t, spec); len(made) != 1 {
		t.Errorf("the spoilt result was not replaced: runs made %q", made)
	}
}

// An experiment interrupted in its second run keeps the first run's
// result; started again it makes only the runs it did not finish, and
// completes.
func TestExperimentResumesAfterInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	out := t.TempDir()
	log := filepath.Join(t.TempDir(), "runs.log")
	t.Setenv("TVLA_TEST_ARGS_LOG", log)
	spec := ownTestdata("experiment", "resume.toml")
	// The pause lets the run start (a run interrupted before it can
	// catch the signal would end as an error, not stopped); it lasts a
	// few seconds.
	cmd, _, lines := signalChild(t, "[2/3] many: tvla run", 300*time.Millisecond, syscall.SIGINT,
		"experiment", spec, "--out", out, "--workers", "1")
	if code := cmd.ProcessState.ExitCode(); code != exitLimit {
		t.Fatalf("exit %d\n%s", code, strings.Join(lines, "\n"))
	}
	if made := runsLogged(t, log); len(made) != 2 {
		t.Fatalf("interrupted: runs made %q", made)
	}
	md := string(mustRead(t, filepath.Join(out, "results.md")))
	if !strings.Contains(md, "| many | >") || !strings.Contains(md, "| stopped: interrupted |") || !strings.Contains(md, "| few-rel | – |") {
		t.Fatalf("results.md:\n%s\nstderr:\n%s", md, strings.Join(lines, "\n"))
	}
	code, table, progress, made := experimentRuns(t, spec, "--out", out)
	if code != 0 || len(made) != 2 || !strings.Contains(made[0], "-D MANY=1") || !strings.Contains(made[1], "--join rel") {
		t.Fatalf("second call: exit %d, runs made %q\n%s", code, made, progress)
	}
	for _, want := range []string{"| few (baseline, reused) | 0 | – | 16 |", "| many | 0 | – | 65536 |", "| few-rel | 0 | – | 16 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
