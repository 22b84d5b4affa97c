// Package predicates holds what a TVP program says about its predicates:
// core and instrumentation predicates with their properties (unique,
// function, abs, ...), instrumentation definitions, and consistency rules —
// those written with %r and those the properties imply (the TVLA manual's
// table). It wraps a tvl.Vocabulary, which structures are built over.
package predicates
