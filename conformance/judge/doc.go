// Package judge judges the answers of a deployment under test. Its Client
// sends each request of the suite and holds the answer, in one place and
// before any check looks at it, to everything that holds for every answer:
// it comes in full within bounds of time and size, it is no redirect, its
// status is documented for the operation or called for by the request,
// its headers and body match the document, an error has the shape its
// document gives, and a page of a list holds no id twice and no more
// items than its limit. AnswerJudge judges one answer alone, by the same
// rules.
//
// The verdicts are this package's: nil for a rule kept, a *Broken that
// names the Rule an answer broke and reports it, the API key redacted, as
// a curl command and what came back; a *Skipped that says why a check
// cannot judge; an *Aborted that stops a run. They are values that a
// table test can check; the Ginkgo specs of package conformance turn them
// into failures and skips.
package judge
