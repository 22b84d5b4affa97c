package engine

import (
	"github.com/tvla-go/tvla/tvl"
)

// JoinRelational keeps every structure up to isomorphism: "rel".
const JoinRelational = "rel"

type relational struct{ abstractMode }

func (relational) joiner(*Engine) joiner { return relationalJoin{} }

// relationalJoin merges nothing: blurred structures are isomorphic
// exactly when they are equal, and equal ones are stored once.
type relationalJoin struct{}

func (relationalJoin) key(s *tvl.Structure) uint64 { return s.OrderedHash() }

func (relationalJoin) join(old, s *tvl.Structure) (*tvl.Structure, bool, bool) {
	if tvl.Equal(old, s) {
		return old, false, true
	}
	return nil, false, false
}

func (relationalJoin) inPlace() bool { return false }
