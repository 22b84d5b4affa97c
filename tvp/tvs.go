package tvp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// This file reads TVS, the language of three-valued structures: the
// initial structures of an analysis and TVLA's output format (written by
// tvs_write.go).
//
//	file      ::= structure* | location+
//	location  ::= %location (ID | STRING) = { structure* }
//	structure ::= [,] %message STRING ... [%d = { STRING }] universe preds
//	universe  ::= %n = { [node {, node}] }
//	preds     ::= %p = { (pred = value | pred = { [entry {, entry}] })* }
//	entry     ::= tuple [: value],  tuple ::= node | node -> node | ( node {, node} )
//	pred      ::= ID [ '[' pred {, pred} ']' ]
//	node      ::= ID | '[' node {, node} ']'
//
// Structures are separated by an optional comma. The 3VMC extensions (%t
// thread lists and %a automaton states) are recognised and refused.

// TVSStructure is one structure read from a TVS file.
type TVSStructure struct {
	Structure *tvl.Structure
	// Names is the name of each individual as written in %n.
	Names []string
	// Messages are the %message lines written before the structure.
	Messages []string
	// Description is the text of a %d = {"..."} header, if any.
	Description string
	// Pos is where the structure starts.
	Pos Pos
}

// TVSLocation is a %location group; a file without %location gives one
// group with Label "".
type TVSLocation struct {
	Label      string
	Structures []TVSStructure
	Pos        Pos
}

// ParseTVS reads the structures of a TVS file over voc. Every predicate
// named must be in voc with the arity its values use; tuples not listed
// are 0. The structures are returned writable, individual i being the i-th
// name of %n. Errors are *Error values with the position of the problem.
func ParseTVS(src Source, voc *tvl.Vocabulary) ([]TVSLocation, error) {
	return parseTVS(src, voc, tvsLimit{})
}

// tvsLimit is LoadConfig's bound on one structure's tables (bytes 0: none).
type tvsLimit struct {
	bytes uint64
	what  string
}

// check refuses a universe of n individuals whose tables over voc would
// take more than the limit, before they are allocated.
func (l tvsLimit) check(voc *tvl.Vocabulary, n int, pos Pos) error {
	if l.bytes == 0 {
		return nil
	}
	need := tvl.TableBytes(voc, n)
	if need <= l.bytes {
		return nil
	}
	what := l.what
	if what == "" {
		what = "the limit"
	}
	return &Error{Pos: pos, Msg: fmt.Sprintf("a structure of %d individuals: its truth tables would take %s, more than %s (%s)", n, gibString(need), what, gibString(l.bytes))}
}

// gibString writes a size in GiB with one decimal, or in MiB below 1 GiB.
func gibString(n uint64) string {
	if n < 1<<30 {
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

func parseTVS(src Source, voc *tvl.Vocabulary, limit tvsLimit) ([]TVSLocation, error) {
	toks, err := Lex(src)
	if err != nil {
		return nil, err
	}
	var out []TVSLocation
	p := &tvsParser{toks: toks}
	p.onLocation = func(label string, pos Pos) {
		out = append(out, TVSLocation{Label: label, Pos: pos})
	}
	p.onStructure = func(ast *tvsStructAST) error {
		if err := limit.check(voc, len(ast.nodes), ast.pos); err != nil {
			return err
		}
		st, err := buildTVSStructure(ast, voc)
		if err != nil {
			return err
		}
		loc := &out[len(out)-1]
		loc.Structures = append(loc.Structures, st)
		return nil
	}
	if err := p.file(); err != nil {
		return nil, err
	}
	return out, nil
}

// tvsParser reads the tokens of a TVS file. It hands each structure to
// onStructure as soon as it is read, so that errors come in text order.
type tvsParser struct {
	toks        []Token
	at          int
	depth       int // nesting of bracketed names
	onLocation  func(label string, pos Pos)
	onStructure func(*tvsStructAST) error
}

// tvsName is an identifier with its position.
type tvsName struct {
	text string
	pos  Pos
}

// tvsEntry is one tuple of a predicate's value list.
type tvsEntry struct {
	args   []tvsName
	value  logic.Kleene
	pos    Pos // the first token of the tuple
	valPos Pos // the value, or pos when the value is the default 1
}

// tvsPredValue is "pred = value" or "pred = { entries }".
type tvsPredValue struct {
	pred    tvsName
	nullary bool // the first form
	value   logic.Kleene
	valPos  Pos
	entries []tvsEntry
}

// tvsStructAST is a structure as written, before names are resolved.
type tvsStructAST struct {
	pos      Pos
	messages []string
	descr    string
	nodes    []tvsName
	preds    []tvsPredValue
}

func (p *tvsParser) peek() Token    { return p.toks[p.at] }
func (p *tvsParser) peekKind() Kind { return p.toks[p.at].Kind }

func (p *tvsParser) next() Token {
	t := p.toks[p.at]
	if t.Kind != EOF {
		p.at++
	}
	return t
}

func (p *tvsParser) accept(k Kind) bool {
	if p.peekKind() == k {
		p.next()
		return true
	}
	return false
}

// unexpected reports that t is not what was expected, naming the 3VMC
// extensions when that is what t starts.
func (p *tvsParser) unexpected(t Token, expected string) error {
	switch {
	case t.Kind == TITLE:
		return &Error{Pos: t.Pos, Msg: "3VMC thread declarations (%t) are not supported"}
	case t.Kind == PERCENT && p.isAutomatonInit():
		return &Error{Pos: t.Pos, Msg: "3VMC automaton initialisations (%a) are not supported"}
	}
	return &Error{Pos: t.Pos, Msg: fmt.Sprintf("expected %s, found %s", expected, t)}
}

// isAutomatonInit reports whether the current token, a lone %, is the
// start of %a: the lexer splits it into % and an identifier starting with a.
func (p *tvsParser) isAutomatonInit() bool {
	if p.at+1 >= len(p.toks) {
		return false
	}
	pc, id := p.toks[p.at], p.toks[p.at+1]
	return isTVSIdent(id) && strings.HasPrefix(id.Text, "a") &&
		id.Pos.File == pc.Pos.File && id.Pos.Line == pc.Pos.Line && id.Pos.Col == pc.Pos.Col+1
}

func (p *tvsParser) expect(k Kind, expected string) (Token, error) {
	t := p.peek()
	if t.Kind != k {
		return t, p.unexpected(t, expected)
	}
	return p.next(), nil
}

// tvsUnclosed reports the end of input inside a block opened by open.
func tvsUnclosed(eof, open Token, what string) error {
	return &Error{Pos: eof.Pos, Msg: fmt.Sprintf("unexpected end of input: the '{' of %s at %d:%d is not closed", what, open.Pos.Line, open.Pos.Col)}
}

// isTVSIdent reports whether t can be a name in TVS: an identifier, or one
// of the words TVP reserves (E, A, TC, auto, foreach), which TVS does not.
func isTVSIdent(t Token) bool {
	switch t.Kind {
	case ID, EXISTS, FORALL, TCKW, AUTO, FOREACH:
		return true
	}
	return false
}

// file parses a whole TVS file.
func (p *tvsParser) file() error {
	if p.peekKind() == LOCATION {
		for p.peekKind() == LOCATION {
			if err := p.location(); err != nil {
				return err
			}
		}
		if t := p.peek(); t.Kind != EOF {
			return p.unexpected(t, "%location or end of input")
		}
		return nil
	}
	p.onLocation("", p.peek().Pos)
	for p.peekKind() != EOF {
		if t := p.peek(); t.Kind == LOCATION {
			return &Error{Pos: t.Pos, Msg: "%location after structures outside any location: a file lists either structures or %location groups"}
		}
		if err := p.structure(); err != nil {
			return err
		}
	}
	return nil
}

// location parses %location label = { structures }.
func (p *tvsParser) location() error {
	start := p.next()
	t := p.peek()
	if !isTVSIdent(t) && t.Kind != STRING {
		return p.unexpected(t, "a location label (identifier or string)")
	}
	p.next()
	p.onLocation(t.Text, start.Pos)
	if _, err := p.expect(ASSIGN, "'=' after the location label"); err != nil {
		return err
	}
	open, err := p.expect(LCBR, "'{' to open the location's structures")
	if err != nil {
		return err
	}
	for {
		switch p.peekKind() {
		case RCBR:
			p.next()
			return nil
		case EOF:
			return tvsUnclosed(p.peek(), open, "%location "+t.Text)
		}
		if err := p.structure(); err != nil {
			return err
		}
	}
}

// structure parses one structure, with the comma that may precede it,
// and hands it on.
func (p *tvsParser) structure() error {
	if p.accept(COMMA) {
		switch p.peekKind() {
		case MESSAGE, DESCR, UNIVERSE, TITLE:
		default:
			return p.unexpected(p.peek(), "a structure after ','")
		}
	}
	ast := &tvsStructAST{pos: p.peek().Pos}
	for p.peekKind() == MESSAGE {
		p.next()
		s, err := p.expect(STRING, "a string after %message")
		if err != nil {
			return err
		}
		ast.messages = append(ast.messages, s.Text)
	}
	if p.accept(DESCR) {
		if _, err := p.expect(ASSIGN, "'=' after %d"); err != nil {
			return err
		}
		if _, err := p.expect(LCBR, "'{' after %d ="); err != nil {
			return err
		}
		s, err := p.expect(STRING, "a string in %d")
		if err != nil {
			return err
		}
		ast.descr = s.Text
		if _, err := p.expect(RCBR, "'}' after the description"); err != nil {
			return err
		}
	}
	if err := p.universe(ast); err != nil {
		return err
	}
	if err := p.predicates(ast); err != nil {
		return err
	}
	return p.onStructure(ast)
}

// universe parses %n = { nodes }.
func (p *tvsParser) universe(ast *tvsStructAST) error {
	if _, err := p.expect(UNIVERSE, "%n"); err != nil {
		return err
	}
	if _, err := p.expect(ASSIGN, "'=' after %n"); err != nil {
		return err
	}
	open, err := p.expect(LCBR, "'{' after %n =")
	if err != nil {
		return err
	}
	if p.accept(RCBR) {
		return nil
	}
	for {
		if p.peekKind() == EOF {
			return tvsUnclosed(p.peek(), open, "%n")
		}
		n, err := p.node()
		if err != nil {
			return err
		}
		ast.nodes = append(ast.nodes, n)
		if p.accept(COMMA) {
			continue
		}
		switch t := p.peek(); t.Kind {
		case RCBR:
			p.next()
			return nil
		case EOF:
			return tvsUnclosed(t, open, "%n")
		default:
			return p.unexpected(t, "',' or '}' in %n")
		}
	}
}

// tvsMaxNesting bounds the nesting of bracketed names, so that hostile
// input cannot exhaust the stack.
const tvsMaxNesting = 100

// enter notes one more level of brackets opened at t.
func (p *tvsParser) enter(t Token) error {
	p.depth++
	if p.depth > tvsMaxNesting {
		return &Error{Pos: t.Pos, Msg: fmt.Sprintf("names nested more than %d deep", tvsMaxNesting)}
	}
	return nil
}

// node parses an individual's name: an identifier, or the old form
// [name, ...].
func (p *tvsParser) node() (tvsName, error) {
	t := p.peek()
	if isTVSIdent(t) {
		p.next()
		return tvsName{t.Text, t.Pos}, nil
	}
	if t.Kind != LBR {
		return tvsName{}, p.unexpected(t, "an individual's name")
	}
	p.next()
	if err := p.enter(t); err != nil {
		return tvsName{}, err
	}
	defer func() { p.depth-- }()
	var parts []string
	for {
		n, err := p.node()
		if err != nil {
			return tvsName{}, err
		}
		parts = append(parts, n.text)
		if !p.accept(COMMA) {
			break
		}
	}
	if _, err := p.expect(RBR, "',' or ']'"); err != nil {
		return tvsName{}, err
	}
	return tvsName{"[" + strings.Join(parts, ",") + "]", t.Pos}, nil
}

// predName parses ID or ID[pred, ...], giving the name without spaces,
// as in r[n,x].
func (p *tvsParser) predName() (tvsName, error) {
	t := p.peek()
	if !isTVSIdent(t) {
		return tvsName{}, p.unexpected(t, "a predicate name")
	}
	p.next()
	if open := p.peek(); !p.accept(LBR) {
		return tvsName{t.Text, t.Pos}, nil
	} else if err := p.enter(open); err != nil {
		return tvsName{}, err
	}
	defer func() { p.depth-- }()
	var params []string
	for {
		sub, err := p.predName()
		if err != nil {
			return tvsName{}, err
		}
		params = append(params, sub.text)
		if !p.accept(COMMA) {
			break
		}
	}
	if _, err := p.expect(RBR, "',' or ']'"); err != nil {
		return tvsName{}, err
	}
	return tvsName{t.Text + "[" + strings.Join(params, ",") + "]", t.Pos}, nil
}

// kleene parses 0, 1 or 1/2.
func (p *tvsParser) kleene(expected string) (logic.Kleene, Pos, error) {
	t := p.peek()
	switch t.Kind {
	case FALSE:
		p.next()
		return logic.False, t.Pos, nil
	case TRUE:
		p.next()
		return logic.True, t.Pos, nil
	case UNKNOWN:
		p.next()
		return logic.Unknown, t.Pos, nil
	}
	return 0, t.Pos, p.unexpected(t, expected)
}

// predicates parses %p = { pred = value ... }.
func (p *tvsParser) predicates(ast *tvsStructAST) error {
	if _, err := p.expect(PRED, "%p after the universe"); err != nil {
		return err
	}
	if _, err := p.expect(ASSIGN, "'=' after %p"); err != nil {
		return err
	}
	open, err := p.expect(LCBR, "'{' after %p =")
	if err != nil {
		return err
	}
	for {
		switch t := p.peek(); t.Kind {
		case RCBR:
			p.next()
			return nil
		case EOF:
			return tvsUnclosed(t, open, "%p")
		}
		if !isTVSIdent(p.peek()) {
			return p.unexpected(p.peek(), "a predicate name or '}'")
		}
		pv, err := p.predValue()
		if err != nil {
			return err
		}
		ast.preds = append(ast.preds, pv)
	}
}

// predValue parses pred = value or pred = { entries }.
func (p *tvsParser) predValue() (tvsPredValue, error) {
	name, err := p.predName()
	if err != nil {
		return tvsPredValue{}, err
	}
	pv := tvsPredValue{pred: name}
	if _, err := p.expect(ASSIGN, "'=' after "+name.text); err != nil {
		return pv, err
	}
	if p.peekKind() != LCBR {
		v, pos, err := p.kleene("a value (0, 1, 1/2) or '{' after " + name.text + " =")
		if err != nil {
			return pv, err
		}
		pv.nullary, pv.value, pv.valPos = true, v, pos
		return pv, nil
	}
	open := p.next()
	if p.accept(RCBR) {
		return pv, nil
	}
	for {
		if p.peekKind() == EOF {
			return pv, tvsUnclosed(p.peek(), open, "the value of "+name.text)
		}
		e, err := p.entry()
		if err != nil {
			return pv, err
		}
		pv.entries = append(pv.entries, e)
		if p.accept(COMMA) {
			continue
		}
		switch t := p.peek(); t.Kind {
		case RCBR:
			p.next()
			return pv, nil
		case EOF:
			return pv, tvsUnclosed(t, open, "the value of "+name.text)
		default:
			return pv, p.unexpected(t, "',' or '}' in the value of "+name.text)
		}
	}
}

// entry parses a tuple and its optional value.
func (p *tvsParser) entry() (tvsEntry, error) {
	e := tvsEntry{pos: p.peek().Pos, value: logic.True}
	if open := p.peek(); open.Kind == LP {
		p.next()
		for {
			if p.peekKind() == EOF {
				return e, &Error{Pos: p.peek().Pos, Msg: fmt.Sprintf("unexpected end of input: the '(' at %d:%d is not closed", open.Pos.Line, open.Pos.Col)}
			}
			n, err := p.node()
			if err != nil {
				return e, err
			}
			e.args = append(e.args, n)
			if !p.accept(COMMA) {
				break
			}
		}
		if _, err := p.expect(RP, "',' or ')' in a tuple"); err != nil {
			return e, err
		}
	} else {
		n, err := p.node()
		if err != nil {
			return e, err
		}
		e.args = append(e.args, n)
		if p.accept(IMPLIES) {
			m, err := p.node()
			if err != nil {
				return e, err
			}
			e.args = append(e.args, m)
		}
	}
	e.valPos = e.pos
	if p.accept(COLON) {
		v, pos, err := p.kleene("a value (0, 1, 1/2) after ':'")
		if err != nil {
			return e, err
		}
		e.value, e.valPos = v, pos
	}
	return e, nil
}

// tvsArityWord names an arity in error messages.
func tvsArityWord(k int) string {
	switch k {
	case 0:
		return "nullary"
	case 1:
		return "unary"
	case 2:
		return "binary"
	case 3:
		return "ternary"
	}
	return strconv.Itoa(k) + "-ary"
}

// buildTVSStructure resolves the names of ast against voc and builds the
// structure.
func buildTVSStructure(ast *tvsStructAST, voc *tvl.Vocabulary) (TVSStructure, error) {
	index := make(map[string]int, len(ast.nodes))
	names := make([]string, 0, len(ast.nodes))
	for _, n := range ast.nodes {
		if u, ok := index[n.text]; ok {
			first := ast.nodes[u].pos
			return TVSStructure{}, &Error{Pos: n.pos, Msg: fmt.Sprintf("individual %s declared twice (first at %d:%d)", n.text, first.Line, first.Col)}
		}
		index[n.text] = len(names)
		names = append(names, n.text)
	}
	// The universe at once, with tables for the binary predicates given
	// values: adding individuals one at a time copies every table each
	// time, which made a large TVS quadratic (cubic, in words) to load.
	var written []*tvl.Pred
	for _, pv := range ast.preds {
		if pred := voc.Lookup(pv.pred.text); pred != nil && pred.Arity == 2 && len(pv.entries) > 0 {
			written = append(written, pred)
		}
	}
	s := tvl.NewSized(voc, len(names), written...)
	type key struct {
		pred  int
		tuple string
	}
	given := map[key]logic.Kleene{}
	var tupleBuf []byte
	sm := voc.Summary()
	for _, pv := range ast.preds {
		pred := voc.Lookup(pv.pred.text)
		if pred == nil {
			return TVSStructure{}, &Error{Pos: pv.pred.pos, Msg: "unknown predicate " + pv.pred.text}
		}
		if pv.nullary {
			if pred.Arity != 0 {
				return TVSStructure{}, &Error{Pos: pv.valPos, Msg: fmt.Sprintf("predicate %s is %s but is given a nullary value", pred.Name, tvsArityWord(pred.Arity))}
			}
			k := key{pred.ID, ""}
			if old, ok := given[k]; ok && old != pv.value {
				return TVSStructure{}, &Error{Pos: pv.valPos, Msg: fmt.Sprintf("conflicting values for %s: %s and %s", pred.Name, old, pv.value)}
			}
			given[k] = pv.value
			s.Set(pred, pv.value)
			continue
		}
		for _, e := range pv.entries {
			if len(e.args) != pred.Arity {
				return TVSStructure{}, &Error{Pos: e.pos, Msg: fmt.Sprintf("predicate %s is %s but is given a %s value", pred.Name, tvsArityWord(pred.Arity), tvsArityWord(len(e.args)))}
			}
			args := make([]int, len(e.args))
			tupleBuf = tupleBuf[:0]
			for i, a := range e.args {
				u, ok := index[a.text]
				if !ok {
					return TVSStructure{}, &Error{Pos: a.pos, Msg: "unknown individual " + a.text}
				}
				args[i] = u
				tupleBuf = strconv.AppendInt(append(tupleBuf, ','), int64(u), 10)
			}
			if pred == sm && e.value == logic.True {
				return TVSStructure{}, &Error{Pos: e.valPos, Msg: fmt.Sprintf("the summary predicate sm can be 0 or 1/2 but is given 1 for %s", e.args[0].text)}
			}
			k := key{pred.ID, string(tupleBuf)}
			if old, ok := given[k]; ok && old != e.value {
				return TVSStructure{}, &Error{Pos: e.pos, Msg: fmt.Sprintf("conflicting values for %s(%s): %s and %s", pred.Name, tvsJoinNames(e.args), old, e.value)}
			}
			given[k] = e.value
			s.Set(pred, e.value, args...)
		}
	}
	return TVSStructure{Structure: s, Names: names, Messages: ast.messages, Description: ast.descr, Pos: ast.pos}, nil
}

func tvsJoinNames(ns []tvsName) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.text
	}
	return strings.Join(parts, ", ")
}
