// Package testload loads programs for the tests of other packages: a
// program from its text, or a program file with the input structures of
// the TVS file beside it, failing the test on any error.
package testload

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// Text parses a program given as text (no preprocessing of files).
func Text(t testing.TB, text string) *model.Program {
	t.Helper()
	prog, err := tvp.ParseProgram("test.tvp", tvp.NewPlainSource("test.tvp", text))
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// Defines turns NAME and NAME=VALUE into a loader configuration (NAME
// alone defines it as 1).
func Defines(defines ...string) tvp.LoadConfig {
	cfg := tvp.LoadConfig{Defines: map[string]string{}}
	for _, d := range defines {
		name, value, ok := strings.Cut(d, "=")
		if !ok {
			value = "1"
		}
		cfg.Defines[name] = value
	}
	return cfg
}

// Program loads a program file under cfg and the input structures of
// PROGRAM.tvs beside it, in the order the file gives them.
func Program(t testing.TB, path string, cfg tvp.LoadConfig) (*model.Program, []*tvl.Structure) {
	t.Helper()
	prog, _, err := tvp.LoadProgram(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	locs, err := tvp.LoadTVS(strings.TrimSuffix(path, filepath.Ext(path))+".tvs", prog.Vocabulary.Tvl(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []*tvl.Structure
	for _, l := range locs {
		for _, s := range l.Structures {
			inputs = append(inputs, s.Structure)
		}
	}
	return prog, inputs
}
