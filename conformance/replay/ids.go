package replay

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// An item the app created on petmock has petmock's id, which the requests
// after it name: GET /pets/51 after POST /pets answered {"id":51}. The
// deployment gives the item it creates an id of its own, so the replay
// learns, of each create petmock answered with a success, the id petmock
// gave (from its answer's body, inside the wrapper where the document
// answers one, or its Location) and the one the deployment gave, and sends
// the requests after it with the deployment's in place of petmock's: in
// their path parameters, and in the members of their JSON bodies that name
// an id (id, petId, owner_id). A request that names an item whose create
// the deployment did not make is skipped, saying so, rather than sent to
// find nothing. Ids the app did not create, such as those of petmock's
// seeded catalogue, are sent as they are: the deployment may have items of
// those ids, or answer 404, which the document allows and the report
// notes.

// ids are the ids of the items the app created, petmock's and the
// deployment's.
type ids struct {
	given map[string]string // petmock's id: the deployment's
	lost  map[string]string // petmock's id: why the deployment has no item of it
}

func newIDs() *ids { return &ids{given: map[string]string{}, lost: map[string]string{}} }

// learn notes the ids of the item x, request n, created, if it is a
// create that petmock answered with a success: the one petmock gave, and
// the one the deployment gave in answer, or, with none, why there is
// none: unsent says why x was not sent, or is "" for one the deployment
// did not create.
func (m *ids) learn(op *spec.Operation, x Request, answer *judge.Exchange, n int, unsent string) {
	if op.Role != spec.RoleCreate || x.Status < 200 || x.Status > 299 {
		return
	}
	prop := "id"
	if op.Resource != nil && op.Resource.IDProperty != "" {
		prop = op.Resource.IDProperty
	}
	old := idIn(op, []byte(x.Response.Body), x.Response.Header.Get("Location"), prop)
	if old == "" {
		return
	}
	if answer != nil && answer.Status >= 200 && answer.Status <= 299 {
		body := ""
		if it, err := answer.Item(); err == nil {
			body = it.ID(prop)
		}
		if given := firstOf(body, lastSegment(answer.Header.Get("Location"))); given != "" {
			m.given[old] = given
			delete(m.lost, old)
			return
		}
	}
	why := "its replay did not create"
	if unsent != "" {
		why = "it was not sent: " + unsent
	}
	m.lost[old] = "it names item " + old + ", which request " + strconv.Itoa(n) + " created on petmock, and " + why
}

// idIn returns the id of an item a create, op, answered: its property
// prop in body, in the member that holds the item where op answers it
// inside a wrapper ({"data": {"id": 51}}), as the deployment's answer is
// read; or else the last segment of its Location.
func idIn(op *spec.Operation, body []byte, location, prop string) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		item, _ := v.(map[string]any)
		if op.Resource != nil {
			item, _ = op.Resource.ItemOf(op, v)
		}
		if id := spec.ValueText(item[prop]); id != "" {
			return id
		}
	}
	return lastSegment(location)
}

// lastSegment returns the last segment of the path of a URL, unescaped;
// "" for none.
func lastSegment(location string) string {
	u, err := url.Parse(location)
	if err != nil || u.Path == "" || strings.HasSuffix(u.Path, "/") {
		return ""
	}
	return path.Base(u.Path)
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// rewritePath returns rel, a path of op whose template gave params, with
// the deployment's id in place of petmock's in each path parameter, or
// says why the request cannot be replayed.
func (m *ids) rewritePath(op *spec.Operation, rel string, params map[string]string) (string, string) {
	changed := false
	values := make(map[string]string, len(params))
	for name, v := range params {
		values[name] = v
		if why, ok := m.lost[v]; ok {
			return "", why
		}
		if given, ok := m.given[v]; ok {
			values[name], changed = given, true
		}
	}
	if !changed {
		return rel, ""
	}
	return op.Template.ExpandRaw(values), "" // the path is as the journal has it, unescaped, as the client takes it
}

// rewriteBody returns a JSON body with the deployment's id in place of
// petmock's in each member that names an id, at any depth; any other body
// as it is.
func (m *ids) rewriteBody(body string) string {
	if len(m.given) == 0 {
		return body
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return body
	}
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch node := v.(type) {
		case map[string]any:
			for k, x := range node {
				if namesAnID(k) {
					if given, ok := m.given[spec.ValueText(x)]; ok {
						if _, isNumber := x.(json.Number); isNumber && isInteger(given) {
							node[k] = json.Number(given)
						} else {
							node[k] = given
						}
						changed = true
						continue
					}
				}
				node[k] = walk(x)
			}
		case []any:
			for i, x := range node {
				node[i] = walk(x)
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return string(out)
}

// namesAnID reports whether a member's name says it holds an id: id,
// petId, owner_id, ownerID.
func namesAnID(name string) bool {
	lower := strings.ToLower(name)
	return lower == "id" || strings.HasSuffix(lower, "_id") || strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")
}

func isInteger(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}
