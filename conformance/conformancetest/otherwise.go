package conformancetest

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// OtherwiseCorrect wraps a petmock of the document of c into a server that
// answers as the document says, but otherwise than petmock where the
// document leaves it open: JSON with a charset; an error whose body has a
// code or a message with a code and a message of its own, of the types
// the document gives them; no Location; and an error whose
// status the document gives no body, such as a 401 that HTTP requires and
// the operation does not document, or a '400': {description: Invalid ID},
// with an empty body. The judge must pass it, as any correct server of
// the document.
func OtherwiseCorrect(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
	tb.Helper()
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	return Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
		h := rec.Header()
		h.Del("Location")
		mediaType, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
		if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") {
			h.Set("Content-Type", mediaType+"; charset=utf-8")
		}
		if rec.Code < 400 {
			return
		}
		route, _, err := router.FindRoute(r)
		if err != nil {
			return // no operation: the document's error body, as petmock sends it
		}
		b := c.ErrorBody(c.RouteOperation(route), rec.Code)
		switch {
		case b.Problem || b.Documented && b.Kind == spec.AnswerEmpty:
			h.Del("Content-Type")
			rec.Body.Reset()
		case b.Schema != nil:
			otherCodeAndMessage(c, b.Schema, rec)
		}
	})
}

// otherCodeAndMessage gives the error in rec, of the body schema s, a
// code and a message of its own where it has them, and keeps them only
// where the body still matches s: they are then as correct as petmock's.
func otherCodeAndMessage(c *spec.Contract, s *openapi3.Schema, rec *httptest.ResponseRecorder) {
	var e map[string]any
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.UseNumber()
	if dec.Decode(&e) != nil {
		return
	}
	switch code := e["code"].(type) {
	case string:
		e["code"] = "E" + code
	case json.Number:
		e["code"] = json.Number(code.String() + "1")
	}
	if _, ok := e["message"].(string); ok {
		e["message"] = "refused, in words of this server's own"
	}
	edited, err := json.Marshal(e)
	var v any
	if err != nil || json.Unmarshal(edited, &v) != nil || s.VisitJSON(v, append(spec.SchemaOptions(c.Doc), openapi3.VisitAsResponse())...) != nil {
		return
	}
	rec.Body.Reset()
	rec.Body.Write(edited)
}
