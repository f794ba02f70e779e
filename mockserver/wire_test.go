package mockserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// wireLimits are short, so that a timeout is met soon; the tests wait for
// an answer, never for a duration.
var wireLimits = edge.WireLimits{ReadHeaderTimeout: 200 * time.Millisecond, MaxHeaderBytes: 4 << 10}

// wireServer serves a mock through its Listener, with the bounds
// petmock's HTTP server has, and returns its address.
func wireServer(t *testing.T) string {
	t.Helper()
	return wireServerOf(t, mockserver.Config{})
}

// wireServerOf serves a mock of cfg as wireServer does.
func wireServerOf(t *testing.T, cfg mockserver.Config) string {
	t.Helper()
	srv, err := mockserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: wireLimits.ReadHeaderTimeout,
		MaxHeaderBytes:    wireLimits.MaxHeaderBytes,
	}
	go hs.Serve(srv.Listener(ln, wireLimits))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// exchangeRaw sends raw on a new connection and reads what comes back
// until the server closes it.
func exchangeRaw(t *testing.T, addr, raw string) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, raw)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("%q: %v after %q", raw, err, got)
	}
	return got
}

// TestServersOwnAnswersAreErrors sends the requests Go's HTTP server
// answers before petmock sees them, and checks that each answer is an
// Error body of the status the server chose (408 for a timeout), whose
// message names what is wrong.
func TestServersOwnAnswersAreErrors(t *testing.T) {
	addr := wireServer(t)
	tests := []struct {
		name, raw   string
		status      int
		code        string
		wantMessage string
	}{
		{"Transfer-Encoding: identity", "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nTransfer-Encoding: identity\r\n\r\n",
			501, edge.CodeNotImplemented, "transfer-encoding: not supported"},
		{"an HTTP/2.0 request line", "GET /v1/pets HTTP/2.0\r\nHost: petmock\r\n\r\n",
			505, edge.CodeHTTPVersionNotSupported, "protocol: petmock speaks HTTP/1.0 and HTTP/1.1 only"},
		{"headers cut by the header timeout", "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nX-Sl",
			408, edge.CodeRequestTimeout, "headers: not received within 200ms"},
		{"headers over the limit", "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nX-Big: " + strings.Repeat("b", 16<<10) + "\r\n\r\n",
			431, edge.CodeHeadersTooLarge, "headers: larger than 4096 bytes"},
		{"a malformed request line", "GARBAGE\r\n\r\n", 400, edge.CodeBadRequest, "request: malformed"},
		{"an invalid method", "G@T /v1/pets HTTP/1.1\r\nHost: petmock\r\n\r\n", 400, edge.CodeBadRequest, "request: malformed"},
		{"no Host", "GET /v1/pets HTTP/1.1\r\n\r\n", 400, edge.CodeBadRequest, "host: missing"},
		{"two Content-Lengths", "POST /v1/pets HTTP/1.1\r\nHost: petmock\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx",
			400, edge.CodeBadRequest, "request: malformed"},
		{"an invalid header name", "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nBad Name: x\r\n\r\n",
			400, edge.CodeBadRequest, "header: a name is not a valid HTTP token"},
		{"an unknown expectation", "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nExpect: teapot\r\n\r\n",
			417, edge.CodeExpectationFailed, "expect: petmock takes only Expect: 100-continue"},
		{"TLS on the plain port", "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n", 400, edge.CodeBadRequest, "request: malformed"},
	}
	for _, tt := range tests {
		got := exchangeRaw(t, addr, tt.raw)
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(got))), nil)
		if err != nil {
			t.Errorf("%s: the answer is not HTTP: %v: %q", tt.name, err, got)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		var e edge.Error
		if err := json.Unmarshal(body, &e); err != nil || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s %q, want an Error body", tt.name, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			continue
		}
		if resp.StatusCode != tt.status || e.Status != tt.status || e.Code != tt.code || !strings.HasPrefix(e.Message, tt.wantMessage) {
			t.Errorf("%s: %d %+v, want %d %s with a message starting %q", tt.name, resp.StatusCode, e, tt.status, tt.code, tt.wantMessage)
		}
	}
}

// TestServersOwnAnswersFollowTheDocument: for a document of another error
// body, the answers Go's HTTP server makes by itself are in that body, as
// a request of no operation gets it: an integer code and a message where
// its Error says so, and problem details where the document describes no
// error body.
func TestServersOwnAnswersFollowTheDocument(t *testing.T) {
	const errorRef = `{description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`
	for _, tt := range []struct {
		name        string
		c           *spec.Contract
		contentType string
	}{
		{"an integer code", errorDocument(t, "        '404': "+errorRef+"\n", `    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: integer}
        message: {type: string}
`), "application/json"},
		{"no error body", errorDocument(t, "", ""), spec.ProblemContentType},
	} {
		addr := wireServerOf(t, mockserver.Config{Contract: tt.c})
		judge, err := conformance.NewAnswerJudge(tt.c, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, rq := range []struct {
			raw    string
			status int
		}{
			{"GARBAGE\r\n\r\n", 400},
			{"GET /v1/things HTTP/2.0\r\nHost: petmock\r\n\r\n", 505},
			{"GET /v1/things HTTP/1.1\r\nHost: petmock\r\nX-Big: " + strings.Repeat("b", 16<<10) + "\r\n\r\n", 431},
		} {
			got := exchangeRaw(t, addr, rq.raw)
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(got))), nil)
			if err != nil {
				t.Errorf("%s: %.20q: the answer is not HTTP: %v: %q", tt.name, rq.raw, err, got)
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			what := fmt.Sprintf("%s: %.20q: %d %s %s", tt.name, rq.raw, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			if resp.StatusCode != rq.status || resp.Header.Get("Content-Type") != tt.contentType {
				t.Errorf("%s, want %d of %s", what, rq.status, tt.contentType)
				continue
			}
			if err := judge.JudgeError(httptest.NewRequest("GET", "/", nil), resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s: not the document's error body: %v", what, err)
			}
			var e map[string]any
			if json.Unmarshal(body, &e) != nil || e["status"] != nil && e["status"] != float64(rq.status) || e["code"] == nil && e["detail"] == nil {
				t.Errorf("%s, want its code or detail, and no other status", what)
			}
		}
	}
}

// TestAnswersThatAreNoErrorBody is the list the README gives of what petmock
// answers without an Error body, held to it: requests that are no error,
// and connections with nothing to answer.
func TestAnswersThatAreNoErrorBody(t *testing.T) {
	addr := wireServer(t)
	// OPTIONS * asks about the server as a whole: Go answers 200 with no
	// body.
	got := exchangeRaw(t, addr, "OPTIONS * HTTP/1.1\r\nHost: petmock\r\nConnection: close\r\n\r\n")
	if !strings.HasPrefix(string(got), "HTTP/1.1 200 OK\r\n") || !strings.Contains(string(got), "Content-Length: 0\r\n") {
		t.Errorf("OPTIONS *: %q, want 200 with no body", got)
	}
	// A connection that sends nothing is closed at the header timeout,
	// without an answer: there is no request to answer.
	if got := exchangeRaw(t, addr, ""); len(got) != 0 {
		t.Errorf("a silent connection: %q, want it closed without an answer", got)
	}
	// Expect: 100-continue gets the interim 100 Continue, which has no
	// body by definition, and then petmock's answer.
	got = exchangeRaw(t, addr, "POST /v1/pets HTTP/1.1\r\nHost: petmock\r\nConnection: close\r\nAuthorization: Bearer "+key+
		"\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}")
	if !strings.HasPrefix(string(got), "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad Request\r\n") || !strings.Contains(string(got), `"code":"bad_request"`) {
		t.Errorf("Expect: 100-continue: %q, want 100 Continue and then petmock's Error", got)
	}
	// The HTTP/2 preface reaches petmock, which knows no such path.
	got = exchangeRaw(t, addr, "PRI * HTTP/2.0\r\n\r\n")
	if !strings.HasPrefix(string(got), "HTTP/1.1 404 Not Found\r\n") || !strings.Contains(string(got), `"code":"not_found"`) {
		t.Errorf("the HTTP/2 preface: %q, want a 404 Error", got)
	}
	// Answers of petmock's pass through as they are.
	got = exchangeRaw(t, addr, "GET /v1/pets?limit=1 HTTP/1.1\r\nHost: petmock\r\nConnection: close\r\nAuthorization: Bearer "+key+"\r\n\r\n")
	if !strings.HasPrefix(string(got), "HTTP/1.1 200 OK\r\n") || !strings.Contains(string(got), `[{"id":1,`) {
		t.Errorf("GET /v1/pets?limit=1: %q", got)
	}
}
