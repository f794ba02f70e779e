package mockserver_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// manyResources returns a document of n resources, each a collection
// with GET and POST and an item below it with GET, of things with an id,
// a name and tags.
func manyResources(n int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Many, version: 1.0.0}\nservers: [{url: /v1}]\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, `  /things%[1]d:
    get:
      operationId: listThings%[1]d
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      operationId: createThing%[1]d
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things%[1]d/{id}:
    get:
      operationId: getThing%[1]d
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
`, i)
	}
	b.WriteString(`components:
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 100}
        tags: {type: array, items: {type: string}}
    Thing:
      allOf:
        - $ref: '#/components/schemas/NewThing'
        - type: object
          required: [id]
          properties:
            id: {type: integer}
`)
	return []byte(b.String())
}

// TestManyResourcesStartSmall: the catalogue of a document of many small
// resources takes memory in proportion to its items, where each resource
// once took two megabytes of room to make and keep its fifty items.
func TestManyResourcesStartSmall(t *testing.T) {
	const n = 400
	c, err := spec.Read(manyResources(n))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Resources) != n {
		t.Fatalf("%d resources, want %d", len(c.Resources), n)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	srv, err := mockserver.New(mockserver.Config{Contract: c})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if made := (after.TotalAlloc - before.TotalAlloc) >> 20; made > 64 {
		t.Errorf("starting %d resources of %d items each took %d MiB, want at most 64", n, catalogue.DefaultCount, made)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	if got := ts.do(t, "GET", fmt.Sprintf("/things%d/%d", n-1, catalogue.DefaultCount), "").StatusCode; got != 200 {
		t.Errorf("GET the last item of the last resource: %d, want 200", got)
	}
	runtime.KeepAlive(srv)
}

// TestServerURLsAreCheckedAtStart: the router of the request validation
// is made when a request first needs it, but a server URL it cannot read,
// of a path of the document, is refused at start, naming the place: the
// contract reads the base path of every operation.
func TestServerURLsAreCheckedAtStart(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: x, version: '1'}
servers: [{url: /v1}]
paths:
  /a:
    servers: [{url: 'http://[::1'}]
    get:
      responses: {'204': {description: ok}}
  /b:
    get:
      responses: {'204': {description: ok}}
`
	c, err := spec.Read([]byte(doc))
	if err == nil {
		_, err = mockserver.New(mockserver.Config{Contract: c})
	}
	if err == nil || !strings.Contains(err.Error(), `paths./a.servers.0.url "http://[::1"`) {
		t.Errorf("New = %v, want the server URL refused, with its place", err)
	}
}

// countdown is a context that is done once Err has been asked n times.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestStartStopsWhenCancelled: a start whose context is done gives up
// with the context's error, whether compiling the checks or making the
// catalogue, where it once went on to the end.
func TestStartStopsWhenCancelled(t *testing.T) {
	c, err := spec.Read(manyResources(20))
	if err != nil {
		t.Fatal(err)
	}
	// Each operation is looked at twice, compiled and bound: past those,
	// the context is done while the catalogue is made.
	for _, asks := range []int64{0, int64(len(c.Operations)), 2*int64(len(c.Operations)) + 5} {
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(asks)
		if _, err := mockserver.NewContext(ctx, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 100_000}}); !errors.Is(err, context.Canceled) {
			t.Errorf("done after %d asks: NewContext = %v, want context.Canceled", asks, err)
		}
	}
}

// BenchmarkServeManyPaths measures a read in a document of 20,000 paths,
// which the router finds among the paths of its first segment.
func BenchmarkServeManyPaths(b *testing.B) {
	c, err := spec.Read(manyResources(10_000))
	if err != nil {
		b.Fatal(err)
	}
	srv, err := mockserver.New(mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 5}})
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/v1/things9999/3", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	for b.Loop() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d", w.Code)
		}
	}
}
