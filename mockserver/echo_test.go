package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// echoVectors are the request headers an answer header could repeat, each
// with the key in it as a client may send it.
var echoVectors = []struct{ name, value string }{
	{"X-Forwarded-Host", secretKey},
	{"X-Forwarded-Host", secretKey + ":8080"},
	{"X-Forwarded-Proto", secretKey},
	{"Forwarded", "host=" + secretKey + ";proto=https"},
	{"Forwarded", `host="` + secretKey + `"`},
	{"Origin", "http://" + secretKey},
	{"Access-Control-Request-Headers", secretKey + ", content-type"},
	{"Host", secretKey},
	{"Host", secretKey + ":4010"},
}

// TestKeyNeverEchoedInAnswerHeaders sends the key in every header an
// answer header could repeat, to answers with Location, Link and CORS
// headers: no answer header, name or value, holds it in any form, and the
// links still name a host.
func TestKeyNeverEchoedInAnswerHeaders(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{secretKey}})
	for _, v := range echoVectors {
		for _, rq := range []struct{ method, path, body string }{
			{"POST", "/pets", `{"name":"Rex","categoryId":1}`},
			{"GET", "/pets?limit=1", ""},
			{"GET", "/pets/1", ""},
			{"OPTIONS", "/pets", ""},
			{"GET", "/openapi.json", ""},
		} {
			req, _ := http.NewRequest(rq.method, ts.URL+rq.path, strings.NewReader(rq.body))
			req.Header.Set("Authorization", "Bearer "+secretKey)
			if rq.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			if rq.method == "OPTIONS" {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Origin", "http://localhost:5173")
			}
			if v.name == "Host" {
				req.Host = v.value
			} else {
				req.Header.Set(v.name, v.value)
			}
			resp := ts.send(t, req)
			for name, values := range resp.Header {
				if holdsKey(name+": "+strings.Join(values, ", "), secretKey) {
					t.Errorf("%s %s with %s: %s: answered %s: %s", rq.method, rq.path, v.name, v.value, name, values)
				}
			}
			for _, name := range []string{"Location", "Link"} {
				if l := resp.Header.Get(name); l != "" && !strings.Contains(l, "://") {
					t.Errorf("%s %s with %s: %s: %s %q names no origin", rq.method, rq.path, v.name, v.value, name, l)
				}
			}
			if strings.Contains(string(resp.body), `"url":"http://`+secretKey) {
				t.Errorf("%s %s with %s: the document's servers name the key", rq.method, rq.path, v.name)
			}
		}
	}
	// A forwarded host that holds no key is still believed.
	resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`, "Authorization", "Bearer "+secretKey, "X-Forwarded-Host", "app.example:8443")
	if l := resp.Header.Get("Location"); !strings.HasPrefix(l, "http://app.example:8443/v1/pets/") {
		t.Errorf("Location with X-Forwarded-Host app.example:8443: %q", l)
	}
}
