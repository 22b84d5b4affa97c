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
		Use:     "compile ALGORITHM.alg -o DIR",
		Short:   "Compile an algorithm to a TVP model and its initial structure",
		Long:    helpText("compile.long.txt"),
		Example: helpText("compile.example.txt"),
		Args:    cobra.ExactArgs(1),
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
