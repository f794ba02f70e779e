package request

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/petstore/contract/conformance/judge"
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

// TestNearMissOfOneOfTwoSchemesInOnePlace: where an operation asks for two
// schemes at once whose keys go in one place, as Google's two OAuth 2
// schemes, both a bearer token, a near miss of one in a place the
// document does not give is sent without the other's right token, which
// would carry the key all the same.
func TestNearMissOfOneOfTwoSchemesInOnePlace(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Google, version: 1.0.0}
security: [{Oauth2: [], Oauth2c: []}]
paths:
  /accounts:
    get:
      operationId: listAccounts
      responses: {'200': {description: The accounts.}}
components:
  securitySchemes:
    Oauth2: {type: oauth2, flows: {implicit: {authorizationUrl: 'https://x/auth', scopes: {}}}}
    Oauth2c: {type: oauth2, flows: {authorizationCode: {authorizationUrl: 'https://x/auth', tokenUrl: 'https://x/token', scopes: {}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	op := c.Operation("listAccounts")
	m := NewMaker(c, nil, rand.New(rand.NewPCG(1, 2)), "run")
	tried := 0
	for _, tr := range SchemeTrials(c) {
		for _, miss := range NearMisses("key", op, tr.Scheme) {
			r := judge.NewRequest(op.ID, op.Method, "/accounts", "", nil, m.WithNearMiss(op, tr.Requirement, tr.Scheme, miss))
			if strings.Contains(r.Query, "access_token") {
				tried++
				if got := r.Header.Get("Authorization"); got != "" {
					t.Errorf("%s for %s: Authorization %q sent beside it, want none", miss.Name, tr.Scheme.Name, got)
				}
			}
		}
	}
	if tried == 0 {
		t.Error("no near miss put the key in the query as access_token")
	}
}
