package logic

import "testing"

// numeric gives the thesis' reading of a value: 0, 1/2, 1.
func numeric(k Kleene) float64 {
	switch k {
	case False:
		return 0
	case Unknown:
		return 0.5
	}
	return 1
}

var all = []Kleene{False, Unknown, True}

// The thesis defines & as min, | as max and ! as 1-x over 0 < 1/2 < 1
// (§4.1.3); check every case against that definition.
func TestConnectivesAgreeWithThesisDefinition(t *testing.T) {
	for _, a := range all {
		if got, want := numeric(a.Not()), 1-numeric(a); got != want {
			t.Errorf("!%v = %v, want %v", a, a.Not(), want)
		}
		for _, b := range all {
			if got, want := numeric(a.And(b)), min(numeric(a), numeric(b)); got != want {
				t.Errorf("%v & %v = %v", a, b, a.And(b))
			}
			if got, want := numeric(a.Or(b)), max(numeric(a), numeric(b)); got != want {
				t.Errorf("%v | %v = %v", a, b, a.Or(b))
			}
			if got, want := a.Implies(b), a.Not().Or(b); got != want {
				t.Errorf("%v -> %v = %v, want %v", a, b, got, want)
			}
			if got, want := a.Iff(b), a.Implies(b).And(b.Implies(a)); got != want {
				t.Errorf("%v <-> %v = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestJoinAndInformationOrder(t *testing.T) {
	cases := []struct {
		a, b, join Kleene
		le         bool // a ⊑ b
	}{
		{False, False, False, true},
		{False, True, Unknown, false},
		{False, Unknown, Unknown, true},
		{True, True, True, true},
		{True, False, Unknown, false},
		{True, Unknown, Unknown, true},
		{Unknown, False, Unknown, false},
		{Unknown, True, Unknown, false},
		{Unknown, Unknown, Unknown, true},
	}
	for _, c := range cases {
		if got := c.a.Join(c.b); got != c.join {
			t.Errorf("%v ⊔ %v = %v, want %v", c.a, c.b, got, c.join)
		}
		if got := c.a.LessInfo(c.b); got != c.le {
			t.Errorf("%v ⊑ %v = %v, want %v", c.a, c.b, got, c.le)
		}
		// The join is an upper bound of both in the information order.
		if j := c.a.Join(c.b); !c.a.LessInfo(j) || !c.b.LessInfo(j) {
			t.Errorf("%v ⊔ %v = %v is not an upper bound", c.a, c.b, j)
		}
	}
	// Monotonicity of the connectives in the information order: the
	// property the Embedding Theorem rests on.
	for _, a := range all {
		for _, a2 := range all {
			if !a.LessInfo(a2) {
				continue
			}
			if !a.Not().LessInfo(a2.Not()) {
				t.Errorf("! not monotone at %v ⊑ %v", a, a2)
			}
			for _, b := range all {
				for _, b2 := range all {
					if !b.LessInfo(b2) {
						continue
					}
					if !a.And(b).LessInfo(a2.And(b2)) || !a.Or(b).LessInfo(a2.Or(b2)) {
						t.Errorf("&,| not monotone at (%v,%v) ⊑ (%v,%v)", a, b, a2, b2)
					}
				}
			}
		}
	}
}

func TestKleeneText(t *testing.T) {
	for _, k := range all {
		back, err := ParseKleene(k.String())
		if err != nil || back != k {
			t.Errorf("ParseKleene(%q) = %v, %v", k.String(), back, err)
		}
	}
	if _, err := ParseKleene("2"); err == nil {
		t.Error("ParseKleene(\"2\") gave no error")
	}
	if Of(true) != True || Of(false) != False {
		t.Error("Of")
	}
}
