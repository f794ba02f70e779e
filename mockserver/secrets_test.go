package mockserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// appSecrets are what an app under development sends that the journal
// hides: none is petmock's key, so that only the hiding of secrets, and
// not that of keys, can keep them out.
var appSecrets = []struct{ where, value string }{
	{"X-Auth-Token", "auth-token-value-1"},
	{"X-CSRF-Token", "csrf-token-value-2"},
	{"Cookie", "cookie-value-3"},
	{"?session=", "session-value-4"},
	{"?password=", "password-value-5"},
	{"?accessToken=", "access-token-value-6"},
	{`{"user":{"password":...}}`, "body-password-value-7"},
	{`{"apiKey":...}`, "body-api-key-value-8"},
	{"?limit= and ?token=, echoed by the error", "echoed-token-value-9"},
}

// sendAppSecrets sends each of appSecrets where it says.
func sendAppSecrets(t *testing.T, ts *testServer) {
	t.Helper()
	ts.do(t, "GET", "/pets?limit=1&session=session-value-4&password=password-value-5&accessToken=access-token-value-6", "",
		"X-Auth-Token", "auth-token-value-1", "X-CSRF-Token", "csrf-token-value-2", "Cookie", "sid=cookie-value-3")
	ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1,"user":{"password":"body-password-value-7"},"apiKey":"body-api-key-value-8"}`)
	ts.do(t, "GET", "/pets?limit=echoed-token-value-9&token=echoed-token-value-9", "")
}

// TestJournalHidesTheAppsSecrets: by default the journal shows none of
// the app's secrets, and the log never does; journalSecrets "shown" shows
// them in the journal, but still not petmock's key.
func TestJournalHidesTheAppsSecrets(t *testing.T) {
	var log syncBuffer
	ts := newTestServer(t, mockserver.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	sendAppSecrets(t, ts)
	ts.FlushLog()
	journal := journalText(t, ts.Server)
	for _, s := range appSecrets {
		if strings.Contains(journal, s.value) {
			t.Errorf("the journal shows the secret of %s: %s", s.where, journal)
		}
		if strings.Contains(log.String(), s.value) {
			t.Errorf("the log shows the secret of %s", s.where)
		}
	}
	for _, shown := range []string{`limit=1\u0026session=[redacted]\u0026password=[redacted]\u0026accessToken=[redacted]`, `"X-Auth-Token":["[redacted]"]`,
		`\"user\":{\"password\":\"[redacted]\"}`, `\"name\":\"Rex\"`, `limit=[redacted]\u0026token=[redacted]`} {
		if !strings.Contains(journal, shown) {
			t.Errorf("the journal does not show %s: %s", shown, journal)
		}
	}
	if err := ts.Steering().ChangeSettings(map[string]any{"journalSecrets": "shown"}); err != nil {
		t.Fatal(err)
	}
	if got := ts.Steering().Settings().JournalSecrets; got != steer.SecretsShown {
		t.Fatalf("journalSecrets = %q after it was shown", got)
	}
	journal = journalText(t, ts.Server)
	for _, s := range appSecrets {
		if s.where != "Cookie" && !strings.Contains(journal, s.value) {
			t.Errorf("with journalSecrets shown, the journal does not show the secret of %s", s.where)
		}
	}
	if strings.Contains(journal, key) || strings.Contains(journal, "cookie-value-3") {
		t.Error("with journalSecrets shown, the journal shows petmock's key or the Cookie, which are hidden always")
	}
	if err := ts.Steering().ChangeSettings(map[string]any{"journalSecrets": nil}); err != nil || ts.Steering().Settings().JournalSecrets != steer.SecretsHidden {
		t.Errorf("journalSecrets null: %v, %q; want hidden again", err, ts.Steering().Settings().JournalSecrets)
	}
	if err := ts.Steering().ChangeSettings(map[string]any{"journalSecrets": "visible"}); err == nil || !strings.Contains(err.Error(), "journalSecrets: ") {
		t.Errorf("journalSecrets visible: %v, want an error naming it", err)
	}
}

// TestJournalHidesSchemeCredentials: the credentials of the document's
// security schemes are hidden, whatever their names, when they are no key
// of petmock's too.
func TestJournalHidesSchemeCredentials(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Badges, version: 1.0.0}
servers: [{url: /v1}]
security: [{badge: []}, {ticket: []}]
paths:
  /ping:
    get:
      operationId: ping
      responses:
        '200': {description: Pong., content: {application/json: {schema: {type: object}}}}
components:
  securitySchemes:
    badge: {type: apiKey, in: header, name: X-Badge}
    ticket: {type: apiKey, in: query, name: ticket}
`))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	ts.do(t, "GET", "/ping?ticket="+key, "", "Authorization", "", "X-Badge", "badge-value-1")
	ts.do(t, "GET", "/ping?ticket=ticket-value-2", "", "Authorization", "", "X-Badge", key)
	journal := journalText(t, ts.Server)
	for _, secret := range []string{"badge-value-1", "ticket-value-2", key} {
		if strings.Contains(journal, secret) {
			t.Errorf("the journal shows %s: %s", secret, journal)
		}
	}
	if !strings.Contains(journal, `"X-Badge":["[redacted]"]`) || !strings.Contains(journal, `ticket=[redacted]`) {
		t.Errorf("the journal does not show the credentials hidden: %s", journal)
	}
}

// journalText is the journal of srv as JSON.
func journalText(tb testing.TB, srv *mockserver.Server) string {
	tb.Helper()
	b, err := json.Marshal(srv.Journal().Recent(0))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// secretNames are names under which apps send secrets that no document
// marks: session ids, an OAuth code, card codes, passcodes and refresh
// tokens. Each is sent in every place listed, and code, a secret only as
// a parameter (a JSON member code is an error's), in its places.
var secretNames = []struct {
	name   string
	places []string
}{
	{"JSESSIONID", allPlaces}, {"jsessionid", allPlaces}, {"PHPSESSID", allPlaces}, {"connect.sid", allPlaces},
	{"sid", allPlaces}, {"sessid", allPlaces}, {"code", []string{"query", "path", "cookie", "echoed"}},
	{"cvv", allPlaces}, {"cvc", allPlaces}, {"passcode", allPlaces}, {"refresh", allPlaces},
	{"refresh_token", allPlaces}, {"refreshToken", allPlaces},
}

// allPlaces are where a secret travels: the query, a path parameter, a
// header, a cookie, a member of a JSON body at depth, and the backend's
// answer, which echoes what it got.
var allPlaces = []string{"query", "path", "header", "cookie", "json", "echoed"}

// TestJournalHidesSecretNames sends each of secretNames in each of its
// places through petmock in front of a backend that echoes the request in
// an answer that breaks the document, and finds none of the values in the
// journal, the violations or the log.
func TestJournalHidesSecretNames(t *testing.T) {
	echo := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		echoed := map[string]any{"query": r.URL.Query(), "header": r.Header}
		if json.Valid(body) {
			echoed["body"] = json.RawMessage(body)
		}
		out, _ := json.Marshal(map[string]any{"echo": echoed})
		answerWith(200, string(out))(w, r)
	}
	p := newProxied(t, echo, mockserver.Config{})
	var sent []string
	value := func(i int, place string) string {
		v := fmt.Sprintf("v%02d-%s", i, place)
		sent = append(sent, v)
		return v
	}
	for i, s := range secretNames {
		for _, place := range s.places {
			switch place {
			case "query":
				p.do(t, "GET", "/pets?limit=1&"+url.QueryEscape(s.name)+"="+value(i, place), "")
			case "path":
				p.do(t, "GET", "/pets;"+s.name+"="+value(i, place), "")
			case "header":
				p.do(t, "GET", "/pets", "", s.name, value(i, place))
			case "cookie":
				p.do(t, "GET", "/pets", "", "Cookie", "theme=dark; "+s.name+"="+value(i, place))
			case "json":
				body, _ := json.Marshal(map[string]any{"name": "Rex", "categoryId": 1, "profile": map[string]any{"card": []any{map[string]any{s.name: value(i, place)}}}})
				p.do(t, "POST", "/pets", string(body))
			case "echoed":
				// The backend's answer repeats the query: the value shows
				// in the answer body, under its name, as well.
				p.do(t, "GET", "/pets?"+url.QueryEscape(s.name)+"="+value(i, place), "")
			}
		}
	}
	views := journalText(t, p.Server)
	violations, _ := json.Marshal(p.Violations().Recent(0))
	if len(p.Violations().Recent(0)) == 0 {
		t.Fatal("no violation was recorded; the backend's answers must break the document for the test")
	}
	hidden := 0
	p.FlushLog()
	for _, v := range sent {
		shown := false
		for what, text := range map[string]string{"journal": views, "violations": string(violations), "log": p.log.String()} {
			if strings.Contains(text, v) {
				t.Errorf("the %s shows %s", what, v)
				shown = true
			}
		}
		if !shown {
			hidden++
		}
	}
	t.Logf("redaction coverage: %d of %d values, %d names in up to %d places each, hidden in the journal, the violations and the log",
		hidden, len(sent), len(secretNames), len(allPlaces))
}
