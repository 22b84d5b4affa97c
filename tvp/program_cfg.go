package tvp

import (
	"fmt"
	"strings"

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
	for {
		t := pp.peek()
		if t.Kind == EOF || pp.atSectionEnd() {
			return nil
		}
		if t.Kind == RCBR {
			return pp.errorf(t, "unbalanced '}' in the control-flow graph")
		}
		from, err := pp.cfgNode("a location")
		if err != nil {
			return err
		}
		switch pp.peekKind() {
		case LP:
			// "Act(args) L2": the source location is missing here, or
			// the previous edge's target is (it took this one's source).
			return pp.errorf(t, "expected a location before the action %s (an edge is written FROM Action(args) TO)", t.Text)
		case COMMA:
			return pp.errorf(pp.peek(), "expected an action name, found ',' (locations to print go after a %%%% line)")
		}
		actTok, err := pp.expect(ID, "an action name")
		if err != nil {
			return err
		}
		vars, err := pp.varList()
		if err != nil {
			return err
		}
		to, err := pp.cfgNode("the target location of the edge")
		if err != nil {
			return err
		}
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
