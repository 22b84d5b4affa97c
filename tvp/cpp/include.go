package cpp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// include handles #include.
func (p *preproc) include(f *srcFile, pos Pos, a, end int) *Error {
	name, e := p.includeName(f, pos, a, end)
	if e != nil {
		return e
	}
	if len(p.stack) >= maxIncludeDepth {
		return errAt(pos, "#include nested too deeply (over %d levels)", maxIncludeDepth)
	}
	found, sf, e := p.findInclude(f, pos, name)
	if e != nil {
		return e
	}
	clean := filepath.Clean(found)
	if k := slices.Index(p.stack, clean); k >= 0 {
		chain := append(slices.Clone(p.names[k:]), found)
		return errAt(pos, "include cycle: %s", strings.Join(chain, " -> "))
	}
	p.stack = append(p.stack, clean)
	p.names = append(p.names, found)
	e = p.processFile(sf)
	p.stack = p.stack[:len(p.stack)-1]
	p.names = p.names[:len(p.names)-1]
	return e
}

// includeName reads the file name of an #include, the cleaned range
// [a, end) of f: "FILE" or <FILE>, written so or produced by macros.
func (p *preproc) includeName(f *srcFile, pos Pos, a, end int) (string, *Error) {
	text := strings.TrimSpace(strings.ReplaceAll(f.clean[a:end], "\n", " "))
	if text != "" && text[0] != '"' && text[0] != '<' {
		// A computed include: expand the macros.
		var b strings.Builder
		e := p.expand(tokensOf(f, a, end, false, true), func(t tok) *Error {
			if t.kind != tMark {
				b.WriteString(t.text)
			}
			return nil
		})
		if e != nil {
			return "", e
		}
		text = strings.TrimSpace(b.String())
	}
	var name string
	var rest string
	switch {
	case strings.HasPrefix(text, "\""):
		k := strings.IndexByte(text[1:], '"')
		if k < 0 {
			return "", errAt(pos, "missing closing '\"' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	case strings.HasPrefix(text, "<"):
		k := strings.IndexByte(text[1:], '>')
		if k < 0 {
			return "", errAt(pos, "missing closing '>' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	default:
		return "", errAt(pos, "#include expects \"FILE\" or <FILE>")
	}
	if name == "" {
		return "", errAt(pos, "empty file name in #include")
	}
	if strings.TrimSpace(rest) != "" {
		p.warn(pos, "extra tokens after #include")
	}
	return name, nil
}

// findInclude reads the file an #include in f names: a relative name is
// looked up in f's folder, then along the search path; an absolute one as
// it is. A file already read comes from the cache. It returns the path
// the file was found at.
func (p *preproc) findInclude(f *srcFile, pos Pos, name string) (string, *srcFile, *Error) {
	var dirs []string
	if !filepath.IsAbs(name) {
		dirs = append(dirs, filepath.Dir(f.name))
		for _, d := range p.cfg.SearchPath {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	found := ""
	var sf *srcFile
	// readErr is the first failure other than a missing file; the search
	// goes on past it, and it is reported only if nothing is found.
	var readErr error
	try := func(path string) bool {
		clean := filepath.Clean(path)
		if c := p.cache[clean]; c != nil {
			found, sf = path, c
			return true
		}
		data, err := p.read(path)
		if len(data) > p.max {
			err = &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Limit: int64(p.max)}}
		}
		var tl *TooLargeError
		if errors.As(err, &tl) {
			readErr = errAt(pos, "include file %q: %v", path, tl)
			return true
		}
		if err != nil {
			if readErr == nil && !errors.Is(err, fs.ErrNotExist) {
				readErr = err
			}
			return false
		}
		nf, e := newSrcFile(path, string(data))
		if e != nil {
			readErr = e
			return true
		}
		p.cache[clean] = nf
		p.files = append(p.files, path)
		found, sf = path, nf
		return true
	}
	if len(dirs) == 0 {
		try(name)
	}
	for _, d := range dirs {
		if try(filepath.Join(d, name)) {
			break
		}
	}
	if sf != nil {
		return found, sf, nil
	}
	if e, ok := readErr.(*Error); ok {
		return "", nil, e
	}
	if readErr != nil {
		return "", nil, errAt(pos, "cannot read include file %q: %v", name, readErr)
	}
	if len(dirs) == 0 {
		return "", nil, errAt(pos, "cannot find include file %q", name)
	}
	return "", nil, errAt(pos, "cannot find include file %q (searched: %s)", name, strings.Join(dirs, ", "))
}
