package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// buildRevision builds cmd/tvla as it is at a git revision of the
// repository (exported into scratch) and returns the binary's path.
func buildRevision(root, rev, scratch string, stderr io.Writer) (string, error) {
	dir := filepath.Join(scratch, "base-src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("sh", "-c", `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, "sh", root, rev, dir)
	archive.Stderr = stderr
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("exporting revision %s: %w", rev, err)
	}
	bin := filepath.Join(scratch, "tvla-base")
	build := exec.Command("go", "build", "-o", bin, "./cmd/tvla")
	build.Dir, build.Stdout, build.Stderr = dir, stderr, stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("building revision %s: %w", rev, err)
	}
	return bin, nil
}

// runBuilds runs a case with our build and, when there is one, the base
// build, o.repeat times each, alternating (so that both meet the
// machine in the same states), and returns the first run of each with
// the median wall and analysis times.
func runBuilds(o options, c benchCase, scratch string) (ours, base outcome) {
	var oursRuns, baseRuns []outcome
	for range o.repeat {
		oursRuns = append(oursRuns, runTVLA(o, o.bin, c, scratch))
		if o.baseBin != "" {
			baseRuns = append(baseRuns, runTVLA(o, o.baseBin, c, scratch))
		}
	}
	return medianRun(oursRuns), medianRun(baseRuns)
}

// medianRun is the first run with the median wall and analysis times of
// all of them (a failed run's figures are the first failure's).
func medianRun(runs []outcome) outcome {
	if len(runs) == 0 {
		return outcome{}
	}
	var walls, analyses []float64
	for _, r := range runs {
		if r.err != "" {
			return r
		}
		walls, analyses = append(walls, r.wall.Seconds()), append(analyses, r.analysis.Seconds())
	}
	out := runs[0]
	out.wall = time.Duration(median(walls) * float64(time.Second))
	out.analysis = time.Duration(median(analyses) * float64(time.Second))
	return out
}

// memoryEnv is the environment of the memory report's runs: the
// collector at GOGC=25, so that the last collection, whose live heap
// the trace reports, comes late in the run (within a quarter of the
// final heap's growth), and the heap in use is little more than the live
// heap, for either build.
var memoryEnv = []string{"GOGC=25", "GODEBUG=gctrace=1"}

// gcLine matches a line of GODEBUG=gctrace=1: the heap before, at the
// end of and live after a collection's mark, in MB (2^20 bytes).
var gcLine = regexp.MustCompile(`(?m)^gc \d+ @.*?(\d+)->(\d+)->(\d+) MB`)

// gcTrace returns the largest live heap of the collections text's trace
// lines report (0 without any), and the text without them.
func gcTrace(text string) (peakLive uint64, rest string) {
	for _, m := range gcLine.FindAllStringSubmatch(text, -1) {
		if live, err := strconv.ParseUint(m[3], 10, 64); err == nil {
			peakLive = max(peakLive, live<<20)
		}
	}
	return peakLive, gcLine.ReplaceAllString(text, "")
}

// runMemory prints the memory report: the uncollapsed Michael–Scott
// queue (no --collapse-threads, unbounded threads) stopped at
// o.memoryStructures stored structures, run by our build and the base
// build, and each one's peak live heap, peak heap in use and peak
// resident memory per stored structure. The live heap is the figure
// that decides how many structures fit under --max-memory.
func runMemory(o options, scratch string, stdout io.Writer) int {
	c := benchCase{name: "queue-O-unbounded", program: "programs/queue/queue.tvp",
		maxStructures: o.memoryStructures, maxMemory: 8 << 30}
	builds := []struct{ name, bin string }{{"tvla", o.bin}}
	if o.baseBin != "" {
		builds = append(builds, struct{ name, bin string }{"tvla (base)", o.baseBin})
	}
	fmt.Fprintf(stdout, "Uncollapsed Michael–Scott queue (programs/queue/queue.tvp, no macros), --max-structures %d, %s:\n\n",
		o.memoryStructures, strings.Join(memoryEnv, " "))
	fmt.Fprintln(stdout, "| build | stored | examined | analysis s | wall s | peak live MB | live bytes/structure | peak heap MB | heap bytes/structure | peak RSS MB | RSS bytes/structure |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|")
	var perStructure []float64
	failed := false
	for _, b := range builds {
		r := runTVLA(o, b.bin, c, scratch, memoryEnv...)
		if r.err != "" || r.stored == 0 || r.peakLive == 0 {
			fmt.Fprintf(stdout, "| %s | | | | %.1f | | | | | %d | | %s |\n", b.name, r.wall.Seconds(), r.peakKB/1024, r.err)
			failed = true
			continue
		}
		per := func(bytes float64) float64 { return bytes / float64(r.stored) }
		live, heap, rss := float64(r.peakLive), float64(r.peakHeap), float64(r.peakKB)*1024
		perStructure = append(perStructure, per(live))
		fmt.Fprintf(stdout, "| %s | %d | %d | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", b.name, r.stored, r.examined,
			r.analysis.Seconds(), r.wall.Seconds(), live/(1<<20), per(live), heap/(1<<20), per(heap), rss/(1<<20), per(rss))
	}
	if len(perStructure) == 2 {
		fmt.Fprintf(stdout, "\nlive heap per stored structure: %.0f bytes against the base's %.0f (%.1f× less)\n",
			perStructure[0], perStructure[1], perStructure[1]/perStructure[0])
	}
	if failed {
		return 1
	}
	return 0
}
