// Package tvl holds three-valued logical structures: a universe of
// individuals numbered 0..n-1 and, for every predicate of a vocabulary, an
// interpretation that maps tuples of individuals to Kleene values. The
// summary predicate sm is an ordinary unary predicate of every vocabulary;
// equality reads it (TVLA uses sm in place of eq).
//
// Unary and binary interpretations are bit tables (a definite-value plane
// and an unknown plane) shared between a structure and its copies until one
// of them writes (copy-on-write). The package also evaluates formulas of
// package logic over structures, hashes structures up to isomorphism and
// decides isomorphism.
package tvl
