package answercheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// The shape of an error follows the document: an error answer is the body
// the operation documents for its status, or its default, which the body's
// schema already holds it to (RuleBody). What a schema cannot say is the
// meaning of its members, and the Petstore's interface gives three of them
// one (§7): code and message are not empty, and status is the HTTP status.
// Those hold of an error wherever the schema of its body has a member of
// that name and type, as the Petstore's Error has, and of no other: an
// integer code, as many documents' errors have, is a number of their own;
// a string status, such as JSend's "error", is no HTTP status. Where the
// document describes no error body, as where petmock answers problem
// details, any body is accepted.

// errorShape is what the error-shape rule asks of an error body of one
// schema: which of the members it gives a meaning to the schema has.
type errorShape struct {
	// code and message are string members, which must not be empty.
	code, message member
	// status is an integer member, which must be the HTTP status.
	status member
}

// member says whether an error schema has a member the rule reads, and
// whether it requires it.
type member struct {
	has, required bool
}

// errorShapeOf reads what the rule asks of an error body of schema s, of
// the document of c.
func errorShapeOf(c *spec.Contract, s *openapi3.Schema) errorShape {
	var sh errorShape
	if spec.TypeOf(s) != "object" {
		return sh
	}
	for _, p := range c.Properties(s) {
		m := member{has: true, required: p.Required}
		// The interface gives the Petstore's three members their meaning,
		// and no other of the same role: a reason or an httpStatus is the
		// document's own.
		switch role := spec.ErrorRoleOf(p); {
		case p.Name == "code" && role == spec.ErrorCode:
			sh.code = m
		case p.Name == "message" && role == spec.ErrorMessage && spec.TypeOf(p.Schema) == "string":
			sh.message = m
		case p.Name == "status" && role == spec.ErrorStatus:
			sh.status = m
		}
	}
	return sh
}

// asks reports whether the rule asks anything of a body of the shape.
func (sh errorShape) asks() bool {
	return sh.code.has || sh.message.has || sh.status.has
}

// problem returns what is wrong with body, an error answer of the given
// status, by the shape, or "": its code and message, where the schema has
// them, are not empty, and its status, where it has one, is the HTTP
// status. A member the schema does not require may be left out.
func (sh errorShape) problem(status int, body []byte) string {
	var e struct {
		Code    *json.RawMessage `json:"code"`
		Message *json.RawMessage `json:"message"`
		Status  *json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return "the body is not an error object: " + err.Error()
	}
	var problems []string
	for _, m := range []struct {
		name  string
		shape member
		value *json.RawMessage
	}{{"code", sh.code, e.Code}, {"message", sh.message, e.Message}} {
		switch {
		case !m.shape.has:
		case m.value == nil && m.shape.required:
			problems = append(problems, m.name+" is missing or empty")
		case m.value != nil && isEmptyString(*m.value):
			problems = append(problems, m.name+" is missing or empty")
		}
	}
	switch {
	case !sh.status.has:
	case e.Status == nil && sh.status.required:
		problems = append(problems, "status is missing")
	case e.Status != nil:
		if n, ok := spec.ExactInt64(string(bytes.TrimSpace(*e.Status))); !ok || n != int64(status) {
			problems = append(problems, fmt.Sprintf("status is %s, but the HTTP status is %d", *e.Status, status))
		}
	}
	return strings.Join(problems, "; ")
}

// isEmptyString reports whether a JSON value is the empty string, or
// null. A value of another type is the schema's to refuse.
func isEmptyString(v json.RawMessage) bool {
	var s *string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	return s == nil || *s == ""
}

// readShape keeps what the rule asks of the JSON body of an error
// response of content, where it asks anything.
func (k *Checker) readShape(content openapi3.Content) {
	if _, mt := spec.JSONMedia(content); mt != nil && mt.Schema != nil {
		k.keepShape(mt.Schema.Value)
	}
}

// keepShape keeps what the rule asks of an error body of schema s, where
// it asks anything.
func (k *Checker) keepShape(s *openapi3.Schema) {
	if s == nil {
		return
	}
	if sh := errorShapeOf(k.contract, s); sh.asks() {
		k.shapes[s] = sh
	}
}

// shapeProblem returns what is wrong with a, an error answer of op, by
// the shape of the JSON body op documents for its status or by default,
// or "": nothing where op documents neither, or no JSON body of a schema
// the rule asks anything of, or where a is in another media type the
// response documents, such as XML.
func (k *Checker) shapeProblem(op *openapi3.Operation, a Answer) string {
	resp := response(op, a.Status)
	if resp == nil || documentedOtherThanJSON(op, a) {
		return ""
	}
	_, mt := spec.JSONMedia(resp.Content)
	if mt == nil || mt.Schema == nil {
		return ""
	}
	sh, ok := k.shapes[mt.Schema.Value]
	if !ok {
		return ""
	}
	return sh.problem(a.Status, a.Body)
}
