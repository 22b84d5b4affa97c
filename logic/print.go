package logic

import "strings"

// Binding strength of each form, loosest first, as TVP's grammar declares
// it: quantifiers and TC reach as far right as they can; then <->, ->, |, &
// (all left-associative), then the prefix !.
const (
	precQuant = iota
	precIff
	precImplies
	precOr
	precAnd
	precNot
	precAtom
)

func precedence(f Formula) int {
	switch g := f.(type) {
	case *Quant, *TC:
		return precQuant
	case *Binary:
		switch g.Op {
		case Iff:
			return precIff
		case Implies:
			return precImplies
		case Or:
			return precOr
		default:
			return precAnd
		}
	case *Not:
		if _, ok := g.Sub.(*Equal); ok {
			return precAtom // printed as a != b
		}
		return precNot
	}
	return precAtom
}

var binOpText = [...]string{And: " & ", Or: " | ", Implies: " -> ", Iff: " <-> "}

// String returns f in TVP syntax with as few parentheses as TVP's
// precedences allow; the TVP parser reads it back to an equal tree.
func String(f Formula) string {
	var b strings.Builder
	write(&b, f, precQuant, true)
	return b.String()
}

// write prints f where the context binds at least as tightly as min. open
// says that nothing follows f before a closing bracket or the end: only
// then may a quantifier stand bare, because its body would otherwise
// swallow what follows.
func write(b *strings.Builder, f Formula, min int, open bool) {
	p := precedence(f)
	if p < min || (p == precQuant && !open) {
		b.WriteByte('(')
		write(b, f, precQuant, true)
		b.WriteByte(')')
		return
	}
	switch g := f.(type) {
	case *Const:
		b.WriteString(g.Value.String())
	case *Atom:
		b.WriteString(g.Pred)
		writeVars(b, g.Args)
	case *Equal:
		b.WriteString(string(g.Left))
		b.WriteString(" == ")
		b.WriteString(string(g.Right))
	case *Closure:
		b.WriteString(g.Pred)
		if g.Reflexive {
			b.WriteByte('*')
		} else {
			b.WriteByte('+')
		}
		writeVars(b, []Var{g.From, g.To})
	case *Not:
		if eq, ok := g.Sub.(*Equal); ok {
			b.WriteString(string(eq.Left))
			b.WriteString(" != ")
			b.WriteString(string(eq.Right))
			return
		}
		b.WriteByte('!')
		write(b, g.Sub, precNot, open)
	case *Binary:
		// Left-associative: the left operand may share the operator's
		// level, the right one must bind tighter.
		write(b, g.Left, p, false)
		b.WriteString(binOpText[g.Op])
		write(b, g.Right, p+1, open)
	case *If:
		b.WriteByte('(')
		write(b, g.Cond, precQuant, false)
		b.WriteString(" ? ")
		write(b, g.Then, precQuant, false)
		b.WriteString(" : ")
		write(b, g.Else, precQuant, true)
		b.WriteByte(')')
	case *Quant:
		if g.Kind == Exists {
			b.WriteByte('E')
		} else {
			b.WriteByte('A')
		}
		writeVars(b, g.Vars)
		b.WriteByte(' ')
		write(b, g.Body, precQuant, true)
	case *TC:
		b.WriteString("TC")
		writeVars(b, []Var{g.From, g.To})
		writeVars(b, []Var{g.Sub1, g.Sub2})
		b.WriteByte(' ')
		write(b, g.Body, precQuant, true)
	}
}

func writeVars(b *strings.Builder, vs []Var) {
	b.WriteByte('(')
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(v))
	}
	b.WriteByte(')')
}
