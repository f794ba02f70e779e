// Package replay sends the requests an app made against petmock, as
// petmock's journal kept them, to a real deployment, such as staging, and
// judges each answer against the document with the suite's client (package
// conformance/judge), so that a team learns whether what its app actually
// uses works there, not only what the suite thinks of sending.
//
// The requests come from a journal export: the JSON GET /__petmock/requests
// answers, which the console saves too (Read). They are sent oldest first,
// as the app sent them, with the run's key where the app sent one of
// petmock's, and in place of every value the journal hid ("[redacted]").
// An item the app created is created again, and the requests after it that
// name its id name the id the deployment gave it instead (ids.go). What
// cannot be replayed faithfully is skipped, saying why: a request of no
// operation of the document, one whose body the journal cut, one that
// names an item whose create failed, and, for production, every write.
//
// A verdict is a Result a table test checks; the command prints them.
package replay
