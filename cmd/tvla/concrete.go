package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/tvl"
)

// concreteOptions bound concrete runs (--join conc, and tvla embed's
// concrete side).
type concreteOptions struct {
	maxDepth int
	copies   int
	threads  int
}

// defaultConcreteStructures bounds a concrete run when --max-structures
// is not given: concrete state spaces are often infinite.
const defaultConcreteStructures = 100000

func addConcreteFlags(f *pflag.FlagSet, o *concreteOptions, depthDefault int) {
	f.IntVar(&o.maxDepth, "max-depth", depthDefault, "concrete runs: explore at most `N` actions from an input; 0 means no limit")
	f.IntVar(&o.copies, "copies", 3, "concrete runs: a summary individual of an input stands for 1 to `N` individuals (a list input of two or more nodes gives the lists of 2 to N+1 nodes)")
	f.IntVar(&o.threads, "threads", 0, "concrete runs: a summary thread individual (isthread) of an input stands for 1 to `N` threads; 0 means --copies")
}

func (o *concreteOptions) validate() error {
	if o.maxDepth < 0 || o.copies < 1 || o.threads < 0 {
		return usageError("--max-depth and --threads must not be negative, --copies must be at least 1")
	}
	return nil
}

// concretize turns the input structures into concrete ones (each
// summary individual as 1..copies individuals, every 1/2 tried both
// ways), saying on log how many it made. It is an input error when none
// results.
func concretize(ctx context.Context, e *engine.Engine, o concreteOptions, inputs []*tvl.Structure, maxStructures int, perFile []int, files []string, log io.Writer) ([]*tvl.Structure, error) {
	out, rep, err := e.Concretize(ctx, inputs, engine.ConcretizeOptions{Copies: o.copies, Threads: o.threads, Max: maxStructures})
	if err != nil && !stopped(err) {
		return nil, &exitError{code: exitInput, err: err}
	}
	if err := reportConcretized(log, o, len(inputs), len(out), rep, maxStructures, perFile, files, err == nil); err != nil {
		return nil, err
	}
	return out, nil
}

// reportConcretized says how many concrete inputs were made and which
// input structures gave none (when the enumeration ran to its end).
func reportConcretized(log io.Writer, o concreteOptions, inputs, made int, rep engine.ConcretizeReport, maxStructures int, perFile []int, files []string, finished bool) error {
	k := 0
	for fi, n := range perFile {
		for j := 0; j < n; j++ {
			if k < len(rep.PerInput) && rep.PerInput[k] == 0 && finished && !rep.Truncated {
				fmt.Fprintf(log, "warning: %s: structure %d gives no new concrete structure within the bounds that satisfies the constraints\n", files[fi], j+1)
			}
			k++
		}
	}
	threads := o.threads
	if threads == 0 {
		threads = o.copies
	}
	fmt.Fprintf(log, "concrete inputs: %d structure(s) from %d input structure(s) (summary individuals as 1 to %d individuals, threads 1 to %d)\n",
		made, inputs, o.copies, threads)
	if rep.Truncated {
		fmt.Fprintf(log, "warning: concrete inputs stopped at the structure limit (%d)\n", maxStructures)
	}
	if made == 0 && inputs > 0 && finished {
		return usageError("no concrete input: no input structure has a concrete instance within the bounds that satisfies the constraints")
	}
	return nil
}
