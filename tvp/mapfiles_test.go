package tvp

import (
	"io/fs"
	"path/filepath"
)

// mapFiles reads files from a map, as a LoadConfig.ReadFile.
func mapFiles(files map[string]string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(path)]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
}
