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
		Use:   "tvla",
		Short: "Canonical-abstraction shape analysis of TVP programs",
		Long: `tvla verifies programs that manipulate heaps (and threads, which it treats as
heap objects) by exploring their abstract state space of three-valued logical
structures, as TVLA 3 does. A program is written in the TVP language; initial
structures come from TVS files.`,
		Example: `  tvla run programs/stack/stack.tvp --collapse-threads
  tvla run programs/sll/reverse.tvp programs/sll/lists_x.tvs --join rel --json -
  tvla embed programs/sll/reverse.tvp
  tvla experiment programs/stack/experiments.toml
  tvla version`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Subcommands inherit it: cobra suggests subcommands, not flags.
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newVersionCommand(), newRunCommand(), newCheckCommand(), newEmbedCommand(), newExperimentCommand())
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
		if s := suggestFlags(name, names); len(s) > 0 {
			return fmt.Errorf("unknown flag -%s: a long flag takes two dashes; did you mean %s?", group, orFlags(s))
		}
		return err
	}
	if s := suggestFlags(ne.GetSpecifiedName(), names); len(s) > 0 {
		return fmt.Errorf("%w; did you mean %s?", err, orFlags(s))
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

// suggestFlags are the names nearest to name: those of which it is a
// prefix of three letters or more count as at distance 1, the others at
// their edit distance, up to a third of name's length (at least 2); the
// nearest, at most three, in alphabetical order.
func suggestFlags(name string, names []string) []string {
	name = strings.ToLower(name)
	best, limit := -1, max(2, len(name)/3)
	var out []string
	for _, n := range names {
		d := editDistance(name, n)
		if len(name) >= 3 && strings.HasPrefix(n, name) {
			d = min(d, 1)
		}
		switch {
		case d > limit || (best >= 0 && d > best):
			continue
		case best < 0 || d < best:
			best, out = d, nil
		}
		out = append(out, n)
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// orFlags writes names as "--a", "--a or --b", "--a, --b or --c".
func orFlags(names []string) string {
	for i, n := range names {
		names[i] = "--" + n
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
