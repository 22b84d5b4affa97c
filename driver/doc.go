// Package driver runs a TVP program from one configuration, between the
// loader and the front ends (the tvla command, experiments, benchmarks,
// any batch back end or compiler to TVP):
//
//	Config ─Validate, ApplyProperties─▶ Open: load (tvp, or a registered
//	Frontend) ─▶ Compile: the engine ─▶ Run: concrete inputs for a concrete
//	run, the run, soft-invariant rounds ─▶ Outcome ─▶ Outputs: TVS, DOT,
//	SVG, HTML, soft-invariant declarations, the JSON summary
//
// or Session.Embed instead of Run, the embedding check against concrete
// runs. Analyse does the whole of it for a Config. A run takes a context:
// WithLimits gives one that the time and memory limits end, with the limit
// as its cause; the Outcome then holds what was found.
//
// Errors are about the input (exit status 2 on the command line); they
// name the tvla run flag at fault. engine.go is the one place the engine's
// API is used.
package driver
