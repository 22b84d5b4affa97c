package driver

import (
	"fmt"
	"os"
	"path/filepath"
)

// validateCheckpoint checks the checkpoint flags: the file to write can
// be made where it is to go, the one to resume from is a checkpoint, and
// the run is one that checkpoints.
func (c *Config) validateCheckpoint() error {
	if c.CheckpointEvery < 0 {
		return fmt.Errorf("--checkpoint-every must not be negative")
	}
	if c.CheckpointEvery > 0 && c.Checkpoint == "" {
		return fmt.Errorf("--checkpoint-every needs --checkpoint FILE")
	}
	if c.Checkpoint == "" && c.Resume == "" {
		return nil
	}
	if IsConcrete(c.Join) || c.Join == JoinDecompose {
		return fmt.Errorf("--checkpoint and --resume are for abstract runs, not --join %s", c.Join)
	}
	if c.Checkpoint != "" {
		// The file is written beside itself and renamed: its folder must
		// take a new file.
		f, err := os.CreateTemp(filepath.Dir(c.Checkpoint), filepath.Base(c.Checkpoint)+".*.tmp")
		if err != nil {
			return fmt.Errorf("--checkpoint %s: %v", c.Checkpoint, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	if c.Resume != "" {
		if _, err := openCheckpoint(c.Resume); err != nil {
			return fmt.Errorf("--resume: %v", err)
		}
	}
	return nil
}

// checkpointOptions are the engine's checkpoint options for the run of
// the given stage (soft-invariant round, from 1): it resumes from the
// checkpoint of --resume when that was written in the same stage.
func (s *Session) checkpointOptions(stage int) (checkpointOptions, error) {
	c := &s.Config
	co := checkpointOptions{Path: c.Checkpoint, Every: c.CheckpointEvery, Stage: stage}
	if c.Checkpoint != "" {
		co.Log = func(line string) { fmt.Fprintln(s.hooks.log(), line) }
	}
	if c.Resume == "" || s.resumed {
		return co, nil
	}
	if s.resume == nil {
		cp, err := openCheckpoint(c.Resume)
		if err != nil {
			return co, err
		}
		s.resume = cp
	}
	switch cp := s.resume; {
	case cp.Stage == stage:
		co.Resume, s.resumed = cp, true
		fmt.Fprintf(s.hooks.log(), "resuming from the checkpoint %s (%s)\n", c.Resume, cp.Summary())
	case cp.Stage > stage:
		// The rounds before the checkpoint's write none: the file to
		// write may be the one to resume from.
		co.Path, co.Every = "", 0
	default:
		return co, fmt.Errorf("checkpoint %s: it was written in soft-invariant round %d, and this run went on to round %d without it", c.Resume, cp.Stage, stage)
	}
	return co, nil
}
