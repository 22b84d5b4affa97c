package cpp

import (
	"errors"
	"fmt"
	"io/fs"
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
	// ReadFile reads a file; nil means ReadFile with the limit MaxBytes.
	// A missing file should give an error satisfying errors.Is(err,
	// fs.ErrNotExist).
	ReadFile func(path string) ([]byte, error)
	// MaxBytes bounds each file read and the preprocessed text; 0 means
	// MaxProgramBytes (LoadTVS gives MaxTVSBytes).
	MaxBytes int64
}

// Limits that keep hostile input from running away.
const (
	maxIncludeDepth = 200
	maxArgDepth     = 200
	maxExpandTokens = 1 << 20 // tokens produced by macro substitution, in all (the examples need 16k at most)
	maxExprDepth    = 500
)

// Preprocess reads the file at path and preprocesses it.
func Preprocess(path string, cfg Config) (*Preprocessed, error) {
	p := newPreproc(cfg)
	data, err := p.read(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return p.run(path, string(data))
}

// readError is the error for a file that cannot be read: it has no
// position, and names the file once.
func readError(path string, err error) *Error {
	var tl *TooLargeError
	if errors.As(err, &tl) {
		return &Error{Pos: Pos{File: path}, Msg: tl.Error()}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Pos: Pos{File: path}, Msg: fmt.Sprintf("cannot read file: %v", err)}
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
	max      int // bytes of a file and of the preprocessed text
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
	limit := cfg.MaxBytes
	if limit <= 0 {
		limit = MaxProgramBytes
	}
	p.max = int(limit)
	if p.read == nil {
		p.read = func(path string) ([]byte, error) { return ReadFile(path, limit) }
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
	if len(text) > p.max {
		return nil, &Error{Pos: Pos{File: file}, Msg: (&TooLargeError{Limit: int64(p.max)}).Error()}
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
