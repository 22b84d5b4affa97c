// Command tvla is a shape analyzer in the tradition of TVLA 3: it runs TVP
// programs over three-valued logical structures to a fixpoint and reports
// the abstract states and messages per program location.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tvla-go/tvla/alg"
	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/experiment"
	"github.com/tvla-go/tvla/tvp"
)

// Algorithms (.alg) compile to TVP on loading, in every command.
func init() {
	driver.RegisterFrontend(".alg", driver.Frontend{Load: algc.Load, Input: algc.Input, SoftByDefault: true})
}

// Exit codes, as the command-line contract fixes them.
const (
	exitVerified = 0 // fixpoint reached, no message
	exitMessages = 1 // fixpoint reached, messages raised
	exitInput    = 2 // usage, file, syntax or type error
	exitLimit    = 3 // stopped early by a limit; outputs hold what was found
)

// exitError carries the exit code an error should end the process with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad input: exit code 2.
func usageError(format string, args ...any) error {
	return &exitError{code: exitInput, err: fmt.Errorf(format, args...)}
}

// inputError marks an error of the driver: its messages are about the
// input (exit code 2).
func inputError(err error) error { return &exitError{code: exitInput, err: err} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCommand(stdout, stderr)
	root.SetArgs(normalizeTVLAFlags(args))
	err := root.Execute()
	if err == nil {
		return exitVerified
	}
	var ee *exitError
	if errors.As(err, &ee) {
		switch ee.err.(type) {
		case nil:
		case tvp.ErrorList, *tvp.Error, experiment.SpecErrors, alg.ErrorList:
			// Positioned errors stand alone, one per line, as
			// file:line:col: message.
			fmt.Fprintln(stderr, ee.err)
		default:
			fmt.Fprintln(stderr, "tvla:", ee.err)
		}
		return ee.code
	}
	// Cobra's own errors (unknown flag, missing argument) are usage errors.
	fmt.Fprintln(stderr, "tvla:", err)
	return exitInput
}
