package replay_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/replay"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/spec"
)

// devKey is the key the app uses against its petmock, which the journal
// hides; the deployments replayed against take conformancetest.Key.
const devKey = "the-apps-own-dev-key-1234"

// appSession serves a petmock as a frontend developer runs one, sends it
// the requests of an app's session, and returns its journal as the admin
// API exports it.
func appSession(tb testing.TB) []byte {
	tb.Helper()
	srv, err := mockserver.New(mockserver.Config{APIKeys: []string{devKey}})
	if err != nil {
		tb.Fatal(err)
	}
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	send := func(method, path, body string, headers ...string) {
		tb.Helper()
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+devKey)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	send("GET", "/v1/pets?limit=5", "", "X-Request-Id", "r-1")
	send("POST", "/v1/pets", `{"name":"Biscuit","categoryId":2,"status":"pending"}`) // petmock gives it id 51
	send("GET", "/v1/pets/51", "")
	send("GET", "/v1/pets?status=pending&limit=2", "", "Prefer", "code=400")
	send("GET", "/v1/pets?limit=0", "") // the app's mistake: 400 from both
	send("GET", "/v1/cats", "")         // no operation of the document
	req, _ := http.NewRequest("GET", hs.URL+"/__petmock/requests", nil)
	req.Header.Set("Authorization", "Bearer "+devKey)
	resp, err := hs.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	export, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || bytes.Contains(export, []byte(devKey)) {
		tb.Fatalf("GET /__petmock/requests: %d %s", resp.StatusCode, export)
	}
	return export
}

// staging serves a petmock as a deployment of the document: other items
// than the app's petmock had, so that what it creates gets other ids, and
// conformancetest.Key alone, with fault, if not nil, turning it into a
// broken one.
func staging(tb testing.TB, fault conformancetest.Fault) *url.URL {
	tb.Helper()
	srv, err := mockserver.New(mockserver.Config{APIKeys: []string{conformancetest.Key}, Catalogue: &catalogue.Seeded{Seed: 9, Count: 12}})
	if err != nil {
		tb.Fatal(err)
	}
	var h http.Handler = srv
	if fault != nil {
		h = fault(tb, srv)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	u, _ := url.Parse(hs.URL + "/v1")
	return u
}

// deployment serves a petmock as a deployment of c with the key
// conformancetest.Key and four items of each resource, so that what it
// creates gets other ids than the app's petmock gave (51 and on).
func deployment(tb testing.TB, c *spec.Contract) (*mockserver.Server, *url.URL) {
	tb.Helper()
	srv, err := mockserver.New(mockserver.Config{Contract: c, APIKeys: []string{conformancetest.Key}, Catalogue: &catalogue.Seeded{Seed: 3, Count: 4}})
	if err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	tb.Cleanup(hs.Close)
	base, _ := url.Parse(hs.URL + "/v1")
	return srv, base
}

// run replays the export against base.
func run(tb testing.TB, export []byte, base *url.URL) []replay.Result {
	tb.Helper()
	reqs, err := replay.Read(bytes.NewReader(export))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := spec.Default()
	if err != nil {
		tb.Fatal(err)
	}
	results, err := replay.Run(context.Background(), replay.Config{Base: base, APIKey: conformancetest.Key, Contract: c}, reqs)
	if err != nil {
		tb.Fatal(err)
	}
	return results
}

// TestReplayPassesACorrectDeployment: what the app sent its petmock,
// replayed against a correct deployment with other items, passes: the
// key the journal hid is the run's, the pet the app created is created
// again and read by the id the deployment gave it, Prefer stays petmock's,
// and the path of no operation is skipped, saying why.
func TestReplayPassesACorrectDeployment(t *testing.T) {
	results := run(t, appSession(t), staging(t, nil))
	if len(results) != 6 {
		t.Fatalf("%d results, want one for each of the 6 requests journaled: %+v", len(results), results)
	}
	want := []struct {
		outcome replay.Outcome
		sent    string
		status  int
		note    string
	}{
		{replay.Passed, "/pets?limit=5", 200, ""},
		{replay.Passed, "/pets", 201, ""},
		{replay.Passed, "/pets/13", 200, ""},
		{replay.Passed, "/pets?status=pending&limit=2", 200, "petmock answered 400"},
		{replay.Passed, "/pets?limit=0", 400, ""},
		{replay.Skipped, "", 0, "no operation of the document has this method and path"},
	}
	for i, w := range want {
		r := results[i]
		if r.N != i+1 || r.Outcome != w.outcome || r.Sent != w.sent || r.Status != w.status || !strings.HasPrefix(r.Note, w.note) || r.Verdict != nil {
			t.Errorf("request %d, %s %s?%s: %s, sent %q, status %d, note %q, verdict %v; want %s, sent %q, status %d, note %q",
				i+1, r.Method, r.Path, r.Query, r.Outcome, r.Sent, r.Status, r.Note, r.Verdict, w.outcome, w.sent, w.status, w.note)
		}
	}
}

// TestReplayFailsABrokenDeployment: a deployment that answers the app's
// lists in a media type the document does not give fails those requests, and
// the verdict names it: its place, its method and path, the rule broken,
// and a curl line that repeats it, without the key.
func TestReplayFailsABrokenDeployment(t *testing.T) {
	var fault conformancetest.Fault
	for _, b := range conformancetest.BrokenServers {
		if b.Name == "serves lists as text/plain" {
			fault = b.Fault
		}
	}
	if fault == nil {
		t.Fatal("conformancetest has no server that serves lists as text/plain")
	}
	results := run(t, appSession(t), staging(t, fault))
	var failed []replay.Result
	for _, r := range results {
		if r.Outcome == replay.Failed {
			failed = append(failed, r)
		}
	}
	if len(failed) != 3 || failed[0].N != 1 || failed[1].N != 4 || failed[2].N != 5 {
		t.Fatalf("failed: %+v, want the three lists, requests 1, 4 and 5", failed)
	}
	var broken *judge.Broken
	for _, r := range failed {
		if r.Method != "GET" || r.Path != "/v1/pets" || !errors.As(r.Verdict, &broken) || broken.Rule != "contract.response" {
			t.Errorf("request %d: %s %s, verdict %v; want GET /v1/pets breaking contract.response", r.N, r.Method, r.Path, r.Verdict)
			continue
		}
		report := r.Verdict.Error()
		if !strings.Contains(report, "curl") || !strings.Contains(report, "/v1/pets?") || strings.Contains(report, conformancetest.Key) {
			t.Errorf("request %d's report names no curl line of it, or shows the key:\n%s", r.N, report)
		}
	}
	if results[2].Outcome != replay.Passed || results[2].Sent != "/pets/13" {
		t.Errorf("the read of the pet created: %+v, want it passed, at the id the deployment gave", results[2])
	}
}

// TestReplayCarriesCreatedIDs: the ids petmock gave what the app created
// are the deployment's in the requests after: in a path, and in a body
// member that names an id; and a request that names an item the replay
// could not create is skipped, saying which request created it.
func TestReplayCarriesCreatedIDs(t *testing.T) {
	evolved, err := spec.ReadFile(conformancetest.Testdata(t, conformancetest.EvolvedOps))
	if err != nil {
		t.Fatal(err)
	}
	journal := func(entries ...string) []replay.Request {
		reqs, err := replay.Read(strings.NewReader(`{"requests":[` + strings.Join(entries, ",") + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		return reqs
	}
	// Newest first, as petmock's journal lists them.
	reqs := journal(
		`{"time":"2031-01-01T00:00:05Z","method":"GET","path":"/v1/pets/51","status":200,"request":{"headers":{"Authorization":["[redacted]"]}},"response":{}}`,
		`{"time":"2031-01-01T00:00:04Z","method":"GET","path":"/v1/store/orders/7","status":200,"request":{"headers":{"Authorization":["[redacted]"]}},"response":{}}`,
		`{"time":"2031-01-01T00:00:03Z","method":"POST","path":"/v1/store/orders","status":201,
		  "request":{"headers":{"Authorization":["[redacted]"],"Content-Type":["application/json"]},"body":"{\"petId\":51,\"quantity\":2}"},
		  "response":{"body":"{\"id\":7,\"petId\":51,\"quantity\":2,\"status\":\"placed\",\"complete\":false}"}}`,
		`{"time":"2031-01-01T00:00:02Z","method":"POST","path":"/v1/pets","status":201,
		  "request":{"headers":{"Authorization":["[redacted]"],"Content-Type":["application/json"]},"body":"{\"name\":\"Rex\",\"categoryId\":1}"},
		  "response":{"headers":{"Location":["http://127.0.0.1:4010/v1/pets/51"]},"body":"{\"id\":51,\"name\":\"Rex\",\"categoryId\":1,\"status\":\"available\"}"}}`,
	)
	srv, base := deployment(t, evolved)
	results, err := replay.Run(context.Background(), replay.Config{Base: base, APIKey: conformancetest.Key, Contract: evolved}, reqs)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, r := range results {
		if r.Outcome != replay.Passed {
			t.Errorf("request %d, %s %s: %s %q %v", r.N, r.Method, r.Path, r.Outcome, r.Note, r.Verdict)
		}
		sent = append(sent, r.Method+" "+r.Sent)
	}
	if got := strings.Join(sent, ", "); !strings.HasPrefix(got, "POST /pets, POST /store/orders, GET /store/orders/") || !strings.HasSuffix(got, "GET /pets/5") {
		t.Errorf("sent %s; want the orders' and the pet's reads at the deployment's ids", got)
	}
	orders := srv.Items().Store("orders")
	if orders == nil || orders.Len() == 0 {
		t.Fatal("the deployment holds no order")
	}
	var exported bytes.Buffer
	srv.Items().Export(&exported)
	if !strings.Contains(exported.String(), `"petId":5`) || strings.Contains(exported.String(), `"petId":51`) {
		t.Errorf("the order placed names petmock's pet rather than the deployment's: %s", exported.String())
	}

	// Read-only, nothing is created: the reads of what was are skipped.
	results, err = replay.Run(context.Background(), replay.Config{Base: base, APIKey: conformancetest.Key, Contract: evolved, ReadOnly: true}, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n    int
		note string
	}{
		{1, "a POST, which a read-only replay does not send"},
		{2, "a POST, which a read-only replay does not send"},
		{3, "it names item 7, which request 2 created on petmock, and it was not sent: a POST"},
		{4, "it names item 51, which request 1 created on petmock, and it was not sent: a POST"},
	} {
		if r := results[tt.n-1]; r.Outcome != replay.Skipped || !strings.HasPrefix(r.Note, tt.note) {
			t.Errorf("read-only, request %d: %s %q, want skipped: %q", tt.n, r.Outcome, r.Note, tt.note)
		}
	}
}

// TestReadAJournal: an export is read as GET /__petmock/requests answers
// it, or as its array alone, oldest first; what is not one is refused,
// saying why.
func TestReadAJournal(t *testing.T) {
	for _, text := range []string{
		`{"requests":[{"time":"2031-01-01T00:00:02Z","method":"GET","path":"/v1/b"},{"time":"2031-01-01T00:00:01Z","method":"GET","path":"/v1/a"}]}`,
		`[{"time":"2031-01-01T00:00:02Z","method":"GET","path":"/v1/b"},{"time":"2031-01-01T00:00:01Z","method":"GET","path":"/v1/a"}]`,
	} {
		reqs, err := replay.Read(strings.NewReader(text))
		if err != nil || len(reqs) != 2 || reqs[0].Path != "/v1/a" {
			t.Errorf("Read %s: %+v, %v; want /v1/a first", text, reqs, err)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{``, "empty"},
		{`{"pets":[]}`, `no "requests"`},
		{`{"requests":{}}`, "not a journal of petmock's"},
		{`[{"method":"GET"}]`, `requests[0]: path "": want one as the app sent it`},
		{`[{"path":"/v1/a"}]`, "requests[0]: no method"},
	} {
		if _, err := replay.Read(strings.NewReader(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read %q: %v, want an error saying %q", tt.text, err, tt.want)
		}
	}
}

// TestReplayCarriesIDsOfWrappedItems: a create answered with its item
// inside a wrapper ({"data": {"id": 51}}) and no Location gives petmock's
// id from the wrapper, and the read after it is sent with the id the
// deployment gave.
func TestReplayCarriesIDsOfWrappedItems(t *testing.T) {
	const doc = `openapi: 3.0.3
info: {title: Wrapped notes, version: '1'}
servers: [{url: /v1}]
security: [{key: []}]
paths:
  /notes:
    post:
      operationId: createNote
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewNote'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/NoteAnswer'}}}}
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [{name: noteId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A note., content: {application/json: {schema: {$ref: '#/components/schemas/NoteAnswer'}}}}
        '404': {description: No such note.}
components:
  securitySchemes:
    key: {type: http, scheme: bearer}
  schemas:
    NewNote: {type: object, required: [text], properties: {text: {type: string}}}
    Note: {type: object, required: [id, text], properties: {id: {type: integer}, text: {type: string}}}
    NoteAnswer: {type: object, required: [data], properties: {data: {$ref: '#/components/schemas/Note'}}}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	// Newest first, as petmock's journal lists them; the create's answer
	// has no Location.
	reqs, err := replay.Read(strings.NewReader(`{"requests":[
		{"time":"2031-01-01T00:00:02Z","method":"GET","path":"/v1/notes/51","status":200,"request":{"headers":{"Authorization":["[redacted]"]}},"response":{}},
		{"time":"2031-01-01T00:00:01Z","method":"POST","path":"/v1/notes","status":201,
		 "request":{"headers":{"Authorization":["[redacted]"],"Content-Type":["application/json"]},"body":"{\"text\":\"Buy milk\"}"},
		 "response":{"body":"{\"data\":{\"id\":51,\"text\":\"Buy milk\"}}"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, base := deployment(t, c)
	results, err := replay.Run(context.Background(), replay.Config{Base: base, APIKey: conformancetest.Key, Contract: c}, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || results[1].Sent != "/notes/5" || results[1].Outcome != replay.Passed {
		for _, r := range results {
			t.Logf("request %d, %s %s sent as %s: %s %q", r.N, r.Method, r.Path, r.Sent, r.Outcome, r.Note)
		}
		t.Error("the read of the note created was not sent with the id the deployment gave it, 5")
	}
}
