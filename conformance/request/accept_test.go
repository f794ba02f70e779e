package request

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// answers is a document of operations whose successes come in JSON, in
// JSON and a PDF, in bytes only under a 2XX, and in nothing at all.
const answers = `openapi: 3.0.3
info: {title: Answers, version: 1.0.0}
paths:
  /json:
    get: {operationId: json, responses: {'200': {description: JSON., content: {application/json: {schema: {type: object}}}}}}
  /download:
    get:
      operationId: download
      responses:
        '200': {description: A PDF., content: {application/pdf: {schema: {type: string, format: binary}}}}
        '202': {description: Not ready., content: {application/json: {schema: {type: object}}}}
  /certificate:
    post: {operationId: certificate, responses: {'2XX': {description: Bytes., content: {application/octet-stream: {schema: {type: string}}}}}}
  /empty:
    delete: {operationId: empty, responses: {'204': {description: Gone.}}}
`

// TestAccepts: a request accepts JSON, and, less preferred, every other
// media type its successes come in, where it accepted JSON only and a
// server that answered Billingo's download in its PDF, or Keycloak's
// certificate in bytes, could only refuse it with a 406.
func TestAccepts(t *testing.T) {
	c, err := spec.Read([]byte(answers))
	if err != nil {
		t.Fatal(err)
	}
	for op, want := range map[string]string{
		"json":        "application/json",
		"download":    "application/json, application/pdf;q=0.5",
		"certificate": "application/octet-stream",
		"empty":       "application/json",
	} {
		if got := accepts(c.Operation(op)); got != want {
			t.Errorf("%s: Accept %q, want %q", op, got, want)
		}
	}
}
