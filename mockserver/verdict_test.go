package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec/answercheck"
)

// TestProxyJudgesRequests: a request that breaks the document, which the
// mock would refuse, goes to the backend all the same, and what it breaks
// is recorded as an answer's is: in the journal, the violations view and
// the log, under the rule request.
func TestProxyJudgesRequests(t *testing.T) {
	p := newProxied(t, answerWith(200, backendPets), mockserver.Config{})
	got := p.do(t, "GET", "/pets?limit=0", "")
	if got.StatusCode != 200 || p.hits.Load() != 1 {
		t.Fatalf("GET /v1/pets?limit=0: %s, %d requests to the backend; want it forwarded and relayed", got, p.hits.Load())
	}
	x := p.Journal().Recent(1)[0]
	if rules := violationRules(x); len(rules) != 1 || rules[0] != mockserver.RuleRequest || !strings.Contains(x.Violations[0].Message, "limit") {
		t.Errorf("the journal's violations: %+v, want the request's, naming limit", x.Violations)
	}
	v := p.Violations().Recent(0)
	if len(v) != 1 || len(v[0].Violations) != 1 || v[0].Violations[0].Rule != mockserver.RuleRequest || v[0].Query != "limit=0" {
		t.Errorf("the violations view: %+v, want the request of limit=0", v)
	}
	if !strings.Contains(p.log.String(), `msg="the request breaks the document"`) || !strings.Contains(p.log.String(), "rule=request") {
		t.Errorf("the log does not say the request breaks the document:\n%s", p.log)
	}
	p.do(t, "GET", "/pets?limit=2", "")
	if x := p.Journal().Recent(1)[0]; len(x.Violations) != 0 {
		t.Errorf("a valid request: violations %+v", x.Violations)
	}
}

// violationsOf reads the violations header of an answer.
func violationsOf(tb testing.TB, r *response) []answercheck.Violation {
	tb.Helper()
	text := r.Header.Get(mockserver.ViolationsHeader)
	var out []answercheck.Violation
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		tb.Fatalf("%s: %q is no JSON array: %v", mockserver.ViolationsHeader, text, err)
	}
	return out
}

// TestProxyViolationsHeader: asked for, every answer of the backend lists
// in X-Petmock-Violations what the request and the answer broke, empty
// when nothing, and a page of another origin may read it; not asked for,
// there is none.
func TestProxyViolationsHeader(t *testing.T) {
	none := newProxied(t, answerWith(200, `{"not":"a list"}`), mockserver.Config{})
	if got := none.do(t, "GET", "/pets?limit=0", ""); got.Header.Get(mockserver.ViolationsHeader) != "" {
		t.Errorf("without the option: %s: %q", mockserver.ViolationsHeader, got.Header.Get(mockserver.ViolationsHeader))
	}
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("limit") == "3" {
			answerWith(200, `{"not":"a list"}`)(w, r)
			return
		}
		answerWith(200, backendPets)(w, r)
	}, mockserver.Config{Proxy: mockserver.Proxy{ViolationsHeader: true}})
	got := p.do(t, "GET", "/pets?limit=2", "", "Origin", backendOrigin)
	if v := violationsOf(t, got); len(v) != 0 || !strings.Contains(got.Header.Get("Access-Control-Expose-Headers"), mockserver.ViolationsHeader) {
		t.Errorf("a valid exchange: %v, exposed %q; want [] that a page may read", v, got.Header.Get("Access-Control-Expose-Headers"))
	}
	got = p.do(t, "GET", "/pets?limit=0&status=néant", "")
	if v := violationsOf(t, got); len(v) != 1 || v[0].Rule != mockserver.RuleRequest {
		t.Errorf("a request that breaks the document: %v", v)
	}
	for _, c := range got.Header.Get(mockserver.ViolationsHeader) {
		if c >= 0x80 {
			t.Errorf("%s holds %q, which is no ASCII", mockserver.ViolationsHeader, c)
		}
	}
	got = p.do(t, "GET", "/pets?limit=3", "")
	if v := violationsOf(t, got); len(v) != 1 || v[0].Rule != answercheck.RuleBody || got.StatusCode != 200 || string(got.body) != `{"not":"a list"}` {
		t.Errorf("an answer that breaks the document: %s, %v; want it relayed, listing response.body", got, v)
	}
}

// TestProxyStrict: with --proxy-strict, an answer that breaks the
// document is answered 502 in the document's error body, naming what it
// broke, and listing it in the header; a request that breaks it is
// answered so without reaching the backend; a valid exchange is relayed.
func TestProxyStrict(t *testing.T) {
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("limit") == "3" {
			answerWith(200, `[{"id":"one"}]`)(w, r)
			return
		}
		answerWith(200, backendPets)(w, r)
	}, mockserver.Config{Proxy: mockserver.Proxy{Strict: true}})
	checker := newChecker(t, nil)
	judged := func(path string, got *response) {
		t.Helper()
		req, _ := http.NewRequest("GET", p.url+path, nil)
		if err := checker.judge.JudgeError(req, got.StatusCode, got.Header, got.body); err != nil {
			t.Errorf("GET %s: the 502 breaks the document: %v", path, err)
		}
	}
	if got := p.do(t, "GET", "/pets?limit=2", ""); got.StatusCode != 200 || string(got.body) != backendPets {
		t.Errorf("a valid exchange: %s, want it relayed", got)
	}
	got := p.do(t, "GET", "/pets?limit=3", "")
	e := got.apiError(t)
	if got.StatusCode != http.StatusBadGateway || e.Code != "bad_gateway" || !strings.Contains(e.Message, "response.body") ||
		len(violationsOf(t, got)) == 0 {
		t.Errorf("an answer that breaks the document: %s, want 502 naming response.body, with the header", got)
	}
	judged("/pets?limit=3", got)
	hits := p.hits.Load()
	got = p.do(t, "GET", "/pets?limit=0", "")
	if e := got.apiError(t); got.StatusCode != http.StatusBadGateway || !strings.Contains(e.Message, "not forwarded") || !strings.Contains(e.Message, "limit") ||
		p.hits.Load() != hits {
		t.Errorf("a request that breaks the document: %s, %d more requests to the backend; want 502 naming limit, none sent", got, p.hits.Load()-hits)
	}
	judged("/pets?limit=0", got)
	if n := len(p.Violations().Recent(0)); n != 2 {
		t.Errorf("the violations view holds %d, want both", n)
	}
}
