package viz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// DotPackage is the Debian package that provides Graphviz's dot.
const DotPackage = "graphviz"

// ErrNoDot says that Graphviz's dot program is not on PATH.
var ErrNoDot = errors.New("Graphviz's dot is not on PATH: install the " + DotPackage + " package (Debian: apt-get install " + DotPackage + ")")

// DotPath finds Graphviz's dot on PATH, or returns ErrNoDot.
func DotPath() (string, error) {
	p, err := exec.LookPath("dot")
	if err != nil {
		return "", ErrNoDot
	}
	return p, nil
}

// RenderSVG runs dot -Tsvg on a DOT text and returns its output: one SVG
// document per graph in the text, one after another.
func RenderSVG(ctx context.Context, dotText []byte) ([]byte, error) {
	return runGraphviz(ctx, []string{"-Tsvg"}, dotText)
}

// runGraphviz runs dot with arguments on a DOT text and returns its
// output.
func runGraphviz(ctx context.Context, args []string, dotText []byte) ([]byte, error) {
	path, err := DotPath()
	if err != nil {
		return nil, err
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(dotText)
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + " ..."
		}
		what := "dot " + strings.Join(args, " ")
		if msg != "" {
			return nil, fmt.Errorf("%s: %v: %s", what, err, msg)
		}
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	return out.Bytes(), nil
}

// batchSize is the most graphs one dot process renders: starting dot
// costs more than laying out a small graph, so graphs go in batches.
const batchSize = 48

// RenderSVGs renders every DOT text (each one graph) to SVG, in batches
// on parallel dot processes, one per CPU. progress, when not nil, is told
// how many graphs are done out of how many after each batch; its calls
// do not overlap. The first error stops the rest.
func RenderSVGs(ctx context.Context, graphs [][]byte, progress func(done, total int)) ([][]byte, error) {
	return renderSVGs(ctx, graphs, nil, progress)
}

// neatoArgs render a graph whose nodes and edges are placed already
// (pos, lp): neato only draws them.
var neatoArgs = []string{"-Kneato", "-n2"}

// renderSVGs is RenderSVGs with extra arguments for dot.
func renderSVGs(ctx context.Context, graphs [][]byte, args []string, progress func(done, total int)) ([][]byte, error) {
	if _, err := DotPath(); err != nil {
		return nil, err
	}
	total := len(graphs)
	out := make([][]byte, total)
	if total == 0 {
		return out, nil
	}
	workers := runtime.GOMAXPROCS(0)
	size := min(batchSize, max(1, (total+workers-1)/workers))
	type batch struct{ from, to int }
	var batches []batch
	for i := 0; i < total; i += size {
		batches = append(batches, batch{i, min(total, i+size)})
	}
	workers = min(workers, len(batches))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan batch)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				var in bytes.Buffer
				for _, g := range graphs[b.from:b.to] {
					in.Write(g)
					in.WriteByte('\n')
				}
				svg, err := runGraphviz(ctx, append([]string{"-Tsvg"}, args...), in.Bytes())
				if err != nil {
					fail(err)
					continue
				}
				docs := splitSVG(svg)
				for i, d := range docs {
					// dot prefixes the ids of every graph after the first
					// of its input with the page: drop that, so that a
					// picture does not depend on its batch.
					docs[i] = pagePrefix.ReplaceAll(d, []byte(`id="`))
				}
				if len(docs) != b.to-b.from {
					fail(fmt.Errorf("dot -Tsvg gave %d pictures for %d graphs", len(docs), b.to-b.from))
					continue
				}
				copy(out[b.from:b.to], docs)
				mu.Lock()
				done += len(docs)
				if progress != nil && firstErr == nil {
					progress(done, total)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, b := range batches {
		select {
		case jobs <- b:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

var pagePrefix = regexp.MustCompile(`id="page\d+,\d+_`)

// splitSVG cuts dot's output for several graphs into one document each:
// every document starts with an XML declaration, which text inside a
// picture cannot contain unescaped.
func splitSVG(out []byte) [][]byte {
	const start = "<?xml"
	var docs [][]byte
	for len(out) > 0 {
		i := bytes.Index(out, []byte(start))
		if i < 0 {
			break
		}
		out = out[i:]
		j := bytes.Index(out[len(start):], []byte(start))
		if j < 0 {
			docs = append(docs, out)
			break
		}
		docs = append(docs, out[:len(start)+j])
		out = out[len(start)+j:]
	}
	return docs
}
