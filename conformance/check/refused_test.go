package check

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/petstore/contract/spec"
)

// refusing is a document whose operations document each refusal of a
// missing or wrong key, 401, 403, both or neither, and an ordinary query
// parameter named as a key may be sent by mistake, access_token.
const refusing = `openapi: 3.0.3
info: {title: Refusing, version: 1.0.0}
servers: [{url: /r}]
security: [{key: []}]
paths:
  /says401:
    get:
      operationId: says401
      responses: {'200': {$ref: '#/components/responses/Done'}, '401': {$ref: '#/components/responses/Refused'}}
  /says403:
    get:
      operationId: says403
      responses: {'200': {$ref: '#/components/responses/Done'}, '403': {$ref: '#/components/responses/Refused'}}
  /saysBoth:
    get:
      operationId: saysBoth
      responses: {'200': {$ref: '#/components/responses/Done'}, '401': {$ref: '#/components/responses/Refused'}, '403': {$ref: '#/components/responses/Refused'}}
  /saysNeither:
    get:
      operationId: saysNeither
      parameters:
        - {name: access_token, in: query, schema: {type: string}}
      responses: {'200': {$ref: '#/components/responses/Done'}}
components:
  securitySchemes:
    key: {type: http, scheme: bearer}
  responses:
    Done: {description: Done., content: {application/json: {schema: {type: object}}}}
    Refused: {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  schemas:
    Error:
      type: object
      required: [message]
      properties: {message: {type: string}}
`

// refuser answers every request without the run's key with status, and
// the others 200.
func refuser(status int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer k3y-that-must-never-be-printed-7f3a" {
			w.WriteHeader(status)
			w.Write([]byte(`{"message":"refused"}`))
			return
		}
		w.Write([]byte(`{}`))
	})
}

// TestRefusals: a request without the key, or with a wrong one, must get
// the refusal its operation documents, 401 or 403, either where it
// documents both, and HTTP's 401 where it documents neither; any other
// breaks operation.auth, saying which was wanted.
func TestRefusals(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(refusing))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		answers int
		passes  []string // the others break operation.auth
	}{
		{http.StatusUnauthorized, []string{"says401", "saysBoth", "saysNeither"}},
		{http.StatusForbidden, []string{"says403", "saysBoth"}},
	} {
		t.Run(strconv.Itoa(tc.answers), func(t *testing.T) {
			t.Parallel()
			h := judgeOver(t, refuser(tc.answers), Settings{Contract: c})
			ctx := checkContext(t)
			for _, op := range c.Operations {
				for _, key := range []string{"", h.InvalidKey()} {
					what := op.ID + " refused " + strconv.Itoa(tc.answers) + " with key " + strconv.Quote(key)
					err := h.CheckRefused(ctx, op, key)
					if contains(tc.passes, op.ID) {
						if err != nil {
							t.Errorf("%s: %v, want a pass", what, err)
						}
						continue
					}
					wantBroken(t, what, err, "operation.auth")
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
