package mockserver_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// reloading is a mock whose server is replaced, as petmock --watch
// replaces it: each request goes to the server that serves when it comes.
type reloading struct {
	cur atomic.Pointer[mockserver.Server]
	url string
	// active is told when the HTTP server starts to read a request.
	active chan struct{}
}

func newReloading(tb testing.TB, srv *mockserver.Server) *reloading {
	tb.Helper()
	rl := &reloading{active: make(chan struct{}, 16)}
	rl.cur.Store(srv)
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rl.cur.Load().ServeHTTP(w, r)
	}))
	hs.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateActive {
			select {
			case rl.active <- struct{}{}:
			default:
			}
		}
	}
	hs.Start()
	tb.Cleanup(hs.Close)
	rl.url = hs.URL
	return rl
}

// reload makes a server of cfg take over, and sends new requests to it.
func (rl *reloading) reload(tb testing.TB, cfg mockserver.Config) (*mockserver.Server, mockserver.Reload) {
	tb.Helper()
	next, err := mockserver.New(cfg)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	r, err := next.TakeOver(rl.cur.Load(), func() { rl.cur.Store(next) })
	if err != nil {
		tb.Fatalf("TakeOver: %v", err)
	}
	if rl.cur.Load() != next {
		tb.Fatal("TakeOver did not publish the new server")
	}
	return next, r
}

// do sends a request with the headers given as name, value pairs and
// returns the status and body.
func (rl *reloading) do(tb testing.TB, method, path, body string, headers ...string) (int, string) {
	tb.Helper()
	req, err := http.NewRequest(method, rl.url+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

var bearer = []string{"Authorization", "Bearer " + key}

func TestTakeOverKeepsItemsAndIDs(t *testing.T) {
	first, err := mockserver.New(mockserver.Config{Items: items([]Pet{
		{ID: 1, Name: "Rex", CategoryID: 1, Status: "sold"},
		{ID: 2, Name: "Bo", CategoryID: 2, Status: "pending"},
	})})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	if code, body := rl.do(t, "POST", "/v1/pets", `{"name":"Zed","categoryId":1}`, bearer...); code != 201 {
		t.Fatalf("POST: %d %s", code, body)
	}

	_, r := rl.reload(t, mockserver.Config{Contract: readContract(t, "evolved-field.yaml")})
	if r.Kept["pets"] != 3 || r.HeldBack["pets"] != 0 {
		t.Errorf("reload kept %v and held back %v, want 3 pets and none", r.Kept, r.HeldBack)
	}
	want := `[{"id":1,"name":"Rex","categoryId":1,"status":"sold"},{"id":2,"name":"Bo","categoryId":2,"status":"pending"},{"id":3,"name":"Zed","categoryId":1,"status":"available"}]`
	if code, body := rl.do(t, "GET", "/v1/pets", "", bearer...); code != 200 || body != want {
		t.Errorf("GET /v1/pets after the reload: %d %s\nwant %s", code, body, want)
	}
	// The new field is taken and served.
	code, body := rl.do(t, "POST", "/v1/pets", `{"name":"Tag","categoryId":1,"tag":"good boy"}`, bearer...)
	if wantNew := `{"id":4,"name":"Tag","categoryId":1,"status":"available","tag":"good boy"}`; code != 201 || body != wantNew {
		t.Errorf("POST with a tag after the reload: %d %s, want 201 %s", code, body, wantNew)
	}
	if code, body := rl.do(t, "GET", "/v1/pets/4", "", bearer...); code != 200 || !strings.Contains(body, `"tag":"good boy"`) {
		t.Errorf("GET /v1/pets/4 after the reload: %d %s, want it with its tag", code, body)
	}
	// Reset returns to what the new document starts with: its catalogue.
	if counts, err := rl.cur.Load().Items().Reset(); err != nil || counts["pets"] != catalogue.DefaultCount {
		t.Errorf("Reset after the reload = %v, %v; want the new document's %d pets", counts, err, catalogue.DefaultCount)
	}
}

// TestTakeOverGivesNoIDTwice: the id of an item removed before a reload
// is not given again after it.
func TestTakeOverGivesNoIDTwice(t *testing.T) {
	evolved := readContract(t, "evolved-ops.yaml")
	first, err := mockserver.New(mockserver.Config{Contract: evolved, Items: catalogue.Items{}})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	order := `{"petId":1,"quantity":1}`
	for range 2 {
		if code, body := rl.do(t, "POST", "/v1/store/orders", order, bearer...); code != 201 {
			t.Fatalf("POST /v1/store/orders: %d %s", code, body)
		}
	}
	if code, body := rl.do(t, "DELETE", "/v1/store/orders/2", "", bearer...); code >= 300 {
		t.Fatalf("DELETE /v1/store/orders/2: %d %s", code, body)
	}
	rl.reload(t, mockserver.Config{Contract: evolved, Items: catalogue.Items{}})
	if code, body := rl.do(t, "POST", "/v1/store/orders", order, bearer...); code != 201 || !strings.Contains(body, `"id":3`) {
		t.Errorf("POST /v1/store/orders after the reload: %d %s, want 201 with id 3, after the 2 that was removed", code, body)
	}
}

// TestTakeOverFitsItemsToTheDocument holds the items carried over to the
// rule TakeOver states: the id as the new document has it, undeclared
// properties dropped where the schema takes no others, defaults given, a
// new required property filled from its default, its example or its
// schema, and the rest held to the schema, an item that breaks it held
// back.
func TestTakeOverFitsItemsToTheDocument(t *testing.T) {
	resource := func(pet, extra string) *spec.Contract {
		src := `openapi: 3.0.3
info: {title: Small, version: 1.0.0}
servers: [{url: 'http://small.example/v1'}]
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}}
    post:
      operationId: createPet
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewPet'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
  /pets/{petId}:
    get:
      operationId: getPet
      parameters: [{name: petId, in: path, required: true, schema: {type: integer, format: int64}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        '404': {description: no such pet, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
components:
  schemas:
    Error:
      type: object
      required: [code, message]
      properties: {code: {type: string}, message: {type: string}}
` + pet + extra
		c, err := spec.Read([]byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		return c
	}
	old := resource(`    NewPet:
      type: object
      required: [name]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m, l]}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, "")
	pets := catalogue.Items{"pets": {
		json.RawMessage(`{"id":1,"name":"a","colour":"red","size":"s"}`),
		json.RawMessage(`{"id":2,"name":"b","size":"l"}`),
		json.RawMessage(`{"id":3,"name":"c"}`),
	}}
	for _, tt := range []struct {
		name, pet string
		want      []string // the items kept, as served; nil to check only has
		has       string   // in every item kept
		kept      int
		held      int
		filled    string // of the notes
	}{
		{"a new required property with a default", `    NewPet:
      type: object
      required: [name, age]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m, l]}, age: {type: integer}}
      x-petmock-defaults: {age: 1}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, []string{`{"id":1,"name":"a","colour":"red","size":"s","age":1}`, `{"id":2,"name":"b","size":"l","age":1}`, `{"id":3,"name":"c","age":1}`}, "", 3, 0, ""},
		{"a new required property with a default in its schema", `    NewPet:
      type: object
      required: [name, age]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m, l]}, age: {type: integer, default: 2}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, []string{`{"id":1,"name":"a","colour":"red","size":"s","age":2}`, `{"id":2,"name":"b","size":"l","age":2}`, `{"id":3,"name":"c","age":2}`}, "", 3, 0, "pets.age: the document requires it, and the pets kept lacked it: they were given its default"},
		{"a new required property with an example", `    NewPet:
      type: object
      required: [name, age]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m, l]}, age: {type: integer, example: 7}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, []string{`{"id":1,"name":"a","colour":"red","size":"s","age":7}`, `{"id":2,"name":"b","size":"l","age":7}`, `{"id":3,"name":"c","age":7}`}, "", 3, 0, "they were given its example"},
		{"a new required property with neither", `    NewPet:
      type: object
      required: [name, age]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m, l]}, age: {type: integer, minimum: 1, maximum: 30}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, nil, `"age":`, 3, 0, "they were given a value made from its schema"},
		{"a narrowed enumeration", `    NewPet:
      type: object
      required: [name]
      properties: {name: {type: string}, colour: {type: string}, size: {type: string, enum: [s, m]}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, required: [id], properties: {id: {type: integer, format: int64}}}
`, []string{`{"id":1,"name":"a","colour":"red","size":"s"}`, `{"id":3,"name":"c"}`}, "", 2, 1, ""},
		{"a property removed from a closed schema, and a string id", `    NewPet:
      type: object
      required: [name]
      additionalProperties: false
      properties: {name: {type: string}, size: {type: string, enum: [s, m, l]}}
    Pet:
      type: object
      required: [id, name]
      additionalProperties: false
      properties: {id: {type: string}, name: {type: string}, size: {type: string, enum: [s, m, l]}}
`, []string{`{"id":"1","name":"a","size":"s"}`, `{"id":"2","name":"b","size":"l"}`, `{"id":"3","name":"c"}`}, "", 3, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first, err := mockserver.New(mockserver.Config{Contract: old, Items: pets})
			if err != nil {
				t.Fatal(err)
			}
			rl := newReloading(t, first)
			next, r := rl.reload(t, mockserver.Config{Contract: resource(tt.pet, ""), Items: catalogue.Items{}})
			if r.HeldBack["pets"] != tt.held || r.Kept["pets"] != tt.kept {
				t.Errorf("kept %d and held back %d, want %d and %d", r.Kept["pets"], r.HeldBack["pets"], tt.kept, tt.held)
			}
			if said := strings.Join(r.Filled, "\n"); !strings.Contains(said, tt.filled) || (tt.filled == "") != (said == "") {
				t.Errorf("the reload says it filled %q, want %q", said, tt.filled)
			}
			var got []string
			for _, e := range next.Items().Store("pets").Entries() {
				got = append(got, string(e.Text))
				if !strings.Contains(string(e.Text), tt.has) {
					t.Errorf("item after the reload %s, want it with %s", e.Text, tt.has)
				}
			}
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("items after the reload:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(got) != tt.kept {
				t.Errorf("%d items after the reload, want %d", len(got), tt.kept)
			}
		})
	}
}

func TestTakeOverCarriesSettingsForcedAnswersAndExpectations(t *testing.T) {
	first, err := mockserver.New(mockserver.Config{Contract: readContract(t, "evolved-ops.yaml"), JournalSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	sub := first.Subscribe()
	defer sub.Close()
	sub.Take()
	if err := first.Steering().ChangeSettings(map[string]any{"failRate": 0.25, "now": "2031-01-01"}); err != nil {
		t.Fatal(err)
	}
	rl.do(t, "GET", "/v1/pets?limit=1", "", bearer...)
	for _, a := range []steer.ForcedAnswer{
		{Code: 503, Remaining: 2, Operation: "listOrders"}, // an operation the new document drops
		{Code: 503, Remaining: 3, Operation: "listPets"},
	} {
		if err := first.Steering().ForceAnswer(a); err != nil {
			t.Fatal(err)
		}
	}
	notFound := json.RawMessage(`{"code":"not_found","message":"no such thing","status":404}`)
	for _, e := range []steer.Expectation{
		{When: steer.RequestMatch{Method: "GET", Path: "/v1/store/orders/1"}, Answer: steer.CannedAnswer{Status: 404, Body: notFound}},
		{When: steer.RequestMatch{Method: "GET", Path: "/v1/pets/7"}, Answer: steer.CannedAnswer{Status: 404, Body: notFound}, Times: 2},
	} {
		if _, err := first.Steering().Expect(e); err != nil {
			t.Fatal(err)
		}
	}
	first.RefuseDocument("--spec pets.yaml: not YAML")
	if st := first.DocumentStatus(); st.Refused == nil || st.Refused.Message != "--spec pets.yaml: not YAML" {
		t.Errorf("DocumentStatus after a refusal = %+v", st)
	}
	if got := sub.Take(); got&journal.ChangeDocument == 0 {
		t.Errorf("a refusal told the stream %b, want ChangeDocument", got)
	}

	next, r := rl.reload(t, mockserver.Config{})
	if r.ForcedDropped != 1 || r.ExpectationsDropped != 1 {
		t.Errorf("dropped %d forced answers and %d expectations, want 1 and 1", r.ForcedDropped, r.ExpectationsDropped)
	}
	if !slices.Equal(r.RemovedResources, []string{"orders"}) || len(r.AddedResources) != 0 ||
		!slices.Contains(r.RemovedOperations, "listOrders") || slices.Contains(r.RemovedOperations, "listPets") || len(r.AddedOperations) != 0 {
		t.Errorf("reload = %+v, want the orders and their operations removed", r)
	}
	if st := next.Steering().Settings(); st.FailRate != 0.25 || st.Clock != "set" || next.Steering().Clock().Year() != 2031 || st.Journal != 10 {
		t.Errorf("settings after the reload: %+v, clock %s; want those set before", st, next.Steering().Clock())
	}
	if forced := next.Steering().Forced(); len(forced) != 1 || forced[0].ID != 2 || forced[0].Operation != "listPets" || forced[0].Remaining != 3 {
		t.Errorf("forced answers after the reload: %+v, want listPets's, id 2", forced)
	}
	if ex := next.Steering().Expectations(); len(ex) != 1 || ex[0].ID != 2 || ex[0].Operation != "getPet" {
		t.Errorf("expectations after the reload: %+v, want getPet's, id 2", ex)
	}
	if j := next.Journal().Recent(0); len(j) != 1 || j[0].Path != "/v1/pets" {
		t.Errorf("journal after the reload: %+v, want the request made before", j)
	}
	if st := next.DocumentStatus(); st.Reloads != 1 || st.Last == nil || st.Refused != nil {
		t.Errorf("DocumentStatus after a reload = %+v, want one reload and no refusal", st)
	}
	// The stream opened on the first server hears of the reload, and of
	// a write to the new server's stores.
	if got := sub.Take(); got&journal.ChangeDocument == 0 || got&journal.ChangeStore == 0 {
		t.Errorf("the reload told the stream %b, want ChangeDocument and ChangeStore", got)
	}
	next.Steering().ChangeSettings(map[string]any{"failRate": 0})
	if code, _ := rl.do(t, "POST", "/v1/pets", `{"name":"Rex","categoryId":1}`, bearer...); code != 201 {
		t.Fatalf("POST after the reload: %d", code)
	}
	if got := sub.Take(); got&journal.ChangeStore == 0 {
		t.Errorf("a write to the new server told the stream %b, want ChangeStore", got)
	}
	// The first server's scenarios play on the new one.
	if _, err := first.Items().Empty(); err != nil {
		t.Fatal(err)
	}
	if n := next.Items().Store("pets").Len(); n != 0 {
		t.Errorf("Empty of the first server left %d pets in the new one, want none", n)
	}
	// What a saver tells either server, both hear.
	first.Items().SetPersistError(errors.New("cannot persist to state.json: disk full"))
	if _, err := next.Items().Health(); err == nil {
		t.Error("the new server is healthy while the first was told saves fail")
	}
	first.Items().SetPersistError(nil)
	if _, err := next.TakeOver(first, nil); err == nil {
		t.Error("a second takeover of the first server succeeded")
	}
	if first.Latest() != next || next.Latest() != next {
		t.Error("Latest does not lead to the new server")
	}
}

// TestTakeOverKeepsAWriteInFlight holds that a write that comes to the
// old server before the takeover and is made after it is in the new
// server's store, answered and kept.
func TestTakeOverKeepsAWriteInFlight(t *testing.T) {
	first, err := mockserver.New(mockserver.Config{Latency: steer.Latency{Min: 300 * time.Millisecond, Max: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	type answer struct {
		code int
		body string
	}
	done := make(chan answer, 1)
	go func() {
		code, body := rl.do(t, "POST", "/v1/pets", `{"name":"InFlight","categoryId":1}`, bearer...)
		done <- answer{code, body}
	}()
	<-rl.active // the request is read, and waits out its latency on the first server
	next, _ := rl.reload(t, mockserver.Config{Contract: readContract(t, "evolved-field.yaml")})
	a := <-done
	if a.code != 201 || !strings.Contains(a.body, `"id":51`) {
		t.Fatalf("the write in flight: %d %s, want 201 with id 51", a.code, a.body)
	}
	if text, _, ok := next.Items().Store("pets").Lookup(51); !ok || !strings.Contains(string(text), "InFlight") {
		t.Errorf("the new server's pet 51 = %s, %v; want the write in flight", text, ok)
	}
}

// TestTakeOverRefusesAWriteInFlightTheDocumentNoLongerTakes: a write in
// flight whose item the new document refuses is answered 503, and
// changes nothing, rather than acknowledged and lost.
func TestTakeOverRefusesAWriteInFlightTheDocumentNoLongerTakes(t *testing.T) {
	src, err := os.ReadFile("../spec/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	name := "        name:\n          type: string\n          description: The animal's name.\n"
	if !strings.Contains(string(src), name) {
		t.Fatal("the Petstore's document has no name property as this test expects")
	}
	short, err := spec.Read([]byte(strings.Replace(string(src), name, name+"          maxLength: 3\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	first, err := mockserver.New(mockserver.Config{Latency: steer.Latency{Min: 300 * time.Millisecond, Max: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	done := make(chan int, 1)
	go func() {
		code, _ := rl.do(t, "POST", "/v1/pets", `{"name":"InFlight","categoryId":1}`, bearer...)
		done <- code
	}()
	<-rl.active
	next, _ := rl.reload(t, mockserver.Config{Contract: short, Items: catalogue.Items{}})
	if code := <-done; code != 503 {
		t.Errorf("a write in flight the new document refuses: %d, want 503", code)
	}
	if n := next.Items().Store("pets").Len(); n != 0 {
		t.Errorf("the new server holds %d pets, want none", n)
	}
}

// TestTakeOverKeepsUUIDs: items whose ids are UUIDs, those petmock gave
// and a fixture's own, are found by the same ids after a reload.
func TestTakeOverKeepsUUIDs(t *testing.T) {
	doc := func(extra string) *spec.Contract {
		c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Things, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /things:
    get:
      operationId: listThings
      responses: {'200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}}
    post:
      operationId: createThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses: {'201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
  /things/{thingId}:
    get:
      operationId: getThing
      parameters: [{name: thingId, in: path, required: true, schema: {type: string, format: uuid}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
components:
  schemas:
    Error: {type: object, required: [code, message], properties: {code: {type: string}, message: {type: string}}}
    NewThing: {type: object, required: [name], properties: {name: {type: string}` + extra + `}}
    Thing:
      allOf:
        - $ref: '#/components/schemas/NewThing'
        - {type: object, required: [id], properties: {id: {type: string, format: uuid}}}
`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	own := "6f1c1f0e-4a57-4c2b-9a0e-3d1f5b7c9e21"
	first, err := mockserver.New(mockserver.Config{Contract: doc(""), Items: catalogue.Items{"things": {json.RawMessage(`{"id":"` + own + `","name":"own"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	code, body := rl.do(t, "POST", "/v1/things", `{"name":"made"}`)
	var made struct{ ID string }
	if json.Unmarshal([]byte(body), &made); code != 201 || made.ID == "" {
		t.Fatalf("POST /v1/things: %d %s", code, body)
	}
	rl.reload(t, mockserver.Config{Contract: doc(", colour: {type: string}"), Items: catalogue.Items{}})
	for _, id := range []string{own, made.ID} {
		if code, body := rl.do(t, "GET", "/v1/things/"+id, ""); code != 200 || !strings.Contains(body, `"id":"`+id+`"`) {
			t.Errorf("GET /v1/things/%s after the reload: %d %s", id, code, body)
		}
	}
}

// TestTakeOverHoldsBackAndServesAgain reloads versions that drop a
// resource and that narrow a schema, as an editor's half-saved file or a
// branch switch does, and then the version before: no item is dropped,
// each is served again under its id, and no id is given twice.
func TestTakeOverHoldsBackAndServesAgain(t *testing.T) {
	evolved := readContract(t, "evolved-ops.yaml")
	first, err := mockserver.New(mockserver.Config{Contract: evolved, Items: catalogue.Items{}})
	if err != nil {
		t.Fatal(err)
	}
	rl := newReloading(t, first)
	for _, body := range []string{`{"petId":1,"quantity":1}`, `{"petId":2,"quantity":3}`} {
		if code, body := rl.do(t, "POST", "/v1/store/orders", body, bearer...); code != 201 {
			t.Fatalf("POST /v1/store/orders: %d %s", code, body)
		}
	}
	for _, status := range []string{"sold", "available"} {
		if code, body := rl.do(t, "POST", "/v1/pets", `{"name":"`+status+`","categoryId":1,"status":"`+status+`"}`, bearer...); code != 201 {
			t.Fatalf("POST /v1/pets: %d %s", code, body)
		}
	}

	// A version without the orders: they are held back, not dropped.
	_, r := rl.reload(t, mockserver.Config{Items: catalogue.Items{}})
	if r.HeldBack["orders"] != 2 || !slices.Equal(r.RemovedResources, []string{"orders"}) {
		t.Errorf("a version without orders: held back %v, removed %v; want the 2 orders held back", r.HeldBack, r.RemovedResources)
	}
	// A version whose pets may only be available: the sold one is held
	// back, and a pet created meanwhile gets an id of its own.
	petstore, err := os.ReadFile("../spec/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	narrowed, err := spec.Read([]byte(strings.Replace(string(petstore), "        - available\n        - pending\n        - sold\n", "        - available\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	_, r = rl.reload(t, mockserver.Config{Contract: narrowed, Items: catalogue.Items{}})
	if r.HeldBack["pets"] != 1 || r.HeldBack["orders"] != 2 || r.Kept["pets"] != 1 {
		t.Errorf("a version of available pets only: kept %v, held back %v; want 1 pet kept, 1 pet and 2 orders held back", r.Kept, r.HeldBack)
	}
	code, body := rl.do(t, "POST", "/v1/pets", `{"name":"meanwhile","categoryId":1}`, bearer...)
	if code != 201 || !strings.Contains(body, `"id":3`) {
		t.Errorf("POST /v1/pets while a pet is held back: %d %s, want 201 with id 3, past the held one", code, body)
	}

	// The version of before, back: everything is served again.
	_, r = rl.reload(t, mockserver.Config{Contract: evolved, Items: catalogue.Items{}})
	if r.ServedAgain["pets"] != 1 || r.ServedAgain["orders"] != 2 || len(r.HeldBack) != 0 {
		t.Errorf("the version of before, back: served again %v, held back %v; want 1 pet and 2 orders served again, none held", r.ServedAgain, r.HeldBack)
	}
	for path, want := range map[string]string{
		"/v1/pets/1": `"name":"sold"`, "/v1/pets/2": `"name":"available"`, "/v1/pets/3": `"name":"meanwhile"`,
		"/v1/store/orders/1": `"quantity":1`, "/v1/store/orders/2": `"quantity":3`,
	} {
		if code, body := rl.do(t, "GET", path, "", bearer...); code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s once the version of before is back: %d %s, want %s", path, code, body, want)
		}
	}
	if code, body := rl.do(t, "POST", "/v1/store/orders", `{"petId":1,"quantity":5}`, bearer...); code != 201 || !strings.Contains(body, `"id":3`) {
		t.Errorf("POST /v1/store/orders once they are back: %d %s, want 201 with id 3, past the 2 held back", code, body)
	}
	if held := rl.cur.Load().Items().Held(); len(held) != 0 {
		t.Errorf("items still held back: %v", held)
	}
}
