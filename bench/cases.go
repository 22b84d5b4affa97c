package main

import (
	"path/filepath"
	"strings"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/internal/catalogue"
)

// benchCase is one run: a bundled program (relative to the repository's
// root) with macros and options. The same case runs on the reference with
// the macros in its -D syntax.
type benchCase struct {
	name    string
	group   string
	program string
	// input is the TVS file beside the program (default: PROGRAM.tvs).
	input string
	// macros are NAME or NAME=VALUE; COLLAPSE_THREADS is passed to ours
	// as --collapse-threads, which defines it.
	macros []string
	// firstMessage stops both tools at the first message (the faulty
	// variants): --max-messages 1, TVLA's -mm 1.
	firstMessage bool
	// slow cases run only when named (or with "all").
	slow bool
	// maxStructures and maxMemory stop the run (0: no limit).
	maxStructures int
	maxMemory     driver.ByteSize
	// args, for a catalogue entry (entry), are its tvla run arguments,
	// passed as written after the case's own flags, with the program's
	// own input (PROGRAM.tvs, or an algorithm's); macros then serve the
	// reference only.
	args  []string
	entry *catalogue.Entry
}

func (c benchCase) inputFile() string {
	if c.input != "" {
		return c.input
	}
	return strings.TrimSuffix(c.program, ".tvp") + ".tvs"
}

// config is the case as our tvla run's configuration: COLLAPSE_THREADS
// is --collapse-threads, a faulty variant stops at its first message.
func (c benchCase) config(o options) driver.Config {
	if c.entry != nil {
		cfg := driver.Defaults(filepath.Join(o.root, c.program))
		cfg.Workers = o.workers
		return cfg
	}
	cfg := driver.Defaults(filepath.Join(o.root, c.program), filepath.Join(o.root, c.inputFile()))
	for _, m := range c.macros {
		if m == "COLLAPSE_THREADS" {
			cfg.CollapseThreads = true
		} else {
			cfg.Defines = append(cfg.Defines, m)
		}
	}
	if c.firstMessage {
		cfg.MaxMessages = 1
	}
	cfg.Workers = o.workers
	cfg.MaxStructures, cfg.MaxMemory = c.maxStructures, c.maxMemory
	return cfg
}

// cases lists the suite: the stack and queue models in their
// configurations (threads 1-3, unbounded or collapsed; restricted or full
// interleaving; faulty variants), the team's list programs and its
// sorting program.
func cases() []benchCase {
	var out []benchCase
	add := func(c benchCase) { out = append(out, c) }

	const stack = "programs/stack/stack.tvp"
	for _, c := range []struct {
		name   string
		macros string
		slow   bool
	}{
		{"1", "THREADS=1", false},
		{"2", "THREADS=2", false},
		{"3", "THREADS=3", false},
		{"inf", "", true},
		{"collapsed", "COLLAPSE_THREADS", false},
		{"1-full", "THREADS=1 FULL_INTERLEAVING", false},
		{"2-full", "THREADS=2 FULL_INTERLEAVING", false},
		{"collapsed-full", "COLLAPSE_THREADS FULL_INTERLEAVING", false},
		{"1-pure", "THREADS=1 PURE_INIT", false},
		{"2-pure", "THREADS=2 PURE_INIT", false},
		{"collapsed-pure", "COLLAPSE_THREADS PURE_INIT", false},
	} {
		add(benchCase{name: "stack-" + c.name, group: "stack", program: stack, macros: strings.Fields(c.macros), slow: c.slow})
	}
	for _, bug := range []string{"BUG_PUSH_NO_COMPARE", "BUG_POP_EARLY_LP", "BUG_POP_WRONG_VALUE", "BUG_PUSH_NO_LP"} {
		short := strings.ToLower(strings.TrimPrefix(bug, "BUG_"))
		add(benchCase{name: "stack-" + short + "-collapsed", group: "stack-bugs", program: stack,
			macros: []string{"COLLAPSE_THREADS", bug}, firstMessage: true})
		add(benchCase{name: "stack-" + short + "-2", group: "stack-bugs", program: stack,
			macros: []string{"THREADS=2", bug}, firstMessage: true})
	}

	const queue = "programs/queue/queue.tvp"
	for _, c := range []struct {
		name   string
		macros string
		slow   bool
	}{
		{"1", "THREADS=1", false},
		{"2", "THREADS=2", false},
		{"3", "THREADS=3", true},
		{"collapsed", "COLLAPSE_THREADS", false},
		{"1-full", "THREADS=1 FULL_INTERLEAVING", false},
		{"2-full", "THREADS=2 FULL_INTERLEAVING", true},
		{"collapsed-full", "COLLAPSE_THREADS FULL_INTERLEAVING", true},
		{"1-pure", "THREADS=1 PURE_INIT", false},
		{"2-pure", "THREADS=2 PURE_INIT", false},
		{"collapsed-pure", "COLLAPSE_THREADS PURE_INIT", false},
	} {
		// O is Michael and Scott's dequeue, S the simplified one (DGLM).
		add(benchCase{name: "queue-O-" + c.name, group: "queue", program: queue, macros: strings.Fields(c.macros), slow: c.slow})
		add(benchCase{name: "queue-S-" + c.name, group: "queue", program: queue, macros: append(strings.Fields(c.macros), "DGLM"), slow: c.slow})
	}
	for _, bug := range []string{"BUG_ENQ_TAIL_FIRST", "BUG_DEQ_NO_COMPARE", "BUG_DEQ_RESET_NEXT", "BUG_DEQ_WRONG_VALUE"} {
		short := strings.ToLower(strings.TrimPrefix(bug, "BUG_"))
		add(benchCase{name: "queue-" + short + "-collapsed", group: "queue-bugs", program: queue,
			macros: []string{"COLLAPSE_THREADS", bug}, firstMessage: true})
	}

	for _, p := range []string{"append", "create", "delete", "insert", "merge", "reverse", "search", "search_nullderef"} {
		add(benchCase{name: "sll-" + p, group: "lists", program: "programs/sll/" + p + ".tvp"})
	}
	add(benchCase{name: "sort", group: "sorting", program: "programs/sll/sort.tvp"})
	add(benchCase{name: "sort-descending", group: "sorting", program: "programs/sll/sort.tvp", macros: []string{"DESCENDING"}})
	add(benchCase{name: "sort-bug", group: "sorting", program: "programs/sll/sort.tvp", macros: []string{"BUG_FRONT_TEST"}})
	return out
}

// defaultGroups run when no case is named.
var defaultGroups = map[string]bool{"stack": true, "queue": true, "lists": true, "sorting": true}
