package tvp

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/tvp/cpp"
)

// Properties are the keys of a TVLA .properties file that change results
// (nil: the file does not set it); Unknown lists the file's other keys,
// which the caller reports once.
type Properties struct {
	Join               *string
	ActionOrder        *string
	MaxStructures      *int
	MaxMessages        *int
	BreakIfCoerceFails *bool
	FreezeWithMessages *bool
	Differencing       *bool
	Unknown            []string
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

// interpretProperties picks out the keys that change results.
func interpretProperties(path string, kv map[string]string) (*Properties, error) {
	p := &Properties{}
	bad := func(k, v, want string) error {
		return fmt.Errorf("%s: %s = %q: want %s", path, k, v, want)
	}
	for k, v := range kv {
		switch k {
		case "tvla.joinType":
			v := v
			p.Join = &v
		case "tvla.engine.actionOrder":
			v := v
			p.ActionOrder = &v
		case "tvla.engine.maxStructures", "tvla.engine.maxMessages":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, bad(k, v, "an integer")
			}
			if n < 0 {
				n = 0 // TVLA writes -1 for no limit
			}
			if k == "tvla.engine.maxStructures" {
				p.MaxStructures = &n
			} else {
				p.MaxMessages = &n
			}
		case "tvla.engine.breakIfCoerceAfterUpdateFailed", "tvla.engine.freezeStructuresWithMessages", "tvla.differencing.difference":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, bad(k, v, "true or false")
			}
			switch k {
			case "tvla.engine.breakIfCoerceAfterUpdateFailed":
				p.BreakIfCoerceFails = &b
			case "tvla.engine.freezeStructuresWithMessages":
				p.FreezeWithMessages = &b
			default:
				p.Differencing = &b
			}
		default:
			p.Unknown = append(p.Unknown, k)
		}
	}
	return p, nil
}
