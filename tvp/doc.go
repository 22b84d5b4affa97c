// Package tvp is the front end for TVLA's languages: it lexes and parses
// TVP programs and TVS structures. Formulas come out as trees of package
// logic; predicate names inside foreach bodies and action definitions are
// bound as they are parsed, so the macro-like constructs of TVP expand
// without a separate pass.
package tvp
