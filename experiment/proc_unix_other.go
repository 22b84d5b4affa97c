//go:build unix && !linux

package experiment

import "syscall"

func setParentDeathSignal(*syscall.SysProcAttr) {}
