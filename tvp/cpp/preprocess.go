package cpp

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Config controls preprocessing.
type Config struct {
	// Defines are macros defined before the main file is read, as by -D.
	// A key is a macro name (or NAME(params) for a function-like macro),
	// the value its body: -D NAME alone should arrive as "1" (C; TVLA gives
	// it an empty body). A #define in a file replaces them, with a warning.
	Defines map[string]string
	// SearchPath holds folders searched for included files after the
	// including file's own folder, in order.
	SearchPath []string
	// ReadFile reads a file; nil means os.ReadFile. A missing file should
	// give an error satisfying errors.Is(err, fs.ErrNotExist).
	ReadFile func(path string) ([]byte, error)
}

// Limits that keep hostile input from running away.
const (
	maxIncludeDepth = 200
	maxArgDepth     = 200
	maxExpandTokens = 1 << 20  // tokens produced by macro substitution, in all (the examples need 16k at most)
	maxOutput       = 64 << 20 // bytes of preprocessed text
	maxExprDepth    = 500
)

// Preprocess reads the file at path and preprocesses it.
func Preprocess(path string, cfg Config) (*Preprocessed, error) {
	p := newPreproc(cfg)
	data, err := p.read(path)
	if err != nil {
		return nil, &Error{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf("cannot read file: %v", err)}
	}
	return p.run(path, string(data))
}

// PreprocessText preprocesses text as the contents of file; included files
// are still read through cfg, relative to file's folder first.
func PreprocessText(file, text string, cfg Config) (*Preprocessed, error) {
	return newPreproc(cfg).run(file, text)
}

// preproc is the state of one run over a main file and its includes.
type preproc struct {
	cfg      Config
	read     func(string) ([]byte, error)
	macros   map[string]*macro
	cache    map[string]*srcFile
	files    []string
	warnings []*Error
	stack    []string // include stack, cleaned paths
	names    []string // include stack, as found
	out      strings.Builder
	segs     []segment
	needSep  bool
	sepPos   Pos
	work     int
	argDepth int
}

func newPreproc(cfg Config) *preproc {
	p := &preproc{cfg: cfg, read: cfg.ReadFile, macros: map[string]*macro{}, cache: map[string]*srcFile{}}
	if p.read == nil {
		p.read = os.ReadFile
	}
	return p
}

func errAt(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *preproc) warn(pos Pos, format string, args ...any) {
	p.warnings = append(p.warnings, errAt(pos, format, args...))
}

func (p *preproc) run(file, text string) (*Preprocessed, error) {
	if err := p.commandLineDefines(); err != nil {
		return nil, err
	}
	if len(text) > maxOutput {
		return nil, errAt(Pos{File: file, Line: 1, Col: 1}, "file too large (over %d bytes)", maxOutput)
	}
	sf, e := newSrcFile(file, text)
	if e != nil {
		return nil, e
	}
	p.cache[filepath.Clean(file)] = sf
	p.files = append(p.files, file)
	p.stack = append(p.stack, filepath.Clean(file))
	p.names = append(p.names, file)
	if e := p.processFile(sf); e != nil {
		return nil, e
	}
	return &Preprocessed{text: p.out.String(), segs: p.segs, end: sf.posAt(len(sf.clean)), files: p.files, warnings: p.warnings}, nil
}

func (p *preproc) commandLineDefines() *Error {
	keys := make([]string, 0, len(p.cfg.Defines))
	for k := range p.cfg.Defines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if i := strings.IndexByte(k, '('); i >= 0 {
			name = k[:i]
		}
		ok := name != "" && isIdentStart(name[0]) && !strings.ContainsAny(k, "\n\r")
		for i := 0; ok && i < len(name); i++ {
			ok = isIdentChar(name[i])
		}
		if !ok {
			return errAt(Pos{File: "<command line>", Line: 1, Col: 1}, "invalid macro name %q in -D", k)
		}
		line := k + " " + strings.ReplaceAll(p.cfg.Defines[k], "\n", " ")
		sf, e := newSrcFile("<command line>", line)
		if e != nil {
			return e
		}
		if e := p.define(sf, 0, len(sf.clean), sf.posAt(0)); e != nil {
			return e
		}
	}
	return nil
}
