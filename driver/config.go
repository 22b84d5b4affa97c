package driver

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// Config is one analysis of a program: what `tvla run` is given, shared by
// `tvla embed`, `tvla experiment` and any other front end. Errors about it
// name the tvla run flag of the setting at fault.
type Config struct {
	// Program is the program file; Inputs its TVS inputs (none: PROGRAM.tvs
	// beside the program when it exists, else one empty structure).
	Program string
	Inputs  []string
	// Defines are macros as -D writes them: NAME (meaning 1), NAME=VALUE
	// or TVLA's NAME(VALUE).
	Defines    []string
	SearchPath []string
	// Properties is a TVLA .properties file read after PROGRAM.properties
	// beside the program (--props).
	Properties string
	// Explicit names the settings given explicitly, by their flag names
	// (join, action, max-structures, max-messages): a .properties file
	// does not override those.
	Explicit map[string]bool

	// Join is the join's name: part, rel, ind, or conc for a concrete run.
	Join string
	// ActionOrder is TVLA's [f][c]pu[c]b.
	ActionOrder   string
	MaxStructures int
	MaxMessages   int
	// CollapseThreads defines the macro COLLAPSE_THREADS, under which a
	// model collapses its threads.
	CollapseThreads bool
	// Abs and NonAbs make predicates abstraction predicates, or not,
	// whatever their declarations say.
	Abs, NonAbs []string
	// Closure is full or tvla (predicates.ParseClosure); "" means full.
	Closure string
	// Workers apply actions in parallel; 0 means one per CPU.
	Workers int
	// BreakIfCoerceFails and Differencing are TVLA's
	// breakIfCoerceAfterUpdateFailed and differencing.difference (both on
	// by default; a .properties file may turn them off).
	BreakIfCoerceFails bool
	Differencing       bool
	// NoCloseCycleMessages is tvla.differencing.messageForCloseCycle =
	// false: no "Closed cycle for acyclic predicate" messages.
	NoCloseCycleMessages bool
	// DecomposeKeepBinary is tvla.decompose.outside.keepBinary with
	// .merge, for graph decomposition (--join decomp): the outside
	// individual of a component keeps the join of the binary values of
	// the individuals it stands for. keepBinary and merge are the two
	// properties as read so far.
	DecomposeKeepBinary bool
	keepBinary, merge   bool
	// DecomposeMustOutside is tvla.decompose.mustOutside: a composition
	// of two or more components is kept only with an individual outside
	// all of them.
	DecomposeMustOutside bool
	// Watch names unary predicates whose loss on a thread raises a
	// message (engine.Options.Watch, --watch).
	Watch []string
	// SkipSuperseded processes only the latest version of a stored
	// structure that grew while queued (engine.Options.SkipSuperseded,
	// --skip-superseded).
	SkipSuperseded bool

	Concrete ConcreteConfig
	Soft     SoftConfig

	// Timeout and MaxMemory stop a run cleanly (0: no limit); see
	// WithLimits.
	Timeout   time.Duration
	MaxMemory ByteSize
	// SpillDir, when set, is a folder where the run's stored structures
	// go once its live heap passes SpillAt (0: DefaultSpillPercent of
	// MaxMemory), so that a run larger than memory goes on; see
	// spill.go.
	SpillDir string
	SpillAt  ByteSize
	// Checkpoint, when set, is a file the run writes its state to when a
	// limit or an interrupt stops it, and every CheckpointEvery (0: only
	// then); Resume a checkpoint file to go on from instead of the
	// inputs (engine.CheckpointOptions; checkpoint.go).
	Checkpoint      string
	CheckpointEvery time.Duration
	Resume          string
	// CPUProfile, for developers, is a file for a CPU profile of the run.
	CPUProfile string
	// MemProfile, for developers, is a file for a heap profile taken
	// after the run, its result still held, after a collection: what the
	// stored structures and the rest of the result keep live.
	MemProfile string
}

// ConcreteConfig bounds concrete runs (join conc, and embed's concrete
// side).
type ConcreteConfig struct {
	MaxDepth int
	// Copies is how many individuals a summary individual of an input
	// stands for at most; Threads the same for threads (0: Copies).
	Copies  int
	Threads int
}

// SoftConfig asks for generated soft invariants.
type SoftConfig struct {
	// Mode is off (or ""), auto or report.
	Mode            string
	LocationPattern string
	Preds, Skip     []string
	// Rounds bounds the runs of the refinement (1: no conditional soft
	// invariants).
	Rounds int
	// Out is a file for the declarations of those that held.
	Out string
	// From is a saved soft-invariant set to start from (softset.go;
	// SoftSetNone: none, "": PROGRAM.soft when it exists); Save a file
	// for the set that held when the run verifies.
	From, Save string
	// set is From's set once read (Config.readSoftSet).
	set *SoftSet
}

// Soft-invariant modes.
const (
	SoftOff    = "off"
	SoftAuto   = "auto"
	SoftReport = "report"
)

// DefaultSoftRounds is --soft-rounds' default; the collapsed stack needs 3.
const DefaultSoftRounds = 8

// DefaultConcreteStructures bounds a concrete run whose MaxStructures is
// 0: concrete state spaces are often infinite.
const DefaultConcreteStructures = 100000

// collapseMacro is the preprocessor macro CollapseThreads defines.
const collapseMacro = "COLLAPSE_THREADS"

// Defaults is the Config of `tvla run PROGRAM` with no flag.
func Defaults(program string, inputs ...string) Config {
	return Config{
		Program: program, Inputs: inputs, Join: DefaultJoin, ActionOrder: "fcpucb", Closure: "full",
		BreakIfCoerceFails: true, Differencing: true,
		Concrete: ConcreteConfig{Copies: 3},
		Soft:     SoftConfig{Mode: SoftOff, LocationPattern: predicates.DefaultLocationPattern, Rounds: DefaultSoftRounds},
	}
}

// SoftOn reports whether soft invariants were asked for.
func (c *Config) SoftOn() bool { return c.Soft.Mode != SoftOff && c.Soft.Mode != "" }

var actionOrder = regexp.MustCompile(`^f?c?puc?b$`)

// Validate checks the settings, in the order tvla run reports them.
func (c *Config) Validate() error {
	if !slices.Contains(Joins(), c.Join) {
		return fmt.Errorf("--join must be %s, not %q", OrList(Joins(), false), c.Join)
	}
	if c.Closure == "" {
		c.Closure = "full"
	}
	if _, err := predicates.ParseClosure(c.Closure); err != nil {
		return fmt.Errorf("--closure: %v", err)
	}
	if !actionOrder.MatchString(c.ActionOrder) {
		return fmt.Errorf("--action must match [f][c]pu[c]b, not %q", c.ActionOrder)
	}
	if strings.HasPrefix(c.ActionOrder, "fp") {
		// TVLA 3's Focus does not coerce the structures it splits; ours
		// does (it is what makes it terminate), so without the Coerce
		// after Focus the two would differ, not merely in speed.
		return fmt.Errorf("--action %s is not supported: Focus here always coerces what it splits, as with fc (TVLA 3 without c keeps inconsistent splits); use fc%s", c.ActionOrder, c.ActionOrder[1:])
	}
	if c.MaxStructures < 0 || c.MaxMessages < 0 {
		return fmt.Errorf("limits must not be negative")
	}
	if c.Workers < 0 {
		return fmt.Errorf("--workers must not be negative")
	}
	if c.Timeout < 0 {
		return fmt.Errorf("--timeout must not be negative")
	}
	if c.SpillDir != "" {
		if err := checkSpillDir(c.SpillDir); err != nil {
			return fmt.Errorf("--spill-dir: %v", err)
		}
	} else if c.SpillAt > 0 {
		return fmt.Errorf("--spill-at needs --spill-dir")
	}
	if err := c.validateCheckpoint(); err != nil {
		return err
	}
	if k := c.Concrete; k.MaxDepth < 0 || k.Copies < 1 || k.Threads < 0 {
		return fmt.Errorf("--max-depth and --threads must not be negative, --copies must be at least 1")
	}
	for _, d := range c.Defines {
		if _, _, err := ParseDefine(d); err != nil {
			return err
		}
	}
	if _, err := abstractionOverrides(c.Abs, c.NonAbs); err != nil {
		return err
	}
	return c.validateSoft()
}

// validateSoft checks the soft-invariant settings against the others.
func (c *Config) validateSoft() error {
	s := &c.Soft
	switch s.Mode {
	case "", SoftOff, SoftAuto, SoftReport:
	default:
		return fmt.Errorf("--soft-invariants must be off, auto or report, not %q", s.Mode)
	}
	if !c.SoftOn() && !softByDefault(c) {
		// (0 and "" are the zero values of front ends without the flags.)
		if s.Rounds != 0 && s.Rounds != DefaultSoftRounds {
			return fmt.Errorf("--soft-rounds needs %s", generatedSoft)
		}
		if (s.LocationPattern != "" && s.LocationPattern != predicates.DefaultLocationPattern) || len(s.Preds) > 0 || len(s.Skip) > 0 || s.Out != "" {
			return fmt.Errorf("--soft-locations, --soft-pred, --soft-skip and --soft-invariants-out need %s", generatedSoft)
		}
		if s.From != "" || s.Save != "" {
			return fmt.Errorf("--soft-from and --soft-save need %s", generatedSoft)
		}
		return nil
	}
	if !c.SoftOn() {
		// An algorithm with --collapse-threads: its front end turns auto
		// on when loading, so the flags that tune generation apply.
		if s.Rounds < 0 || s.Rounds == 0 && c.Explicit["soft-rounds"] {
			return fmt.Errorf("--soft-rounds must be at least 1")
		}
		return checkLocationPattern(s.LocationPattern)
	}
	if !c.CollapseThreads {
		return fmt.Errorf("--soft-invariants %s needs --collapse-threads: soft invariants keep what collapsing the threads loses; without it the thread predicates are abstraction predicates and threads keep their properties anyway", s.Mode)
	}
	if IsConcrete(c.Join) {
		return fmt.Errorf("--soft-invariants cannot be used with --join conc: a concrete run has no abstraction to refine")
	}
	if s.Rounds < 1 {
		return fmt.Errorf("--soft-rounds must be at least 1")
	}
	return checkLocationPattern(s.LocationPattern)
}

// generatedSoft is what a flag that tunes generated soft invariants
// needs: where they are generated.
const generatedSoft = "generated soft invariants: --soft-invariants auto or report, or an algorithm (.alg) with --collapse-threads"

// checkLocationPattern checks --soft-locations ("" is the zero value of
// front ends without the flag: the default).
func checkLocationPattern(pattern string) error {
	if pattern == "" {
		pattern = predicates.DefaultLocationPattern
	}
	if err := predicates.CheckLocationPattern(pattern); err != nil {
		return fmt.Errorf("--soft-locations: %v", err)
	}
	return nil
}

// abstractionOverrides turns Abs and NonAbs into the loader's map; a
// predicate named by both is an error.
func abstractionOverrides(abs, nonabs []string) (map[string]bool, error) {
	m := map[string]bool{}
	for _, p := range abs {
		m[p] = true
	}
	for _, p := range nonabs {
		if m[p] {
			return nil, fmt.Errorf("predicate %s is given to both --abs and --nonabs", p)
		}
		m[p] = false
	}
	return m, nil
}

var defineSyntax = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*)|\((.*)\))?$`)

// ParseDefine reads NAME, NAME=VALUE or TVLA's NAME(VALUE).
func ParseDefine(d string) (name, value string, err error) {
	m := defineSyntax.FindStringSubmatch(d)
	if m == nil {
		return "", "", fmt.Errorf("bad macro definition %q: want NAME, NAME=VALUE or NAME(VALUE)", d)
	}
	value = m[2]
	if m[3] != "" {
		value = m[3]
	}
	return m[1], value, nil
}

// DefineMap is the macros the preprocessor gets: the Defines (NAME alone
// means 1), and COLLAPSE_THREADS under CollapseThreads.
func (c *Config) DefineMap() map[string]string {
	out := map[string]string{}
	for _, d := range c.Defines {
		name, value, _ := ParseDefine(d)
		if value == "" {
			value = "1"
		}
		out[name] = value
	}
	if c.CollapseThreads {
		// The model decides what collapsing means: under this macro it
		// makes its thread predicates nonabs and adds its soft invariants
		// (the same file runs on TVLA 3 with -DCOLLAPSE_THREADS).
		out[collapseMacro] = "1"
	}
	return out
}

// LoadConfig is the loader's configuration for the program and its
// inputs: macros, search path, abstraction overrides and, when asked for,
// generated soft invariants.
func (c *Config) LoadConfig() tvp.LoadConfig {
	overrides, _ := abstractionOverrides(c.Abs, c.NonAbs)
	cfg := tvp.LoadConfig{Defines: c.DefineMap(), SearchPath: c.SearchPath, Abstraction: overrides}
	// A TVS structure whose tables alone pass the memory limit (or, with
	// none, the machine's memory) could only end the run, and allocating
	// them at once, past what the sampler of the live heap sees, would end
	// the process: it is refused as bad input instead.
	if c.MaxMemory > 0 {
		cfg.MaxStructureBytes, cfg.MaxStructureLimit = uint64(c.MaxMemory), "--max-memory"
	} else if m := physicalMemory(); m > 0 {
		cfg.MaxStructureBytes, cfg.MaxStructureLimit = m, "the machine's memory"
	}
	if c.SoftOn() {
		cfg.Soft = &predicates.SoftConfig{LocationPattern: c.Soft.LocationPattern, Preds: c.Soft.Preds, Skip: c.Soft.Skip}
		if set := c.Soft.set; set != nil {
			cfg.Soft.Only, cfg.Soft.Saved = set.only(), true
			cfg.Soft.Pairs = append([]predicates.SoftPair(nil), set.Pairs...)
		}
	}
	return cfg
}

// readSoftSet reads the saved soft-invariant set the run starts from
// (SoftSetFile), through read when not nil.
func (c *Config) readSoftSet(read func(string) ([]byte, error)) error {
	path := c.SoftSetFile()
	if path == "" || (c.Soft.set != nil && c.Soft.set.Path == path) {
		return nil
	}
	if read == nil {
		read = os.ReadFile
	}
	data, err := read(path)
	if err != nil {
		return &flagError{fmt.Sprintf("--soft-from: %s: %v", path, errCause(err)), err}
	}
	set, err := ParseSoftSet(path, data)
	if err != nil {
		return err
	}
	c.Soft.set = set
	return nil
}

// RunFlags renders the Config's settings as `tvla run` flags (without
// the program and inputs), each only when it differs from Defaults, in a
// fixed order: macros, join, --collapse-threads, --abs, --nonabs, the
// limits, then the rest.
func (c *Config) RunFlags() []string {
	var out []string
	add := func(flag string, values ...string) {
		for _, v := range values {
			out = append(out, flag, v)
		}
	}
	add("-D", c.Defines...)
	if c.Join != DefaultJoin && c.Join != "" {
		add("--join", c.Join)
	}
	if c.CollapseThreads {
		out = append(out, "--collapse-threads")
	}
	add("--abs", c.Abs...)
	add("--nonabs", c.NonAbs...)
	if c.MaxStructures > 0 {
		add("--max-structures", strconv.Itoa(c.MaxStructures))
	}
	if c.Timeout > 0 {
		add("--timeout", c.Timeout.String())
	}
	if c.MaxMessages > 0 {
		add("--max-messages", strconv.Itoa(c.MaxMessages))
	}
	if c.MaxMemory > 0 {
		add("--max-memory", strconv.FormatUint(uint64(c.MaxMemory), 10))
	}
	if c.SpillDir != "" {
		add("--spill-dir", c.SpillDir)
	}
	if c.SpillAt > 0 {
		add("--spill-at", strconv.FormatUint(uint64(c.SpillAt), 10))
	}
	if c.Checkpoint != "" {
		add("--checkpoint", c.Checkpoint)
	}
	if c.CheckpointEvery > 0 {
		add("--checkpoint-every", c.CheckpointEvery.String())
	}
	if c.Resume != "" {
		add("--resume", c.Resume)
	}
	if c.ActionOrder != "fcpucb" && c.ActionOrder != "" {
		add("--action", c.ActionOrder)
	}
	if c.Closure != "full" && c.Closure != "" {
		add("--closure", c.Closure)
	}
	if c.Properties != "" {
		add("--props", c.Properties)
	}
	add("--path", c.SearchPath...)
	if c.Workers > 0 {
		add("--workers", strconv.Itoa(c.Workers))
	}
	add("--watch", c.Watch...)
	if c.SkipSuperseded {
		out = append(out, "--skip-superseded")
	}
	return append(out, c.concreteFlags()...)
}

// concreteFlags renders the concrete-run and soft-invariant settings.
func (c *Config) concreteFlags() []string {
	var out []string
	k := c.Concrete
	if k.MaxDepth > 0 {
		out = append(out, "--max-depth", strconv.Itoa(k.MaxDepth))
	}
	if k.Copies != 3 && k.Copies != 0 {
		out = append(out, "--copies", strconv.Itoa(k.Copies))
	}
	if k.Threads > 0 {
		out = append(out, "--threads", strconv.Itoa(k.Threads))
	}
	if !c.SoftOn() {
		return out
	}
	s := c.Soft
	out = append(out, "--soft-invariants", s.Mode)
	if s.LocationPattern != predicates.DefaultLocationPattern && s.LocationPattern != "" {
		out = append(out, "--soft-locations", s.LocationPattern)
	}
	for _, p := range s.Preds {
		out = append(out, "--soft-pred", p)
	}
	for _, p := range s.Skip {
		out = append(out, "--soft-skip", p)
	}
	if s.Rounds != DefaultSoftRounds {
		out = append(out, "--soft-rounds", strconv.Itoa(s.Rounds))
	}
	if s.Out != "" {
		out = append(out, "--soft-invariants-out", s.Out)
	}
	if s.From != "" {
		out = append(out, "--soft-from", s.From)
	}
	if s.Save != "" {
		out = append(out, "--soft-save", s.Save)
	}
	return out
}

// sortedSet returns the distinct strings of xs, sorted (never nil).
func sortedSet(xs []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
