package request

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestNoTrialOfASchemeAnotherAlternativeMeets: a key near the run's is
// tried for a scheme only where no other alternative of the operation's
// security is met by the rest: Stream's operations take a JWT, an api_key
// and a Stream-Auth-Type, or the last two alone, so a JWT near the run's,
// beside the right api_key, is served by a correct server, and is not
// tried; the api_key, which both alternatives need, is.
func TestNoTrialOfASchemeAnotherAlternativeMeets(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Stream, version: 1.0.0}
security: [{jwt: [], key: []}, {key: []}]
paths:
  /app:
    get:
      operationId: getApp
      responses: {'200': {description: The app.}, '401': {description: No key.}}
  /admin:
    post:
      operationId: postAdmin
      security: [{jwt: [], key: []}]
      responses: {'200': {description: The admin.}, '401': {description: No key.}}
components:
  securitySchemes:
    jwt: {type: apiKey, in: header, name: Authorization}
    key: {type: apiKey, in: query, name: api_key}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tr := range SchemeTrials(c) {
		got[tr.Scheme.Name] = tr.Op.ID
	}
	if got["jwt"] != "postAdmin" || got["key"] == "" {
		t.Errorf("trials %v, want jwt tried on postAdmin alone, where nothing else is met, and key tried", got)
	}
}
