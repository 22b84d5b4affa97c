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
	s := f.clean
	text := strings.TrimSpace(strings.ReplaceAll(s[a:end], "\n", " "))
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
			return e
		}
		text = strings.TrimSpace(b.String())
	}
	var name string
	var rest string
	switch {
	case strings.HasPrefix(text, "\""):
		k := strings.IndexByte(text[1:], '"')
		if k < 0 {
			return errAt(pos, "missing closing '\"' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	case strings.HasPrefix(text, "<"):
		k := strings.IndexByte(text[1:], '>')
		if k < 0 {
			return errAt(pos, "missing closing '>' in #include")
		}
		name, rest = text[1:1+k], text[2+k:]
	default:
		return errAt(pos, "#include expects \"FILE\" or <FILE>")
	}
	if name == "" {
		return errAt(pos, "empty file name in #include")
	}
	if strings.TrimSpace(rest) != "" {
		p.warn(pos, "extra tokens after #include")
	}
	if len(p.stack) >= maxIncludeDepth {
		return errAt(pos, "#include nested too deeply (over %d levels)", maxIncludeDepth)
	}
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
	var readErr error
	try := func(path string) bool {
		clean := filepath.Clean(path)
		if c := p.cache[clean]; c != nil {
			found, sf = path, c
			return true
		}
		data, err := p.read(path)
		if err != nil {
			if readErr == nil && !errors.Is(err, fs.ErrNotExist) {
				readErr = err
			}
			return false
		}
		if len(data) > maxOutput {
			readErr = errAt(pos, "include file %q too large (over %d bytes)", path, maxOutput)
			return true
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
	if sf == nil {
		if e, ok := readErr.(*Error); ok {
			return e
		}
		if readErr != nil {
			return errAt(pos, "cannot read include file %q: %v", name, readErr)
		}
		if len(dirs) == 0 {
			return errAt(pos, "cannot find include file %q", name)
		}
		return errAt(pos, "cannot find include file %q (searched: %s)", name, strings.Join(dirs, ", "))
	}
	clean := filepath.Clean(found)
	if k := slices.Index(p.stack, clean); k >= 0 {
		chain := append(slices.Clone(p.names[k:]), found)
		return errAt(pos, "include cycle: %s", strings.Join(chain, " -> "))
	}
	p.stack = append(p.stack, clean)
	p.names = append(p.names, found)
	e := p.processFile(sf)
	p.stack = p.stack[:len(p.stack)-1]
	p.names = p.names[:len(p.names)-1]
	return e
}
