package tvp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
)

// A TVP program has three sections separated by %%, and an optional
// fourth:
//
//	declarations %% action definitions %% CFG edges [%% locations to print]
//
// Declarations are read as they come (sets must precede their use). Action
// definitions are remembered as token ranges and parsed once per distinct
// use in the CFG, with the formal parameters bound to the arguments: TVP's
// actions are macros over predicate names.

// ErrorList is every error found in a program, in order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// pendingRule is a %r rule read in section one, checked once every
// predicate is declared.
type pendingRule struct {
	rule predicates.Rule
	pos  Pos
}

type progParser struct {
	parser
	voc       *predicates.Vocabulary
	prog      *model.Program
	defs      map[string]*actionDef
	instances map[string][]*model.Action
	rules     []pendingRule
	globalF   []logic.Formula
	globalFAt []Pos // where each of globalF was written
	globalM   []model.Message
	errs      ErrorList
	errSeen   map[string]bool // errors already reported, by position and text
	// unboundSeen: unbound variables reported, by position and name.
	unboundSeen map[string]bool
	warned      map[string]bool
}

// ParseProgram reads a whole TVP program from src (already preprocessed)
// and loads it. file names the program in the model. On failure the error
// is an ErrorList of every problem found.
func ParseProgram(file string, src Source) (*model.Program, error) {
	toks, err := Lex(src)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, ErrorList{e}
		}
		return nil, err
	}
	pp := &progParser{
		parser:      parser{toks: toks, sets: map[string][]string{}, posOf: map[logic.Formula]Pos{}},
		voc:         predicates.New(),
		defs:        map[string]*actionDef{},
		instances:   map[string][]*model.Action{},
		warned:      map[string]bool{},
		errSeen:     map[string]bool{},
		unboundSeen: map[string]bool{},
	}
	pp.prog = &model.Program{File: file, Vocabulary: pp.voc}
	if err := pp.program(); err != nil {
		pp.fail(err)
	}
	if len(pp.errs) > 0 {
		pp.sortErrors()
		return nil, pp.errs
	}
	return pp.prog, nil
}

// fail records an error; syntax errors end the parse, type errors do not.
func (pp *progParser) fail(err error) {
	if e, ok := err.(*Error); ok {
		pp.addError(e)
		return
	}
	if l, ok := err.(ErrorList); ok {
		for _, e := range l {
			pp.addError(e)
		}
		return
	}
	pp.addError(&Error{Pos: pp.peek().Pos, Msg: err.Error()})
}

func (pp *progParser) typeError(pos Pos, format string, args ...any) {
	pp.addError(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// addError records e unless the same error was recorded before: a body
// read once per foreach member or per action instance finds the same
// problem each time.
func (pp *progParser) addError(e *Error) {
	key := e.Pos.String() + "\x00" + e.Msg
	if pp.errSeen[key] {
		return
	}
	pp.errSeen[key] = true
	pp.errs = append(pp.errs, e)
}

// sortErrors puts the errors in the order of the text they point at
// (errors are found out of order: definitions are checked at the end of
// section one, action bodies when the CFG uses them). Errors at the same
// place keep the order they were found in.
func (pp *progParser) sortErrors() {
	first := map[Pos]int{}
	for i, t := range pp.toks {
		if _, ok := first[t.Pos]; !ok {
			first[t.Pos] = i
		}
	}
	keys := map[*Error]int{}
	last := 0
	for _, e := range pp.errs {
		if k, ok := first[e.Pos]; ok {
			last = k
		}
		keys[e] = last
	}
	sort.SliceStable(pp.errs, func(i, j int) bool { return keys[pp.errs[i]] < keys[pp.errs[j]] })
}

func (pp *progParser) warnOnce(t Token, what string) {
	if pp.warned[what] {
		return
	}
	pp.warned[what] = true
	pp.prog.Warnings = append(pp.prog.Warnings, fmt.Sprintf("%s: %s is not supported by this engine and is ignored", t.Pos, what))
}

// atSectionEnd reports whether the next tokens are %%.
func (pp *progParser) atSectionEnd() bool {
	return pp.peekKind() == PERCENT && pp.peekAt(1) == PERCENT
}

func (pp *progParser) expectSection(what string) error {
	if !pp.atSectionEnd() {
		t := pp.peek()
		return pp.errorf(t, "expected %%%% before %s, found %s", what, t)
	}
	pp.next()
	pp.next()
	return nil
}

func (pp *progParser) program() error {
	if err := pp.decls(false); err != nil {
		return err
	}
	if err := pp.expectSection("the actions section"); err != nil {
		return err
	}
	pp.checkDeclarations()
	if err := pp.actionDefs(); err != nil {
		return err
	}
	if err := pp.expectSection("the control-flow graph"); err != nil {
		return err
	}
	if err := pp.cfg(); err != nil {
		return err
	}
	if pp.atSectionEnd() {
		pp.next()
		pp.next()
		if err := pp.printList(); err != nil {
			return err
		}
	}
	if t := pp.peek(); t.Kind != EOF {
		return pp.errorf(t, "unexpected %s after the control-flow graph", t)
	}
	return nil
}

// plural spells a count of things for a message: "1 argument", "2 arguments".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
