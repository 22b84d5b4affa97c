package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/algc"
	"github.com/tvla-go/tvla/internal/atomicfile"
	"github.com/tvla-go/tvla/tvp"
)

func newCompileCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "compile ALGORITHM.alg -o DIR",
		Short: "Compile an algorithm to a TVP model and its initial structure",
		Long: `Compile translates an algorithm (docs/algorithms.md) into the TVP model that
tvla run analyses when given the .alg file: DIR/NAME.tvp, commented with the
source lines each part comes from, and DIR/NAME.tvs, the initial structure
(NAME is the file's base name). Both take the macros of the hand-written
models: -D THREADS=N bounds the threads, --collapse-threads defines
COLLAPSE_THREADS. The generated model is loaded as a check; every error is
printed as file.alg:line:col: message (exit 2).`,
		Example: `  tvla compile programs/stack/treiber.alg -o /tmp/treiber
  tvla run /tmp/treiber/treiber.tvp --collapse-threads --soft-invariants auto`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usageError("compile needs -o DIR, the folder to write the model into")
			}
			path := args[0]
			if _, err := os.Stat(path); err != nil {
				return usageError("%s: %v", path, err)
			}
			if _, _, err := algc.Load(path, tvp.LoadConfig{}); err != nil {
				return inputError(err)
			}
			out, err := algc.CompileFile(path, tvp.LoadConfig{})
			if err != nil {
				return inputError(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return usageError("-o %s: %v", dir, err)
			}
			base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			for _, f := range []struct{ ext, text string }{{".tvp", out.TVP}, {".tvs", out.TVS}} {
				name := filepath.Join(dir, base+f.ext)
				if err := atomicfile.Write(name, []byte(f.text), false); err != nil {
					return usageError("-o %s: %v", dir, err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), "wrote", name)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "out", "o", "", "the folder to write NAME.tvp and NAME.tvs into")
	return cmd
}
