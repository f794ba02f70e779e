package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestInstances: a path template made concrete for each of a list of
// values gives a path for each, with operations of their own ids and
// without the parameter, beside the paths it did not touch; a path the
// document has already is kept as written.
func TestInstances(t *testing.T) {
	doc := header + `paths:
  /{kind}:
    parameters:
      - {name: kind, in: path, required: true, schema: {type: string}}
    get:
      operationId: list
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        '204': {description: ok}
  /{kind}/count:
    get:
      operationId: count
      parameters:
        - {name: kind, in: path, required: true, schema: {type: string}}
      responses:
        '204': {description: ok}
  /reset:
    post:
      operationId: reset
      responses:
        '204': {description: ok}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Instances("kind", []string{"pets", "users", "reset"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, op := range got.Operations {
		ids = append(ids, op.Method+" "+op.Path+" "+op.ID)
		if op.Parameter("path", "kind") != nil {
			t.Errorf("%s: still takes the parameter kind", op.ID)
		}
	}
	want := "GET /pets list.pets,GET /pets/count count.pets,GET /reset/count count.reset,POST /reset reset,GET /users list.users,GET /users/count count.users"
	if !sameSet(ids, strings.Split(want, ",")) {
		t.Errorf("operations = %v, want %s", ids, want)
	}
	if op := got.Operation("list.pets"); op == nil || op.Parameter("query", "limit") == nil {
		t.Errorf("list.pets lost its query parameter limit")
	}
	if c.Operation("list") == nil || c.Operation("list.pets") != nil {
		t.Errorf("Instances changed the contract it was asked of")
	}
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		if seen[s] == 0 {
			return false
		}
		seen[s]--
	}
	return true
}
