// Package logic holds the three-valued logic at the bottom of the analyzer:
// Kleene truth values with their operators and orders, and the abstract
// syntax of first-order formulas with transitive closure (FO+TC) as TVP
// writes them, with free variables, capture-avoiding substitution,
// simplification and a printer whose output the TVP parser reads back to
// the same tree.
//
// Nothing here knows about structures: evaluation lives in package tvl,
// which compiles formulas against a vocabulary.
package logic
