package main

import (
	"strconv"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// switches is a document of switches whose only property an update
// changes is a boolean.
const switches = `openapi: 3.0.3
info: {title: Switches, version: 1.0.0}
paths:
  /switches:
    get:
      responses:
        '200': {description: The switches., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Switch'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [on], properties: {on: {type: boolean}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Switch'}}}}
  /switches/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The switch., content: {application/json: {schema: {$ref: '#/components/schemas/Switch'}}}}
        '404': {description: No such switch.}
    patch:
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {on: {type: boolean}}}}}}
      responses:
        '200': {description: Updated., content: {application/json: {schema: {$ref: '#/components/schemas/Switch'}}}}
        '404': {description: No such switch.}
components:
  schemas:
    Switch:
      type: object
      required: [id, on]
      properties:
        id: {type: integer, readOnly: true}
        on: {type: boolean}
`

// TestUpdateThatChangesNothingIsCaught: an update answered and not done
// fails the run whatever the seed, where the change the suite made of a
// boolean was at times the value the switch held, and the update that
// did nothing passed.
func TestUpdateThatChangesNothingIsCaught(t *testing.T) {
	t.Parallel()
	path, c := writtenDocument(t, switches)
	var fault *ct.KitFault
	for i := range ct.Kit {
		if ct.Kit[i].Name == "answers an update and changes nothing" {
			fault = &ct.Kit[i]
		}
	}
	if fault == nil || fault.NotApplied(c) != "" {
		t.Fatalf("the kit's fault of updates does not apply to switches")
	}
	url := servedAt(t, fault.Wrap(t, c, ct.PetmockOf(t, path)), c.Base)
	for seed := 1; seed <= 6; seed++ {
		r := judge(t, url, "--spec", path, "--seed", strconv.Itoa(seed), "--label-filter", fault.Labels)
		if r.code != 1 || !strings.Contains(r.stdout, "broken rule resource.update") {
			t.Errorf("seed %d: exit %d, want 1 and resource.update broken\n%s", seed, r.code, r)
		}
	}
}
