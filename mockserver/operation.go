package mockserver

import (
	"context"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/petstore/contract/mockserver/answer"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// operation is what the server knows of one operation of the document:
// the gate's facts, and how it is answered.
type operation struct {
	*edge.Operation
	handle      func(w http.ResponseWriter, r *http.Request, c *edge.Call) error
	deprecation *answer.Deprecation // nil unless the operation is deprecated with something to say
	// answer makes the answers of an operation of no resource.
	answer *answer.Generated
	// responses are the facts of the documented responses, which a
	// canned answer is checked against.
	responses *answer.Responses
}

// bind binds a handler to every operation of the document, by its role:
// the handlers of a resource, or answers made from the schema. The edge
// made the operations, with their checks.
func (s *Server) bind(ctx context.Context, shapes *shape.Builder) error {
	outage := answer.OutageFacts(s.contract, shapes)
	tried := map[*openapi3.Schema]error{}
	known := map[*openapi3.Response]*answer.Facts{}
	for _, so := range s.contract.Operations {
		if err := ctx.Err(); err != nil {
			return err
		}
		op := &operation{Operation: s.gate.Operation(so.ID)}
		s.ops = append(s.ops, op)
		op.responses = answer.NewResponses(s.contract, so, shapes, outage, known)
		if so.Deprecation != nil {
			op.deprecation = answer.NewDeprecation(s.contract, so, s.base)
		}
		var rs *catalogue.Resource
		if so.Resource != nil {
			rs = s.items.Resource(so.Resource.Name)
		}
		switch so.Role {
		case spec.RoleList:
			op.handle = rs.List
		case spec.RoleCreate:
			op.handle = rs.Create
		case spec.RoleRead:
			var links func(h http.Header, r *http.Request, keys []string)
			if d := op.deprecation; d != nil {
				links = func(h http.Header, r *http.Request, keys []string) {
					d.SetHeaders(h, r, d.SuccessorQuery(rs.Spec(), keys))
				}
			}
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error { return rs.Read(w, r, c, links) }
		case spec.RoleReplace:
			op.handle = rs.Replace
		case spec.RoleUpdate:
			op.handle = rs.Update
		case spec.RoleDelete:
			op.handle = rs.Delete
		case spec.RoleFind:
			op.handle = rs.Find
		default:
			g, warning, err := answer.NewGenerated(s.contract, so, shapes, tried)
			if err != nil {
				return err
			}
			if warning != "" {
				s.warnings = append(s.warnings, warning)
			}
			if note := g.Note(); note != "" {
				s.notes = append(s.notes, note)
			}
			op.answer = g
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
				return g.Serve(w, r, c, s.seed, s.redact.Hides)
			}
		}
		if so.Role != spec.RoleOther && answersNoItem(so) {
			g, warning, err := answer.NewGenerated(s.contract, so, shapes, tried)
			if err != nil {
				return err
			}
			if warning != "" {
				s.warnings = append(s.warnings, warning)
			}
			op.handle = answeredAsPlain(op.handle, func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
				return g.Serve(w, r, c, s.seed, s.redact.Hides)
			})
		}
		if so.Role != spec.RoleOther {
			// A resource's answers are written in the media type the
			// request negotiated, where it is not petmock's choice.
			handle := op.handle
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
				if c.MediaType == "" {
					return handle(w, r, c)
				}
				mw := answer.InMedia(w, s.contract, so, c.MediaType)
				err := handle(mw, r, c)
				mw.Finish()
				return err
			}
		}
		if op.HasRequiredHeaders() {
			// Its answers carry the headers their status requires.
			handle := op.handle
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
				return handle(edge.WithRequiredHeaders(w, op.Operation), r, c)
			}
		}
	}
	return nil
}
