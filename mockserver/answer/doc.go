// Package answer makes what petmock answers an operation with, where no
// resource's items do: a value made from the schema of its success
// response, examples first, that follows the request it answers (a
// limit, a filter, a path parameter) and is the same for the same request
// (Generated); a named example of the document, or an answer given whole
// ahead of the request, checked against the response the operation
// documents (Responses, Canned); the headers of a deprecated operation
// (Deprecation); and the document itself, served at /openapi.yaml and
// /openapi.json (Documents).
//
// It also says, at start, where the document's response schemas ask for
// more than petmock makes (CapWarnings), and which statuses HTTP makes
// petmock answer that operations do not document (UndocumentedNotes).
package answer
