// Package abstraction holds the operations of canonical-abstraction shape
// analysis on three-valued structures: Blur (canonical abstraction) and, as
// the engine grows, Focus, Coerce, Update and the joins.
package abstraction
