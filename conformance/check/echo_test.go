package check

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// accounts is a resource whose create sends what its item does not
// answer: a writeOnly password, an invitation the create schema has
// and the item's has not, more tags than an account answers, and fields
// sent as strings that an account answers as objects, as onsched's.
const accounts = `openapi: 3.0.3
info: {title: Accounts, version: 1.0.0}
servers: [{url: /a}]
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/NewAccount'}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
  /accounts/{accountId}:
    get:
      operationId: getAccount
      parameters: [{name: accountId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: An account., content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
        '404': {description: None.}
components:
  schemas:
    NewAccount:
      type: object
      required: [login, password, invitation]
      properties:
        login: {type: string}
        password: {type: string, writeOnly: true}
        invitation: {type: object, required: [code], properties: {code: {type: string}}}
        profile: {type: object, properties: {bio: {type: string}, secret: {type: string, writeOnly: true}}}
        tags: {type: array, minItems: 2, maxItems: 3, items: {type: string}}
        fields: {type: object, required: [color], properties: {color: {type: string}}}
    Account:
      type: object
      required: [id, login]
      properties:
        id: {type: integer}
        login: {type: string}
        password: {type: string, writeOnly: true}
        profile: {type: object, properties: {bio: {type: string}, secret: {type: string, writeOnly: true}}}
        tags: {type: array, maxItems: 1, items: {type: string}}
        fields: {type: object, additionalProperties: {type: object, properties: {value: {type: string}}}}
`

// accountsServer keeps accounts as their schema answers them: without
// what only the create sends.
func accountsServer(echoLogin bool) http.Handler {
	var mu sync.Mutex
	kept := map[string]map[string]any{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			id := len(kept) + 1
			a := map[string]any{"id": id, "login": body["login"]}
			if !echoLogin {
				a["login"] = "someone else"
			}
			if p, ok := body["profile"].(map[string]any); ok {
				a["profile"] = map[string]any{"bio": p["bio"]}
			}
			if tags, ok := body["tags"].([]any); ok && len(tags) > 0 {
				a["tags"] = tags[:1]
			}
			if fields, ok := body["fields"].(map[string]any); ok {
				viewed := map[string]any{}
				for name, v := range fields {
					viewed[name] = map[string]any{"value": v}
				}
				a["fields"] = viewed
			}
			kept[strings.TrimSpace(jsonText(id))] = a
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(a)
			return
		}
		a, ok := kept[strings.TrimPrefix(r.URL.Path, "/a/accounts/")]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(a)
	})
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestCreatedAsTheItemSays: an item created is held to what it was sent
// with where its schema answers it, at any depth: not to a writeOnly
// password, nor to what only the create's schema has, nor to more tags
// than an account's schema holds, nor to fields as sent where the answer
// holds objects of them; and a server that
// answers another value of what it does answer fails.
func TestCreatedAsTheItemSays(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(accounts))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Resource("accounts")
	if res == nil {
		t.Fatalf("no resource accounts: %v", c.Notes)
	}
	ctx := checkContext(t)
	if err := judgeOver(t, accountsServer(true), Settings{Contract: c}).CheckItemCreated(ctx, res); err != nil {
		t.Errorf("a server that answers the account as its schema says: %v", err)
	}
	b := wantBroken(t, "a server that answers another login", judgeOver(t, accountsServer(false), Settings{Contract: c}).CheckItemCreated(ctx, res), "resource.create")
	if b != nil && !strings.Contains(b.Detail, "login") {
		t.Errorf("the verdict does not name login: %s", b.Detail)
	}
}

// reports is a resource whose create answers 202 with a job to watch, not
// the item, which it keeps under the id its body sends.
const reports = `openapi: 3.0.3
info: {title: Reports, version: 1.0.0}
servers: [{url: /r}]
paths:
  /reports:
    post:
      operationId: createReport
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [reportId, title], properties: {reportId: {type: string}, title: {type: string}}}}}
      responses:
        '202': {description: Accepted., content: {application/json: {schema: {type: object, required: [jobId], properties: {jobId: {type: string}, state: {type: string}}}}}}
  /reports/{reportId}:
    get:
      operationId: getReport
      parameters: [{name: reportId, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A report., content: {application/json: {schema: {type: object, required: [reportId, title], properties: {reportId: {type: string}, title: {type: string}}}}}}
        '404': {description: None.}
`

// TestCreateAnsweredWithAJob: a create answered 202 with a job, not the
// item, is read back by the id its body sent.
func TestCreateAnsweredWithAJob(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(reports))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Resource("reports")
	if res == nil || !res.IDSent {
		t.Fatalf("no resource reports whose create sends its id: %v", c.Notes)
	}
	var mu sync.Mutex
	kept := map[string]map[string]any{}
	server := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			kept[body["reportId"].(string)] = body
			w.WriteHeader(http.StatusAccepted)
			w.Write([]byte(`{"jobId":"job-1","state":"queued"}`))
			return
		}
		rep, ok := kept[strings.TrimPrefix(r.URL.Path, "/r/reports/")]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(rep)
	})
	if err := judgeOver(t, server, Settings{Contract: c}).CheckItemCreated(checkContext(t), res); err != nil {
		t.Errorf("a report created through a job: %v", err)
	}
}

// documents is a resource whose update, as Adyen's PATCH of a document,
// takes the item's whole schema, which requires more than the one
// property the suite changes.
const documents = `openapi: 3.0.3
info: {title: Documents, version: 1.0.0}
servers: [{url: /d}]
paths:
  /documents:
    post:
      operationId: createDocument
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Document'}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Document'}}}}
  /documents/{id}:
    get:
      operationId: getDocument
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A document., content: {application/json: {schema: {$ref: '#/components/schemas/Document'}}}}
        '404': {description: None.}
    patch:
      operationId: patchDocument
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Document'}}}}
      responses:
        '200': {description: Updated., content: {application/json: {schema: {$ref: '#/components/schemas/Document'}}}}
components:
  schemas:
    Document:
      type: object
      required: [description, owner, type]
      properties:
        id: {type: string, readOnly: true}
        description: {type: string}
        owner: {type: string}
        type: {type: string, enum: [bankStatement, passport, license]}
`

// TestUpdateSendsWhatItsSchemaRequires: an update whose schema requires
// more than the property changed is sent the item's own values of the
// rest, which petmock takes, and the item reads back changed.
func TestUpdateSendsWhatItsSchemaRequires(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, documents)
	c := readFile(t, path)
	res := c.Resource("documents")
	if res == nil || res.Update == nil {
		t.Fatalf("no resource documents with an update: %v", c.Notes)
	}
	h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c})
	if err := h.CheckItemUpdated(checkContext(t), res); err != nil {
		t.Errorf("petmock, whose update takes the whole document: %v", err)
	}
}
