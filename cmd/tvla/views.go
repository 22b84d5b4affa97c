package main

import (
	"io"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
)

// checkViews runs before the analysis: it reports, with exit 2, what the
// requested pictures cannot be made with.
func checkViews(o *runOptions) error {
	if o.dotOut != "" || o.svgDir != "" || o.htmlOut != "" {
		return usageError("--dot, --svg and --html are not implemented yet")
	}
	return nil
}

// writeViews writes the requested DOT, SVG and HTML outputs of a run.
func writeViews(o *runOptions, prog *model.Program, res *abstraction.Result, progress io.Writer) error {
	return nil
}
