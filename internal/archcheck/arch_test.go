// Package archcheck holds a test that keeps ARCHITECTURE.md true: its
// table of packages must list every package of the module, each with the
// packages of ours it imports, as the Go toolchain sees them.
package archcheck

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tvla-go/tvla/"

var (
	row           = regexp.MustCompile("^\\| `([a-z/]+)` \\|.*\\| ([^|]*) \\|$")
	parenthetical = regexp.MustCompile(`\([^()]*\)`)
	quoted        = regexp.MustCompile("`([a-z/]+)`")
)

// documented reads the table of ARCHITECTURE.md: package → the packages
// its imports column names, and whether that column is for tests only.
func documented(t *testing.T, root string) (map[string][]string, map[string]bool) {
	data, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	imports, testsOnly := map[string][]string{}, map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cell := parenthetical.ReplaceAllString(m[2], "")
		testsOnly[m[1]] = strings.HasPrefix(cell, "tests only:")
		var names []string
		for _, q := range quoted.FindAllStringSubmatch(cell, -1) {
			names = append(names, q[1])
		}
		slices.Sort(names)
		imports[m[1]] = names
	}
	return imports, testsOnly
}

// actual lists the module's packages under root with the packages of ours
// each imports (its tests' imports when tests is set, itself left out).
func actual(t *testing.T, root string, tests bool) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		list := pkg.Imports
		if tests {
			list = append(append([]string(nil), pkg.TestImports...), pkg.XTestImports...)
		}
		var ours []string
		for _, imp := range list {
			if name, ok := strings.CutPrefix(imp, module); ok && name != rel && !slices.Contains(ours, name) {
				ours = append(ours, name)
			}
		}
		slices.Sort(ours)
		out[rel] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestArchitectureMatchesImports(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, testsOnly := documented(t, root)
	code, testCode := actual(t, root, false), actual(t, root, true)
	for pkg, imports := range code {
		listed, ok := doc[pkg]
		if !ok {
			t.Errorf("ARCHITECTURE.md does not list package %s", pkg)
			continue
		}
		want := imports
		if testsOnly[pkg] {
			want = testCode[pkg]
		}
		if !slices.Equal(listed, want) {
			t.Errorf("ARCHITECTURE.md: %s imports %v, the code %v", pkg, listed, want)
		}
	}
	for pkg := range doc {
		if _, ok := code[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md lists %s, which is not a package", pkg)
		}
	}
}
