package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// loaded is a program with its input structures.
type loaded struct {
	prog       *model.Program
	files      []string // files the program was read from
	inputs     []string // TVS files read
	structures []*tvl.Structure
	// perInput counts the structures of each input file.
	perInput []int
}

// defineMap turns -D flags into macro definitions; -D NAME means 1.
func defineMap(defs []string) map[string]string {
	out := map[string]string{}
	for _, d := range defs {
		name, value, _ := parseDefine(d)
		if value == "" {
			value = "1"
		}
		out[name] = value
	}
	return out
}

// loadProgram reads the program and its inputs: the TVS files given, or
// PROGRAM.tvs beside the program, or else one empty structure. Errors are
// input errors (exit 2).
func loadProgram(program string, inputs []string, cfg tvp.LoadConfig) (*loaded, error) {
	for _, a := range append([]string{program}, inputs...) {
		if _, err := os.Stat(a); err != nil {
			return nil, usageError("%s: %v", a, errCause(err))
		}
	}
	prog, files, err := tvp.LoadProgram(program, cfg)
	var ae *tvp.AbstractionError
	if errors.As(err, &ae) {
		flag := "--abs"
		if !ae.Abs {
			flag = "--nonabs"
		}
		return nil, usageError("%s %s: %v", flag, ae.Pred, ae.Err)
	}
	var se *predicates.SoftError
	if errors.As(err, &se) {
		return nil, usageError("--soft-invariants: %v", se)
	}
	if err != nil {
		return nil, &exitError{code: exitInput, err: err}
	}
	l := &loaded{prog: prog, files: files}
	if len(inputs) == 0 {
		beside := strings.TrimSuffix(program, filepath.Ext(program)) + ".tvs"
		if _, err := os.Stat(beside); err == nil {
			inputs = []string{beside}
		}
	}
	l.inputs = inputs
	for _, in := range inputs {
		locs, err := tvp.LoadTVS(in, prog.Vocabulary.Tvl(), cfg)
		if err != nil {
			return nil, &exitError{code: exitInput, err: err}
		}
		n := 0
		for _, loc := range locs {
			for _, s := range loc.Structures {
				l.structures = append(l.structures, s.Structure)
				n++
			}
		}
		l.perInput = append(l.perInput, n)
	}
	if len(inputs) == 0 {
		l.structures = []*tvl.Structure{tvl.New(prog.Vocabulary.Tvl())}
	}
	if soft := prog.SoftInvariants; soft != nil {
		// The inputs do not know the generated soft invariants: they
		// take their definitions' values there.
		for _, s := range l.structures {
			if err := soft.Initialize(s); err != nil {
				return nil, &exitError{code: exitInput, err: err}
			}
		}
	}
	return l, nil
}
