//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slurmLockPath is the lock file that the test runs of one machine share,
// so that one run's cleanup does not stop the one-node cluster another
// run is using, and two runs do not start it at once: a user holds it
// shared, a run that starts or stops the cluster exclusively.
var slurmLockPath = "/tmp/tvla-slurm-test.lock"

// slurmLock is a hold on slurmLockPath (flock: released when the file is
// closed, or the process ends).
type slurmLock struct{ f *os.File }

func openSlurmLock() (*slurmLock, error) {
	f, err := os.OpenFile(slurmLockPath, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	return &slurmLock{f: f}, nil
}

// lock takes the lock, shared or exclusive (changing a lock held already),
// waiting at most wait for other runs to let it go.
func (l *slurmLock) lock(exclusive bool, wait time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(100 * time.Millisecond) {
		err := syscall.Flock(int(l.f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("lock %s: %v", slurmLockPath, err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("another test run has held %s for %s", slurmLockPath, wait)
		}
	}
}

func (l *slurmLock) close() { l.f.Close() }

// The lock of the Slurm test: shared holds go together, an exclusive one
// waits for them and stops the others, and a wait that lasts too long
// ends with an error instead of a hung test.
func TestSlurmLock(t *testing.T) {
	defer func(p string) { slurmLockPath = p }(slurmLockPath)
	slurmLockPath = filepath.Join(t.TempDir(), "lock")
	open := func() *slurmLock {
		l, err := openSlurmLock()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.close)
		return l
	}
	a, b, c := open(), open(), open()
	const short = 300 * time.Millisecond
	if err := a.lock(false, short); err != nil {
		t.Fatal(err)
	}
	if err := b.lock(false, short); err != nil {
		t.Fatalf("two shared holds: %v", err)
	}
	if err := c.lock(true, short); err == nil || !strings.Contains(err.Error(), "another test run has held") {
		t.Fatalf("exclusive while shared: %v", err)
	}
	// The exclusive hold comes once the shared ones go, and keeps a
	// shared one out until it becomes shared itself.
	go func() { time.Sleep(short); a.close(); b.close() }()
	if err := c.lock(true, 10*time.Second); err != nil {
		t.Fatalf("exclusive after the shared ones: %v", err)
	}
	d := open()
	if err := d.lock(false, short); err == nil {
		t.Fatal("a shared hold while another is exclusive")
	}
	if err := c.lock(false, short); err != nil {
		t.Fatal(err)
	}
	if err := d.lock(false, short); err != nil {
		t.Fatalf("shared after the exclusive one became shared: %v", err)
	}
}
