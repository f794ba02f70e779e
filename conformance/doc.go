// Package conformance is a contract-test suite for deployments of an
// OpenAPI document, the Petstore's by default, run with Ginkgo. It judges any server that claims to speak the contract
// in package spec: the mock, staging or production; and, given another
// OpenAPI document in Config.Contract, a deployment of that one.
//
// The suite speaks HTTP only. Every response it receives is checked against
// the document in one place, its HTTP client, before any spec looks at it:
// the status must be documented for the operation, or be one HTTP requires
// that the suite's request called for, such as a 401 to a request without
// a key; the Content-Type must be one it documents, JSON for the Petstore;
// and the body must match the schema. On top of that each spec checks one rule: the Petstore's, where
// the document has its operations, and for every operation, list and
// resource of the document, rules of behaviour made from what the document
// says of it: pages walked to their end, limits and filters honoured, keys
// near the run's refused, writes that replace, update and delete as the
// operation says, an item the same in every view and at the run's end.
//
// A deployment that misbehaves cannot hang or exhaust the suite: each
// request ends at Config.Timeout, body included, at most MaxBodyBytes of a
// body and MaxHeaderBytes of headers are read, no redirect is followed, and
// a run stops after MaxTransportFailures requests without a complete
// answer. The API key is sent to the base URL's host only, and never
// printed.
//
// By default a server is held to the interface alone, so a correct server
// that fills the interface's gaps differently from petmock passes: answers
// are validated without the document's header schemas that are petmock's
// choices, pets are created in categories the deployment lists, later pages
// are reached only through rel="next" links on the base URL's origin (a
// check that needs another page is skipped), a created pet may take
// Config.Settle to show, a 429 is waited out as Retry-After asks, and a
// listed pet that another client changed meanwhile is judged by a fresh
// listing, and a walk through pages only where the list did not change
// during it. With Config.Strict it is also held to petmock's gap decisions,
// the specs labelled LabelStrict. Specs that may change state are labelled
// LabelMutating; Config.ReadOnly leaves them out.
//
// The suite is built of packages, each of one idea, that import down: this
// package declares the checks as Ginkgo specs, runs them (Run) and writes
// the run's reports, the coverage summary and the JUnit report; package
// check holds the checks, each of which returns its verdict as a value; the
// requests they send are made by package request, and every answer is
// judged by package judge, whose verdicts they are: a *Broken names the
// rule an answer broke, a *Skipped says why a check cannot judge, and an
// *Aborted stops the run. Only the specs turn verdicts into Ginkgo's
// failures and skips. AnswerJudge judges one answer on its own, as the
// suite's client judges each.
//
// Run registers the specs and runs them, once per process, as RunOptions
// ask; ExampleRun shows a run against petmock.
package conformance
