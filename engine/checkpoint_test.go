package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tvla-go/tvla/internal/testload"
)

// A run stopped early (by the structure limit, after some join of an
// iteration's results, or by an interrupt, before one) writes a
// checkpoint; a run resumed from it, stopped and resumed again, ends
// with the result of the run that never stopped: the same structures,
// byte for byte, in the same slots, the same messages and statistics.
func TestResumedRunGivesTheUninterruptedResult(t *testing.T) {
	for _, c := range []struct {
		program string
		join    string
		defines []string
		// periodic: also checkpoint at every join (thousands of files
		// for the larger models).
		periodic bool
	}{
		{"../programs/stack/stack.tvp", JoinPartial, []string{"THREADS=2"}, false},
		{"../programs/queue/queue.tvp", JoinPartial, []string{"COLLAPSE_THREADS", "DGLM"}, false},
		{"../programs/sll/search_nullderef.tvp", JoinPartial, nil, true},
		{"../programs/sll/reverse.tvp", JoinRelational, nil, true},
		{"../programs/sll/reverse.tvp", JoinIndependent, nil, true},
	} {
		name := c.program + " " + c.join
		prog, inputs := testload.Program(t, c.program, testload.Defines(c.defines...))
		engine := func(maxStructures int) *Engine {
			e, err := New(prog, Options{Join: c.join, Differencing: true, BreakIfCoerceAfterUpdateFailed: true, MaxStructures: maxStructures, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		want, err := engine(0).Run(context.Background(), inputs)
		if err != nil || want.Incomplete {
			t.Fatalf("%s: %v, incomplete %v", name, err, want != nil && want.Incomplete)
		}
		path := filepath.Join(t.TempDir(), "run.checkpoint")
		open := func() *Checkpoint {
			cp, err := OpenCheckpoint(path)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return cp
		}
		first, second := want.Stats.Stored/3, 2*want.Stats.Stored/3
		// Stopped by the structure limit, twice, then resumed to the end.
		r, err := engine(first).RunCheckpointed(context.Background(), inputs, CheckpointOptions{Path: path})
		if err != nil || !r.Incomplete {
			t.Fatalf("%s: the first part gave %v, incomplete %v", name, err, r != nil && r.Incomplete)
		}
		if cp := open(); cp.Stored != r.Stats.Stored || cp.Examined != r.Stats.Examined {
			t.Errorf("%s: the checkpoint says %s, the run stopped at %d stored, %d examined", name, cp.Summary(), r.Stats.Stored, r.Stats.Examined)
		}
		r, err = engine(second).RunCheckpointed(context.Background(), nil, CheckpointOptions{Path: path, Resume: open()})
		if err != nil || !r.Incomplete || r.Stats.Stored <= first {
			t.Fatalf("%s: the second part gave %v, incomplete %v, %d stored", name, err, r != nil && r.Incomplete, r.Stats.Stored)
		}
		got, err := engine(0).RunCheckpointed(context.Background(), nil, CheckpointOptions{Resume: open()})
		if err != nil {
			t.Fatal(err)
		}
		sameResults(t, name+" resumed twice", got, want)

		// Interrupted before a join (the context ends at its 300th check,
		// or its 30th for a run with fewer).
		for _, checks := range []int64{300, 30} {
			if r, err = engine(0).RunCheckpointed(newTrippingContext(checks), inputs, CheckpointOptions{Path: path}); err != nil || r.Incomplete {
				break
			}
		}
		if err != nil || !r.Incomplete {
			t.Fatalf("%s: the interrupted part gave %v, incomplete %v", name, err, r != nil && r.Incomplete)
		}
		if got, err = engine(0).RunCheckpointed(context.Background(), nil, CheckpointOptions{Resume: open()}); err != nil {
			t.Fatal(err)
		}
		sameResults(t, name+" interrupted and resumed", got, want)

		if !c.periodic {
			continue
		}
		// Periodic checkpoints: the last one, written at the last join,
		// resumes to the same result.
		var logged []string
		r, err = engine(0).RunCheckpointed(context.Background(), inputs, CheckpointOptions{Path: path, Every: time.Nanosecond, Stage: 7,
			Log: func(s string) { logged = append(logged, s) }})
		if err != nil || r.Incomplete || len(logged) < want.Stats.Iterations {
			t.Fatalf("%s: the periodic run gave %v, incomplete %v, %d checkpoints for %d iterations", name, err, r.Incomplete, len(logged), want.Stats.Iterations)
		}
		if !strings.HasPrefix(logged[0], "checkpoint: "+path+" written (") {
			t.Errorf("%s: logged %q", name, logged[0])
		}
		cp := open()
		if cp.Stage != 7 {
			t.Errorf("%s: stage %d, want 7", name, cp.Stage)
		}
		if got, err = engine(0).RunCheckpointed(context.Background(), nil, CheckpointOptions{Resume: cp}); err != nil {
			t.Fatal(err)
		}
		sameResults(t, name+" from the last periodic checkpoint", got, want)
		if left, _ := filepath.Glob(path + ".*"); len(left) > 0 {
			t.Errorf("%s: temporary files left: %v", name, left)
		}
	}
}

// A checkpoint resumes only with the program and options it was written
// with; a file that is not a checkpoint is refused when opened; a
// concrete run cannot checkpoint (nor can graph decomposition).
func TestCheckpointRefusals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.checkpoint")
	two, inputs := testload.Program(t, "../programs/stack/stack.tvp", testload.Defines("THREADS=2"))
	e, err := New(two, Options{Differencing: true, MaxStructures: 50})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.RunCheckpointed(context.Background(), inputs, CheckpointOptions{Path: path}); err != nil {
		t.Fatal(err)
	}
	cp, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := testload.Program(t, "../programs/stack/stack.tvp", testload.Defines("THREADS=1"))
	for _, c := range []struct {
		name string
		opts Options
		prog bool
	}{
		{"another program", Options{Differencing: true}, true},
		{"without differencing", Options{}, false},
		{"another join", Options{Differencing: true, Join: JoinRelational}, false},
		{"skipping superseded versions", Options{Differencing: true, SkipSuperseded: true}, false},
	} {
		p := two
		if c.prog {
			p = one
		}
		e, err := New(p, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.RunCheckpointed(context.Background(), nil, CheckpointOptions{Resume: cp}); !errors.Is(err, ErrCheckpointMismatch) {
			t.Errorf("%s: %v, want the mismatch", c.name, err)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("%n = {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCheckpoint(bad); err == nil || !strings.Contains(err.Error(), "not a checkpoint file") {
		t.Errorf("a TVS file opened as a checkpoint: %v", err)
	}
	e, err = New(two, Options{Differencing: true, Join: JoinConcrete})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.RunCheckpointed(context.Background(), inputs, CheckpointOptions{Path: path}); err == nil || !strings.Contains(err.Error(), "checkpoints are for the abstract runs") {
		t.Errorf("a concrete run: %v", err)
	}
}

// A checkpoint changed on disk anywhere (a byte flipped, the file cut
// short) is refused when resumed, with an error, not read as another run.
func TestDamagedCheckpointIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.checkpoint")
	prog, inputs := testload.Program(t, "../programs/stack/stack.tvp", testload.Defines("THREADS=2"))
	e, err := New(prog, Options{Differencing: true, MaxStructures: 200})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.RunCheckpointed(context.Background(), inputs, CheckpointOptions{Path: path}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	resume := func(data []byte) error {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cp, err := OpenCheckpoint(path)
		if err != nil {
			return err
		}
		e, err := New(prog, Options{Differencing: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.RunCheckpointed(context.Background(), nil, CheckpointOptions{Resume: cp})
		return err
	}
	if err := resume(good); err != nil {
		t.Fatalf("the intact file: %v", err)
	}
	for i := 1; i < 40; i++ {
		at := len(good) * i / 40
		bad := append([]byte(nil), good...)
		bad[at] ^= 0x10
		if err := resume(bad); err == nil {
			t.Errorf("byte %d of %d flipped: resumed without an error", at, len(good))
		}
	}
	if err := resume(good[:len(good)-100]); err == nil {
		t.Error("the file cut short: resumed without an error")
	}
}
