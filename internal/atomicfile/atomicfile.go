// Package atomicfile writes files whole or not at all, for every output
// of a run (summaries, TVS, pictures): a reader, a crash or a second
// Ctrl-C never leaves half a file.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write writes data through a temporary file in the same folder and a
// rename: the path holds the old contents or the new ones, and a failed
// write leaves nothing behind. With sync the data reaches the disk before
// the rename (worth it for one summary, not for hundreds of pictures).
// The file is readable by all, as files made by os.Create are under the
// usual umask.
//
// A path that is a device, a pipe or a socket (--json /dev/null,
// /dev/stdout, a FIFO) is written into, not renamed over: a rename would
// put a regular file in its place (as root, a /dev/null every other
// program then fails to open). A symbolic link is followed, so that the
// file it names is replaced and the link stays.
func Write(path string, data []byte, sync bool) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeInto(path, data)
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		// The path is a folder, or the folder changed under us: the
		// temporary file must not stay behind.
		os.Remove(tmp)
		return &os.PathError{Op: "write", Path: path, Err: renameCause(path, err)}
	}
	return nil
}

// renameCause is the reason a rename failed, without the temporary
// file's name (the caller names the path it was asked to write).
func renameCause(path string, err error) error {
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return errors.New("is a directory")
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

// writeInto writes data into a file that is not a regular one, as it is.
func writeInto(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
