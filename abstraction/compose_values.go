package abstraction

import "github.com/tvla-go/tvla/logic"

// unaryAt is the meet of unary predicate pi (its table index) over the
// part individuals composed individual ta was made of (1/2 when none);
// at the first conflict, the value met so far, as meetOver gives it. It
// is meetOver's loop written out: build calls it for every individual
// and unary predicate of every composition (on
// linearization_nbq/unbounded/nbq_opt, the closures and the checked
// Get of meetOver took two thirds of build's time).
func (m *meet) unaryAt(pi int, ta []int) logic.Kleene {
	v := logic.Unknown
	for l, u := range ta {
		if u < 0 {
			continue
		}
		var ok bool
		if v, ok = meetK(v, m.parts[l].Unary(pi, u)); !ok {
			return v
		}
	}
	return v
}

// binaryAt is the meet of binary predicate pi over the parts, from the
// part individuals of ta to those of tb; a part that holds one of the
// two nodes outside reads its outside individual when keepBinary, and
// has no say otherwise. ok is false when two parts disagree.
func (m *meet) binaryAt(pi int, ta, tb []int) (logic.Kleene, bool) {
	v := logic.Unknown
	for l, s := range m.parts {
		a, b := ta[l], tb[l]
		if a < 0 || b < 0 {
			if !m.keepBinary {
				continue
			}
			if a < 0 {
				a = m.out[l]
			}
			if b < 0 {
				b = m.out[l]
			}
		}
		var ok bool
		if v, ok = meetK(v, s.Binary(pi, a, b)); !ok {
			return v, false
		}
	}
	return v, true
}

// relates reports whether some part has a say on a binary value from
// composed individual ta to tb (binaryAt): one that holds both nodes, or
// any part when keepBinary.
func (m *meet) relates(ta, tb []int) bool {
	if m.keepBinary {
		return true
	}
	for l := range m.parts {
		if ta[l] >= 0 && tb[l] >= 0 {
			return true
		}
	}
	return false
}
