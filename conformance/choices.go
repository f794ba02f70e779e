package conformance

import (
	"maps"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// answerRouter finds the operation an answer is validated against. Unless
// the run is strict, its responses document no header that is one of
// petmock's choices, such as the pattern of Deprecation: the interface
// names none of these headers, so a server that fills the gap otherwise is
// judged by the rules of the interface (the deprecation.* checks) and not
// by petmock's schema.
type answerRouter struct {
	router routers.Router
	// interfaceOnly maps an operation of the document that documents a
	// choice header to a copy that does not; nil for a strict run.
	interfaceOnly map[*openapi3.Operation]*openapi3.Operation
}

// newAnswerRouter returns the answerRouter of the document of c.
func newAnswerRouter(c *spec.Contract, strict bool) (*answerRouter, error) {
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		return nil, err
	}
	ar := &answerRouter{router: router}
	if strict {
		return ar, nil
	}
	ar.interfaceOnly = map[*openapi3.Operation]*openapi3.Operation{}
	for _, op := range c.Operations {
		if choices := op.ChoiceHeaders(); len(choices) > 0 {
			ar.interfaceOnly[op.Op] = withoutHeaders(op.Op, choices)
		}
	}
	return ar, nil
}

// FindRoute finds the route of req, as the document's router does, with
// the operation answers to it are validated against.
func (ar *answerRouter) FindRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	route, params, err := ar.router.FindRoute(req)
	if err != nil {
		return nil, nil, err
	}
	if op := ar.interfaceOnly[route.Operation]; op != nil {
		cp := *route
		cp.Operation = op
		route = &cp
	}
	return route, params, nil
}

// withoutHeaders returns a copy of op whose responses do not document the
// headers named, by response. The responses and their header maps are
// copied; op and the rest of the document are shared, unchanged.
func withoutHeaders(op *openapi3.Operation, names map[string][]string) *openapi3.Operation {
	cp := *op
	cp.Responses = openapi3.NewResponsesWithCapacity(op.Responses.Len())
	cp.Responses.Extensions = op.Responses.Extensions
	for code, ref := range op.Responses.Map() {
		drop := names[code]
		if len(drop) == 0 {
			cp.Responses.Set(code, ref)
			continue
		}
		resp := *ref.Value
		resp.Headers = maps.Clone(resp.Headers)
		for _, name := range drop {
			delete(resp.Headers, name)
		}
		cp.Responses.Set(code, &openapi3.ResponseRef{Value: &resp})
	}
	return &cp
}
