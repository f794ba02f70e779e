// Package mockserver implements petmock: a stateful mock of the API that an
// OpenAPI document describes, by default the Petstore's in package spec.
//
// Everything it serves comes from the document, whose facts package spec
// reads. The package is the composition root of petmock's rooms, each a
// package of one idea, and runs the request pipeline through them in
// order:
//
//   - mockserver/edge, the gate: the operation a request is for, its key,
//     its parameters and body, checked before any handler runs; every
//     error, written in the body the document describes;
//   - mockserver/steer: what a developer told petmock to do to the
//     answers, the settings, Prefer, faults, forced answers and
//     expectations, decided before the handler;
//   - with Config.Proxy, the backend, whose answers are checked against
//     the document before they are relayed, the mock answering only what
//     the backend cannot (proxy.go);
//   - mockserver/catalogue, the resources and the items clients create,
//     list, change and delete, in the stores of mockserver/store; or
//     mockserver/answer, the answers of the other operations, made from
//     the schema and the request;
//   - mockserver/journal, what petmock keeps and tells of each request,
//     without a key.
//
// A Server hands out its rooms for the admin API (package
// mockserver/admin) and the commands to steer it while it runs: Items,
// Steering, Journal, Violations, and a Subscription to what changes. A
// server made for a new version of the document takes over from the one
// that serves (TakeOver).
//
// The Petstore's own rules are choices the document marks with x-petmock-
// extensions, such as the default status of a pet or the date getPet was
// deprecated, so another document brings its own.
package mockserver
