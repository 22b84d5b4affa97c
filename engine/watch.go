package engine

import (
	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Watching a soft invariant finds where the abstraction first loses a
// fact: a soft invariant that no longer holds is not reported, it only
// stops sharpening, and the false alarm it lets through comes later, on
// another path, after a join. A watched predicate that is not 1 on some
// thread after an application raises a message, whose trace is the
// shortest path to the first such application.

// WatchPrefix begins the text of a watch message.
const WatchPrefix = "watched predicate "

// resolveWatch looks up Options.Watch's unary predicates.
func (e *Engine) resolveWatch() {
	if len(e.opts.Watch) == 0 {
		return
	}
	tv := e.voc.Tvl()
	e.isThread = tv.Lookup(predicates.IsThreadName)
	for _, name := range e.opts.Watch {
		if p := tv.Lookup(name); p != nil && p.Arity == 1 {
			e.watch = append(e.watch, p)
		}
	}
}

// Watched lists the predicates of Options.Watch the program declares
// (unary ones only).
func (e *Engine) Watched() []string {
	var out []string
	for _, p := range e.watch {
		out = append(out, p.Name)
	}
	return out
}

// watchMessages returns the messages of the watched predicates that s
// breaks: not 1 on an individual that may be a thread.
func (e *Engine) watchMessages(s *tvl.Structure, act *abstraction.Action) []string {
	if len(e.watch) == 0 || e.isThread == nil {
		return nil
	}
	var out []string
	for _, p := range e.watch {
		for u := 0; u < s.Size(); u++ {
			if s.Get(e.isThread, u) != logic.False && s.Get(p, u) != logic.True {
				out = append(out, WatchPrefix+p.Name+" is not 1 on a thread after "+act.Title())
				break
			}
		}
	}
	return out
}
