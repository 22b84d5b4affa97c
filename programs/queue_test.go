package programs_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// The Michael-Scott queue with the merged specification (queue/README.md).

var queueProgram = filepath.Join("queue", "queue.tvp")

// runQueue analyses queue.tvp with queue.tvs beside it, TVLA's defaults
// and the given macros (NAME, or NAME=VALUE), stopping after maxMessages
// messages (0: no limit).
func runQueue(t testing.TB, maxMessages int, defines ...string) *abstraction.Result {
	t.Helper()
	cfg := tvp.LoadConfig{Defines: map[string]string{}}
	for _, d := range defines {
		name, value, ok := strings.Cut(d, "=")
		if !ok {
			value = "1"
		}
		cfg.Defines[name] = value
	}
	prog, _, err := tvp.LoadProgram(queueProgram, cfg)
	if err != nil {
		t.Fatal(err)
	}
	locs, err := tvp.LoadTVS(strings.TrimSuffix(queueProgram, ".tvp")+".tvs", prog.Vocabulary.Tvl(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []*tvl.Structure
	for _, l := range locs {
		for _, s := range l.Structures {
			inputs = append(inputs, s.Structure)
		}
	}
	e, err := abstraction.NewEngine(prog, abstraction.Options{Differencing: true,
		BreakIfCoerceAfterUpdateFailed: true, MaxMessages: maxMessages})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
