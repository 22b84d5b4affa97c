package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// tvlaProperties are the keys of a TVLA .properties file that change
// results; the tool honours them. Other keys are reported once.
type tvlaProperties struct {
	join               *string
	actionOrder        *string
	maxStructures      *int
	maxMessages        *int
	breakIfCoerceFails *bool
	freezeWithMessages *bool
	differencing       *bool
	unknown            []string
}

// readProperties reads a Java properties file: key=value or key: value
// lines, # and ! comments, backslash continuations.
func readProperties(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	var pending string
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t\f")
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
	return out, sc.Err()
}

// interpretProperties picks out the keys that change results.
func interpretProperties(path string, kv map[string]string) (*tvlaProperties, error) {
	p := &tvlaProperties{}
	bad := func(k, v, want string) error {
		return fmt.Errorf("%s: %s = %q: want %s", path, k, v, want)
	}
	for k, v := range kv {
		switch k {
		case "tvla.joinType":
			v := v
			p.join = &v
		case "tvla.engine.actionOrder":
			v := v
			p.actionOrder = &v
		case "tvla.engine.maxStructures", "tvla.engine.maxMessages":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, bad(k, v, "an integer")
			}
			if n < 0 {
				n = 0 // TVLA writes -1 for no limit
			}
			if k == "tvla.engine.maxStructures" {
				p.maxStructures = &n
			} else {
				p.maxMessages = &n
			}
		case "tvla.engine.breakIfCoerceAfterUpdateFailed", "tvla.engine.freezeStructuresWithMessages", "tvla.differencing.difference":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, bad(k, v, "true or false")
			}
			switch k {
			case "tvla.engine.breakIfCoerceAfterUpdateFailed":
				p.breakIfCoerceFails = &b
			case "tvla.engine.freezeStructuresWithMessages":
				p.freezeWithMessages = &b
			default:
				p.differencing = &b
			}
		default:
			p.unknown = append(p.unknown, k)
		}
	}
	return p, nil
}
