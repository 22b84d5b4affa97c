//go:build unix

package experiment

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup puts a run in a process group of its own, so that a
// Ctrl-C at the terminal reaches only the experiment, which then tells
// each run once (a second Ctrl-C would make tvla run quit at once,
// without its summary).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// interrupt tells a run to stop as Ctrl-C does.
func interrupt(cmd *exec.Cmd) { cmd.Process.Signal(os.Interrupt) }
