// Package tvp is the front end for TVLA's languages: it lexes and parses
// TVP programs and TVS structures. Formulas come out as trees of package
// logic; predicate names inside foreach bodies and action definitions are
// bound as they are parsed, so the macro-like constructs of TVP expand
// without a separate pass. Programs and structures are first run through
// the C-style preprocessor of package tvp/cpp, whose source map gives every
// token its place in the files the user wrote.
package tvp
