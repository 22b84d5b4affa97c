package cpp

import (
	"slices"
	"sort"
	"strings"
)

// srcFile is a source file after line splicing and comment removal, with
// what it takes to map an offset of the cleaned text back to a line and
// column of the original.
type srcFile struct {
	name    string
	orig    string
	clean   string   // spliced, comments blanked; newlines kept
	splices []splice // sorted by at
	lines   []int    // offsets of line starts in orig
	// commentNL holds the offsets in clean of line breaks inside /* */
	// comments: they do not end a logical line.
	commentNL []int
}

// splice records a removed backslash-newline: cleaned bytes from at on sit
// cum bytes further on in the original text.
type splice struct{ at, cum int }

// newSrcFile prepares text, the contents of the file name. A UTF-8
// byte-order mark at its start is dropped: columns count from the
// character after it, as an editor shows them.
func newSrcFile(name, text string) (*srcFile, *Error) {
	text = StripBOM(text)
	f := &srcFile{name: name, orig: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	// Line splicing: a backslash, optional blanks, a line break.
	var b []byte
	if strings.IndexByte(text, '\\') >= 0 {
		b = make([]byte, 0, len(text))
		cum := 0
		for i := 0; i < len(text); i++ {
			if text[i] == '\\' {
				j := i + 1
				for j < len(text) && isHSpace(text[j]) {
					j++
				}
				if j < len(text) && text[j] == '\n' {
					cum += j + 1 - i
					f.splices = append(f.splices, splice{at: len(b), cum: cum})
					i = j
					continue
				}
			}
			b = append(b, text[i])
		}
	} else {
		b = []byte(text)
	}
	// Comments and strings.
	for i := 0; i < len(b); {
		switch {
		case b[i] == '"':
			i++
			for i < len(b) && b[i] != '"' && b[i] != '\n' {
				i++
			}
			if i < len(b) && b[i] == '"' {
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			start := i
			end := -1
			for j := i + 2; j+1 < len(b); j++ {
				if b[j] == '*' && b[j+1] == '/' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				f.clean = string(b)
				return nil, &Error{Pos: f.posAt(start), Msg: "unterminated comment"}
			}
			for ; i < end; i++ {
				if b[i] == '\n' {
					f.commentNL = append(f.commentNL, i)
				} else {
					b[i] = ' '
				}
			}
		default:
			i++
		}
	}
	f.clean = string(b)
	return f, nil
}

// origOff maps an offset in clean to one in orig.
func (f *srcFile) origOff(c int) int {
	i := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at > c }) - 1
	if i >= 0 {
		c += f.splices[i].cum
	}
	return c
}

// posAt gives the original position of offset c of the cleaned text.
func (f *srcFile) posAt(c int) Pos {
	if c < 0 {
		c = 0
	}
	if c > len(f.clean) {
		c = len(f.clean)
	}
	o := f.origOff(c)
	if o > len(f.orig) {
		o = len(f.orig)
	}
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > o }) - 1
	return Pos{File: f.name, Line: line + 1, Col: o - f.lines[line] + 1}
}

// splicesIn counts the splices whose removed line break belongs to the
// cleaned range [a, b).
func (f *srcFile) splicesIn(a, b int) int {
	lo := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at >= a })
	hi := sort.Search(len(f.splices), func(i int) bool { return f.splices[i].at >= b })
	return hi - lo
}

func (f *srcFile) inComment(nl int) bool {
	_, found := slices.BinarySearch(f.commentNL, nl)
	return found
}

// lineEnd returns the offset of the line break ending the logical line
// containing from (line breaks inside comments do not count), or
// len(clean).
func (f *srcFile) lineEnd(from int) int {
	for {
		k := strings.IndexByte(f.clean[from:], '\n')
		if k < 0 {
			return len(f.clean)
		}
		if !f.inComment(from + k) {
			return from + k
		}
		from += k + 1
	}
}

func isHSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0x1a
}
