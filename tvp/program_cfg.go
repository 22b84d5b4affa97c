package tvp

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
)

// Sections three and four: the control-flow graph and the locations to
// print.

// cfg reads the edges of section three: label Action(args) label.
func (pp *progParser) cfg() error {
	seen := map[string]bool{}
	addLoc := func(l string) {
		if !seen[l] {
			seen[l] = true
			pp.prog.Locations = append(pp.prog.Locations, l)
		}
	}
	// The first and last tokens of the previous edge.
	prevStart, prev := Token{Kind: EOF}, Token{Kind: EOF}
	for {
		t := pp.peek()
		if t.Kind == EOF || pp.atSectionEnd() {
			return nil
		}
		if t.Kind == RCBR {
			return pp.errorf(t, "unbalanced '}' in the control-flow graph")
		}
		from, actTok, vars, to, err := pp.cfgEdge(t)
		if err != nil {
			// An extra token after an edge written on one line reads
			// as the next edge's source and fails further on: point
			// at it.
			if prev.Kind != EOF && sameLine(prevStart, prev) && sameLine(prev, t) {
				return pp.errorf(t, "unexpected %s after the edge ending in %s (an edge is written FROM Action(args) TO)", t, prev.Text)
			}
			return err
		}
		prevStart, prev = t, pp.toks[pp.at-1]
		addLoc(from)
		addLoc(to)
		args := make([]string, len(vars))
		for i, v := range vars {
			args[i] = string(v)
		}
		def, ok := pp.defs[actTok.Text]
		switch {
		case !ok:
			pp.typeError(actTok.Pos, "unknown action %s", actTok.Text)
			continue
		case len(args) != len(def.params):
			pp.typeError(actTok.Pos, "action %s takes %s, given %d", def.name, plural(len(def.params), "argument"), len(args))
			continue
		case def.broken:
			continue
		}
		before := len(pp.errs)
		acts, err := pp.instantiate(def, args)
		if err != nil {
			if pp.exhausted {
				return err
			}
			pp.fail(err)
			def.broken = true
		}
		if len(args) > 0 {
			// Errors in the body may come from the arguments: say
			// which use of the action they belong to.
			for _, e := range pp.errs[before:] {
				e.Msg += fmt.Sprintf(" (in %s(%s), used at %s)", def.name, strings.Join(args, ", "), actTok.Pos)
			}
		}
		if err != nil {
			continue
		}
		for _, act := range acts {
			pp.prog.Edges = append(pp.prog.Edges, &model.Edge{From: from, To: to, Action: act, Origin: t.Pos.String()})
		}
	}
}

func sameLine(a, b Token) bool { return a.Pos.File == b.Pos.File && a.Pos.Line == b.Pos.Line }

// cfgEdge reads one edge, FROM Action(args) TO, starting at t.
func (pp *progParser) cfgEdge(t Token) (from string, actTok Token, vars []logic.Var, to string, err error) {
	if from, err = pp.cfgNode("a location"); err != nil {
		return
	}
	switch pp.peekKind() {
	case LP:
		// "Act(args) L2": the source location is missing here, or
		// the previous edge's target is (it took this one's source).
		err = pp.errorf(t, "expected a location before the action %s (an edge is written FROM Action(args) TO)", t.Text)
		return
	case COMMA:
		err = pp.errorf(pp.peek(), "expected an action name, found ',' (locations to print go after a %%%% line)")
		return
	}
	if actTok, err = pp.expect(ID, "an action name"); err != nil {
		return
	}
	if vars, err = pp.varList(); err != nil {
		return
	}
	to, err = pp.cfgNode("the target location of the edge")
	return
}

// cfgNode reads a location; what names it in the error.
func (pp *progParser) cfgNode(what string) (string, error) {
	t := pp.next()
	switch t.Kind {
	case ID, STRING:
		return t.Text, nil
	}
	return "", pp.errorf(t, "expected %s (a name or a quoted string), found %s", what, t)
}

// printList reads the optional fourth section: locations to print.
func (pp *progParser) printList() error {
	for pp.peekKind() != EOF {
		t := pp.peek()
		l, err := pp.cfgNode("a location to print")
		if err != nil {
			return err
		}
		if !containsString(pp.prog.Locations, l) {
			pp.typeError(t.Pos, "location %s to print is not in the control-flow graph", l)
		}
		pp.prog.Print = append(pp.prog.Print, l)
		pp.accept(COMMA)
	}
	return nil
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
