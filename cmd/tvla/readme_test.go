package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// exampleLine is a command line of the README or of a help text's
// examples: its words (as a shell splits them, without "./tvla") and the
// exit status it is said to have.
type exampleLine struct {
	where string
	text  string
	args  []string
	exit  int
}

// shellWords splits a command line as sh does for the plain words,
// 'single' and "double" quotes the README uses, and cuts a # comment,
// which it returns. An unquoted ( or ) (a syntax error in sh) gives the
// word "(".
func shellWords(line string) (words []string, comment string) {
	var cur strings.Builder
	inWord, quote := false, rune(0)
	for i, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:])
		case r == '(' || r == ')':
			return []string{"("}, ""
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, ""
}

var exitComment = regexp.MustCompile(`\bexit ([0-9])\b`)

// readmeLines are the tvla command lines of the README's sh blocks
// (./tvla ... and go run ./cmd/tvla ...); a comment's "exit N" is the
// status it says, else 0.
func readmeLines(t *testing.T, path string) []exampleLine {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []exampleLine
	inBlock := false
	for n, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock && strings.TrimPrefix(line, "```") == "sh"
			continue
		case !inBlock:
			continue
		}
		words, comment := shellWords(line)
		switch {
		case len(words) == 1 && words[0] == "(":
			t.Errorf("%s:%d: %q: a shell cannot run it (quote the parentheses)", path, n+1, line)
			continue
		case len(words) > 1 && words[0] == "./tvla":
			words = words[1:]
		case len(words) > 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/tvla":
			words = words[3:]
		default:
			continue
		}
		l := exampleLine{where: path + ":" + strconv.Itoa(n+1), text: line, args: words}
		if m := exitComment.FindStringSubmatch(comment); m != nil {
			l.exit, _ = strconv.Atoi(m[1])
		}
		out = append(out, l)
	}
	return out
}

// helpExamples are the lines of the Examples section of a command's
// --help, each said to exit 0.
func helpExamples(t *testing.T, command ...string) []exampleLine {
	code, out, _ := runCLI(append(command, "--help")...)
	if code != 0 {
		t.Fatalf("%v --help: exit %d", command, code)
	}
	_, examples, ok := strings.Cut(out, "\nExamples:\n")
	if !ok {
		t.Fatalf("%v --help has no examples", command)
	}
	examples, _, _ = strings.Cut(examples, "\n\n")
	var lines []exampleLine
	for _, line := range strings.Split(examples, "\n") {
		words, _ := shellWords(line)
		if len(words) < 2 || words[0] != "tvla" {
			t.Errorf("%v --help: example %q is not a tvla command line", command, line)
			continue
		}
		lines = append(lines, exampleLine{where: "tvla " + strings.Join(command, " ") + " --help", text: line, args: words[1:]})
	}
	return lines
}

// outputFlags take a file or folder the command writes.
var outputFlags = map[string]bool{"--tvs": true, "--dot": true, "--svg": true, "--html": true, "--json": true,
	"--out": true, "--soft-invariants-out": true, "--checkpoint": true, "-tvs": true, "-dot": true}

// slowExamples are run only for the files they name: the experiments
// (half a minute and more) and the runs of several seconds.
func slowExample(l exampleLine) bool {
	joined := strings.Join(l.args, " ")
	return (l.args[0] == "experiment" && !strings.Contains(joined, "--dry-run")) ||
		strings.Contains(joined, "--soft-invariants") || strings.Contains(joined, "--max-depth 30")
}

// Every command line of the README (its sh blocks) and of the Examples of
// tvla's, run's, embed's, check's and experiment's --help names files
// that exist in the repository, and runs as printed from its root: the
// quick ones are run, with the exit status the README's comment says (0
// when it says none). Issue 19: placeholders such as prog.tvp, an exit 1
// without a word, an unquoted -DNAME(VALUE).
func TestREADMEAndHelpExamplesRun(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	lines := readmeLines(t, filepath.Join(root, "README.md"))
	if len(lines) < 10 {
		t.Fatalf("only %d command lines found in README.md", len(lines))
	}
	for _, c := range [][]string{{}, {"run"}, {"embed"}, {"check"}, {"experiment"}} {
		lines = append(lines, helpExamples(t, c...)...)
	}
	// The commands run in a folder of their own, whose programs/ is the
	// repository's: what they write lands there.
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "programs"), filepath.Join(dir, "programs")); err != nil {
		t.Fatal(err)
	}
	_, dotErr := exec.LookPath("dot")
	for _, l := range lines {
		// The files it reads exist.
		for i, a := range l.args {
			prev := ""
			if i > 0 {
				prev = l.args[i-1]
			}
			if outputFlags[prev] || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "-D") {
				continue
			}
			input := prev == "--path" || prev == "-path" || prev == "--props" || prev == "-props"
			for _, ext := range []string{".tvp", ".tvs", ".toml", ".properties"} {
				input = input || strings.HasSuffix(a, ext)
			}
			if !input {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, a)); err != nil {
				t.Errorf("%s: %q names %s, which is not in the repository", l.where, l.text, a)
			}
		}
		if slowExample(l) || l.args[0] == "version" {
			continue
		}
		if dotErr != nil && (strings.Contains(l.text, "--svg") || strings.Contains(l.text, "--html")) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, os.Args[0], l.args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TVLA_TEST_MAIN=1")
		out, err := cmd.CombinedOutput()
		cancel()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", l.where, err)
		}
		if code != l.exit {
			t.Errorf("%s: %q exits %d, want %d (README: the exit status its comment says, else 0)\n%s", l.where, l.text, code, l.exit, out)
		}
	}
}
