package alg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: no panic; every error positioned inside the file; a program
// without errors prints to text that parses to the same program.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/bad/*.alg")
	files = append(files, good...)
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, err := Parse("f.alg", src)
		if err != nil {
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error of type %T: %v", err, err)
			}
			lines := strings.Count(string(src), "\n") + 1
			for _, e := range list {
				if e.Pos.File != "f.alg" || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Fatalf("error outside the file (%d lines): %v", lines, e)
				}
				if e.Pos.Col > lineLen(src, e.Pos.Line)+1 {
					t.Fatalf("error past the end of its line: %v", e)
				}
			}
			return
		}
		roundTrip(t, prog)
	})
}

func lineLen(src []byte, line int) int {
	ls := strings.Split(string(src), "\n")
	return len(ls[line-1])
}
