package conformance

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// preflightTimeout is Config.Timeout against a hostile server whose answer
// never comes: short, as each costs a timeout.
const preflightTimeout = 300 * time.Millisecond

// floodBytes is more than a preflight reads.
const floodBytes = 50 << 20

// noKeyShown fails the test if the message of err holds the key.
func noKeyShown(tb testing.TB, what string, err error) {
	tb.Helper()
	if err != nil && strings.Contains(err.Error(), ct.Key) {
		tb.Errorf("%s: the error shows the API key:\n%s", what, err)
	}
}

// TestPreflightJudgesBrokenContracts: only an answer the run cannot judge
// by stops it. A JSON body labelled text/html and a key refused in the
// form the document gives but taken in another break the contract: the
// preflight lets the checks say so. A body that is an HTML page, whatever
// its Content-Type, and a key refused in every form are mistakes of the
// setup.
func TestPreflightJudgesBrokenContracts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer http.HandlerFunc
		fix    string // "" for no setup error
		note   string // what the note says, if no setup error
	}{
		{"JSON labelled text/html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`[{"id":1,"name":"Rex","categoryId":1}]`))
		}, "", "answered 200 OK"},
		{"a login page labelled JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("<!DOCTYPE html>\n<html><form action=/login>"))
		}, "an HTML page, not the API", ""},
		{"a login page on a 401", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte("<html><body>Sign in</body></html>"))
		}, "an HTML page, not the API", ""},
		{"the key taken only as X-API-Key", func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-API-Key") != ct.Key {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("[]"))
		}, "", "with the key as the header X-API-Key, which the document does not give: the deployment is judged, and its checks will fail"},
		{"the key taken in no form", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
		}, "the API key was refused; check --api-key or PETSTORE_API_KEY", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := httptest.NewServer(tc.answer)
			defer hs.Close()
			note, err := Preflight(context.Background(), Config{BaseURL: hs.URL + "/v1", APIKey: ct.Key})
			var se *SetupError
			switch {
			case tc.fix == "" && err != nil:
				t.Errorf("%v, want a note for the checks to judge", err)
			case tc.fix == "" && !strings.Contains(note, tc.note):
				t.Errorf("note %q, want it to say %q", note, tc.note)
			case tc.fix != "" && (!errors.As(err, &se) || !strings.Contains(se.Fix, tc.fix)):
				t.Errorf("%v (note %q), want a *SetupError that says %q", err, note, tc.fix)
			}
			noKeyShown(t, tc.name, err)
			if strings.Contains(note, ct.Key) {
				t.Errorf("the note shows the key: %s", note)
			}
		})
	}
}

// TestPreflightOfAnyDocument: the preflight tries the key and the base
// URL on an operation of the run's document, as its security asks, a list
// first; when that one is missing, it tries another, and leaves the
// missing one to the checks. A document without an operation it can send
// is said, and the run goes on.
func TestPreflightOfAnyDocument(t *testing.T) {
	widgets, err := spec.Read([]byte(ct.Widgets))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.RequestURI()+" "+r.Header.Get("X-Widget-Key"))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	defer hs.Close()
	note, err := Preflight(context.Background(), Config{BaseURL: hs.URL + "/api", APIKey: ct.Key, Contract: widgets})
	if err != nil || !strings.Contains(note, "GET "+hs.URL+"/api/widgets?limit=1 answered 200 OK") {
		t.Errorf("Preflight of the widgets: note %q, %v; want GET /api/widgets?limit=1 answered", note, err)
	}
	if len(got) != 1 || got[0] != "/api/widgets?limit=1 "+ct.Key {
		t.Errorf("the server got %q, want one list of widgets with the key in X-Widget-Key", got)
	}

	reports, err := spec.Read([]byte(strings.Replace(ct.Widgets, "paths:\n", `paths:
  /reports:
    get: {operationId: report, responses: {'200': {description: A report., content: {application/json: {schema: {type: object}}}}}}
`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	gone := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/widgets" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
	}))
	defer gone.Close()
	note, err = Preflight(context.Background(), Config{BaseURL: gone.URL + "/api", APIKey: ct.Key, Contract: reports})
	if err != nil || !strings.Contains(note, "widgets?limit=1 answered 404 Not Found (the checks judge the operation that is missing); GET "+gone.URL+"/api/reports answered 200 OK") {
		t.Errorf("Preflight with the list missing: note %q, %v; want the report tried, and the list left to the checks", note, err)
	}

	none, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Things, version: 1.0.0}
paths:
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: A thing.}}
`))
	if err != nil {
		t.Fatal(err)
	}
	note, err = Preflight(context.Background(), Config{BaseURL: "http://127.0.0.1:1", APIKey: ct.Key, Contract: none})
	if err != nil || !strings.Contains(note, "no operation of the document can be sent without parameters") {
		t.Errorf("Preflight of a document of no such operation: note %q, %v; want a note that says so", note, err)
	}
}

// TestPreflightOfHostileServers: a base URL that gives no HTTP answer, or
// one that redirects the first request, stops a run before any check,
// with an error that says what went wrong, without the key.
func TestPreflightOfHostileServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start func(tb testing.TB) *ct.HostileServer
		says  []string
		waits bool // whether no answer comes, so the error waits for preflightTimeout
	}{
		{"accepts the connection and never answers", ct.NewSilent, []string{"cannot reach $URL/pets?limit=1: no answer within 300ms"}, true},
		{"sends endless headers", func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				line := "X-Echo: " + r.Header.Get("Authorization") + "\r\n"
				s.Flood(ct.Hijack(w), "HTTP/1.1 200 OK\r\n", false, []byte(strings.Repeat(line, 1000)), floodBytes)
			})
		}, []string{"cannot reach $URL/pets?limit=1: no HTTP answer: ", fmt.Sprintf("server response headers exceeded %d bytes", judge.MaxHeaderBytes)}, false},
		{"redirects every request", func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", r.URL.Path+"?echo="+url.QueryEscape(r.Header.Get("Authorization")))
				w.WriteHeader(http.StatusFound)
			})
		}, []string{"GET $URL/pets?limit=1 answered 302 Found: a redirect to /v1/pets?echo=Bearer+$PETSTORE_API_KEY, which the suite does not follow"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.start(t)
			cfg := Config{BaseURL: s.URL, APIKey: ct.Key}
			if tc.waits {
				cfg.Timeout = preflightTimeout
			}
			_, err := Preflight(context.Background(), cfg)
			for _, want := range tc.says {
				if want = strings.ReplaceAll(want, "$URL", s.URL); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("Preflight: %v, want an error that says %q", err, want)
				}
			}
			noKeyShown(t, tc.name, err)
		})
	}
}
