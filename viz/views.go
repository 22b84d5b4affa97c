package viz

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/emicklei/dot"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/internal/atomicfile"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Picture is one graph of a run: its DOT text and, once rendered, its SVG.
type Picture struct {
	// Name is the picture's file name without the .svg, unique in a run
	// (also among names that differ only in case).
	Name    string
	Caption Caption
	DOT     []byte
	SVG     []byte
	// Folded is what the picture leaves out of its nodes: the soft
	// invariants of its threads (DrawOptions.FoldThreadPredicates).
	Folded []Folded
	// placed says that DOT places every node and edge (a trace step in
	// its trace's layout): neato -n2 draws it.
	placed bool
}

// LocationView is what one location shows.
type LocationView struct {
	Label string
	// Anchor is the location's id in the HTML report.
	Anchor     string
	Structures []*Picture
	Messages   []*MessageView
}

// MessageView is a message with the structure that raised it and its
// abstract trace.
type MessageView struct {
	// Number counts the messages from 1, location by location.
	Number   int
	Location string
	Action   string
	Text     string
	Anchor   string
	// Picture is the structure the message's formula held on.
	Picture *Picture
	// Trace leads from an input structure to the message; its last step
	// is Picture.
	Trace []*StepView
}

// StepView is one step of a trace.
type StepView struct {
	Location string
	// Action led here from the previous step ("" for the first step).
	Action string
	// Changed names the predicates whose values differ from the previous
	// step's structure (and the change of universe size, if any).
	Changed []string
	Picture *Picture
	// structure is the step's structure, for the trace's layout.
	structure *tvl.Structure
}

// Views are all the pictures of a run.
type Views struct {
	Program   *model.Program
	Result    *engine.Result
	CFG       *Picture
	Locations []*LocationView
	Messages  []*MessageView
}

// Build prepares the DOT text of every picture of a run: the CFG, every
// structure at every location, and for every message the structure that
// raised it and the steps of its trace. Render then makes the SVG.
func Build(prog *model.Program, res *engine.Result) *Views {
	v := &Views{Program: prog, Result: res}
	names := newNamer()
	anchors := newNamer()
	voc := prog.Vocabulary

	cfgName := names.take("cfg")
	for _, lr := range res.Locations {
		lv := &LocationView{Label: lr.Label, Anchor: anchors.take("loc-" + safeName(lr.Label))}
		v.Locations = append(v.Locations, lv)
		width := len(fmt.Sprint(lr.Structures.Len()))
		for i, s := range lr.Structures.All() {
			c := Caption{Location: lr.Label, Detail: fmt.Sprintf("structure %d of %d", i+1, lr.Structures.Len())}
			name := names.take(fmt.Sprintf("%s-%0*d", safeName(lr.Label), width, i+1))
			lv.Structures = append(lv.Structures, structurePicture(name, c, s, voc))
		}
	}
	total := 0
	for _, lr := range res.Locations {
		total += len(lr.Messages)
	}
	width := len(fmt.Sprint(total))
	for li, lr := range res.Locations {
		lv := v.Locations[li]
		for _, m := range lr.Messages {
			k := len(v.Messages) + 1
			base := fmt.Sprintf("msg%0*d", width, k)
			mv := &MessageView{
				Number: k, Location: lr.Label, Action: m.Action, Text: m.Text,
				Anchor: anchors.take(base),
			}
			c := Caption{Location: lr.Label, Detail: raisedBy(m.Action), Message: m.Text}
			mv.Picture = structurePicture(names.take(base), c, m.Structure, voc)
			steps := res.Trace(m)
			sw := len(fmt.Sprint(len(steps) - 1))
			for i, st := range steps {
				sv := &StepView{Location: st.Location, Action: st.Action, structure: st.Structure}
				if i > 0 {
					sv.Changed = tvl.Changed(steps[i-1].Structure, st.Structure)
				}
				if i == len(steps)-1 {
					sv.Picture = mv.Picture
				} else {
					sc := Caption{Location: st.Location, Detail: "input structure"}
					if i > 0 {
						sc.Detail = "after " + st.Action
					}
					name := names.take(fmt.Sprintf("%s-step%0*d", base, sw, i))
					sv.Picture = structurePicture(name, sc, st.Structure, voc)
				}
				mv.Trace = append(mv.Trace, sv)
			}
			if len(mv.Trace) == 0 {
				mv.Trace = []*StepView{{Location: lr.Label, Action: m.Action, Picture: mv.Picture}}
			}
			v.Messages = append(v.Messages, mv)
			lv.Messages = append(lv.Messages, mv)
		}
	}
	hrefs := map[string]string{}
	for _, lv := range v.Locations {
		hrefs[lv.Label] = "#" + lv.Anchor
	}
	v.CFG = picture(cfgName, Caption{Detail: "control-flow graph"}, cfgGraph(prog, res, func(loc string) string { return hrefs[loc] }))
	return v
}

func raisedBy(action string) string {
	if action == "" {
		return "raises the message"
	}
	return action + " raises the message"
}

// Pictures lists every picture once: the CFG, the structures location by
// location, then each message's trace steps and structure.
func (v *Views) Pictures() []*Picture {
	out := []*Picture{v.CFG}
	for _, lv := range v.Locations {
		out = append(out, lv.Structures...)
	}
	for _, mv := range v.Messages {
		for _, st := range mv.Trace {
			if st.Picture != mv.Picture {
				out = append(out, st.Picture)
			}
		}
		out = append(out, mv.Picture)
	}
	return out
}

// Render makes the SVG of every picture with Graphviz: first the steps
// of each trace get one layout (their nodes keep their places from step
// to step), then every picture is rendered (RenderSVGs).
func (v *Views) Render(ctx context.Context, progress func(done, total int)) error {
	places, err := v.layOutTraces(ctx)
	if err != nil {
		return err
	}
	pics := v.Pictures()
	var free, placed []*Picture
	for _, p := range pics {
		if p.placed {
			placed = append(placed, p)
		} else {
			free = append(free, p)
		}
	}
	var mu sync.Mutex
	done := [2]int{}
	report := func(i int) func(int, int) {
		if progress == nil {
			return nil
		}
		return func(d, _ int) {
			mu.Lock()
			done[i] = d
			progress(done[0]+done[1], len(pics))
			mu.Unlock()
		}
	}
	for i, group := range [][]*Picture{free, placed} {
		texts := make([][]byte, len(group))
		for j, p := range group {
			texts[j] = p.DOT
		}
		var args []string
		if i == 1 {
			args = neatoArgs
		}
		svgs, err := renderSVGs(ctx, texts, args, report(i))
		if err != nil {
			return err
		}
		for j, p := range group {
			p.SVG = svgs[j]
		}
	}
	for _, mv := range v.Messages {
		pos := places[mv]
		if pos == nil {
			continue
		}
		svgs := make([][]byte, len(mv.Trace))
		for i, st := range mv.Trace {
			svgs[i] = st.Picture.SVG
		}
		alignSteps(svgs, pos)
		for i, st := range mv.Trace {
			st.Picture.SVG = svgs[i]
		}
	}
	return nil
}

// layOutTraces gives the steps of every trace of two steps or more one
// layout (layOutTrace): it redraws their pictures placed, and returns
// each trace's places of its nodes.
func (v *Views) layOutTraces(ctx context.Context) (map[*MessageView]map[string]string, error) {
	if _, err := DotPath(); err != nil {
		return nil, err
	}
	voc := v.Program.Vocabulary
	out := map[*MessageView]map[string]string{}
	for _, mv := range v.Messages {
		if len(mv.Trace) < 2 {
			continue
		}
		structs := make([]*tvl.Structure, len(mv.Trace))
		shapes := make([][]string, len(mv.Trace))
		ok := true
		for i, st := range mv.Trace {
			if st.structure == nil {
				ok = false
				break
			}
			structs[i] = st.structure
			shapes[i] = nodeShapes(st.structure, describe(st.structure, voc))
		}
		if !ok {
			continue
		}
		keys := traceKeys(structs, shapes)
		steps := make([]stepGraph, len(mv.Trace))
		for i, st := range mv.Trace {
			p := st.Picture
			g, _ := DrawStructure(structs[i], voc, p.Caption, DrawOptions{FoldThreadPredicates: true})
			name_(g, p.Name)
			g.Attr("id", svgIDPrefix+p.Name)
			sg := stepGraph{g: g, keys: map[string]string{}}
			for _, n := range g.FindNodes() {
				if k := keyOf(n.ID(), keys[i]); k != "" {
					sg.keys[n.ID()] = k
				}
			}
			steps[i] = sg
		}
		texts, pos, err := layOutTrace(ctx, steps)
		if err != nil {
			return nil, err
		}
		for i, st := range mv.Trace {
			st.Picture.DOT = texts[i]
			st.Picture.placed = true
		}
		out[mv] = pos
	}
	return out, nil
}

// Render builds and renders every picture of a run.
func Render(ctx context.Context, prog *model.Program, res *engine.Result, progress func(done, total int)) (*Views, error) {
	v := Build(prog, res)
	if err := v.Render(ctx, progress); err != nil {
		return nil, err
	}
	return v, nil
}

// WriteSVGDir writes every rendered picture to dir as NAME.svg, creating
// dir if needed. Each file is written to a temporary file and renamed, so
// no reader sees half a picture.
func (v *Views) WriteSVGDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range v.Pictures() {
		if p.SVG == nil {
			return fmt.Errorf("picture %s was not rendered", p.Name)
		}
		if err := atomicfile.Write(filepath.Join(dir, p.Name+".svg"), p.SVG, false); err != nil {
			return err
		}
	}
	return nil
}

// WriteSVGDir renders every picture of a run and writes them to dir.
func WriteSVGDir(ctx context.Context, dir string, prog *model.Program, res *engine.Result, progress func(done, total int)) error {
	v, err := Render(ctx, prog, res, progress)
	if err != nil {
		return err
	}
	return v.WriteSVGDir(dir)
}

// WriteDOT writes a run TVLA-style: the CFG with its counts, then, for
// every location (only those of the program's print list, when it has
// one), each structure and each message's structure as a digraph of its
// own, titled with the location and the message.
func WriteDOT(w io.Writer, prog *model.Program, res *engine.Result) error {
	var buf bytes.Buffer
	names := newNamer()
	cfg := CFGGraph(prog, res)
	name_(cfg, names.take("cfg"))
	cfg.Write(&buf)
	keep := map[string]bool{}
	for _, l := range prog.Print {
		keep[l] = true
	}
	for _, lr := range res.Locations {
		if len(keep) > 0 && !keep[lr.Label] {
			continue
		}
		for i, s := range lr.Structures.All() {
			c := Caption{Location: lr.Label, Detail: fmt.Sprintf("structure %d of %d", i+1, lr.Structures.Len())}
			g := StructureGraph(s, prog.Vocabulary, c)
			name_(g, names.take(fmt.Sprintf("%s-%d", safeName(lr.Label), i+1)))
			buf.WriteByte('\n')
			g.Write(&buf)
		}
		for i, m := range lr.Messages {
			c := Caption{Location: lr.Label, Detail: raisedBy(m.Action), Message: m.Text}
			g := StructureGraph(m.Structure, prog.Vocabulary, c)
			name_(g, names.take(fmt.Sprintf("%s-message%d", safeName(lr.Label), i+1)))
			buf.WriteByte('\n')
			g.Write(&buf)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// picture names a graph (its DOT name, and the prefix of the ids in its
// SVG, so that pictures put together in one page do not share ids) and
// prints it.
func picture(name string, c Caption, g *dot.Graph) *Picture {
	name_(g, name)
	g.Attr("id", svgIDPrefix+name)
	return &Picture{Name: name, Caption: c, DOT: graphText(g)}
}

// structurePicture draws a structure for the views: a thread's soft
// invariants folded out of its node (the report lists them beside the
// picture, the node's tooltip in an SVG file).
func structurePicture(name string, c Caption, s *tvl.Structure, voc *predicates.Vocabulary) *Picture {
	g, folded := DrawStructure(s, voc, c, DrawOptions{FoldThreadPredicates: true})
	p := picture(name, c, g)
	p.Folded = folded
	return p
}

// svgIDPrefix starts the ids in a picture's SVG; no anchor of the HTML
// report starts so.
const svgIDPrefix = "svg-"

// name_ gives a graph a DOT name (a quoted string: names are made of safe
// characters, see safeName).
func name_(g *dot.Graph, name string) {
	g.ID(strconv.Quote(name))
}

func graphText(g *dot.Graph) []byte {
	var b bytes.Buffer
	g.Write(&b)
	return b.Bytes()
}

// namer hands out names unique in a run, also when compared without case
// (for case-insensitive file systems).
type namer map[string]bool

func newNamer() namer { return namer{} }

func (n namer) take(want string) string {
	name := want
	for i := 2; n[strings.ToLower(name)]; i++ {
		name = fmt.Sprintf("%s_%d", want, i)
	}
	n[strings.ToLower(name)] = true
	return name
}

// safeName keeps letters, digits, '-' and '_' of a label, replacing
// anything else by '_', so that it can name a file and an HTML id.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
