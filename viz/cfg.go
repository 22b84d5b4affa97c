package viz

import (
	"fmt"
	"path/filepath"

	"github.com/emicklei/dot"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
)

// CFGGraph draws the program's control-flow graph: a node per location
// with the number of structures stored there and of messages raised (res
// may be nil: then the graph has no counts), an edge per CFG edge labelled
// with its action. Locations with messages are drawn red, locations no
// structure reached grey and dashed.
func CFGGraph(prog *model.Program, res *engine.Result) *dot.Graph {
	return cfgGraph(prog, res, nil)
}

// cfgGraph is CFGGraph with, when href is not nil, a link on every
// location node.
func cfgGraph(prog *model.Program, res *engine.Result, href func(loc string) string) *dot.Graph {
	g := newGraph()
	g.Attrs("rankdir", "TB", "labelloc", "t", "labeljust", "l", "nodesep", "0.35", "ranksep", "0.4")
	title := "control-flow graph"
	if prog.File != "" {
		title += " of " + filepath.Base(prog.File)
	}
	g.Attr("label", dot.HTML("<B>"+esc(title)+"</B>"))

	nodes := map[string]dot.Node{}
	for i, loc := range cfgLocations(prog, res) {
		n := g.Node(fmt.Sprintf("L%06d", i))
		nodes[loc] = n
		n.Attrs("shape", "box", "style", "rounded", "margin", "0.08,0.04")
		label := "<B>" + esc(loc) + "</B>"
		tip := loc
		if res != nil {
			structures, messages := 0, 0
			if lr := res.Location(loc); lr != nil {
				structures, messages = lr.Structures.Len(), lr.MessageCount()
			}
			label += `<BR/><FONT POINT-SIZE="` + smallSize + `">` + plural(structures, "structure") + `</FONT>`
			tip += ": " + plural(structures, "structure")
			switch {
			case messages > 0:
				label += `<BR/><FONT POINT-SIZE="` + smallSize + `" COLOR="` + messageColor + `">` + plural(messages, "message") + `</FONT>`
				tip += ", " + plural(messages, "message")
				n.Attrs("color", messageColor, "penwidth", "2")
			case structures == 0:
				n.Attrs("color", dimColour, "fontcolor", dimColour, "style", "rounded,dashed")
			}
		}
		n.Attr("label", dot.HTML(label))
		n.Attr("tooltip", tip)
		if href != nil {
			n.Attr("href", href(loc))
		}
		if i == 0 {
			// The entry: an arrow from nowhere.
			start := g.Node("A-entry").Label("")
			start.Attrs("shape", "point", "width", "0.08")
			g.Edge(start, n)
		}
	}
	for _, e := range prog.Edges {
		from, ok1 := nodes[e.From]
		to, ok2 := nodes[e.To]
		if !ok1 || !ok2 {
			continue
		}
		label := ""
		if e.Action != nil {
			label = e.Action.Title
			if label == "" {
				label = e.Action.String()
			}
		}
		edge := g.Edge(from, to)
		if label != "" {
			edge.Attr("label", " "+label+" ")
		}
	}
	return g
}

// cfgLocations lists the program's locations, then any the result has that
// the program does not list.
func cfgLocations(prog *model.Program, res *engine.Result) []string {
	locs := append([]string(nil), prog.Locations...)
	if res != nil {
		seen := map[string]bool{}
		for _, l := range locs {
			seen[l] = true
		}
		for _, lr := range res.Locations {
			if !seen[lr.Label] {
				seen[lr.Label] = true
				locs = append(locs, lr.Label)
			}
		}
	}
	return locs
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
