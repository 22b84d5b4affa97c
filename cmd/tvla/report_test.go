package main

import (
	"regexp"
	"testing"
)

// The phase times are the workers' summed, which with two workers may
// exceed the total (issue 19): the time line says so.
func TestTimeLineSaysPhasesAreSummedOverWorkers(t *testing.T) {
	for _, c := range []struct {
		workers string
		label   string
	}{{"2", `summed over 2 workers`}, {"1", `on 1 worker`}} {
		_, out, _ := runCLI("run", twiceProgram, "-q", "--workers", c.workers)
		re := regexp.MustCompile(`(?m)^time +\d+\.\d{3}s \(` + c.label +
			`: focus \d+\.\d{3}, coerce \d+\.\d{3}, update \d+\.\d{3}, blur \d+\.\d{3}; join \d+\.\d{3}\)$`)
		if !re.MatchString(out) {
			t.Errorf("--workers %s: no time line labelled %q:\n%s", c.workers, c.label, out)
		}
	}
}
