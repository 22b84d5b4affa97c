package tvp

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/tvp/cpp"
)

// Properties are the keys of a TVLA .properties file that change results
// (nil: the file does not set it). Ignored lists the documented keys the
// file sets that change nothing here (output, logging), Unknown the keys
// TVLA 3 does not document; the caller reports both once. A documented
// key that would change the analysis in a way not implemented here is an
// error (properties_table.go).
type Properties struct {
	Join               *string
	ActionOrder        *string
	MaxStructures      *int
	MaxMessages        *int
	BreakIfCoerceFails *bool
	Differencing       *bool
	// Engine is tvla.engine.type: tvla (the classic engine) or dtvla
	// (graph decomposition).
	Engine *string
	// KeepBinary and Merge are tvla.decompose.outside.keepBinary and
	// .merge: a decomposed component's outside individual keeps the
	// join of the binary values it stands for when both are true.
	KeepBinary, Merge *bool
	// MustOutside is tvla.decompose.mustOutside: a composition of two
	// or more components is kept only with an individual outside all
	// of them.
	MustOutside *bool
	// CloseCycleMessages is tvla.differencing.messageForCloseCycle:
	// whether an update that may close a cycle of an acyclic predicate
	// raises "Closed cycle for acyclic predicate p" (TVLA's default).
	CloseCycleMessages *bool
	// Defines are tvla.parser.externalMacros, names separated by white
	// space, as -D NAME; SearchPath is tvla.parser.searchPath, folders
	// separated by ';'.
	Defines    []string
	SearchPath []string
	Ignored    []string
	Unknown    []string
}

// ReadProperties reads the TVLA .properties file at path and picks out
// the keys that change results. An error names the file.
func ReadProperties(path string) (*Properties, error) {
	kv, err := readPropertiesFile(path)
	if err != nil {
		cause := err.Error()
		if pe, ok := err.(*os.PathError); ok {
			cause = pe.Err.Error() // the path is said once
		}
		return nil, fmt.Errorf("%s: %s", path, cause)
	}
	return interpretProperties(path, kv)
}

// readPropertiesFile reads a Java properties file: key=value or key:
// value lines, # and ! comments, backslash continuations.
func readPropertiesFile(path string) (map[string]string, error) {
	data, err := cpp.ReadFile(path, MaxProgramBytes)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(cpp.StripBOM(string(data)), "\n")
	out := map[string]string{}
	var pending string
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimLeft(strings.TrimSuffix(raw, "\r"), " \t\f")
		if pending == "" && (line == "" || line[0] == '#' || line[0] == '!') {
			continue
		}
		if strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") {
			pending += strings.TrimSuffix(line, "\\")
			continue
		}
		line = pending + line
		pending = ""
		key, val := line, ""
		if i := strings.IndexAny(line, "=: \t"); i >= 0 {
			key = line[:i]
			val = strings.TrimLeft(line[i:], " \t")
			if val != "" && (val[0] == '=' || val[0] == ':') {
				val = strings.TrimLeft(val[1:], " \t")
			}
		}
		out[key] = strings.TrimSpace(val)
	}
	return out, nil
}

// interpretProperties picks out the keys that change results and
// refuses the documented ones set to a value not supported.
func interpretProperties(path string, kv map[string]string) (*Properties, error) {
	p := &Properties{}
	for k, v := range kv {
		d, ok := documentedProperties[k]
		if !ok && hasOutputPrefix(k) {
			d, ok = outputs, true
		}
		switch {
		case !ok:
			p.Unknown = append(p.Unknown, k)
		case d.use == noEffect:
			p.Ignored = append(p.Ignored, k)
		case d.use == defaultOnly:
			if !accepted(d.accept, v) {
				return nil, fmt.Errorf("%s: %s = %q is not supported: %s (accepted: %s)", path, k, v, d.why, quoteAll(d.accept))
			}
		default:
			if err := p.honour(k, v); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	return p, nil
}

// honour reads one honoured key's value.
func (p *Properties) honour(k, v string) error {
	bad := func(want string) error { return fmt.Errorf("%s = %q: want %s", k, v, want) }
	switch k {
	case "tvla.joinType":
		p.Join = &v
	case "tvla.engine.actionOrder":
		p.ActionOrder = &v
	case "tvla.engine.maxStructures", "tvla.engine.maxMessages":
		n, err := strconv.Atoi(v)
		if err != nil {
			return bad("an integer")
		}
		if k == "tvla.engine.maxStructures" {
			n = max(n, 0) // TVLA writes -1 for no limit
			p.MaxStructures = &n
		} else {
			// TVLA stops once the count of messages exceeds N (N+1
			// messages; 31 structures and 2 messages on
			// search_nullderef with N = 1), where --max-messages N stops
			// at exactly N. A properties file means TVLA's reading.
			if n < 0 {
				n = 0 // no limit
			} else if n < math.MaxInt {
				n++
			}
			p.MaxMessages = &n
		}
	case "tvla.engine.breakIfCoerceAfterUpdateFailed", "tvla.differencing.difference", "tvla.differencing.messageForCloseCycle":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("true or false")
		}
		if k == "tvla.differencing.difference" {
			p.Differencing = &b
		} else if k == "tvla.differencing.messageForCloseCycle" {
			p.CloseCycleMessages = &b
		} else {
			p.BreakIfCoerceFails = &b
		}
	case "tvla.engine.type":
		if v != "tvla" && v != "dtvla" {
			return fmt.Errorf("%s = %q is not supported: only the classic engine (tvla) and the decomposing one (dtvla) are implemented, not tvmc, ddfs or pasta", k, v)
		}
		p.Engine = &v
	case "tvla.decompose.mustOutside":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("true or false")
		}
		p.MustOutside = &b
	case "tvla.decompose.outside.keepBinary", "tvla.decompose.outside.merge":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("true or false")
		}
		if k == "tvla.decompose.outside.merge" {
			p.Merge = &b
		} else {
			p.KeepBinary = &b
		}
	case "tvla.parser.externalMacros":
		for _, name := range strings.Fields(v) {
			if !isMacroName(name) {
				return bad("macro names separated by white space")
			}
			p.Defines = append(p.Defines, name)
		}
	case "tvla.parser.searchPath":
		for _, dir := range strings.Split(v, ";") {
			if dir = strings.TrimSpace(dir); dir != "" {
				p.SearchPath = append(p.SearchPath, dir)
			}
		}
	}
	return nil
}

func hasOutputPrefix(k string) bool {
	for _, pre := range outputPrefixes {
		if strings.HasPrefix(k, pre) {
			return true
		}
	}
	return false
}

// accepted reports whether v is one of the values (booleans in any case).
func accepted(values []string, v string) bool {
	for _, a := range values {
		if v == a || (a == "true" || a == "false") && strings.EqualFold(v, a) {
			return true
		}
	}
	return false
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// isMacroName reports whether s is a C identifier.
func isMacroName(s string) bool {
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}
