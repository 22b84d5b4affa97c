package driver

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tvla-go/tvla/predicates"
)

// A saved soft-invariant set: the soft invariants that held when a run
// with generated ones verified (--soft-save FILE), read back by a later
// run (--soft-from FILE, or PROGRAM.soft beside the program) so that it
// generates only those, in one round, instead of refining from scratch.
//
// It changes what is generated, never what is sound: a soft invariant is
// an instrumentation predicate whose rule follows from its definition,
// so any set of them is sound. A set that no longer suffices (the
// program changed) only costs a round: the run then refines as usual,
// from every generated invariant and the set's pairs.
//
// The file is text, a line per item, # starting a comment:
//
//	pair LOCATION Q P   a pair of thread predicates whose conditional soft
//	                    invariants are generated at LOCATION
//	pair LOCATION Q P G the same, guarded by G (predicates.SoftPair)
//	held NAME           a soft invariant to generate (if[L,p], nif[L,p],
//	                    if[L,q,p], ...)
//
// A set of pairs alone (no held line) is a seed for the refinement: its
// first round generates every soft invariant, with the conditional ones
// of its pairs, as a later round of a run from scratch would.

// SoftSet is a saved soft-invariant set.
type SoftSet struct {
	Path  string
	Pairs []predicates.SoftPair
	Names []string
}

// SoftSetNone, given as --soft-from, reads no set (not even PROGRAM.soft).
const SoftSetNone = "none"

// SoftSetFile is the saved set the run reads: --soft-from's file, or
// PROGRAM.soft beside the program when it exists; "" for none (also
// when soft invariants are not generated).
func (c *Config) SoftSetFile() string {
	if !c.SoftOn() || c.Soft.From == SoftSetNone {
		return ""
	}
	if c.Soft.From != "" {
		return c.Soft.From
	}
	beside := strings.TrimSuffix(c.Program, filepath.Ext(c.Program)) + ".soft"
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return ""
}

// ParseSoftSet parses the text of a saved set read from path.
func ParseSoftSet(path string, data []byte) (*SoftSet, error) {
	set := &SoftSet{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d:%d: %s", path, line, strings.Index(sc.Text(), f[0])+1, fmt.Sprintf(format, args...))
		}
		switch {
		case f[0] == "pair" && (len(f) == 4 || len(f) == 5):
			pr := predicates.SoftPair{Location: f[1], Q: f[2], P: f[3]}
			if len(f) == 5 {
				pr.G = f[4]
			}
			set.Pairs = append(set.Pairs, pr)
		case f[0] == "held" && len(f) == 2:
			set.Names = append(set.Names, f[1])
		case f[0] == "pair":
			return nil, bad("a pair line is: pair LOCATION Q P, or pair LOCATION Q P G")
		case f[0] == "held":
			return nil, bad("a held line is: held NAME")
		default:
			return nil, bad("%q: a line of a soft-invariant set starts with pair or held", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", path, line+1, err)
	}
	if len(set.Names) == 0 && len(set.Pairs) == 0 {
		return nil, fmt.Errorf("%s:%d:1: the set is empty: a set needs held lines (the soft invariants to generate) or pair lines (the pairs of thread predicates whose conditional soft invariants to generate, with all the others); for no set, --soft-from none", path, max(line, 1))
	}
	return set, nil
}

// only is the set's names as SoftConfig.Only wants them; nil for a set of
// pairs alone, which restricts nothing: every soft invariant is
// generated, with the set's pairs.
func (set *SoftSet) only() map[string]bool {
	if len(set.Names) == 0 {
		return nil
	}
	m := make(map[string]bool, len(set.Names))
	for _, n := range set.Names {
		m[n] = true
	}
	return m
}

// savedSet is the set of r's invariants that held, with the pairs that
// gave a conditional one among them.
func savedSet(r *SoftResult) *SoftSet {
	set := &SoftSet{}
	seen := map[predicates.SoftPair]bool{}
	for i, inv := range r.Set.Invariants {
		if !r.Held[i] {
			continue
		}
		set.Names = append(set.Names, inv.Pred.Name)
		if inv.Cond != nil {
			pr := predicates.SoftPair{Location: inv.Location, Q: inv.Cond.Name, P: inv.Prop.Name}
			if inv.Guard != nil {
				pr.G = inv.Guard.Name
			}
			if !seen[pr] {
				seen[pr] = true
				set.Pairs = append(set.Pairs, pr)
			}
		}
	}
	return set
}

// Write writes the set to path, with a header saying where it comes
// from and how to make it again.
func (set *SoftSet) Write(path, program string, res *Result) error {
	var b bytes.Buffer
	prog := filepath.Base(program)
	fmt.Fprintf(&b, "# Soft invariants of %s that held when it verified with --collapse-threads\n", prog)
	fmt.Fprintf(&b, "# (%d structures stored). A run that reads this set generates only these, and\n", res.Stats.Stored)
	fmt.Fprintf(&b, "# refines as usual should they not suffice; any set is sound. Made again with\n")
	fmt.Fprintf(&b, "#   tvla run %s --collapse-threads --soft-from none --soft-save %s\n", prog, filepath.Base(path))
	for _, p := range set.Pairs {
		if p.G != "" {
			fmt.Fprintf(&b, "pair %s %s %s %s\n", p.Location, p.Q, p.P, p.G)
			continue
		}
		fmt.Fprintf(&b, "pair %s %s %s\n", p.Location, p.Q, p.P)
	}
	for _, n := range set.Names {
		fmt.Fprintf(&b, "held %s\n", n)
	}
	return WriteFileAtomic(path, b.Bytes())
}
