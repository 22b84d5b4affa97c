package experiment

import (
	"strconv"

	"github.com/tvla-go/tvla/driver"
)

// The spec's format is documented here, beside the parser that reads it
// (spec.go): a test checks that every key the parser knows is named, and
// that ExampleSpec parses.

// SpecFormat describes a spec's keys, for `tvla experiment --help`.
func SpecFormat() string {
	return `The SPEC is TOML: program (a path relative to the SPEC), optionally input,
title and description, a [baseline] table and any number of [[variant]]
tables. The baseline and each variant may set:

  name              letters, digits and - _ . + (required for a variant;
                    the baseline's defaults to "baseline")
  description       a sentence for the report
  defines           macros: { THREADS = 2, FULL_INTERLEAVING = true, X = "v" };
                    false leaves a macro undefined
  join              ` + specJoins() + `
  collapse_threads  true or false (tvla run --collapse-threads)
  abs, nonabs       lists of predicates (tvla run --abs, --nonabs)
  max_structures    stop the run after this many structures (0: no limit)
  timeout           stop the run after this long, e.g. "90s" (0s: no limit)

A variant is the baseline with what it sets: each key replaces the
baseline's, except defines, which change the baseline's macros one by one.
Unknown keys and values of the wrong kind are errors (SPEC:line:col).`
}

// ExampleSpec is a spec of the bundled stack with three variants, as
// `tvla experiment --help` shows it (indented by two spaces).
const ExampleSpec = `  # stack.toml, beside stack.tvp
  title = "Treiber's stack: collapsed threads against bounded ones"
  program = "stack.tvp"            # relative to this file
  input = "stack.tvs"              # optional: PROGRAM.tvs beside it by default

  [baseline]
  name = "collapsed"
  collapse_threads = true

  [[variant]]
  name = "threads-2"
  description = "two threads, not collapsed"
  collapse_threads = false
  defines = { THREADS = 2 }

  [[variant]]
  name = "rel-join"
  join = "rel"
  max_structures = 20000           # the run stops there: marked >N
  timeout = "2m"

  [[variant]]
  name = "doneLP-abs"
  abs = ["doneLP"]                 # also: nonabs = ["p", "q"]`

// specJoins lists the joins a spec may choose: the abstract ones, the
// default first.
func specJoins() string {
	joins := driver.AbstractJoins(true)
	return strconv.Quote(joins[0]) + " (default), " + driver.OrList(joins[1:], true)
}
