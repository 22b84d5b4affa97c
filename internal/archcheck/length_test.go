package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The project's limits on size: a file a reader can hold in mind, a
// function that reads on one or two screens. They hold for every Go
// file of the module, tests included.
const (
	maxFileLines     = 800
	maxFunctionLines = 120
)

// goFiles lists the module's Go files under root, skipping hidden folders
// and test data (programs there are inputs, not code).
func goFiles(t *testing.T, root string) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestFileAndFunctionLengths(t *testing.T) {
	root := filepath.Join("..", "..")
	files := goFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s: is the walk wrong?", len(files), root)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			t.Errorf("%s: %d lines, more than %d: split it by concern", rel, n, maxFileLines)
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, fn := range longFunctions(fset, f) {
			t.Errorf("%s: %s", rel, fn)
		}
	}
}

// longFunctions describes the functions of f (declared or literal) longer
// than maxFunctionLines, from the func keyword to the closing brace.
func longFunctions(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		var name string
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body == nil {
				return true
			}
			name = x.Name.Name
		case *ast.FuncLit:
			name = "a function literal"
		default:
			return true
		}
		start, end := fset.Position(n.Pos()), fset.Position(n.End())
		if lines := end.Line - start.Line + 1; lines > maxFunctionLines {
			out = append(out, fmt.Sprintf("%d:%d: %s has %d lines, more than %d", start.Line, start.Column, name, lines, maxFunctionLines))
		}
		return true
	})
	return out
}
