package algc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/tvla-go/tvla/alg"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvp"
	"github.com/tvla-go/tvla/tvp/cpp"
)

// Generated file names: the model and its input, as errors name them.
func tvpName(path string) string { return path + ".tvp" }
func tvsName(path string) string { return path + ".tvs" }

func readSource(path string, cfg tvp.LoadConfig) ([]byte, error) {
	read := cfg.ReadFile
	if read == nil {
		read = func(p string) ([]byte, error) { return cpp.ReadFile(p, tvp.MaxProgramBytes) }
	}
	return read(path)
}

// CompileFile reads and compiles the algorithm at path.
func CompileFile(path string, cfg tvp.LoadConfig) (*Output, error) {
	src, err := readSource(path, cfg)
	if err != nil {
		return nil, err
	}
	return lastCompile.get(path, src)
}

// lastCompile keeps the most recent compilation: a run asks for the
// model (Load) and then for its initial structure (Input), and `tvla
// compile` checks the model before writing it; each would otherwise
// compile the same source again. The Output is never modified after
// Compile returns, so sharing it is safe.
var lastCompile compileMemo

type compileMemo struct {
	mu   sync.Mutex
	path string
	src  []byte
	out  *Output
}

func (m *compileMemo) get(path string, src []byte) (*Output, error) {
	m.mu.Lock()
	if m.out != nil && m.path == path && bytes.Equal(m.src, src) {
		out := m.out
		m.mu.Unlock()
		return out, nil
	}
	m.mu.Unlock()
	out, err := Compile(path, src)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.path, m.src, m.out = path, append([]byte(nil), src...), out
	m.mu.Unlock()
	return out, nil
}

// Load is the driver's front end for .alg files: the algorithm compiled
// and loaded as TVP under the run's configuration (macros, abstraction
// overrides, generated soft invariants). An error in the generated
// model is reported at the statement it comes from.
func Load(path string, cfg tvp.LoadConfig) (*model.Program, []string, error) {
	out, err := CompileFile(path, cfg)
	if err != nil {
		return nil, []string{path}, err
	}
	name := tvpName(path)
	inner := cfg
	inner.ReadFile = serve(name, out.TVP, cfg.ReadFile)
	prog, _, err := tvp.LoadProgram(name, inner)
	if err != nil {
		return nil, []string{path}, out.mapError(path, err)
	}
	return prog, []string{path}, nil
}

// Input is the initial structure of a compiled algorithm, for a run that
// names no TVS file: its name (as errors give it) and text.
func Input(path string, cfg tvp.LoadConfig) (string, tvp.LoadConfig, error) {
	out, err := CompileFile(path, cfg)
	if err != nil {
		return "", cfg, err
	}
	name := tvsName(path)
	inner := cfg
	inner.ReadFile = serve(name, out.TVS, cfg.ReadFile)
	return name, inner, nil
}

// serve reads name from memory and other files with read.
func serve(name, text string, read func(string) ([]byte, error)) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if p == name {
			return []byte(text), nil
		}
		if read != nil {
			return read(p)
		}
		if _, err := os.Stat(p); err != nil {
			return nil, err
		}
		return cpp.ReadFile(p, tvp.MaxProgramBytes)
	}
}

// mapError moves the positions of errors in the generated model to the
// algorithm's statements, keeping the generated position in the text.
func (out *Output) mapError(path string, err error) error {
	name := tvpName(path)
	conv := func(e *cpp.Error) *alg.Error {
		if e.Pos.File != name || e.Pos.Line < 1 || e.Pos.Line > len(out.Lines) {
			return &alg.Error{Pos: alg.Pos{File: path, Line: 1, Col: 1}, Msg: e.Error()}
		}
		// A line of no statement (a separator the parser stopped at)
		// belongs to the nearest statement before it.
		i := e.Pos.Line - 1
		for i > 0 && out.Lines[i].Line == 0 {
			i--
		}
		p := out.Lines[i]
		if p.Line == 0 {
			p = alg.Pos{File: path, Line: 1, Col: 1}
		}
		p.File = path
		msg := e.Msg
		if pred, ok := strings.CutPrefix(msg, "undeclared predicate "); ok {
			if at, off := out.Off[pred]; off {
				msg += fmt.Sprintf(" (switched off by instrument off at %d:%d, but this statement's translation reads it)", at.Line, at.Col)
			}
		}
		return &alg.Error{Pos: p, Msg: fmt.Sprintf("in the generated model (%s:%d:%d): %s", name, e.Pos.Line, e.Pos.Col, msg)}
	}
	var list tvp.ErrorList
	var one *cpp.Error
	switch {
	case errors.As(err, &list):
		out := make(alg.ErrorList, len(list))
		for i, e := range list {
			out[i] = conv(e)
		}
		return out
	case errors.As(err, &one):
		return alg.ErrorList{conv(one)}
	}
	return err
}
