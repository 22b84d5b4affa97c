package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tvla-go/tvla/internal/suggest"
)

// version is set at link time for releases (-ldflags "-X main.version=...");
// otherwise the module version of the build is used.
var version = ""

func versionString() string {
	v := version
	if v == "" {
		v = "devel"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	return v
}

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "tvla",
		Short:         "Canonical-abstraction shape analysis of TVP programs",
		Long:          helpText("tvla.long.txt"),
		Example:       helpText("tvla.example.txt"),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Subcommands inherit it: cobra suggests subcommands, not flags.
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newVersionCommand(), newRunCommand(), newCheckCommand(), newEmbedCommand(), newExperimentCommand(), newCompileCommand())
	return root
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of tvla",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "tvla %s (%s, %s/%s)\n", versionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// flagError adds to an unknown flag's error the command's flags it may
// have meant (exit 2 all the same, as every usage error): a misspelt
// --flag gets the nearest names, and a long flag given with one dash
// (-collapse-threads, which pflag reads as the shorthands c, o, l, ...)
// is named with two. TVLA 3's single-dash spellings (-join, -props, -ms,
// -DNAME, ...) never get here: normalizeTVLAFlags rewrote them first.
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) {
		return err
	}
	names := flagNames(cmd)
	if group := ne.GetSpecifiedShortnames(); group != "" {
		// -NAME: a shorthand group; NAME may be a long flag.
		name, _, _ := strings.Cut(group, "=")
		if len([]rune(name)) < 2 {
			return err
		}
		for _, n := range names {
			if n == name {
				return fmt.Errorf("unknown flag -%s: a long flag takes two dashes; did you mean --%s?", group, name)
			}
		}
		if s := suggest.Nearest(name, names); len(s) > 0 {
			return fmt.Errorf("unknown flag -%s: a long flag takes two dashes; did you mean %s?", group, suggest.Or(s, "--"))
		}
		return err
	}
	if s := suggest.Nearest(ne.GetSpecifiedName(), names); len(s) > 0 {
		return fmt.Errorf("%w; did you mean %s?", err, suggest.Or(s, "--"))
	}
	return err
}

// flagNames are the long names of the flags cmd takes, hidden ones left
// out.
func flagNames(cmd *cobra.Command) []string {
	var names []string
	seen := map[string]bool{}
	add := func(f *pflag.Flag) {
		if !f.Hidden && !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	sort.Strings(names)
	return names
}
