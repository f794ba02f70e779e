package answer

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
)

// The handlers of a resource write its items as JSON. Where a request's
// Accept negotiated another media type the operation documents (see
// edge.Negotiate), its answer is that JSON in the media type's name, such
// as application/vnd.example+json, or the XML of it, made as XMLOf makes
// it from the media type's schema.

// MediaWriter holds the answer of a handler written in JSON, to write it
// in a media type a request negotiated, on Finish.
type MediaWriter struct {
	http.ResponseWriter
	contract *spec.Contract
	op       *spec.Operation
	name     string // the media type, as the document names it
	status   int
	body     bytes.Buffer
}

// InMedia returns w, for the answer of a handler of op, a operation of c,
// made to write it in the media type the document calls name.
func InMedia(w http.ResponseWriter, c *spec.Contract, op *spec.Operation, name string) *MediaWriter {
	return &MediaWriter{ResponseWriter: w, contract: c, op: op, name: name}
}

// WriteHeader holds the status until Finish.
func (m *MediaWriter) WriteHeader(status int) {
	if m.status == 0 {
		m.status = status
	}
}

// Write holds the body until Finish.
func (m *MediaWriter) Write(b []byte) (int, error) {
	if m.status == 0 {
		m.status = http.StatusOK
	}
	return m.body.Write(b)
}

// Finish writes the answer held, in the media type: a JSON body of the
// JSON the status documents in that type under its name, or as its XML; an
// answer of a status that does not document the type as it was written.
func (m *MediaWriter) Finish() {
	if m.status == 0 {
		return
	}
	h := m.Header()
	body := m.body.Bytes()
	resp := m.op.Response(m.status)
	if resp != nil && resp.Content[m.name] != nil && len(body) > 0 && spec.IsJSON(h.Get("Content-Type")) {
		ct, kind := spec.MediaOf(m.name)
		switch {
		case kind == spec.AnswerJSON:
			h["Content-Type"] = []string{ct}
		case spec.IsXML(m.name):
			if v, e := edge.DecodeJSON(body); e == nil {
				mt := resp.Content[m.name]
				var ref string
				if mt.Schema != nil {
					ref = mt.Schema.Ref
				}
				body = XMLOf(m.contract, v, schemaOf(mt.Schema), refName(ref), aboutOf(m.op))
				h["Content-Type"] = []string{ct}
				h["Content-Length"] = []string{strconv.Itoa(len(body))}
			}
		}
	}
	m.ResponseWriter.WriteHeader(m.status)
	m.ResponseWriter.Write(body)
}

// Unwrap returns the writer below, for http.ResponseController.
func (m *MediaWriter) Unwrap() http.ResponseWriter { return m.ResponseWriter }

// schemaOf returns the schema a reference gives, or nil.
func schemaOf(ref *openapi3.SchemaRef) *openapi3.Schema {
	if ref == nil {
		return nil
	}
	return ref.Value
}

// aboutOf returns what the answers of op are about: the last literal
// segment of its path, such as "pets".
func aboutOf(op *spec.Operation) string {
	if lits := op.Template.Literals(); len(lits) > 0 {
		return lits[len(lits)-1]
	}
	return ""
}
