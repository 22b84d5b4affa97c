// Package tvp is the front end for TVLA's languages: it lexes and parses
// TVP programs and TVS structures. Formulas come out as trees of package
// logic; predicate names inside foreach bodies and action definitions are
// bound as they are parsed, so the macro-like constructs of TVP expand
// without a separate pass. Programs and structures are first run through
// the C-style preprocessor of package tvp/cpp, whose source map gives every
// token its place in the files the user wrote.
//
// Loading is linear in the size of the program, however deeply its
// formulas nest, up to a limit: a formula may nest 20,000 levels of
// quantifiers, negations, TC and parentheses (10,000 quantifiers with
// their parentheses, E(v0) (E(v1) (...))). Beyond that, ParseProgram
// reports "formula nested too deeply" at the level that crosses the
// limit, where the recursion of the parser and of every later pass over
// the formula would otherwise grow without bound.
package tvp
