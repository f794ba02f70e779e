package answer

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/petstore/contract/spec"
)

// A request HTTP says must be refused is refused, whether its operation
// documents the status or not: a request without a valid key gets 401, an
// invalid one 400 (or 422, where the operation documents that instead), a
// body of another media type 415, one too large 413, an item that is not
// there 404, and an Accept that takes none of the answer's media types
// 406, which has no note: only a client that asks for a type the document
// does not give meets it. Each such status is otherwise sent only where the
// operation documents it, or a default response. The start-up notes list
// the operations that may answer a status they do not document, so that
// a team knows where its document and petmock's answers part.

// undocumented is one status petmock may answer that operations do not
// document, and when.
type undocumented struct {
	status int
	when   string
	sends  func(op *spec.Operation) bool
}

// undocumentedStatuses are the statuses HTTP requires of petmock.
var undocumentedStatuses = []undocumented{
	{http.StatusUnauthorized, "to a request without a valid key", func(op *spec.Operation) bool {
		return op.AsksForKey() && op.KeyRefusal() == http.StatusUnauthorized
	}},
	{http.StatusBadRequest, "to an invalid request", func(op *spec.Operation) bool {
		return (len(op.Parameters) > 0 || op.Op.RequestBody != nil) && !op.Documents(http.StatusUnprocessableEntity)
	}},
	{http.StatusNotFound, "for an item that is not there", func(op *spec.Operation) bool {
		if r := op.Resource; r != nil && r.Parent != nil && len(r.Parent.ParentParams) == 0 {
			return true // the parent may not be there
		}
		return op.Role == spec.RoleRead || op.Role == spec.RoleReplace || op.Role == spec.RoleUpdate || op.Role == spec.RoleDelete
	}},
	{http.StatusRequestEntityTooLarge, "to a body larger than petmock reads", func(op *spec.Operation) bool { return op.Op.RequestBody != nil }},
	{http.StatusUnsupportedMediaType, "to a body of a media type the operation does not take", func(op *spec.Operation) bool { return op.Op.RequestBody != nil }},
}

// maxNamed bounds the operations a note names.
const maxNamed = 5

// UndocumentedNotes returns a note for each status HTTP requires of
// petmock that some operations of c do not document, naming them, and one
// that names the operations that refuse a key with the 403 they document
// rather than 401.
func UndocumentedNotes(c *spec.Contract) []string {
	var notes []string
	for _, u := range undocumentedStatuses {
		var ids []string
		for _, op := range c.Operations {
			if u.sends(op) && !op.Documents(u.status) {
				ids = append(ids, op.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		notes = append(notes, fmt.Sprintf("%d is answered, as HTTP requires, %s, by operations that do not document it: %s; its body is the document's error body",
			u.status, u.when, named(ids)))
	}
	var forbidding []string
	for _, op := range c.Operations {
		if op.AsksForKey() && op.KeyRefusal() == http.StatusForbidden {
			forbidding = append(forbidding, op.ID)
		}
	}
	if len(forbidding) > 0 {
		notes = append(notes, fmt.Sprintf("403 is answered to a request without a valid key, rather than 401, by operations that document 403 and not 401: %s; every other operation that asks for a key answers 401",
			named(forbidding)))
	}
	return notes
}

// named lists operation ids in a note, up to maxNamed of them.
func named(ids []string) string {
	out := strings.Join(ids[:min(len(ids), maxNamed)], ", ")
	if len(ids) > maxNamed {
		out += fmt.Sprintf(" and %d more", len(ids)-maxNamed)
	}
	return out
}
