package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
)

// explainUpdates prints, for every use of the named action, the update
// formulas the tool derives for instrumentation predicates, in TVP syntax.
func explainUpdates(w io.Writer, prog *model.Program, e *engine.Engine, which string) error {
	norm := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	found := false
	for _, a := range prog.Actions {
		if a.Name != which && norm(a.String()) != norm(which) {
			continue
		}
		found = true
		fmt.Fprintf(w, "%%action %s  // %s\n", a, a.Title)
		derived := e.Action(a).DerivedUpdates()
		for _, u := range a.Updates {
			fmt.Fprintf(w, "  %s(%s) = %s  // written\n", u.Pred.Name, joinVars(u.Args), logic.String(u.Formula))
		}
		for _, u := range derived {
			fmt.Fprintf(w, "  %s(%s) = %s  // derived\n", u.Pred.Name, joinVars(u.Args), logic.String(u.Formula))
		}
		if len(derived) == 0 {
			fmt.Fprintln(w, "  // no instrumentation predicate changes")
		}
	}
	if !found {
		var names []string
		for _, a := range prog.Actions {
			names = append(names, a.String())
		}
		return usageError("--explain-updates: no action %q is used in the program (used: %s)", which, strings.Join(names, ", "))
	}
	return nil
}

func joinVars(vs []logic.Var) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
