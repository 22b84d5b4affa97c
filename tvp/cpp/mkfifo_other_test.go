//go:build !unix

package cpp_test

import "errors"

func mkfifo(string) error { return errors.New("not supported") }
