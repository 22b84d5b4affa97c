package main

import (
	"github.com/spf13/pflag"

	"github.com/tvla-go/tvla/driver"
)

func addConcreteFlags(f *pflag.FlagSet, c *driver.ConcreteConfig, depthDefault int) {
	f.IntVar(&c.MaxDepth, "max-depth", depthDefault, "concrete runs: explore at most `N` actions from an input; 0 means no limit")
	f.IntVar(&c.Copies, "copies", 3, "concrete runs: a summary individual of an input stands for 1 to `N` individuals (a list input of two or more nodes gives the lists of 2 to N+1 nodes)")
	f.IntVar(&c.Threads, "threads", 0, "concrete runs: a summary thread individual (isthread) of an input stands for 1 to `N` threads; 0 means --copies")
}
