// Package experiment runs one TVP program under several configurations and
// compares them with a baseline, as the tables of Friggens' thesis compare
// predicate choices, thread bounds, interleavings and joins: the numbers of
// structures, constraint breaches, time and memory of each run, also as a
// percentage of the baseline's.
//
// An experiment is described by a TOML file (Spec); each run is a `tvla
// run` of the program with the run's options, executed as a separate
// process (Runner), so that every run's figures are exactly those `tvla run`
// reports, and each has its own memory limit; the results are written as
// Markdown, CSV, JSON and an SVG chart (report.go, chart.go).
package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/tvla-go/tvla/internal/tomlpos"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/tvp"
)

// Spec is an experiment: a program, its input, a baseline run and
// variants of it.
type Spec struct {
	// File is the spec file's path; Dir its folder, which relative paths
	// in the spec start from.
	File, Dir   string
	Title       string
	Description string
	// Program and Input are paths as written in the spec (relative to
	// Dir, or absolute); Input is empty when the spec names none (tvla run
	// then reads PROGRAM.tvs beside the program, if there is one).
	Program, Input string
	// Runs holds the baseline first, then the variants in the spec's
	// order, each with every option in force (a variant inherits what it
	// does not set from the baseline).
	Runs []Run
}

// ProgramPath and InputPath are the program's and the input's paths from
// the current folder.
func (s *Spec) ProgramPath() string { return s.resolve(s.Program) }

// InputPath is "" when the spec names no input.
func (s *Spec) InputPath() string {
	if s.Input == "" {
		return ""
	}
	return s.resolve(s.Input)
}

func (s *Spec) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Dir, p)
}

// Run is one configuration of the program: what `tvla run` is given.
type Run struct {
	Name        string
	Description string
	Baseline    bool
	// Defines are the macros (-D NAME=VALUE), a thread bound among them.
	Defines map[string]string
	// Join is "part", "rel", "ind" or "decomp".
	Join            string
	CollapseThreads bool
	// Abs and NonAbs are the predicates of --abs and --nonabs, sorted.
	Abs, NonAbs []string
	// MaxStructures and Timeout bound the run (0: no bound; the
	// experiment's --timeout applies when Timeout is 0).
	MaxStructures int
	Timeout       time.Duration

	// at is where the run's table and its keys are in the spec, for
	// errors found when the program is loaded (Check).
	at map[string]position
}

// Config is the run as the driver configures tvla run (without the
// program and input, which the Spec has); timeout is the bound used when
// the run sets none.
func (r Run) Config(timeout time.Duration) driver.Config {
	c := driver.Defaults("")
	names := make([]string, 0, len(r.Defines))
	for n := range r.Defines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Defines = append(c.Defines, n+"="+r.Defines[n])
	}
	c.Join, c.CollapseThreads, c.Abs, c.NonAbs = r.Join, r.CollapseThreads, r.Abs, r.NonAbs
	c.MaxStructures, c.Timeout = r.MaxStructures, r.timeout(timeout)
	return c
}

// Flags are the `tvla run` flags of the run's options, in a fixed order:
// macros by name, then the join, --collapse-threads, --abs, --nonabs and
// the bounds. timeout is the bound used when the run sets none.
func (r Run) Flags(timeout time.Duration) []string {
	c := r.Config(timeout)
	return c.RunFlags()
}

func (r Run) timeout(dflt time.Duration) time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return dflt
}

// SpecError is a mistake in a spec file, at a line and column of it when
// they are known (0 when not).
type SpecError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SpecError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// SpecErrors are all the mistakes found in a spec, in the file's order;
// printed one a line.
type SpecErrors []*SpecError

func (l SpecErrors) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// LoadSpec reads and checks the spec file at path. Every error is a
// SpecErrors.
func LoadSpec(path string) (*Spec, error) {
	data, err := tvp.ReadFile(path) // bounded: /dev/zero is not read forever
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, SpecErrors{{File: path, Msg: err.Error()}}
	}
	return ParseSpec(path, data)
}

// The keys a spec may use.
var (
	topKeys = []string{"title", "description", "program", "input", "baseline", "variant"}
	runKeys = []string{"name", "description", "defines", "join", "collapse_threads", "abs", "nonabs", "max_structures", "timeout"}
)

var (
	nameSyntax  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`)
	macroSyntax = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// ParseSpec reads a spec from data; path names it in errors and gives the
// folder relative paths start from.
func ParseSpec(path string, data []byte) (*Spec, error) {
	p := &specParser{file: path, pos: keyPositions(data)}
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := tomlpos.Of(data, pe)
			return nil, SpecErrors{{File: path, Line: line, Col: col, Msg: "TOML: " + pe.Message}}
		}
		return nil, SpecErrors{{File: path, Msg: "TOML: " + err.Error()}}
	}
	s := &Spec{File: path, Dir: filepath.Dir(path)}
	p.unknownKeys(raw, "", topKeys, "")
	s.Title = p.str(raw, "", "title")
	s.Description = p.str(raw, "", "description")
	s.Program = p.str(raw, "", "program")
	if _, ok := raw["program"]; !ok {
		p.errorf("", "", "the spec names no program (program = \"FILE.tvp\", relative to the spec)")
	} else if _, isString := raw["program"].(string); isString && s.Program == "" {
		p.errorf("", "program", "program is empty: it names the TVP file, relative to the spec")
	} else if s.Program != "" {
		p.checkFile(s, "program", s.Program)
	}
	if s.Input = p.str(raw, "", "input"); s.Input != "" {
		p.checkFile(s, "input", s.Input)
	}

	base := Run{Name: "baseline", Baseline: true, Defines: map[string]string{}, Join: driver.DefaultJoin, Abs: []string{}, NonAbs: []string{}}
	switch b := raw["baseline"].(type) {
	case nil:
		p.errorf("", "", "the spec has no [baseline] table (it may be empty: the program with no option)")
	case map[string]any:
		base = p.run(b, "baseline", base, "the baseline")
	default:
		p.errorf("", "baseline", "baseline must be a table ([baseline]), not %s", typeName(b))
	}
	s.Runs = append(s.Runs, base)
	seen := map[string]string{base.Name: "the baseline"}
	switch vs := raw["variant"].(type) {
	case nil:
	case []map[string]any:
		for i, v := range vs {
			table := fmt.Sprintf("variant#%d", i+1)
			what := fmt.Sprintf("variant %d", i+1)
			if n, ok := v["name"].(string); ok && n != "" {
				what = fmt.Sprintf("variant %q", n)
			}
			r := p.run(v, table, base, what)
			r.Baseline = false
			if _, ok := v["name"]; !ok {
				p.errorf(table, "", "%s has no name", what)
			} else if prev, dup := seen[r.Name]; dup {
				p.errorf(table, "name", "%s has the name of %s", what, prev)
			} else {
				seen[r.Name] = what
			}
			s.Runs = append(s.Runs, r)
		}
	default:
		p.errorf("", "variant", "variant must be an array of tables ([[variant]]), not %s", typeName(vs))
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i], p.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, p.errs
	}
	return s, nil
}

type specParser struct {
	file string
	pos  map[string]position
	errs SpecErrors
}

// errorf records an error at key of table ("" for the top level), or at
// the table's header when key is "" or not found.
func (p *specParser) errorf(table, key, format string, args ...any) {
	e := &SpecError{File: p.file, Msg: fmt.Sprintf(format, args...)}
	at, ok := p.pos[joinKey(table, key)]
	if !ok {
		at = p.pos[table]
	}
	e.Line, e.Col = at.line, at.col
	p.errs = append(p.errs, e)
}

func (p *specParser) unknownKeys(m map[string]any, table string, known []string, what string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(known, k) {
			where := ""
			if what != "" {
				where = " in " + what
			}
			p.errorf(table, k, "unknown key %s%s (known: %s)", k, where, strings.Join(known, ", "))
		}
	}
}

func (p *specParser) str(m map[string]any, table, key string) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.errorf(table, key, "%s must be a string, not %s", key, typeName(v))
	}
	return s
}

func (p *specParser) checkFile(s *Spec, key, path string) {
	if _, err := os.Stat(s.resolve(path)); err != nil {
		p.errorf("", key, "%s %s: no such file (paths are relative to the spec's folder)", key, path)
	}
}

// run reads a [baseline] or [[variant]] table: the options from, with what
// the table sets.
func (p *specParser) run(m map[string]any, table string, from Run, what string) Run {
	r := from
	r.Description = ""
	r.at = map[string]position{"": p.pos[table]}
	for _, k := range []string{"abs", "nonabs", "defines", "collapse_threads"} {
		if at, ok := p.pos[joinKey(table, k)]; ok {
			r.at[k] = at
		}
	}
	r.Defines = map[string]string{}
	for k, v := range from.Defines {
		r.Defines[k] = v
	}
	p.unknownKeys(m, table, runKeys, what)
	if _, ok := m["name"]; ok {
		r.Name = p.str(m, table, "name")
		if !nameSyntax.MatchString(r.Name) {
			p.errorf(table, "name", "the name %q of %s must be letters, digits and - _ . + (starting with a letter or a digit)", r.Name, what)
		}
	}
	r.Description = p.str(m, table, "description")
	switch d := m["defines"].(type) {
	case nil:
	case map[string]any:
		names := make([]string, 0, len(d))
		for n := range d {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			key := joinKey("defines", n)
			if !macroSyntax.MatchString(n) {
				p.errorf(table, key, "%s: %q is not a macro name", what, n)
				continue
			}
			switch v := d[n].(type) {
			case bool:
				if v {
					r.Defines[n] = "1"
				} else {
					delete(r.Defines, n)
				}
			case int64:
				r.Defines[n] = strconv.FormatInt(v, 10)
			case string:
				if strings.ContainsAny(v, "\n\r") {
					p.errorf(table, key, "%s: the value of macro %s is on more than one line", what, n)
				}
				r.Defines[n] = v
			default:
				p.errorf(table, key, "%s: macro %s must be true, false (not defined), an integer or a string, not %s", what, n, typeName(v))
			}
		}
	default:
		p.errorf(table, "defines", "%s: defines must be a table of macros (defines = { THREADS = 2 }), not %s", what, typeName(d))
	}
	if _, ok := m["join"]; ok {
		r.Join = p.str(m, table, "join")
		if joins := driver.AbstractJoins(true); !slices.Contains(joins, r.Join) {
			p.errorf(table, "join", "%s: join must be %s, not %q", what, driver.OrList(joins, true), r.Join)
		}
	}
	if v, ok := m["collapse_threads"]; ok {
		b, ok := v.(bool)
		if !ok {
			p.errorf(table, "collapse_threads", "%s: collapse_threads must be true or false, not %s", what, typeName(v))
		}
		r.CollapseThreads = b
	}
	for _, k := range []string{"abs", "nonabs"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		list, ok := p.strings(v)
		if !ok {
			p.errorf(table, k, "%s: %s must be a list of predicate names (%s = [\"p\", \"q\"]), not %s", what, k, k, typeName(v))
		}
		if k == "abs" {
			r.Abs = list
		} else {
			r.NonAbs = list
		}
	}
	for _, a := range r.Abs {
		if contains(r.NonAbs, a) {
			key := "abs"
			if _, ok := m[key]; !ok {
				key = "nonabs"
			}
			p.errorf(table, key, "%s: predicate %s is in both abs and nonabs (a variant inherits the list it does not set from the baseline)", what, a)
		}
	}
	if v, ok := m["max_structures"]; ok {
		n, ok := v.(int64)
		if !ok || n < 0 || n > 1<<31-1 {
			p.errorf(table, "max_structures", "%s: max_structures must be a number of structures (0: no limit), not %s", what, valueText(v))
		}
		r.MaxStructures = int(n)
	}
	if v, ok := m["timeout"]; ok {
		s, isString := v.(string)
		d, err := time.ParseDuration(s)
		if !isString || err != nil || d < 0 {
			p.errorf(table, "timeout", "%s: timeout must be a duration such as \"90s\" or \"5m\" (\"0s\": no limit), not %s", what, valueText(v))
		}
		r.Timeout = d
	}
	return r
}

// strings reads an array of strings, sorted without repeats.
func (p *specParser) strings(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return []string{}, false
	}
	out := []string{}
	for _, x := range arr {
		s, ok := x.(string)
		if !ok || s == "" {
			return []string{}, false
		}
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out, true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func joinKey(table, key string) string {
	switch {
	case table == "":
		return key
	case key == "":
		return table
	}
	return table + "." + key
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	}
	return "a date or time"
}

// valueText shows a value as the spec wrote it, near enough.
func valueText(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	}
	return typeName(v)
}

// position is a line and a column (from 1).
type position struct{ line, col int }

// keyPositions finds where keys and table headers are, for error messages
// (the TOML library reports positions of syntax errors only). It reads
// the usual layout, one `key = value` or header a line, and names keys by
// their table: "baseline.join", "variant#2.name", "variant#2" for the
// second [[variant]] header, "variant#2.defines.THREADS" for a key of an
// inline table. A key it cannot place is reported without a position.
func keyPositions(data []byte) map[string]position {
	pos := map[string]position{}
	table := ""
	arrays := map[string]int{}
	inString := "" // the delimiter of a multi-line string being skipped
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		if inString != "" {
			if strings.Contains(line, inString) {
				inString = ""
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		switch {
		case trimmed == "" || trimmed[0] == '#':
			continue
		case strings.HasPrefix(trimmed, "[["):
			name := strings.TrimSpace(strings.Trim(strings.SplitN(trimmed, "]]", 2)[0], "[ "))
			arrays[name]++
			table = fmt.Sprintf("%s#%d", name, arrays[name])
			pos[table] = position{n, col}
			continue
		case trimmed[0] == '[':
			table = strings.TrimSpace(strings.Trim(strings.SplitN(trimmed, "]", 2)[0], "[ "))
			pos[table] = position{n, col}
			continue
		}
		key, rest, ok := strings.Cut(trimmed, "=")
		if !ok {
			continue
		}
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		if _, seen := pos[joinKey(table, key)]; !seen {
			pos[joinKey(table, key)] = position{n, col}
		}
		rest = strings.TrimSpace(rest)
		for _, delim := range []string{`"""`, `'''`} {
			if strings.HasPrefix(rest, delim) && !strings.Contains(rest[3:], delim) {
				inString = delim
			}
		}
		// The keys of an inline table on the same line: { A = 1, B = "x" }.
		if strings.HasPrefix(rest, "{") {
			for _, m := range inlineKey.FindAllStringSubmatchIndex(line, -1) {
				k := strings.Trim(line[m[2]:m[3]], `"'`)
				pos[joinKey(table, key+"."+k)] = position{n, m[2] + 1}
			}
		}
	}
	return pos
}

var inlineKey = regexp.MustCompile(`[{,]\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=`)
