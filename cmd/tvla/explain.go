package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/logic"
)

// explainUpdates prints, for every use of the named action, the update
// formulas the tool derives for instrumentation predicates, in TVP syntax.
func explainUpdates(w io.Writer, s *driver.Session, which string) error {
	prog := s.Loaded.Program
	norm := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	found := false
	for _, a := range prog.Actions {
		if a.Name != which && norm(a.String()) != norm(which) {
			continue
		}
		found = true
		fmt.Fprintf(w, "%%action %s  // %s\n", a, a.Title)
		derived := s.DerivedUpdates(a)
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
