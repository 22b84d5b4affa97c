//go:build !linux

package main

import "time"

// slurmLock does nothing where Slurm's one-node cluster is not run
// (slurmlock_linux_test.go has the lock).
type slurmLock struct{}

func openSlurmLock() (*slurmLock, error)                         { return &slurmLock{}, nil }
func (*slurmLock) lock(exclusive bool, wait time.Duration) error { return nil }
func (*slurmLock) close()                                        {}
