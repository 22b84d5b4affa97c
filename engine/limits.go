package engine

import (
	"context"
	"errors"
	"fmt"
)

// A run ends early at a limit of its options (MaxStructures,
// MaxMessages, MaxDepth for concrete runs) or when its context ends (a
// time or memory limit, an interrupt): it then returns what it has, as an
// incomplete result.

// StopReason says why ctx ended: the cause it was given (a time or
// memory limit), or "interrupted".
func StopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil, errors.Is(cause, context.Canceled):
		return "interrupted"
	case errors.Is(cause, context.DeadlineExceeded):
		return "the time limit was reached"
	}
	return cause.Error()
}

// stopAtLimit returns the run's result when a limit on structures or
// messages is reached, nil otherwise.
func (st *state) stopAtLimit() *Result {
	reason := st.limitReached()
	if reason == "" {
		return nil
	}
	r := st.result(reason, true)
	r.StoppedOnMessage = st.stats.Messages > 0 && st.messageLimitReached()
	return r
}

// messageLimitReached reports whether MaxMessages messages are
// recorded: no more are.
func (st *state) messageLimitReached() bool {
	o := st.e.opts
	return o.MaxMessages > 0 && st.stats.Messages >= o.MaxMessages
}

func (st *state) limitReached() string {
	o := st.e.opts
	if st.messageLimitReached() {
		return fmt.Sprintf("the message limit (%d) was reached", o.MaxMessages)
	}
	if o.MaxStructures > 0 && st.stored() > o.MaxStructures {
		return fmt.Sprintf("the structure limit (%d) was exceeded", o.MaxStructures)
	}
	return ""
}
