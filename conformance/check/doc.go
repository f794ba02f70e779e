// Package check holds the checks of the conformance suite: each judges
// one behaviour of a deployment and returns its verdict (package judge),
// nil when the deployment keeps the rule. The Petstore's own checks, where
// the document has its operations, are in the file of their topic
// (auth.go, list.go, create.go, get.go, deprecation.go, pagination.go,
// errorcode.go); those made from any document are in operations.go,
// invalid.go, resources.go, lists.go, walks.go, consistent.go, kept.go and
// location.go. They share a Harness, which sends every request through
// the client that judges every answer and makes requests from the
// document (package request), and the tables the checks are declared
// from, such as AuthOperations or BadLimits.
//
// A check knows nothing of Ginkgo: package conformance declares a spec of
// each and turns its verdict into a failure or a skip, and a table test
// calls it in-process against a server that breaks one rule.
package check
