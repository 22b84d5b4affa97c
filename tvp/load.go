package tvp

import (
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// LoadConfig says how to read a program and its inputs.
type LoadConfig struct {
	// Defines are preprocessor macros from the command line.
	Defines map[string]string
	// SearchPath lists folders searched for #include after the including
	// file's own.
	SearchPath []string
	// ReadFile reads a file; nil means os.ReadFile.
	ReadFile func(string) ([]byte, error)
}

func (c LoadConfig) preprocess() PreprocessConfig {
	return PreprocessConfig{Defines: c.Defines, SearchPath: c.SearchPath, ReadFile: c.ReadFile}
}

// LoadProgram preprocesses, parses and loads the TVP program at path. It
// also returns the files read (the program and everything it includes).
func LoadProgram(path string, cfg LoadConfig) (*model.Program, []string, error) {
	src, err := Preprocess(path, cfg.preprocess())
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
	return prog, src.Files(), nil
}

// LoadTVS preprocesses and parses the TVS file at path against a
// program's vocabulary.
func LoadTVS(path string, voc *tvl.Vocabulary, cfg LoadConfig) ([]TVSLocation, error) {
	src, err := Preprocess(path, cfg.preprocess())
	if err != nil {
		return nil, err
	}
	return ParseTVS(src, voc)
}
