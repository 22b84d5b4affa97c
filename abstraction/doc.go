// Package abstraction holds the operations of canonical-abstraction shape
// analysis on three-valued structures, each in a file of its own:
//
//   - blur.go: Blur, canonical abstraction;
//   - focus.go: Focus, Lev-Ami's general algorithm (split until a formula
//     is definite); focus_walk.go: the Focus TVLA 3 runs under its
//     single-structure join, which walks the formula;
//   - coerce.go: Coerce, the constraints enforced as filtered nested-loop
//     joins (compiled in coerce_compile.go, 64 individuals at a time in
//     bitwise.go, incrementally on changed tuples with delta.go);
//   - action.go: a program action compiled (precondition, messages,
//     update formulas, derived updates by finite differencing);
//     update.go: applying it (bindings of the precondition, %new, %clone,
//     the update, %retain); frame.go: where an update formula can change
//     its predicate.
//
// Package engine runs these operations to a fixpoint; nothing here knows
// of locations, worklists or join modes.
package abstraction
