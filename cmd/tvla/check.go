package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/predicates"
)

func newCheckCommand() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "check PROGRAM.tvp [INPUT.tvs ...]",
		Short: "Parse and load a TVP program without analysing it",
		Long: `Check preprocesses, parses and type-checks a TVP program (and its TVS inputs:
those given, or PROGRAM.tvs beside the program) and prints a one-screen
summary of what it declares. Every error is printed as file:line:col: message,
and the exit status is then 2.

Check takes every flag of tvla run, so a run's command line checks as it is
(change run to check): those that decide what is loaded — -D, --path,
--props (and PROGRAM.properties beside the program), --collapse-threads,
--abs, --nonabs and the --soft-* flags — shape what is loaded and
summarised; the others are checked for validity and otherwise ignored.`,
		Example: `  tvla check programs/sll/reverse.tvp
  tvla check programs/stack/stack.tvp programs/stack/stack.tvs -D THREADS=2 --path programs/stack
  tvla check programs/stack/stack.tvp --collapse-threads -D NO_SOFT_INVARIANTS --soft-invariants auto
  tvla check programs/stack/stack.tvp -props programs/stack/tvla.properties`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg := &o.cfg
			cfg.Program, cfg.Inputs, cfg.Explicit = args[0], args[1:], changedFlags(cmd)
			if err := cfg.Validate(); err != nil {
				return inputError(err)
			}
			if err := cfg.ApplyProperties(cmd.ErrOrStderr()); err != nil {
				return inputError(err)
			}
			l, err := driver.Load(cfg)
			if err != nil {
				return inputError(err)
			}
			printSummary(cmd.OutOrStdout(), l)
			return nil
		},
	}
	addRunFlags(cmd.Flags(), &o)
	return cmd
}

// list joins names, eliding the middle of long lists so the summary stays
// on one screen.
func list(names []string, max int) string {
	if len(names) == 0 {
		return "none"
	}
	if len(names) <= max {
		return strings.Join(names, " ")
	}
	return strings.Join(names[:max], " ") + fmt.Sprintf(" ... (%d more)", len(names)-max)
}

func printSummary(w io.Writer, l *driver.Loaded) {
	p := l.Program
	voc := p.Vocabulary
	var files []string
	for _, f := range l.Files {
		files = append(files, filepath.Base(f))
	}
	fmt.Fprintf(w, "program          %s (%d files: %s)\n", p.File, len(l.Files), list(files, 6))
	byArity := map[int]int{}
	var core, instr, abs []string
	for _, q := range voc.Declared() {
		byArity[q.Arity]++
		name := fmt.Sprintf("%s/%d", q.Name, q.Arity)
		if q.Kind == predicates.Core {
			core = append(core, name)
		} else {
			instr = append(instr, name)
		}
		if q.Arity == 1 && q.Abstraction() {
			abs = append(abs, q.Name)
		}
	}
	var arities []int
	for k := range byArity {
		arities = append(arities, k)
	}
	sort.Ints(arities)
	var parts []string
	names := map[int]string{0: "nullary", 1: "unary", 2: "binary", 3: "ternary"}
	for _, k := range arities {
		n := names[k]
		if n == "" {
			n = fmt.Sprintf("%d-ary", k)
		}
		parts = append(parts, fmt.Sprintf("%d %s", byArity[k], n))
	}
	fmt.Fprintf(w, "predicates       %d declared: %s\n", len(voc.Declared()), strings.Join(parts, ", "))
	fmt.Fprintf(w, "  core           %s\n", list(core, 12))
	fmt.Fprintf(w, "  instrumentation %s\n", list(instr, 12))
	fmt.Fprintf(w, "  abstraction    %d unary: %s\n", len(abs), list(abs, 12))
	written := 0
	for _, r := range voc.Rules {
		if strings.Contains(r.Origin, ":") {
			written++
		}
	}
	fmt.Fprintf(w, "rules            %d: %d written with %%r, %d implied by properties; %d constraints for Coerce\n",
		len(voc.Rules), written, len(voc.Rules)-written, len(predicates.Constraints(voc)))
	var used []string
	for _, a := range p.Actions {
		used = append(used, a.String())
	}
	fmt.Fprintf(w, "actions          %d defined, %d instances used: %s\n", len(p.Definitions), len(p.Actions), list(used, 8))
	entry := "none"
	if len(p.Locations) > 0 {
		entry = p.Locations[0]
	}
	fmt.Fprintf(w, "cfg              %d locations, %d edges; entry %s\n", len(p.Locations), len(p.Edges), entry)
	if len(p.Print) > 0 {
		fmt.Fprintf(w, "  printed        %s\n", list(p.Print, 12))
	}
	if len(l.Inputs) == 0 {
		fmt.Fprintf(w, "inputs           none: one empty structure\n")
	}
	for i, in := range l.Inputs {
		fmt.Fprintf(w, "inputs           %s: %d structures\n", filepath.Base(in), l.PerInput[i])
	}
	if len(p.Warnings) == 0 {
		fmt.Fprintf(w, "warnings         none\n")
	}
	for _, warn := range p.Warnings {
		fmt.Fprintf(w, "warning          %s\n", warn)
	}
}
