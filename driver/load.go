package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// A Frontend reads a program file of another language than TVP (an
// algorithm, compiled to TVP) into a model under the loader's
// configuration (macros, search path, abstraction overrides, generated
// soft invariants), returning the files it read. Input, when not nil,
// gives the initial structures of a run that names no TVS file: the name
// errors give them and a configuration whose ReadFile serves that name.
type Frontend struct {
	Load  func(path string, cfg tvp.LoadConfig) (*model.Program, []string, error)
	Input func(path string, cfg tvp.LoadConfig) (string, tvp.LoadConfig, error)
	// SoftByDefault: with --collapse-threads and no --soft-invariants,
	// generate the soft invariants (auto), each round stopping at its
	// first message unless --max-messages says otherwise. A generated
	// model has no hand-written soft invariants, and a round that goes on
	// past a false alarm only spreads it.
	SoftByDefault bool
}

// applyFrontendDefaults sets what the program's front end asks for when
// the user did not say otherwise.
func applyFrontendDefaults(c *Config) {
	if !softByDefault(c) {
		return
	}
	if c.Soft.Mode == "" || c.Soft.Mode == SoftOff {
		c.Soft.Mode = SoftAuto
		if c.MaxMessages == 0 && !c.Explicit["max-messages"] {
			c.MaxMessages = 1
		}
	}
}

// softByDefault reports whether the program's front end generates soft
// invariants for c when not told otherwise.
func softByDefault(c *Config) bool {
	f, ok := frontends[filepath.Ext(c.Program)]
	return ok && f.SoftByDefault && c.CollapseThreads && !c.Explicit["soft-invariants"]
}

// frontends are the registered front ends by file extension.
var frontends = map[string]Frontend{}

// RegisterFrontend makes programs whose file name ends in ext (".alg")
// load with f; other files are TVP. Register before any run starts.
func RegisterFrontend(ext string, f Frontend) { frontends[ext] = f }

// LoadProgram reads the program at path with the front end its
// extension asks for (TVP by default).
func LoadProgram(path string, cfg tvp.LoadConfig) (*model.Program, []string, error) {
	if f, ok := frontends[filepath.Ext(path)]; ok {
		return f.Load(path, cfg)
	}
	return tvp.LoadProgram(path, cfg)
}

// Loaded is a program with its input structures.
type Loaded struct {
	Program *model.Program
	// Files are the files the program was read from; Inputs the TVS files
	// read.
	Files      []string
	Inputs     []string
	Structures []*tvl.Structure
	// Origins are where each structure starts in its TVS file (the zero
	// position for the empty structure of a run without inputs).
	Origins []tvp.Pos
	// PerInput counts the structures of each input file.
	PerInput []int
}

// flagError is an input error a flag caused: its text names the flag,
// and it wraps the loader's error.
type flagError struct {
	text string
	err  error
}

func (e *flagError) Error() string { return e.text }
func (e *flagError) Unwrap() error { return e.err }

// Load reads the Config's program and its inputs: the TVS files given, or
// PROGRAM.tvs beside the program, or else one empty structure. The
// loader's positioned errors (tvp.ErrorList, *tvp.Error) are returned as
// they are.
func Load(c *Config) (*Loaded, error) {
	if err := c.readSoftSet(nil); err != nil {
		return nil, err
	}
	return load(c, c.LoadConfig())
}

// LoadReading is Load with every file the loader reads passed through
// read: the program, what it includes, the TVS inputs (PROGRAM.tvs beside
// the program when none is given) and what they include. It is for a
// caller that must know them all (tvla experiment's cache hashes them); a
// front end other than TVP's may read files its own way, and Files lists
// the program's in any case.
func LoadReading(c *Config, read func(path string) ([]byte, error)) (*Loaded, error) {
	if err := c.readSoftSet(read); err != nil {
		return nil, err
	}
	cfg := c.LoadConfig()
	cfg.ReadFile = read
	return load(c, cfg)
}

func load(c *Config, cfg tvp.LoadConfig) (*Loaded, error) {
	for _, a := range append([]string{c.Program}, c.Inputs...) {
		if _, err := os.Stat(a); err != nil {
			return nil, fmt.Errorf("%s: %v", a, errCause(err))
		}
	}
	prog, files, err := LoadProgram(c.Program, cfg)
	var ae *tvp.AbstractionError
	if errors.As(err, &ae) {
		flag := "--abs"
		if !ae.Abs {
			flag = "--nonabs"
		}
		return nil, &flagError{fmt.Sprintf("%s %s: %v", flag, ae.Pred, ae.Err), err}
	}
	var se *predicates.SoftError
	if errors.As(err, &se) {
		return nil, &flagError{fmt.Sprintf("--soft-invariants: %v", se), err}
	}
	if err != nil {
		return nil, err
	}
	l := &Loaded{Program: prog, Files: files, Inputs: c.Inputs}
	if f, ok := frontends[filepath.Ext(c.Program)]; ok && f.Input != nil && len(l.Inputs) == 0 {
		name, inner, err := f.Input(c.Program, cfg)
		if err != nil {
			return nil, err
		}
		l.Inputs, cfg = []string{name}, inner
	}
	if len(l.Inputs) == 0 {
		beside := strings.TrimSuffix(c.Program, filepath.Ext(c.Program)) + ".tvs"
		if _, err := os.Stat(beside); err == nil {
			l.Inputs = []string{beside}
		}
	}
	for _, in := range l.Inputs {
		locs, err := tvp.LoadTVS(in, prog.Vocabulary.Tvl(), cfg)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, loc := range locs {
			for _, s := range loc.Structures {
				l.Structures = append(l.Structures, s.Structure)
				l.Origins = append(l.Origins, s.Pos)
				n++
			}
		}
		l.PerInput = append(l.PerInput, n)
	}
	if len(l.Inputs) == 0 {
		l.Structures = []*tvl.Structure{tvl.New(prog.Vocabulary.Tvl())}
		l.Origins = []tvp.Pos{{}}
	}
	if soft := prog.SoftInvariants; soft != nil {
		// The inputs do not know the generated soft invariants: they
		// take their definitions' values there.
		for _, s := range l.Structures {
			if err := soft.Initialize(s); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

// errCause strips the path that os errors repeat.
func errCause(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
