package judge

import "fmt"

// A check returns its verdict as an error: nil when the deployment passes
// it, a *Broken when an answer breaks a rule, a *Skipped when the check
// cannot judge, and an *Aborted when the run cannot go on. Any other error
// fails the check with its message, which is redacted already. Only the
// Ginkgo specs of package conformance turn a verdict into Ginkgo's Fail,
// Skip or AbortSuite, so that the code that decides can be tested
// in-process, one check at a time.

// Broken is the verdict on an answer that breaks a rule of the contract.
// Its message is the suite's report: the rule, what was wrong, a curl
// command that repeats the request and what came back, the API key
// replaced by $PETSTORE_API_KEY.
type Broken struct {
	// Rule is the id of the rule broken, such as "auth.required".
	Rule string
	// Detail says what was wrong, such as "status 200, want 401", the API
	// key redacted.
	Detail string

	rule   Rule
	detail string    // Detail as found, redacted with the whole report
	x      *Exchange // the request and the answer that broke it
}

func (b *Broken) Error() string { return b.x.report(b.rule, b.detail) }

// breaks returns the verdict that x breaks rule r, for the reason detail.
func breaks(x *Exchange, r Rule, detail string) *Broken {
	return &Broken{Rule: r.ID, Detail: x.redact(detail), rule: r, detail: detail, x: x}
}

// Skipped is the verdict of a check that cannot judge the deployment,
// such as one that needs a page the suite cannot reach. The deployment
// breaks no rule for it.
type Skipped struct {
	// Reason says why, the API key redacted.
	Reason string
}

func (s *Skipped) Error() string { return s.Reason }

// Aborted is the verdict that stops a run: the deployment cannot be
// judged any further, such as after MaxTransportFailures requests without
// a complete answer. The checks left are skipped.
type Aborted struct {
	// Err is the verdict on the request that stopped the run: a *Broken
	// of rule transport, or a *Skipped for a rate limit.
	Err error
	// Reason says why the run stops.
	Reason string
}

func (a *Aborted) Error() string { return a.Err.Error() + a.Reason + "\n" }

// Unwrap returns the verdict on the request that stopped the run.
func (a *Aborted) Unwrap() error { return a.Err }

var (
	_ error = (*Broken)(nil)
	_ error = (*Skipped)(nil)
	_ error = (*Aborted)(nil)
)

// Skipf returns a *Skipped whose reason is formatted as fmt.Sprintf does.
func Skipf(format string, args ...any) error {
	return &Skipped{Reason: fmt.Sprintf(format, args...)}
}
