package cpp

import "fmt"

// Pos is a place in an original source file, 1-based.
type Pos struct {
	File string
	Line int
	Col  int
}

// String is file:line:col, or file alone when there is no line (a file
// that cannot be read: it has no position).
func (p Pos) String() string {
	if p.Line == 0 && p.File != "" {
		return p.File
	}
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a problem found in the input, at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }
