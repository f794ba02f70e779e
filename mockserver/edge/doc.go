// Package edge is the gate every request of a document passes before any
// handler runs: it finds the operation (404, or 405 with Allow), checks
// the key the operation asks for (401), and then its parameters and its
// body (400, 413, 415), and hands the handler a Call it may take as valid.
// The simple parts of a document are compiled into checks of the gate's
// own, a router and checks of parameters and flat bodies; where a compiled
// check cannot tell, openapi3filter decides and words the error.
//
// Every error petmock answers is an *Error, written here, in the body its
// document describes for the operation and the status (ErrorPlan), and so
// are those Go's HTTP server would answer in plain text (Listener). The
// gate also answers CORS and OPTIONS, and tells the origin a request was
// sent to, which the URLs of answers name.
//
// It knows the document and nothing of what answers: package mockserver
// wires a Gate in front of its handlers.
package edge
