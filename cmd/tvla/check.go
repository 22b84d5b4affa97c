package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/driver"
)

func newCheckCommand() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:     "check PROGRAM.tvp [INPUT.tvs ...]",
		Short:   "Parse and load a TVP program without analysing it",
		Long:    helpText("check.long.txt"),
		Example: helpText("check.example.txt"),
		Args:    cobra.MinimumNArgs(1),
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
	c := l.Contents()
	fmt.Fprintf(w, "program          %s (%d files: %s)\n", c.Program, len(c.Files), list(c.Files, 6))
	var parts []string
	for _, a := range c.ByArity {
		parts = append(parts, fmt.Sprintf("%d %s", a.Predicates, driver.ArityName(a.Arity)))
	}
	fmt.Fprintf(w, "predicates       %d declared: %s\n", c.Declared, strings.Join(parts, ", "))
	fmt.Fprintf(w, "  core           %s\n", list(c.Core, 12))
	fmt.Fprintf(w, "  instrumentation %s\n", list(c.Instrumentation, 12))
	fmt.Fprintf(w, "  abstraction    %d unary: %s\n", len(c.Abstraction), list(c.Abstraction, 12))
	fmt.Fprintf(w, "rules            %d: %d written with %%r, %d implied by properties; %d constraints for Coerce\n",
		c.Rules, c.Written, c.Rules-c.Written, c.Constraints)
	fmt.Fprintf(w, "actions          %d defined, %d instances used: %s\n", c.Definitions, len(c.Actions), list(c.Actions, 8))
	entry := c.Entry
	if entry == "" {
		entry = "none"
	}
	fmt.Fprintf(w, "cfg              %d locations, %d edges; entry %s\n", c.Locations, c.Edges, entry)
	if len(c.Print) > 0 {
		fmt.Fprintf(w, "  printed        %s\n", list(c.Print, 12))
	}
	if len(c.Inputs) == 0 {
		fmt.Fprintf(w, "inputs           none: one empty structure\n")
	}
	for _, in := range c.Inputs {
		fmt.Fprintf(w, "inputs           %s: %d structures\n", in.File, in.Structures)
	}
	if len(c.Warnings) == 0 {
		fmt.Fprintf(w, "warnings         none\n")
	}
	for _, warn := range c.Warnings {
		fmt.Fprintf(w, "warning          %s\n", warn)
	}
}
