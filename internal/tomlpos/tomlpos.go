// Package tomlpos places a TOML syntax error where its byte is.
package tomlpos

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// Of is the line and column (from 1) of pe in data. The library counts a
// newline it stops at as the start of the next line; the byte offset it
// also gives is what this reads when it has one.
func Of(data []byte, pe toml.ParseError) (line, col int) {
	line, col = pe.Position.Line, pe.Position.Col
	if at := pe.Position.Start; at > 0 && at <= len(data) {
		line = bytes.Count(data[:at], []byte("\n")) + 1
		col = at - bytes.LastIndexByte(data[:at], '\n')
	}
	return line, col
}
