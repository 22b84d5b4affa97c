package experiment

import "syscall"

// setParentDeathSignal ends a run whose experiment was killed outright:
// runs in their own process group would otherwise go on.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
