package conformancetest_test

import (
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// signins is a resource whose create answers a token, not the item, and
// takes an id it does not require, as C19's sign-in does, which the suite
// leaves out: it tells the item it made only by the Location that names
// it, which petmock sends, and a deployment may not.
const signins = `openapi: 3.0.3
info: {title: Sign-ins, version: 1.0.0}
paths:
  /signins:
    post:
      operationId: signIn
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [user], properties: {user: {type: string}, id: {type: integer}}}}}}
      responses:
        '200': {description: Signed in., content: {application/json: {schema: {type: object, properties: {token: {type: string}}}}}}
    get:
      operationId: listSignins
      responses:
        '200': {description: Sign-ins., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Signin'}}}}}
  /signins/{signinId}:
    get:
      operationId: getSignin
      parameters: [{name: signinId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A sign-in., content: {application/json: {schema: {$ref: '#/components/schemas/Signin'}}}}
    delete:
      operationId: signOut
      parameters: [{name: signinId, in: path, required: true, schema: {type: integer}}]
      responses:
        '204': {description: Signed out.}
` + signinSchema

const signinSchema = `components:
  schemas:
    Signin:
      type: object
      properties:
        id: {type: integer}
        user: {type: string}
`

// TestKitFaultsApplyWhereTheSuiteCanSee: the faults of creates and
// deletes apply to a document whose create neither answers nor sends the
// id of what it made where the item has a path petmock's Location names,
// as the suite reads the id there, and to the Petstore's; and not to one
// whose items have no path, saying so.
func TestKitFaultsApplyWhereTheSuiteCanSee(t *testing.T) {
	c, err := spec.Read([]byte(signins))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Resource("signins"); r == nil || !r.IDSent {
		t.Fatalf("no resource signins whose create takes its id: %v", c.Notes)
	}
	// The same without the item path: what a create made is told by
	// nothing.
	listed, err := spec.Read([]byte(strings.Split(signins, "  /signins/{signinId}:")[0] + signinSchema))
	if err != nil {
		t.Fatal(err)
	}
	petstore, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"answers a create and keeps nothing", "answers a delete and keeps the item"} {
		var fault *ct.KitFault
		for i := range ct.Kit {
			if ct.Kit[i].Name == name {
				fault = &ct.Kit[i]
			}
		}
		if fault == nil {
			t.Fatalf("no fault %q in the kit", name)
		}
		if why := fault.NotApplied(c); why != "" {
			t.Errorf("%s does not apply to sign-ins, told by the Location that names them: %s", name, why)
		}
		if why := fault.NotApplied(listed); !strings.Contains(why, "id") {
			t.Errorf("%s applies to a list of no item path, told by no id: %q", name, why)
		}
		if name == "answers a create and keeps nothing" {
			if why := fault.NotApplied(petstore); why != "" {
				t.Errorf("%s does not apply to the Petstore: %s", name, why)
			}
		}
	}
}
