package judge

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAnswerJudge: an answer the document describes passes; one that
// breaks it gets the verdict of the rule it breaks; petmock's choices
// bind a strict judge only; a path of no operation says so.
func TestAnswerJudge(t *testing.T) {
	loose, err := NewAnswerJudge(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := NewAnswerJudge(nil, true)
	if err != nil {
		t.Fatal(err)
	}
	asJSON := http.Header{"Content-Type": {"application/json"}}
	deprecated := http.Header{"Content-Type": {"application/json"}, "Deprecation": {"yes"}}
	for _, tc := range []struct {
		name         string
		judge        *AnswerJudge
		method, path string
		status       int
		header       http.Header
		body         string
		rule         string // "" for none
	}{
		{"a pet", loose, "GET", "/v1/pets/7", 200, asJSON, `{"id":7,"name":"Rex","categoryId":1}`, ""},
		{"a list", strict, "GET", "/v1/pets", 200, asJSON, `[{"id":7,"name":"Rex","categoryId":1,"status":"sold"}]`, ""},
		{"an undocumented status", loose, "GET", "/v1/pets", 418, asJSON, `{"code":"x","message":"y","status":418}`, "contract.response"},
		{"a list as text", loose, "GET", "/v1/pets", 200, http.Header{"Content-Type": {"text/plain"}}, `[]`, "contract.response"},
		{"a pet without id", loose, "GET", "/v1/pets/7", 200, asJSON, `{"name":"Rex","categoryId":1}`, "contract.response"},
		{"an Error without code", loose, "GET", "/v1/pets", 401, asJSON, `{"message":"y","status":401}`, "contract.response"},
		{"an Error of another status", loose, "GET", "/v1/pets/7", 404, asJSON, `{"code":"x","message":"y","status":400}`, "errors.shape"},
		{"an Error with an empty message", loose, "GET", "/v1/pets/7", 404, asJSON, `{"code":"x","message":"","status":404}`, "errors.shape"},
		{"a Deprecation of petmock's choice, loose", loose, "GET", "/v1/pets/7", 404, deprecated, `{"code":"x","message":"y","status":404}`, ""},
		{"a Deprecation of petmock's choice, strict", strict, "GET", "/v1/pets/7", 404, deprecated, `{"code":"x","message":"y","status":404}`, "contract.response"},
	} {
		req := httptest.NewRequest(tc.method, "http://petstore.example"+tc.path, nil)
		err := tc.judge.Judge(req, tc.status, tc.header, []byte(tc.body))
		var broken *Broken
		switch {
		case tc.rule == "" && err != nil:
			t.Errorf("%s: %s %s answered %d: %v, want nil", tc.name, tc.method, tc.path, tc.status, err)
		case tc.rule != "" && (!errors.As(err, &broken) || broken.Rule != tc.rule):
			t.Errorf("%s: %s %s answered %d: %v, want a *Broken of %s", tc.name, tc.method, tc.path, tc.status, err, tc.rule)
		}
	}
	req := httptest.NewRequest("GET", "http://petstore.example/v1/owners", nil)
	if err := loose.Judge(req, 200, asJSON, []byte(`[]`)); !errors.Is(err, ErrNoOperation) {
		t.Errorf("GET /v1/owners: %v, want ErrNoOperation", err)
	}
}

// TestJudgeError: an error the document does not describe is still an
// Error body, served as JSON, whose status is the HTTP status.
func TestJudgeError(t *testing.T) {
	judge, err := NewAnswerJudge(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "http://petstore.example/v1/pets", nil)
	asJSON := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name   string
		header http.Header
		body   string
		ok     bool
	}{
		{"an Error", asJSON, `{"code":"unavailable","message":"try later","status":503}`, true},
		{"text", http.Header{"Content-Type": {"text/plain"}}, `{"code":"unavailable","message":"try later","status":503}`, false},
		{"no code", asJSON, `{"message":"try later","status":503}`, false},
		{"a code that is a number", asJSON, `{"code":5,"message":"try later","status":503}`, false},
		{"another status", asJSON, `{"code":"unavailable","message":"try later","status":500}`, false},
		{"not JSON", asJSON, `unavailable`, false},
	} {
		err := judge.JudgeError(req, 503, tc.header, []byte(tc.body))
		var broken *Broken
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v, want nil", tc.name, err)
		case !tc.ok && (!errors.As(err, &broken) || broken.Rule != "errors.shape"):
			t.Errorf("%s: %v, want a *Broken of errors.shape", tc.name, err)
		}
	}
}
