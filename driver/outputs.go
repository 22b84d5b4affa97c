package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/tvp"
	"github.com/tvla-go/tvla/viz"
)

// Outputs are the files a run writes; "" leaves one out. Each file is
// written atomically.
type Outputs struct {
	// TVS and DOT get the final structures per location; SVG is a folder
	// for the pictures of every structure and the CFG; HTML a
	// self-contained report; JSON the summary ("-": Stdout).
	TVS, DOT, SVG, HTML, JSON string
	// TraceTVS gets, for every message, its shortest abstract trace as
	// TVS: each step's structure as stored, under its location.
	TraceTVS string
	// SoftTVP gets the declarations of the soft invariants that held.
	SoftTVP string
	// SoftSet gets the set of soft invariants that held, when the run
	// verified (softset.go).
	SoftSet string
	Stdout  io.Writer
	// Version is the tool's, for the summary and the report.
	Version string
	// Render is told how rendering the pictures goes.
	Render RenderProgress
}

// RenderProgress is told how many pictures of how many are rendered;
// Done clears what it showed.
type RenderProgress interface {
	Update(done, total int)
	Done()
}

// Check reports, before anything is loaded, an output that could not be
// written after the run: a path that is a folder (for --svg, a file), a
// folder that does not exist (--dot, --html and --svg make theirs) or
// cannot be written to; and the pictures' need of Graphviz's dot on PATH.
// Errors name the flag and the path as given.
func (out *Outputs) Check() error {
	for _, o := range []struct {
		flag, path string
		makesDir   bool
	}{
		{"--soft-invariants-out", out.SoftTVP, false},
		{"--soft-save", out.SoftSet, false},
		{"--tvs", out.TVS, false},
		{"--trace-tvs", out.TraceTVS, false},
		{"--dot", out.DOT, true},
		{"--html", out.HTML, true},
		{"--json", out.JSON, false},
	} {
		if err := CheckOutputFile(o.flag, o.path, o.makesDir); err != nil {
			return err
		}
	}
	if err := CheckOutputDir("--svg", out.SVG); err != nil {
		return err
	}
	if !out.Pictures() {
		return nil
	}
	if _, err := viz.DotPath(); err != nil {
		flag := "--svg"
		if out.SVG == "" {
			flag = "--html"
		}
		return fmt.Errorf("%s needs Graphviz's dot program, which is not on PATH: install the Debian package %s (apt-get install %s)",
			flag, viz.DotPackage, viz.DotPackage)
	}
	return nil
}

// Write writes every output of o in order: the soft-invariant
// declarations and set, TVS, DOT, SVG and HTML (rendering stops when ctx ends),
// the JSON summary.
func (out *Outputs) Write(ctx context.Context, o *Outcome) error {
	if err := out.WriteSoftTVP(o); err != nil {
		return err
	}
	if err := out.WriteSoftSet(o, io.Discard); err != nil {
		return err
	}
	if err := out.WriteTVS(o); err != nil {
		return err
	}
	if err := out.WriteDOT(o); err != nil {
		return err
	}
	if err := out.WritePictures(ctx, o); err != nil {
		return err
	}
	return out.WriteSummary(o)
}

// WriteSoftTVP writes the declarations of the soft invariants that held.
func (out *Outputs) WriteSoftTVP(o *Outcome) error {
	if o.Soft == nil || out.SoftTVP == "" {
		return nil
	}
	var b bytes.Buffer
	o.Soft.WriteTVP(&b)
	return WriteFileAtomic(out.SoftTVP, b.Bytes())
}

// WriteSoftSet writes the set of soft invariants that held when the run
// verified; otherwise it says why it wrote none on log.
func (out *Outputs) WriteSoftSet(o *Outcome, log io.Writer) error {
	if o.Soft == nil || out.SoftSet == "" {
		return nil
	}
	if !Verified(o.Result) {
		fmt.Fprintf(log, "soft invariants: %s not written: the run did not verify\n", out.SoftSet)
		return nil
	}
	set := savedSet(o.Soft)
	if err := set.Write(out.SoftSet, o.Config.Program, o.Result); err != nil {
		return err
	}
	fmt.Fprintf(log, "soft invariants: the %d that held (%d pairs) saved to %s\n", len(set.Names), len(set.Pairs), out.SoftSet)
	return nil
}

// WriteTVS writes the final structures per location as TVS, with each
// structure's messages. When the program lists locations to print (its
// fourth section), only those are written, as TVLA does.
func (out *Outputs) WriteTVS(o *Outcome) error {
	if out.TVS == "" {
		return nil
	}
	keep := map[string]bool{}
	for _, l := range o.Program.Print {
		keep[l] = true
	}
	var locs []tvp.TVSLocation
	for _, l := range o.Result.Locations {
		if len(keep) > 0 && !keep[l.Label] {
			continue
		}
		loc := tvp.TVSLocation{Label: l.Label}
		for _, s := range l.Structures.All() {
			loc.Structures = append(loc.Structures, tvp.TVSStructure{Structure: s})
		}
		for _, m := range l.Messages {
			loc.Structures = append(loc.Structures, tvp.TVSStructure{Structure: m.Structure, Messages: []string{OneLine(m.Text)}})
		}
		locs = append(locs, loc)
	}
	var buf bytes.Buffer
	if err := tvp.WriteTVS(&buf, locs); err != nil {
		return err
	}
	return WriteFileAtomic(out.TVS, buf.Bytes())
}

// WriteTraceTVS writes, for every message (the first structure's, when a
// message was raised on several at a location, as --trace prints it), the
// structures of its shortest abstract trace from an input structure, one
// %location block per step, each described ("trace 2, step 5: after
// ACTION"); the last step carries the message. Reading a trace is reading
// these structures one after the other.
func (out *Outputs) WriteTraceTVS(o *Outcome) error {
	if out.TraceTVS == "" {
		return nil
	}
	var locs []tvp.TVSLocation
	n := 0
	for _, l := range o.Result.Locations {
		for _, g := range l.MessageGroups() {
			m := g.Messages[0]
			n++
			steps := o.Result.Trace(m)
			for i, st := range steps {
				d := fmt.Sprintf("trace %d (%s at %s), step %d: ", n, OneLine(m.Text), l.Label, i)
				if i == 0 {
					d += "an input structure"
				} else {
					d += "after " + st.Action
				}
				ts := tvp.TVSStructure{Structure: st.Structure, Description: d}
				if i == len(steps)-1 {
					ts.Messages = []string{OneLine(m.Text)}
				}
				locs = append(locs, tvp.TVSLocation{Label: st.Location, Structures: []tvp.TVSStructure{ts}})
			}
		}
	}
	var buf bytes.Buffer
	if err := tvp.WriteTVS(&buf, locs); err != nil {
		return err
	}
	return WriteFileAtomic(out.TraceTVS, buf.Bytes())
}

// WriteSummary writes the JSON summary.
func (out *Outputs) WriteSummary(o *Outcome) error {
	if out.JSON == "" {
		return nil
	}
	return WriteJSON(out.JSON, o.Summary(out.Version), out.Stdout)
}

// WriteDOT writes the final structures per location as Graphviz DOT.
func (out *Outputs) WriteDOT(o *Outcome) error {
	if out.DOT == "" {
		return nil
	}
	var buf bytes.Buffer
	if err := viz.WriteDOT(&buf, o.Program, o.Result); err != nil {
		return err
	}
	return writeFileIn(out.DOT, buf.Bytes())
}

// Pictures reports whether SVG or HTML output is asked for.
func (out *Outputs) Pictures() bool { return out.SVG != "" || out.HTML != "" }

// WritePictures writes the SVG and HTML outputs, rendering the pictures
// once for both; when ctx ends first, neither is written.
func (out *Outputs) WritePictures(ctx context.Context, o *Outcome) error {
	if !out.Pictures() {
		return nil
	}
	update := func(done, total int) {}
	if out.Render != nil {
		update = out.Render.Update
	}
	views, err := viz.Render(ctx, o.Program, o.Result, update)
	if out.Render != nil {
		out.Render.Done()
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("rendering pictures: interrupted; no SVG or HTML written")
		}
		return err
	}
	if out.SVG != "" {
		if err := os.MkdirAll(out.SVG, 0o755); err != nil {
			return err
		}
		for _, p := range views.Pictures() {
			if err := writeReadable(filepath.Join(out.SVG, p.Name+".svg"), p.SVG); err != nil {
				return err
			}
		}
	}
	if out.HTML != "" {
		var buf bytes.Buffer
		if err := views.WriteHTML(&buf, out.reportInfo(o)); err != nil {
			return err
		}
		if err := writeFileIn(out.HTML, buf.Bytes()); err != nil {
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
	if err := WriteFileAtomic(path, data); err != nil {
		return err
	}
	return os.Chmod(path, 0o644)
}

// reportInfo lists the run's settings for the HTML report.
func (out *Outputs) reportInfo(o *Outcome) viz.Info {
	c := o.Config
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
		{Name: "join", Value: c.Join},
		{Name: "action order", Value: c.ActionOrder},
		{Name: "max structures", Value: limit(c.MaxStructures)},
		{Name: "max messages", Value: limit(c.MaxMessages)},
		{Name: "differencing", Value: onOff(c.Differencing)},
		{Name: "stop when Coerce fails after an update", Value: onOff(c.BreakIfCoerceFails)},
		{Name: "collapse threads", Value: onOff(c.CollapseThreads)},
	}
	if len(c.Defines) > 0 {
		opts = append(opts, viz.Field{Name: "macros", Value: strings.Join(c.Defines, " ")})
	}
	if c.Properties != "" {
		opts = append(opts, viz.Field{Name: "properties", Value: c.Properties})
	}
	if len(c.SearchPath) > 0 {
		opts = append(opts, viz.Field{Name: "include path", Value: strings.Join(c.SearchPath, string(os.PathListSeparator))})
	}
	return viz.Info{
		Title:     filepath.Base(o.Program.File),
		Generator: "tvla " + out.Version,
		Options:   opts,
	}
}

// CheckOutputFile reports, before a run, why the file output flag asks
// for at path could not be written after it: the path is a folder, or
// its folder does not exist (unless makesDir: the writer makes it) or
// cannot be written to. "" (not asked for) and "-" (standard output) are
// fine.
func CheckOutputFile(flag, path string, makesDir bool) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: is a folder: give a file name", flag, path)
	}
	dir := filepath.Dir(path)
	if !makesDir {
		fi, err := os.Stat(dir)
		switch {
		case err != nil:
			return fmt.Errorf("%s %s: the folder %s does not exist", flag, path, dir)
		case !fi.IsDir():
			return fmt.Errorf("%s %s: %s is not a folder", flag, path, dir)
		}
	}
	return checkWritableDir(flag, path, dir)
}

// CheckOutputDir is CheckOutputFile for a folder output (--svg), which
// the writer makes when it does not exist.
func CheckOutputDir(flag, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s %s: is a file, not a folder", flag, path)
	}
	return checkWritableDir(flag, path, path)
}

// checkWritableDir checks that dir, or the nearest folder above it that
// exists (the writer makes the rest), is a folder a file can be created
// in: it creates and removes an empty file there, which also catches a
// read-only file system and a user the permissions do not stop (root).
func checkWritableDir(flag, path, dir string) error {
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s %s: %s is a file, not a folder", flag, path, dir)
			}
			break
		}
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s %s: %v", flag, path, err)
		}
		// Missing, or under a file (not a directory): look above.
		up := filepath.Dir(dir)
		if up == dir {
			return fmt.Errorf("%s %s: %v", flag, path, err)
		}
		dir = up
	}
	f, err := os.CreateTemp(dir, ".tvla-check-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in the folder %s: %v", flag, path, dir, errCause(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
