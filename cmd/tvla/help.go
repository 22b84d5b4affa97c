package main

import (
	"embed"
	"strings"
)

// The commands' long help and examples are text files (help/), edited as
// text; a name missing there is a programming error, caught by the help
// tests.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the help file name, with each {{placeholder}} of
// replacements (pairs: placeholder, text) filled in.
func helpText(name string, replacements ...string) string {
	b, err := helpFiles.ReadFile("help/" + name)
	if err != nil {
		panic("tvla: no help text " + name)
	}
	return strings.NewReplacer(replacements...).Replace(string(b))
}
