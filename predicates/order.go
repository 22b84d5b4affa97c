package predicates

import "github.com/tvla-go/tvla/logic"

// DependencyOrder lists the instrumentation predicates so that each comes
// after the instrumentation predicates its definition uses.
func (v *Vocabulary) DependencyOrder() []*Predicate {
	var out []*Predicate
	done := map[string]bool{}
	var visit func(p *Predicate)
	visit = func(p *Predicate) {
		if done[p.Name] {
			return
		}
		done[p.Name] = true
		for _, q := range logic.Preds(p.Def) {
			if qp := v.Lookup(q); qp != nil && qp.Kind == Instrumentation {
				visit(qp)
			}
		}
		out = append(out, p)
	}
	for _, p := range v.Declared() {
		if p.Kind == Instrumentation {
			visit(p)
		}
	}
	return out
}
