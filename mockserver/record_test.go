package mockserver_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestProxyRecords: with Proxy.Record, each valid answer of the backend
// to a valid request is kept as an expectation, once, and played back by
// a server without a backend that is given them, as --state gives them;
// an answer or a request that breaks the document is not kept, and the
// log says why. While it records, every request reaches the backend.
func TestProxyRecords(t *testing.T) {
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "POST":
			answerWith(201, `{"id":77,"name":"Recorded Rex","categoryId":2,"status":"available"}`, "Location", "/v1/pets/77")(w, r)
		case r.URL.Path == "/v1/pets/7":
			answerWith(200, backendPet)(w, r)
		case r.URL.Query().Get("limit") == "3":
			answerWith(200, `{"not":"a list"}`)(w, r)
		default:
			answerWith(200, backendPets, "X-Not-Documented", "dropped")(w, r)
		}
	}, mockserver.Config{Proxy: mockserver.Proxy{Record: true}})
	requests := []struct{ method, path, body string }{
		{"GET", "/pets?limit=2", ""},
		{"GET", "/pets/7", ""},
		{"POST", "/pets", `{"name":"Recorded Rex", "categoryId":2}`},
	}
	for _, rq := range requests {
		p.do(t, rq.method, rq.path, rq.body)
	}
	p.do(t, "GET", "/pets?limit=2", "") // asked again: kept once
	p.do(t, "GET", "/pets?limit=3", "") // breaks the document
	p.do(t, "GET", "/pets?limit=0", "") // so does the request
	if n := p.hits.Load(); n != 6 {
		t.Errorf("the backend got %d requests, want all 6: while recording, no expectation answers ahead of it", n)
	}
	set := p.Steering().ExpectationsAsSet()
	if len(set) != 3 {
		t.Fatalf("%d expectations recorded, want 3: %+v", len(set), set)
	}
	for _, want := range []string{`msg="not recorded"`, `reason="response.body: listPets answered 200`,
		`reason="request: listPets was sent a request it does not take: limit`} {
		if !strings.Contains(p.log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, p.log)
		}
	}

	// Played back by a server without a backend.
	ts := newTestServer(t, mockserver.Config{})
	for _, x := range set {
		if _, err := ts.Steering().Expect(x); err != nil {
			t.Fatalf("the recorded expectation %+v cannot be set again: %v", x, err)
		}
	}
	for i, want := range []string{backendPets, backendPet, `{"id":77,"name":"Recorded Rex","categoryId":2,"status":"available"}`} {
		rq := requests[i]
		got := ts.do(t, rq.method, rq.path, rq.body)
		if !sameJSON(got.body, []byte(want)) || got.Header.Get(mockserver.SourceHeader) != "" {
			t.Errorf("%s %s played back: %s, want %s", rq.method, rq.path, got, want)
		}
		if rq.method == "POST" && got.Header.Get("Location") != "/v1/pets/77" {
			t.Errorf("POST played back without the Location the document declares: %q", got.Header.Get("Location"))
		}
	}
	if got := ts.do(t, "GET", "/pets?limit=3", ""); strings.Contains(string(got.body), "not") {
		t.Errorf("the answer that broke the document plays back: %s", got)
	}
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
