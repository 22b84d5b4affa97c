package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/viz"
)

// checkViews runs before the analysis: it reports, with exit 2, what the
// requested pictures cannot be made with. --dot needs nothing; --svg and
// --html need Graphviz's dot on PATH.
func checkViews(o *runOptions) error {
	if o.svgDir == "" && o.htmlOut == "" {
		return nil
	}
	if _, err := viz.DotPath(); err != nil {
		flag := "--svg"
		if o.svgDir == "" {
			flag = "--html"
		}
		return usageError("%s needs Graphviz's dot program, which is not on PATH: install the Debian package %s (apt-get install %s)",
			flag, viz.DotPackage, viz.DotPackage)
	}
	return nil
}

// writeViews writes the requested DOT, SVG and HTML outputs of a run. Each
// file is written atomically; the pictures are rendered once for --svg and
// --html together, with a progress bar on progress when it is a terminal
// and -q is not given.
func writeViews(o *runOptions, prog *model.Program, res *engine.Result, progress io.Writer) error {
	if o.dotOut != "" {
		var buf bytes.Buffer
		if err := viz.WriteDOT(&buf, prog, res); err != nil {
			return err
		}
		if err := writeFileIn(o.dotOut, buf.Bytes()); err != nil {
			return err
		}
	}
	if o.svgDir == "" && o.htmlOut == "" {
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newRenderBar(progress, o.quiet)
	views, err := viz.Render(ctx, prog, res, bar.update)
	bar.done()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("rendering pictures: interrupted; no SVG or HTML written")
		}
		return err
	}
	if o.svgDir != "" {
		if err := os.MkdirAll(o.svgDir, 0o755); err != nil {
			return err
		}
		for _, p := range views.Pictures() {
			if err := writeReadable(filepath.Join(o.svgDir, p.Name+".svg"), p.SVG); err != nil {
				return err
			}
		}
	}
	if o.htmlOut != "" {
		var buf bytes.Buffer
		if err := views.WriteHTML(&buf, reportInfo(o, prog)); err != nil {
			return err
		}
		if err := writeFileIn(o.htmlOut, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// writeFileIn writes a file atomically, creating its folder first if
// needed (so that --svg out/ --html out/report.html works in any order).
func writeFileIn(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeReadable(path, data)
}

// writeReadable writes a file atomically and leaves it readable by all,
// as pictures and pages are meant to be shared and served.
func writeReadable(path string, data []byte) error {
	if err := writeFileAtomic(path, data); err != nil {
		return err
	}
	return os.Chmod(path, 0o644)
}

// reportInfo lists the run's settings for the HTML report.
func reportInfo(o *runOptions, prog *model.Program) viz.Info {
	limit := func(n int) string {
		if n == 0 {
			return "none"
		}
		return strconv.Itoa(n)
	}
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	opts := []viz.Field{
		{Name: "join", Value: o.join},
		{Name: "action order", Value: o.action},
		{Name: "max structures", Value: limit(o.maxStructures)},
		{Name: "max messages", Value: limit(o.maxMessages)},
		{Name: "differencing", Value: onOff(o.differencing)},
		{Name: "stop when Coerce fails after an update", Value: onOff(o.breakIfCoerceFails)},
		{Name: "collapse threads", Value: onOff(o.collapseThreads)},
	}
	if len(o.defines) > 0 {
		opts = append(opts, viz.Field{Name: "macros", Value: strings.Join(o.defines, " ")})
	}
	if o.props != "" {
		opts = append(opts, viz.Field{Name: "properties", Value: o.props})
	}
	if len(o.paths) > 0 {
		opts = append(opts, viz.Field{Name: "include path", Value: strings.Join(o.paths, string(os.PathListSeparator))})
	}
	return viz.Info{
		Title:     filepath.Base(prog.File),
		Generator: "tvla " + versionString(),
		Options:   opts,
	}
}

// renderBar shows how far rendering the pictures is, like progress does
// for the analysis: only on a terminal, only without -q.
type renderBar struct {
	p    *progress
	last time.Time
}

func newRenderBar(w io.Writer, quiet bool) *renderBar {
	return &renderBar{p: newProgress(w, quiet)}
}

func (b *renderBar) update(done, total int) {
	if !b.p.enabled || total == 0 || (done < total && time.Since(b.last) < 100*time.Millisecond) {
		return
	}
	b.last = time.Now()
	const width = 30
	filled := width * done / total
	fmt.Fprintf(b.p.w, "\rrendering pictures [%s%s] %d/%d ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
	b.p.shown = true
}

func (b *renderBar) done() { b.p.done() }
