package mockserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// The fuzz targets hold petmock to one invariant, whatever arrives: every
// answer is a documented status with a valid body, checked against the
// document by the same checker as every other test, and never a 5xx or a
// panic. Their seed corpora live under testdata/fuzz, so go test replays
// them as ordinary tests; go test -fuzz=FuzzX ./mockserver explores.

// fuzzTarget is a server and a checker, shared by one fuzz target.
type fuzzTarget struct {
	srv *mockserver.Server
	c   *checker
}

func newFuzzTarget(f *testing.F) *fuzzTarget {
	srv, err := mockserver.New(mockserver.Config{JournalSize: 8, MaxItems: 100_000})
	if err != nil {
		f.Fatal(err)
	}
	return &fuzzTarget{srv: srv, c: newChecker(f, nil)}
}

// serve answers req in-process and checks the answer.
func (ft *fuzzTarget) serve(t *testing.T, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	ft.srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s %s: %d %s", req.Method, req.URL, rec.Code, rec.Body)
	}
	if err := ft.c.check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Fatalf("%s %s: answer breaks the contract: %v\n%d %s", req.Method, req.URL, err, rec.Code, rec.Body)
	}
	return rec
}

func authorized(method, target string, body string) *http.Request {
	req := httptest.NewRequest(method, "http://petmock/", strings.NewReader(body))
	req.URL = &url.URL{Path: target}
	if path, query, found := strings.Cut(target, "?"); found {
		req.URL = &url.URL{Path: path, RawQuery: query}
	}
	req.RequestURI = ""
	req.Header.Set("Authorization", "Bearer "+key)
	return req
}

func FuzzCreatePet(f *testing.F) {
	for _, b := range bodySeedsForFuzz {
		f.Add(b, "application/json")
	}
	f.Add(`{"name":"Rex","categoryId":1}`, "text/plain")
	f.Add(`{"name":"Rex","categoryId":1}`, "application/json; charset=utf-8")
	f.Add(`{"name":"Rex","categoryId":1}`, "")
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, body, contentType string) {
		before := ft.srv.Items().Store("pets").Len()
		req := authorized("POST", "/v1/pets", body)
		req.Header.Set("Content-Type", contentType)
		rec := ft.serve(t, req)
		after := ft.srv.Items().Store("pets").Len()
		if rec.Code != http.StatusCreated {
			if after != before {
				t.Fatalf("a refused body (%d) changed the store: %d pets, was %d", rec.Code, after, before)
			}
			return
		}
		var p Pet
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		text, _, ok := ft.srv.Items().Store("pets").Lookup(p.ID)
		var got Pet
		if err := json.Unmarshal(text, &got); err != nil || !ok || got != p {
			t.Fatalf("created %+v, stored %s (%v, %v)", p, text, ok, err)
		}
	})
}

var bodySeedsForFuzz = []string{
	`{"name":"Rex","categoryId":1}`, `{"name":"Rex","categoryId":1,"status":"sold"}`, `{"name":"","categoryId":-9223372036854775808}`,
	`{"name":"Rex","categoryId":1e2}`, `{"name":"Rex","categoryId":1.5}`, `{"name":"Rex","categoryId":9223372036854775808}`,
	`{"name":"Rex"}`, `{"categoryId":1}`, `{"name":null,"categoryId":1}`, `{"name":"Rex","categoryId":1,"status":"lost"}`,
	`[]`, `null`, `"x"`, `{"name":"Rex",`, `{"name":"Rex","categoryId":1} {}`, ``, `{"name":"\u0000\ud800","categoryId":0}`,
	`{"name":"Rex","categoryId":1e99999999999}`, `{"name":{"a":1},"categoryId":[1]}`,
}

func FuzzListPets(f *testing.F) {
	for _, q := range []string{
		"", "limit=20", "limit=0", "limit=101", "limit=abc", "limit=", "limit=1&limit=2", "status=sold", "status=lost",
		"status=sold&limit=3", "cursor=AQAAAAAAAAAF", "cursor=%zz", "limit=%31%30", "a=b&&c", "limit=99999999999999999999",
		"status=available&cursor=AQAAAAAAAAAA&limit=100",
	} {
		f.Add(q)
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, rawQuery string) {
		rec := ft.serve(t, authorized("GET", "/v1/pets?"+rawQuery, ""))
		if rec.Code != http.StatusOK {
			return
		}
		var pets []Pet
		if err := json.Unmarshal(rec.Body.Bytes(), &pets); err != nil {
			t.Fatal(err)
		}
		if len(pets) > 100 {
			t.Fatalf("?%s: %d pets, more than the maximum limit", rawQuery, len(pets))
		}
	})
}

func FuzzGetPet(f *testing.F) {
	for _, id := range []string{"1", "50", "0", "-1", "+1", "01", "1.0", "abc", "", "9223372036854775807",
		"9223372036854775808", "%31", "1/2", "%2F", "１"} {
		f.Add(id)
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, id string) {
		rec := ft.serve(t, authorized("GET", "/v1/pets/"+id, ""))
		if want, err := strconv.ParseInt(id, 10, 64); err == nil && want >= 1 && want <= catalogue.DefaultCount && rec.Code != http.StatusOK &&
			!strings.ContainsAny(id, "+") {
			t.Fatalf("GET /v1/pets/%s: %d, want the seeded pet", id, rec.Code)
		}
	})
}

func FuzzPrefer(f *testing.F) {
	for _, p := range []string{"code=404", "code=401", "code=400", "code=500", "code=503", "code=418", "code=abc",
		"code=200", "delay=0", "delay=10", "delay=-1", "now=2031-01-01", "now=x", "code=404, delay=5", `code="404"`,
		"return=minimal", "code=404;x=y", ",,,", "CODE=400"} {
		f.Add(p, "/v1/pets/1")
		f.Add(p, "/v1/pets")
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, prefer, path string) {
		if path != "/v1/pets" && path != "/v1/pets/1" {
			path = "/v1/pets"
		}
		req := authorized("GET", path, "")
		req.Header.Set("Prefer", prefer)
		// A long delay is cut short: the client gives up after 20 ms.
		ctx, cancel := context.WithTimeout(req.Context(), 20*time.Millisecond)
		defer cancel()
		req = req.WithContext(ctx)
		rec := httptest.NewRecorder()
		ft.srv.ServeHTTP(rec, req)
		switch {
		case rec.Code == 500 || rec.Code == 503:
			// Outside the contract, and only when asked for: a forced
			// outage, or a delay the client did not wait for.
			forcedOutage := strings.Contains(rec.Header().Get("Preference-Applied"), "code="+strconv.Itoa(rec.Code))
			gone := strings.Contains(rec.Body.String(), "cancelled by the client during the delay")
			if !forcedOutage && !gone {
				t.Fatalf("Prefer: %q: %d %s", prefer, rec.Code, rec.Body)
			}
			return
		}
		if err := ft.c.check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Fatalf("Prefer: %q: answer breaks the contract: %v\n%d %s", prefer, err, rec.Code, rec.Body)
		}
	})
}

func FuzzCursor(f *testing.F) {
	for _, c := range []string{"AQAAAAAAAAAF", "AQAAAAAAAAAA", "AQ", "AAAAAAAAAAAA", "AQAAAAAAAAAF==", "////////////",
		"AX__________", "AYAAAAAAAAAA", strings.Repeat("A", 64), "%00"} {
		f.Add(c)
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, cursor string) {
		for _, status := range []string{"", "&status=sold"} {
			rec := ft.serve(t, authorized("GET", "/v1/pets?limit=5&cursor="+url.QueryEscape(cursor)+status, ""))
			if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
				t.Fatalf("cursor %q: %d", cursor, rec.Code)
			}
		}
	})
}

// FuzzAuthorization checks that whatever a client sends as Authorization,
// the answer is 200 or a 401 Error, and never repeats what was sent.
func FuzzAuthorization(f *testing.F) {
	for _, a := range []string{"Bearer " + key, "Bearer wrong-secret", "Basic c2VjcmV0", "secret-token", "Bearer", "bearer  " + key,
		"Bearer " + key + " extra", "Token abc", "Bearer \u00e9t\u00e9"} {
		f.Add(a)
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, authorization string) {
		req := authorized("GET", "/v1/pets?limit=1", "")
		req.Header.Set("Authorization", authorization)
		rec := ft.serve(t, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusUnauthorized {
			t.Fatalf("Authorization %q: %d", authorization, rec.Code)
		}
		// A token that the fixed wording of a 401 happens to contain
		// proves nothing either way.
		const wording = `{"code":"unauthorized","message":"authorization: missing; send Authorization: Bearer <API key>` +
			` malformed; want Bearer <API key> scheme must be Bearer unknown API key sent more than once","status":401}`
		_, token, _ := strings.Cut(authorization, " ")
		token = strings.TrimSpace(token)
		if len(token) >= 4 && !strings.Contains(wording, token) && rec.Code == http.StatusUnauthorized && strings.Contains(rec.Body.String(), token) {
			t.Fatalf("Authorization %q: the answer repeats it: %s", authorization, rec.Body)
		}
	})
}

// secretNamesForFuzz are names the journal hides the values of.
var secretNamesForFuzz = []string{"X-Auth-Token", "X-CSRF-Token", "session", "password", "api_key", "clientSecret", "credentials", "Passwd"}

// FuzzJournalSecrets sends a secret, under a name that says so, in a
// header, the query, a JSON body at some depth or a form: whatever its
// value, the journal shows it nowhere, in the request or in the answer.
func FuzzJournalSecrets(f *testing.F) {
	for i, v := range []string{"hunter22", "Rex1", "application/json", "/v1/pets", "a\"b\\c\u00e9", "%41%42CD", "pets", "1234", "null"} {
		for place := range 5 {
			f.Add(v, uint8(place), uint8(i))
		}
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, value string, place, nameIndex uint8) {
		name := secretNamesForFuzz[int(nameIndex)%len(secretNamesForFuzz)]
		quoted, _ := json.Marshal(value)
		var req *http.Request
		switch place % 5 {
		case 0:
			req = authorized("GET", "/v1/pets?limit=2", "")
			req.Header.Set(name, value)
		case 1:
			req = authorized("GET", "/v1/pets?limit=2&"+url.QueryEscape(name)+"="+url.QueryEscape(value), "")
		case 2:
			req = authorized("POST", "/v1/pets", `{"name":"Rex","categoryId":1,"`+name+`":`+string(quoted)+`}`)
			req.Header.Set("Content-Type", "application/json")
		case 3:
			req = authorized("POST", "/v1/pets", `[{"a":{"b":[1,{"`+name+`":`+string(quoted)+`}]}}]`)
			req.Header.Set("Content-Type", "application/json")
		default:
			req = authorized("POST", "/v1/pets", "name=Rex&"+url.QueryEscape(name)+"="+url.QueryEscape(value))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		rec := httptest.NewRecorder()
		ft.srv.ServeHTTP(rec, req)
		// A value shorter than four bytes, or one that "[redacted]"
		// holds, is hidden where it stands but may show elsewhere.
		if len(value) < 4 || strings.Contains("[redacted]", value) {
			return
		}
		for _, e := range ft.srv.Journal().Recent(1) {
			seen := []string{e.Method, e.Path, e.Query, e.Request.Body, e.Response.Body}
			for _, m := range []journal.Message{e.Request, e.Response} {
				for n, vs := range m.Header {
					seen = append(seen, n)
					seen = append(seen, vs...)
				}
			}
			for _, s := range seen {
				if strings.Contains(s, value) || strings.Contains(s, string(quoted[1:len(quoted)-1])) {
					t.Fatalf("%s %q in place %d: the journal shows it: %q", name, value, place%5, s)
				}
			}
		}
	})
}

// FuzzExpect sets an arbitrary expectation, and sends an arbitrary
// request: whatever Expect accepts answers within the contract, as the
// checker judges it, and nothing panics. An outage an expectation asks
// for (500, 503) is judged as an Error body.
func FuzzExpect(f *testing.F) {
	ft := newFuzzTarget(f)
	const missing = `{"code":"not_found","message":"petId: no pet has id 7","status":404}`
	f.Add(`{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing+`}}`, "GET", "/v1/pets/7", "")
	f.Add(`{"when":{"method":"GET","path":"/pets/{petId}"},"answer":{"status":200,"body":{"id":1,"name":"Rex","categoryId":1,"extra":[1,{"a":null}]}}}`, "GET", "/v1/pets/3", "")
	f.Add(`{"when":{"method":"POST","path":"/v1/pets","body":{"/name":"Rex","":{"name":"Rex","categoryId":1}}},"answer":{"status":201,"headers":{"Location":"/v1/pets/9"},"body":{"id":9,"name":"Rex","categoryId":1}},"times":1}`, "POST", "/v1/pets", `{"name":"Rex","categoryId":1}`)
	f.Add(`{"when":{"method":"GET","path":"/v1/pets","query":{"limit":"5","status":"sold"}},"answer":{"status":200,"body":[]}}`, "GET", "/v1/pets?status=sold&limit=5", "")
	f.Add(`{"when":{"method":"HEAD","path":"/v1/pets/1"},"answer":{"status":503,"body":{"code":"unavailable","message":"down","status":503}}}`, "HEAD", "/v1/pets/1", "")
	f.Add(`{"when":{"method":"POST","path":"/v1/pets","body":{"/tags/0":1}},"answer":{"status":400,"body":{"code":"x","message":"y","status":400}}}`, "POST", "/v1/pets", `{"name":"a","categoryId":1}`)
	f.Fuzz(func(t *testing.T, text, method, target, body string) {
		defer ft.srv.Steering().ClearExpectations()
		var e steer.Expectation
		if json.Unmarshal([]byte(text), &e) != nil {
			return
		}
		set, err := ft.srv.Steering().Expect(e)
		if err != nil {
			var me *edge.Error
			if !errors.As(err, &me) || me.Status != 400 {
				t.Fatalf("Expect %s: %v, want a 400 *Error", text, err)
			}
			return
		}
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n#") || !isToken(method) {
			return
		}
		req := authorized(method, target, body)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if set.Answer.Status >= 500 {
			rec := httptest.NewRecorder()
			ft.srv.ServeHTTP(rec, req)
			if rec.Code >= 500 && rec.Code != set.Answer.Status {
				t.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body)
			}
			if rec.Code >= 500 {
				if err := ft.c.judge.JudgeError(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
					t.Fatalf("%s %s: the expectation's outage is no Error body: %v", method, target, err)
				}
			}
			return
		}
		ft.serve(t, req)
	})
}

// isToken reports whether s is an HTTP method token.
func isToken(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) })
}
