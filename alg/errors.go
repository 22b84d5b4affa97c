// Package alg is the front end of the algorithm language: `*.alg` files
// describing concurrent data-structure algorithms (node types, shared
// and thread-local variables, operations with linearisation points, a
// sequential specification chosen by name) that a later compiler turns
// into TVP models following Friggens' modelling method
// (docs/algorithms.md). This package lexes, parses, checks and prints;
// it knows nothing of TVP.
package alg

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: line and column count from 1, the
// column in bytes.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is one positioned error.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList holds every error of a file, sorted by position.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// maxErrors bounds the errors reported for one file.
const maxErrors = 25

type errs struct {
	list ErrorList
}

// Errors collects positioned errors for a checker outside this package
// (the compiler's checks) and reports them as the parser does: sorted by
// position, exact duplicates dropped, at most maxErrors.
type Errors struct{ e errs }

// Add records an error at p.
func (c *Errors) Add(p Pos, format string, args ...any) { c.e.add(p, format, args...) }

// Err returns the errors recorded, or nil.
func (c *Errors) Err() error { return c.e.result() }

func (e *errs) add(p Pos, format string, args ...any) {
	e.list = append(e.list, &Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// result sorts the errors by position (stable: two at one place keep
// their order), drops exact duplicates and cuts the list at maxErrors.
func (e *errs) result() error {
	if len(e.list) == 0 {
		return nil
	}
	sort.SliceStable(e.list, func(i, j int) bool {
		a, b := e.list[i].Pos, e.list[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	var out ErrorList
	for i, x := range e.list {
		if i > 0 && x.Pos == e.list[i-1].Pos && x.Msg == e.list[i-1].Msg {
			continue
		}
		out = append(out, x)
	}
	if len(out) > maxErrors {
		out = append(out[:maxErrors], &Error{Pos: out[maxErrors].Pos, Msg: "too many errors"})
	}
	return out
}
