package model

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
)

// Dump writes the whole loaded program to w in a TVP-like text meant to be
// read and diffed by people: the vocabulary (built-ins included, in
// vocabulary order, with kind, arity, parameters, every property, display
// hint and whether each is an abstraction predicate), the consistency rules
// and the Coerce constraints with their origins, the action definitions,
// every instantiated action with all its parts, the CFG edges, the
// locations, the locations to print and the warnings. Formulas are printed
// by logic.String.
//
// The output depends only on the program: positions are written relative
// to the folder of the program's file, so that it does not matter where
// the program was loaded from.
func (p *Program) Dump(w io.Writer) error {
	d := &dumper{w: bufio.NewWriter(w), base: filepath.Dir(p.File)}
	d.program(p)
	return d.w.Flush()
}

// DumpString returns what Dump writes.
func (p *Program) DumpString() string {
	var b strings.Builder
	p.Dump(&b) // a strings.Builder does not fail
	return b.String()
}

type dumper struct {
	w    *bufio.Writer
	base string // the program's folder
}

func (d *dumper) printf(format string, args ...any) {
	fmt.Fprintf(d.w, format, args...)
}

func (d *dumper) section(title string) {
	d.printf("\n%%%% %s\n", title)
}

// rel rewrites the file paths in text (an origin "file:line:col" or a
// message holding such positions) relative to the program's folder.
func (d *dumper) rel(text string) string {
	if d.base == "." || d.base == "" {
		return text
	}
	// A leading file:line:col, possibly outside the folder.
	if file, rest, ok := splitPosition(text); ok && !strings.HasPrefix(file, "<") && filepath.IsAbs(file) == filepath.IsAbs(d.base) {
		if r, err := filepath.Rel(d.base, file); err == nil {
			text = filepath.ToSlash(r) + rest
		}
	}
	return strings.ReplaceAll(text, d.base+string(filepath.Separator), "")
}

// splitPosition splits "file:line:col..." into the file and the rest
// (":line:col..."); ok is false when text does not start so.
func splitPosition(text string) (file, rest string, ok bool) {
	for i := 0; i < len(text); i++ {
		if text[i] != ':' {
			continue
		}
		j := i + 1
		digits := func() bool {
			k := j
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			return j > k
		}
		if i > 0 && digits() && j < len(text) && text[j] == ':' {
			j++
			if digits() {
				return text[:i], text[i:], true
			}
		}
	}
	return "", "", false
}

func (d *dumper) program(p *Program) {
	d.printf("// program %s\n", filepath.Base(p.File))
	if p.Vocabulary != nil {
		d.vocabulary(p.Vocabulary)
	}
	d.section("action definitions")
	for _, name := range p.Definitions {
		d.printf("%s\n", name)
	}
	d.section("actions")
	for i, a := range p.Actions {
		if i > 0 {
			d.printf("\n")
		}
		d.action(a)
	}
	d.section("cfg")
	for _, e := range p.Edges {
		act := "?"
		if e.Action != nil {
			act = e.Action.String()
		}
		d.printf("%s %s %s  // at %s\n", label(e.From), act, label(e.To), d.rel(e.Origin))
	}
	d.section("locations")
	for _, l := range p.Locations {
		d.printf("%s\n", label(l))
	}
	d.section("print")
	if len(p.Print) == 0 {
		d.printf("// every location\n")
	}
	for _, l := range p.Print {
		d.printf("%s\n", label(l))
	}
	d.section("warnings")
	for _, w := range p.Warnings {
		d.printf("%s\n", d.rel(w))
	}
}

func (d *dumper) vocabulary(v *predicates.Vocabulary) {
	d.section("predicates")
	for _, q := range v.All() {
		var b strings.Builder
		switch q.Kind {
		case predicates.Builtin:
			b.WriteString("builtin ")
		case predicates.Instrumentation:
			b.WriteString("%i ")
		default:
			b.WriteString("%p ")
		}
		b.WriteString(logic.String(logic.NewAtom(q.Name, q.Params...)))
		if q.Def != nil {
			b.WriteString(" = " + logic.String(q.Def))
		}
		if props := properties(q.Props); props != "" {
			b.WriteString(" " + props)
		}
		abs := "abstraction"
		if !q.Abstraction() {
			abs = "not abstraction"
		}
		fmt.Fprintf(&b, "  // %s, arity %d, %s", q.Kind, q.Arity, abs)
		if q.Kind != predicates.Builtin {
			b.WriteString(", at " + d.rel(q.Origin))
		}
		d.printf("%s\n", b.String())
	}
	d.section("consistency rules")
	for _, r := range v.Rules {
		d.printf("%%r %s  // %s\n", r, d.origin(r.Origin))
	}
	d.section("constraints")
	for _, c := range predicates.Constraints(v) {
		d.printf("%s  // %s; vars (%s)\n", c, d.origin(c.Origin), vars(c.Vars))
	}
}

// origin prints where a rule or constraint came from: "at file:line:col"
// for one written in the program, or what implies it ("x unique").
func (d *dumper) origin(o string) string {
	if _, _, ok := splitPosition(o); ok {
		return "at " + d.rel(o)
	}
	return o
}

// properties prints a predicate's properties as a declaration writes
// them, in a fixed order.
func properties(p predicates.Properties) string {
	var out []string
	flags := []struct {
		on   bool
		word string
	}{
		{p.Unique, "unique"}, {p.Function, "function"}, {p.InvFunction, "invfunction"},
		{p.Abs, "abs"}, {p.NonAbs, "nonabs"},
		{p.Reflexive, "reflexive"}, {p.AntiReflexive, "antireflexive"},
		{p.Symmetric, "symmetric"}, {p.AntiSymmetric, "antisymmetric"},
		{p.Transitive, "transitive"}, {p.Acyclic, "acyclic"},
		{p.Pointer, "pointer"}, {p.Box, "box"},
	}
	for _, f := range flags {
		if f.on {
			out = append(out, f.word)
		}
	}
	for _, q := range p.UniquePerCC {
		out = append(out, "uniquePerCC("+q+")")
	}
	for _, dep := range p.Dependencies {
		out = append(out, "["+strings.Join(dep.From, ", ")+"] --> "+dep.To)
	}
	if len(p.Show) > 0 {
		var vs []string
		for _, k := range p.Show {
			vs = append(vs, k.String())
		}
		out = append(out, "{"+strings.Join(vs, ", ")+"}")
	}
	return strings.Join(out, " ")
}

func (d *dumper) action(a *Action) {
	d.printf("%%action %s {  // defined at %s\n", a.String(), d.rel(a.Origin))
	d.printf("  %%t %s\n", strconv.Quote(a.Title))
	for _, f := range a.Focus {
		d.printf("  %%f %s\n", logic.String(f))
	}
	if a.Precondition != nil {
		d.printf("  %%p %s  // free (%s)\n", logic.String(a.Precondition), vars(logic.FreeVars(a.Precondition)))
	}
	for _, m := range a.PreMessages {
		d.message(m)
	}
	if a.New {
		d.optional("%new", a.NewFormula)
	}
	if a.Clone {
		d.optional("%clone", a.CloneFormula)
	}
	if len(a.Updates) > 0 {
		d.printf("  {\n")
		for _, u := range a.Updates {
			name := "?"
			if u.Pred != nil {
				name = u.Pred.Name
			}
			auto := ""
			if u.Auto {
				auto = " auto"
			}
			d.printf("    %s = %s%s  // at %s\n", logic.String(logic.NewAtom(name, u.Args...)), logic.String(u.Formula), auto, d.rel(u.Origin))
		}
		d.printf("  }\n")
	}
	if a.Retain != nil {
		d.printf("  %%retain %s\n", logic.String(a.Retain))
	}
	for _, m := range a.PostMessages {
		d.message(m)
	}
	if len(a.Unsupported) > 0 {
		d.printf("  // ignored: %s\n", strings.Join(a.Unsupported, " "))
	}
	d.printf("}\n")
}

func (d *dumper) optional(kw string, f logic.Formula) {
	if f == nil {
		d.printf("  %s\n", kw)
		return
	}
	d.printf("  %s %s\n", kw, logic.String(f))
}

// message prints %message [focus] (formula) -> "text": the formula is
// always parenthesised, so that an arrow in it cannot be taken for the
// one before the text.
func (d *dumper) message(m Message) {
	focus := ""
	if m.Compose != nil {
		focus = "[" + logic.String(m.Compose) + "] "
	}
	d.printf("  %%message %s(%s) -> %s  // at %s\n", focus, logic.String(m.Formula), strconv.Quote(m.Text), d.rel(m.Origin))
}

func vars(vs []logic.Var) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// label prints a CFG location bare when it is an identifier, quoted
// otherwise.
func label(l string) string {
	if l == "" {
		return `""`
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return strconv.Quote(l)
		}
	}
	return l
}
