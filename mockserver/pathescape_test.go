package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestEscapedPathParameters: a path parameter is checked as the value
// its escapes stand for, as AWS's resource ARNs, of a pattern with
// slashes, are sent a%2Fb: the ARN with its slashes escaped matches, one
// that does not match unescaped is still refused.
func TestEscapedPathParameters(t *testing.T) {
	c := document(t, `
  /tags/{arn}:
    get:
      operationId: listTags
      parameters: [{name: arn, in: path, required: true, schema: {type: string, pattern: '^arn:aws:[a-z]+:/clusters/.+$'}}]
      responses:
        '200': {description: The tags., content: {application/json: {schema: {type: object}}}}
        '400': {description: Bad., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	for _, tt := range []struct {
		arn  string
		want int
	}{
		{"arn:aws:eks:%2Fclusters%2Fone", http.StatusOK},
		{"arn:aws:eks:%2Fclusters%2Fone%20two", http.StatusOK},
		{"arn:aws:eks:%2Fnodes%2Fone", http.StatusBadRequest},
		{"arn:aws:EKS:%2Fclusters%2Fone", http.StatusBadRequest},
	} {
		if _, resp, body := fetch(t, http.MethodGet, base+"/v1/tags/"+tt.arn, "", auth...); resp.StatusCode != tt.want {
			t.Errorf("GET /v1/tags/%s: %d, want %d\n%s", tt.arn, resp.StatusCode, tt.want, body)
		}
	}
}
