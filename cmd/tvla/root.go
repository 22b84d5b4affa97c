package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
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
  tvla run reverse.tvp sll.tvs --join rel --json -
  tvla embed programs/sll/reverse.tvp
  tvla experiment programs/stack/experiments.toml
  tvla version`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
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
