package cpp

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Input limits: the most one file may hold. A program and what it
// includes are text a person writes; a TVS file is data, which tvla
// itself writes (tvla run --tvs): what it writes it must read back, so
// its limit is higher and the TVS writer refuses to write more.
const (
	MaxProgramBytes = 64 << 20 // a program, a file it includes, a .properties or experiment file
	MaxTVSBytes     = 1 << 30  // a TVS file and what it includes
)

// TooLargeError says a file holds more than a limit allows. ReadFile
// returns it inside an *fs.PathError naming the file.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file too large (over %s, the most a file may hold)", SizeString(e.Limit))
}

// SizeString writes a byte count as the limits are written: 64 MiB, 1 GiB.
func SizeString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the file at path, which may hold at most limit bytes. It
// reads no more than limit+1 bytes of any file, regular or not, so that
// /dev/zero or a pipe cannot make it read forever; a file with more is an
// *fs.PathError wrapping a *TooLargeError.
func ReadFile(path string, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file's size sizes the buffer (one allocation, as
	// os.ReadFile); for any other it doubles as it fills, but never past
	// limit+1 bytes, so that refusing /dev/zero costs about the limit.
	size := int64(512)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= limit {
		size += fi.Size()
	}
	data := make([]byte, 0, min(size, limit+1))
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			grown := make([]byte, len(data), min(2*int64(cap(data)), limit+1))
			copy(grown, data)
			data = grown
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Limit: limit}}
	}
	return data, nil
}

// bom is the UTF-8 encoding of U+FEFF, which some editors write at the
// start of a file: it is not part of the text.
const bom = "\xEF\xBB\xBF"

// StripBOM removes a UTF-8 byte-order mark from the start of text.
func StripBOM(text string) string {
	if len(text) >= len(bom) && text[:len(bom)] == bom {
		return text[len(bom):]
	}
	return text
}
