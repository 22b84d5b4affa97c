package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mitchellh/hashstructure/v2"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/internal/atomicfile"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// Cache holds the results of runs by a key of what decides them, so that
// an experiment run again makes only the runs whose configuration, files
// or tool changed (docs/cli-contract.md, "The cache"). It is consulted
// before a run is started and filled when one ends, whichever back end
// runs it: Key, Lookup, Store.
type Cache struct {
	// Dir holds one file per result, KEY.json.
	Dir string
	// Tool identifies the tvla that makes the runs (ToolIdentity): a
	// result is reused only by the same tool.
	Tool string
	// Fresh ignores the stored results (Lookup finds none); results made
	// now are stored all the same.
	Fresh bool
}

// cacheFormat names the layout of a cached result and of the key's text:
// a change of either changes it, so that old files are not misread.
const cacheFormat = "tvla-experiment-cache/1"

// ToolIdentity is what the key says of the tool: its version, and for a
// development build (version "devel", or a "+dirty" one, whose code is
// not named by its version) the SHA-256 of the executable, so that a
// rebuilt tvla does not reuse the results of the previous one.
func ToolIdentity(version, exe string) (string, error) {
	if version != "devel" && !strings.Contains(version, "dirty") {
		return version, nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return version + "+sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// FileHash is a file a run reads, by its path from the program's folder,
// with the SHA-256 of its text.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Key is what decides a run's result: its options, the text of every
// file it reads and the tool. Sum, its hash, names the cached result.
type Key struct {
	Sum string `json:"sum"`
	// Options is the hash (hashstructure) of the run's driver.Config
	// without what cannot change a finished result (KeyOptions).
	Options uint64     `json:"options"`
	Files   []FileHash `json:"files"`
	Tool    string     `json:"tool"`
}

// KeyOptions is the run's Config as the key sees it: the paths of the
// program and inputs left out (their text is in the key), and the
// settings that cannot change the result of a run that ends by itself
// or at a structure or message limit: --workers (results do not depend
// on it, by design), the time and memory limits (a run they stop is not
// stored; --max-memory is the budget divided among --jobs, which must not
// change keys), the CPU and heap profiles and the soft invariants' output
// files (a saved set read is a file read: its text is in the key).
// Every other setting, present or added later to driver.Config, is in.
func KeyOptions(c driver.Config) driver.Config {
	c.Program, c.Inputs = "", nil
	c.Workers, c.Timeout, c.MaxMemory = 0, 0, 0
	c.CPUProfile, c.MemProfile, c.Soft.Out, c.Soft.Save = "", "", "", ""
	return c
}

// Key computes the key of run r of s: it loads the program and inputs as
// tvla run would under r's options (macros decide what is included),
// hashing every file read, and the .properties files tvla run reads.
func (c *Cache) Key(s *Spec, r Run) (*Key, error) {
	cfg := r.Config(0)
	cfg.Program = s.ProgramPath()
	if in := s.InputPath(); in != "" {
		cfg.Inputs = []string{in}
	}
	// Paths from the program's folder: the key does not depend on where
	// the spec is, or the current folder, or where the program's folder
	// is (its includes are found from there).
	rec := &fileRecorder{dir: filepath.Dir(cfg.Program), seen: map[string]bool{}}
	loaded, err := driver.LoadReading(&cfg, rec.read)
	if err != nil {
		return nil, err
	}
	// A front end that reads files its own way: what it lists.
	for _, f := range loaded.Files {
		if err := rec.ensure(f); err != nil {
			return nil, err
		}
	}
	for _, f := range cfg.PropertiesFiles() {
		if err := rec.ensure(f); err != nil {
			return nil, err
		}
	}
	opts, err := hashstructure.Hash(KeyOptions(cfg), hashstructure.FormatV2, nil)
	if err != nil {
		return nil, err
	}
	k := &Key{Options: opts, Files: rec.files, Tool: c.Tool}
	var text strings.Builder
	fmt.Fprintf(&text, "%s\ntool %q\noptions %016x\n", cacheFormat, k.Tool, k.Options)
	for _, f := range k.Files {
		fmt.Fprintf(&text, "file %q %s\n", f.Path, f.SHA256)
	}
	sum := sha256.Sum256([]byte(text.String()))
	k.Sum = hex.EncodeToString(sum[:])
	return k, nil
}

// Consult fills, in out (the outcomes of s's runs, in the spec's order),
// those whose result c holds, marked Reused, and returns the indexes of
// the runs to make with the keys to store their results under (nil for a
// run that could not be keyed: it is made, and not stored). Notes and
// reused runs go to logf. With a nil c, every run is to be made, with no
// key. Every back end calls it before it starts or submits a run.
func (c *Cache) Consult(s *Spec, out []*Outcome, logf func(format string, args ...any)) (todo []int, keys []*Key) {
	keys = make([]*Key, len(out))
	for i, o := range out {
		if c == nil {
			todo = append(todo, i)
			continue
		}
		k, err := c.Key(s, o.Run)
		if err != nil {
			logf("experiment: cache: %s cannot be keyed, so it runs and is not stored: %s\n", o.Run.Name, firstLine(err.Error()))
			todo = append(todo, i)
			continue
		}
		keys[i] = k
		o.Key = k.Sum
		hit, note := c.Lookup(k, o.Run, o.Command)
		if note != "" {
			logf("experiment: %s\n", note)
		}
		if hit == nil {
			todo = append(todo, i)
			continue
		}
		out[i] = hit
		logf("[%d/%d] %s: %s (reused: %s)\n", i+1, len(s.Runs), o.Run.Name, hit.Progress(), c.Path(k))
	}
	return todo, keys
}

// fileRecorder reads files for the loader and keeps their hashes in the
// order first read.
type fileRecorder struct {
	dir   string
	seen  map[string]bool
	files []FileHash
}

func (fr *fileRecorder) read(path string) ([]byte, error) {
	// The largest limit the loader uses (a TVS file's): the loader's own
	// limits were checked when the spec was (Check).
	data, err := cpp.ReadFile(path, cpp.MaxTVSBytes)
	if err == nil {
		fr.add(path, data)
	}
	return data, err
}

func (fr *fileRecorder) ensure(path string) error {
	if fr.seen[fr.name(path)] {
		return nil
	}
	_, err := fr.read(path)
	return err
}

func (fr *fileRecorder) name(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		if d, err := filepath.Abs(fr.dir); err == nil {
			if rel, err := filepath.Rel(d, abs); err == nil {
				return filepath.ToSlash(rel)
			}
		}
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(path)
}

func (fr *fileRecorder) add(path string, data []byte) {
	name := fr.name(path)
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	if fr.seen[name] {
		// Read again (included twice): the same text, unless it changed
		// while being read, which the key must then show.
		for _, f := range fr.files {
			if f.Path == name && f.SHA256 == h {
				return
			}
		}
	}
	fr.seen[name] = true
	fr.files = append(fr.files, FileHash{Path: name, SHA256: h})
}

// cacheEntry is a stored result: the run's JSON summary with its exit
// status, and for a person reading the file, what the key was made of.
type cacheEntry struct {
	Format   string          `json:"format"`
	Key      string          `json:"key"`
	Tool     string          `json:"tool"`
	Options  string          `json:"options_hash"`
	Files    []FileHash      `json:"files"`
	Run      string          `json:"run"`
	Command  []string        `json:"command"`
	Status   Status          `json:"status"`
	ExitCode int             `json:"exit_code"`
	Summary  json.RawMessage `json:"summary"`
}

// Path is the file of the result stored under k.
func (c *Cache) Path(k *Key) string { return filepath.Join(c.Dir, k.Sum+".json") }

// Lookup returns the result stored under k, as an outcome of r marked
// Reused, or nil when there is none (or Fresh is set). A stored result
// that does not read is no result: note then says why, and the run is
// made again (Store replaces the file).
func (c *Cache) Lookup(k *Key, r Run, command []string) (o *Outcome, note string) {
	if c.Fresh {
		return nil, ""
	}
	path := c.Path(k)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("cache: %v; running %s again", err, r.Name)
	}
	bad := func(why string) (*Outcome, string) {
		return nil, fmt.Sprintf("cache: %s %s; running %s again", path, why, r.Name)
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil {
		return bad(fmt.Sprintf("does not read (%v)", err))
	}
	if e.Format != cacheFormat || e.Key != k.Sum {
		return bad("is not the result of this key")
	}
	o = &Outcome{Run: r, Command: command, Reused: true, Key: k.Sum}
	if err := o.SetResult(e.ExitCode, indentJSON(e.Summary)); err != nil {
		return bad(fmt.Sprintf("does not read (%v)", err))
	}
	if o.Status != e.Status || !Cacheable(o) {
		return bad(fmt.Sprintf("does not hold a result that can be reused (status %q)", e.Status))
	}
	return o, ""
}

// Cacheable reports whether an outcome is a result its key decides: a
// run that ended by itself (verified, or with messages), or one stopped
// by a limit in its options that stops it at the same point every time
// (the structure limit, the message limit, a constraint breached after
// an update). A run stopped by the time or memory limit, or interrupted,
// or that failed, is not: run again, it may go further.
func Cacheable(o *Outcome) bool {
	if o.Summary == nil {
		return false
	}
	switch o.Status {
	case Verified, Messages, Limit:
	default:
		return false
	}
	if o.Complete() {
		return true
	}
	for _, p := range []string{"the structure limit", "the message limit", "Coerce found a structure inconsistent after the update"} {
		if strings.HasPrefix(o.Summary.StopReason, p) {
			return true
		}
	}
	return false
}

// Store writes o's result under k when it is Cacheable (atomically: a
// reader sees the whole file or none). stored says whether it did.
func (c *Cache) Store(k *Key, o *Outcome) (stored bool, err error) {
	if !Cacheable(o) {
		return false, nil
	}
	e := cacheEntry{Format: cacheFormat, Key: k.Sum, Tool: k.Tool, Options: fmt.Sprintf("%016x", k.Options),
		Files: k.Files, Run: o.Run.Name, Command: o.Command, Status: o.Status, ExitCode: o.ExitCode, Summary: o.RawSummary}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return false, err
	}
	if err := atomicfile.Write(c.Path(k), append(data, '\n'), true); err != nil {
		return false, err
	}
	return true, nil
}

// indentJSON is a summary as tvla run writes it (indented by two
// spaces from the left margin), whatever the indentation of the file it
// was stored in.
func indentJSON(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if json.Indent(&b, bytes.TrimSpace(raw), "", "  ") != nil {
		return json.RawMessage(raw)
	}
	return json.RawMessage(b.Bytes())
}
