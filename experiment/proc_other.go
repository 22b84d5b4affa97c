//go:build !unix

package experiment

import "os/exec"

func ownProcessGroup(*exec.Cmd) {}

// interrupt stops a run; without signals, its figures are lost.
func interrupt(cmd *exec.Cmd) { cmd.Process.Kill() }
