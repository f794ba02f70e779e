package request

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// listeners is a resource whose create requires the id it sends, as
// Turbine Labs' listener_key, which its create's schema declares nowhere,
// and whose create answers the item; zones require theirs, declared.
const listeners = `openapi: 3.0.3
info: {title: Listeners, version: 1.0.0}
paths:
  /listeners:
    post:
      operationId: createListener
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [listener_key, name], properties: {name: {type: string}}}}}}
      responses: {'200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Listener'}}}}}
  /listeners/{listenerKey}:
    get:
      operationId: getListener
      parameters: [{name: listenerKey, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: A listener., content: {application/json: {schema: {$ref: '#/components/schemas/Listener'}}}}}
  /zones:
    post:
      operationId: createZone
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Zone'}}}}
      responses: {'200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Zone'}}}}}
  /zones/{zoneKey}:
    get:
      operationId: getZone
      parameters: [{name: zoneKey, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: A zone., content: {application/json: {schema: {$ref: '#/components/schemas/Zone'}}}}}
components:
  schemas:
    Listener:
      type: object
      required: [listener_key, name]
      properties:
        listener_key: {type: string}
        name: {type: string}
    Zone:
      type: object
      required: [zone_key, name]
      properties:
        zone_key: {type: string, enum: [a, b]}
        name: {type: string}
`

// TestOwnIDsOfCreatesThatRequireThem: a create that requires the id it
// sends is sent one of the run's own each time, declared or not, so that
// two creates are two items, not one made-up word twice; an id of an
// enumeration keeps a value the schema takes.
func TestOwnIDsOfCreatesThatRequireThem(t *testing.T) {
	c, err := spec.Read([]byte(listeners))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMaker(c, nil, rand.New(rand.NewPCG(1, 2)), "run")
	res := c.Resource("listeners")
	if res == nil || !res.IDSent || res.IDProperty != "listener_key" {
		t.Fatalf("listeners: %+v; notes %v", res, c.Notes)
	}
	seen := map[any]bool{}
	for range 5 {
		body := map[string]any{"listener_key": "what", "name": "x"}
		m.WithoutOwnID(res, body)
		if seen[body["listener_key"]] || body["listener_key"] == "what" {
			t.Fatalf("listener_key %v sent twice, or the made-up one", body["listener_key"])
		}
		seen[body["listener_key"]] = true
	}
	zones := c.Resource("zones")
	body := map[string]any{"zone_key": "a", "name": "x"}
	m.WithoutOwnID(zones, body)
	if body["zone_key"] != "a" {
		t.Errorf("zone_key of an enumeration became %v", body["zone_key"])
	}
}

// TestNamesFitTheirSchema: the name an item the run creates is given is
// as long as the schema of the name allows, as Twitter's lists take 25
// characters at most: a body of the whole name would break the schema,
// and the suite would make none.
func TestNamesFitTheirSchema(t *testing.T) {
	const doc = `openapi: 3.0.3
info: {title: Lists, version: 1.0.0}
paths:
  /lists:
    post:
      operationId: createList
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string, minLength: 1, maxLength: MAX}}}}}}
      responses: {'200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}}
  /lists/{id}:
    get:
      operationId: getList
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: A list., content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}}
components:
  schemas:
    List:
      type: object
      required: [id, name]
      properties: {id: {type: string}, name: {type: string}}
`
	const runID = "20261127t204519-k2z"
	for _, tt := range []struct {
		max  string
		want string // the name's beginning
	}{
		{"100", NamePrefix + runID + "-"},
		{"25", runID + "-"},
		{"14", ShortPrefix},
		{"11", ShortPrefix},
	} {
		c, err := spec.Read([]byte(strings.Replace(doc, "MAX", tt.max, 1)))
		if err != nil {
			t.Fatal(err)
		}
		m := NewMaker(c, nil, rand.New(rand.NewPCG(1, 2)), runID)
		seen := map[string]bool{}
		for range 3 {
			v, err := m.Value(context.Background(), c.Operation("createList"))
			if err != nil {
				t.Fatalf("maxLength %s: %v", tt.max, err)
			}
			name, _ := v.(map[string]any)["name"].(string)
			if !strings.HasPrefix(name, tt.want) || seen[name] {
				t.Errorf("maxLength %s: name %q, want a new one beginning %q", tt.max, name, tt.want)
			}
			seen[name] = true
		}
	}
}
