package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/tvp"
)

// ApplyProperties reads PROGRAM.properties beside the program (as TVLA
// does) and then the Properties file, the later winning; settings in
// Explicit keep their values. Keys that change nothing here are named
// once on warn. The Config is validated again afterwards: a file may set
// a bad value.
func (c *Config) ApplyProperties(warn io.Writer) error {
	var ignored, unknown []string
	for _, f := range c.PropertiesFiles() {
		p, err := tvp.ReadProperties(f)
		if err != nil {
			return err
		}
		c.applyProperties(p)
		ignored = append(ignored, p.Ignored...)
		unknown = append(unknown, p.Unknown...)
	}
	if warn != nil {
		warnKeys(warn, "properties ignored (they do not change results here)", ignored)
		warnKeys(warn, "properties TVLA 3 does not document, ignored", unknown)
	}
	return c.Validate()
}

// warnKeys names keys once, sorted, after what.
func warnKeys(warn io.Writer, what string, keys []string) {
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	keys = slices.Compact(keys)
	fmt.Fprintf(warn, "warning: %s: %s\n", what, strings.Join(keys, ", "))
}

// PropertiesFiles are the .properties files ApplyProperties reads, in
// its order: PROGRAM.properties beside the program when it exists, then
// Properties.
func (c *Config) PropertiesFiles() []string {
	files := []string{}
	beside := strings.TrimSuffix(c.Program, filepath.Ext(c.Program)) + ".properties"
	if _, err := os.Stat(beside); err == nil {
		files = append(files, beside)
	}
	if c.Properties != "" {
		files = append(files, c.Properties)
	}
	return files
}

func (c *Config) applyProperties(p *tvp.Properties) {
	if p.Join != nil && !c.Explicit["join"] {
		c.Join = *p.Join
	}
	if p.ActionOrder != nil && !c.Explicit["action"] {
		c.ActionOrder = *p.ActionOrder
	}
	if p.MaxStructures != nil && !c.Explicit["max-structures"] {
		c.MaxStructures = *p.MaxStructures
	}
	if p.MaxMessages != nil && !c.Explicit["max-messages"] {
		c.MaxMessages = *p.MaxMessages
	}
	if p.Engine != nil && !c.Explicit["join"] {
		switch {
		case *p.Engine == "dtvla":
			c.Join = JoinDecompose
		case c.Join == JoinDecompose:
			c.Join = DefaultJoin
		}
	}
	if p.KeepBinary != nil {
		c.keepBinary = *p.KeepBinary
	}
	if p.Merge != nil {
		c.merge = *p.Merge
	}
	c.DecomposeKeepBinary = c.keepBinary && c.merge
	if p.MustOutside != nil {
		c.DecomposeMustOutside = *p.MustOutside
	}
	if p.BreakIfCoerceFails != nil {
		c.BreakIfCoerceFails = *p.BreakIfCoerceFails
	}
	if p.Differencing != nil {
		c.Differencing = *p.Differencing
	}
	if p.CloseCycleMessages != nil {
		c.NoCloseCycleMessages = !*p.CloseCycleMessages
	}
	// Macros and folders from a file come before the command line's, as
	// TVLA loads its properties before it reads its options.
	c.Defines = append(slices.Clip(p.Defines), c.Defines...)
	c.SearchPath = append(slices.Clip(p.SearchPath), c.SearchPath...)
}
