// Package steer is what a frontend developer, a test or a script tells a
// running petmock to do to the answers of its API, ahead of the handlers:
// the settings (latency, failures and faults below HTTP at a rate, the
// clock, the journal), what a request asks for itself in Prefer (a status,
// a delay, a time, a named example), the answers forced on the next
// requests, and the expectations, canned answers for the requests that
// match them. Everything it is told is checked against the document
// first, so that steering never makes petmock break its contract.
package steer
