package tvp

import (
	"fmt"
	"sort"

	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// LoadConfig says how to read a program and its inputs.
type LoadConfig struct {
	// Defines are preprocessor macros from the command line.
	Defines map[string]string
	// SearchPath lists folders searched for #include after the including
	// file's own.
	SearchPath []string
	// ReadFile reads a file; nil means reading it whole if it holds at
	// most MaxProgramBytes (MaxTVSBytes for a TVS file and what it
	// includes), and refusing it otherwise.
	ReadFile func(string) ([]byte, error)
	// Abstraction overrides the abs and nonabs properties of the named
	// predicates (unary or nullary): true makes one an abstraction
	// predicate, false not one (tvla run --abs, --nonabs).
	Abstraction map[string]bool
	// Soft, when not nil, asks for generated soft invariants (tvla run
	// --soft-invariants): see predicates.Vocabulary.AddSoftInvariants.
	// They are added after the abstraction overrides, which decide what a
	// thread predicate is; the program's SoftInvariants lists them.
	Soft *predicates.SoftConfig
	// MaxStructureBytes, when not 0, refuses (an *Error at the structure)
	// a TVS structure whose bit tables, one per predicate as an analysis
	// may come to (tvl.TableBytes), would take more: a TVS file of a few
	// MB can declare a universe whose n² bits no machine holds, and
	// allocating them would end the process. MaxStructureLimit names the
	// limit in the message ("--max-memory", "the machine's memory"; "the
	// limit" when empty).
	MaxStructureBytes uint64
	MaxStructureLimit string
}

// AbstractionError says why a predicate of LoadConfig.Abstraction cannot
// be made (or unmade) an abstraction predicate.
type AbstractionError struct {
	Pred string
	Abs  bool // what was asked
	Err  error
}

func (e *AbstractionError) Error() string {
	what := "an abstraction predicate"
	if !e.Abs {
		what = "a non-abstraction predicate"
	}
	return fmt.Sprintf("cannot make %s %s: %v", e.Pred, what, e.Err)
}

func (e *AbstractionError) Unwrap() error { return e.Err }

// The most a file may hold (see cpp.ReadFile): a program and what it
// includes, a .properties file and an experiment spec are text a person
// writes; a TVS file is data that tvla writes too, and WriteTVS refuses
// to write what LoadTVS would refuse to read.
const (
	MaxProgramBytes = cpp.MaxProgramBytes
	MaxTVSBytes     = cpp.MaxTVSBytes
)

// ReadFile reads a text input that is not a program (an experiment
// spec): at most MaxProgramBytes, never more than that plus one byte of
// any file, /dev/zero included. A larger file is an *fs.PathError naming
// it. A byte-order mark is kept: the caller's parser decides.
func ReadFile(path string) ([]byte, error) {
	return cpp.ReadFile(path, MaxProgramBytes)
}

func (c LoadConfig) preprocess(limit int64) cpp.Config {
	return cpp.Config{Defines: c.Defines, SearchPath: c.SearchPath, ReadFile: c.ReadFile, MaxBytes: limit}
}

// LoadProgram preprocesses, parses and loads the TVP program at path. It
// also returns the files read (the program and everything it includes).
func LoadProgram(path string, cfg LoadConfig) (*model.Program, []string, error) {
	src, err := cpp.Preprocess(path, cfg.preprocess(MaxProgramBytes))
	if err != nil {
		return nil, nil, err
	}
	prog, err := ParseProgram(path, src)
	if err != nil {
		return nil, src.Files(), err
	}
	for _, w := range src.Warnings() {
		prog.Warnings = append(prog.Warnings, w.Error())
	}
	// The overrides come after the declarations, so that they win; by
	// name, so that the first error reported does not depend on map order.
	names := make([]string, 0, len(cfg.Abstraction))
	for name := range cfg.Abstraction {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		abs := cfg.Abstraction[name]
		if err := prog.Vocabulary.SetAbstraction(name, abs); err != nil {
			return nil, src.Files(), &AbstractionError{Pred: name, Abs: abs, Err: err}
		}
	}
	if cfg.Soft != nil {
		soft, err := prog.Vocabulary.AddSoftInvariants(*cfg.Soft)
		if err != nil {
			return nil, src.Files(), err
		}
		prog.SoftInvariants = soft
		prog.FocusSoftConditions()
	}
	return prog, src.Files(), nil
}

// LoadTVS preprocesses and parses the TVS file at path against a
// program's vocabulary.
func LoadTVS(path string, voc *tvl.Vocabulary, cfg LoadConfig) ([]TVSLocation, error) {
	src, err := cpp.Preprocess(path, cfg.preprocess(MaxTVSBytes))
	if err != nil {
		return nil, err
	}
	return parseTVS(src, voc, tvsLimit{cfg.MaxStructureBytes, cfg.MaxStructureLimit})
}
