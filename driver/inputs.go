package driver

import "fmt"

// warnDiscarded says which input structures Coerce found inconsistent,
// and so left out of the run: where each starts and the constraint it
// breaks (an input that violates a unique property, say, represents no
// state, which is worth knowing before reading the results).
func (s *Session) warnDiscarded(res *Result) {
	if s.hooks.Warnings == nil {
		return
	}
	for _, d := range res.DiscardedInputs {
		where := "the empty input structure"
		if d.Input < len(s.Loaded.Origins) && s.Loaded.Origins[d.Input].File != "" {
			where = s.Loaded.Origins[d.Input].String() + ": input structure"
		}
		fmt.Fprintf(s.hooks.Warnings, "warning: %s is inconsistent and left out: the constraint %s is breached\n", where, d.Violated)
	}
}
