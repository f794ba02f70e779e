package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/corpus"
	"github.com/petstore/contract/spec/fake"
)

// The corpus is public documents nobody on this project wrote (see
// testdata/corpus/documents.json). petmock serves each as it is, and what
// it answers validates against it, by kin-openapi's response validator.

// corpusClient sends a request of an operation of c with the values its
// parameters need, made from their schemas.
type corpusClient struct {
	c    *spec.Contract
	base string // scheme and host, without the base path
	gen  *fake.Generator
	// judge holds each answer to the suite's rules too, the error-shape
	// rule among them.
	judge *conformance.AnswerJudge
	// location is the Location of the last answer.
	location string
	// parents are the values of the path parameters that name the parent
	// of a resource's items, one for the client, so that an item created
	// below a parent is read, listed and deleted below it.
	parents map[string]string
	// t and srv, where set, let a request below an item of another
	// resource name one that is there (see above).
	t   *testing.T
	srv *mockserver.Server
	// items are the ids of the items of the resources above others that
	// requests named, one of each.
	items map[*spec.Resource]string
}

// above returns the ids of items that are there of the resources op's
// path is below, such as a list of /2/lists/{id}/members, by their path
// parameters: Twitter's members of a list made up are a 404. It returns
// none without t and srv.
func (cc *corpusClient) above(op *spec.Operation) map[string]string {
	if cc.t == nil || cc.srv == nil {
		return nil
	}
	out := map[string]string{}
	for _, r := range cc.c.Resources {
		if r == op.Resource || r.ItemPath == "" || r.Read == nil || !strings.HasPrefix(op.Template.String(), r.ItemPath+"/") {
			continue
		}
		id, ok := cc.items[r]
		if !ok {
			ids, _, found := cc.existing(cc.t, cc.srv, r.Read)
			if !found {
				continue
			}
			id = ids[r.IDParam]
			if cc.items == nil {
				cc.items = map[*spec.Resource]string{}
			}
			cc.items[r] = id
		}
		out[r.IDParam] = id
	}
	return out
}

func newCorpusClient(t *testing.T, c *spec.Contract, base string) *corpusClient {
	t.Helper()
	judge, err := conformance.NewAnswerJudge(c, false)
	if err != nil {
		t.Fatal(err)
	}
	return &corpusClient{c: c, base: base, gen: &fake.Generator{Contract: c, Faker: fake.NewFaker(7), Examples: true}, judge: judge}
}

// paramText writes a value of a parameter in the simple style, or says
// that it cannot.
func paramText(v any) (string, bool) {
	switch v := v.(type) {
	case nil, map[string]any:
		return "", false
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := paramText(e)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), true
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case float64:
		return fmt.Sprint(v), true
	default:
		return fmt.Sprint(v), true
	}
}

// request makes a valid request of op, with the values of path parameters
// that pathValues gives instead of made ones, and the key presented as the
// first alternative of its security asks unless noKey. ok is false where
// a parameter needs a value the client cannot write, such as an object.
func (cc *corpusClient) request(op *spec.Operation, pathValues map[string]string, noKey bool) (*http.Request, bool) {
	values := map[string]string{}
	query := url.Values{}
	headers := http.Header{}
	above := cc.above(op)
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInPath && !p.Required {
			continue
		}
		if v, ok := pathValues[p.Name]; ok && p.In == openapi3.ParameterInPath {
			values[p.Name] = v
			continue
		}
		if v, ok := above[p.Name]; ok && p.In == openapi3.ParameterInPath {
			values[p.Name] = v
			continue
		}
		parent := p.In == openapi3.ParameterInPath && op.Resource != nil && slices.Contains(op.Resource.ParentParams, p.Name)
		if v, ok := cc.parents[p.Name]; ok && parent {
			values[p.Name] = v
			continue
		}
		if p.Schema == nil || p.Schema.Value == nil {
			return nil, false
		}
		v, err := cc.gen.Valid(p.Schema.Value, fake.Hint{Property: p.Name})
		if err != nil {
			return nil, false
		}
		s, ok := paramText(v)
		if !ok {
			return nil, false
		}
		switch p.In {
		case openapi3.ParameterInPath:
			values[p.Name] = s
			if parent {
				if cc.parents == nil {
					cc.parents = map[string]string{}
				}
				cc.parents[p.Name] = s
			}
		case openapi3.ParameterInQuery:
			if list, isList := v.([]any); isList && (p.Explode == nil || *p.Explode) {
				for _, e := range list {
					es, _ := paramText(e)
					query.Add(p.Name, es)
				}
				continue
			}
			query.Set(p.Name, s)
		case openapi3.ParameterInHeader:
			headers.Set(p.Name, s)
		default:
			return nil, false
		}
	}
	u := cc.base + op.Base + op.Template.Expand(values)
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(op.Method, u, nil)
	if err != nil {
		return nil, false
	}
	req.Header = headers
	req.Header.Set("Accept", "*/*")
	if r, ok := presentable(op); !noKey && ok {
		for _, s := range r {
			s.Present(req, mockserver.DefaultAPIKey)
		}
	}
	return req, true
}

// presentable returns the first alternative of op's security that a test
// can present a key for, one of no scheme that takes what no key is, such
// as mutual TLS's client certificate; ok is false where op asks for a key
// and has no such alternative.
func presentable(op *spec.Operation) (r spec.Requirement, ok bool) {
	for _, r := range op.Requirements {
		if !slices.ContainsFunc(r, func(s *spec.Scheme) bool { return s.Unsupported != "" }) {
			return r, true
		}
	}
	return nil, len(op.Requirements) == 0
}

// send sends req and checks the answer against the document: a status it
// documents, with headers and a body that match, or a status HTTP requires
// of petmock that the start-up notes say the operation may answer.
func (cc *corpusClient) send(t *testing.T, srv *mockserver.Server, op *spec.Operation, req *http.Request, body string) (int, []byte) {
	t.Helper()
	var headers []string
	for name := range req.Header {
		headers = append(headers, name, req.Header.Get(name))
	}
	if body != "" {
		headers = append(headers, "Content-Type", "application/json")
	}
	sent, resp, got := fetch(t, req.Method, req.URL.String(), body, headers...)
	cc.location = resp.Header.Get("Location")
	what := fmt.Sprintf("%s %s: %d", req.Method, req.URL.RequestURI(), resp.StatusCode)
	if !op.Documents(resp.StatusCode) {
		if !noted(srv, resp.StatusCode) {
			t.Errorf("%s, which %s does not document and no start-up note names\n%s", what, op.ID, got)
		}
		if err := cc.judge.JudgeError(sent, resp.StatusCode, resp.Header, got); err != nil {
			t.Errorf("%s is not the document's error body: %v", what, err)
		}
		return resp.StatusCode, got
	}
	if err := documented(t, cc.c, sent, resp.StatusCode, resp.Header, got); err != nil {
		t.Errorf("%s breaks the document: %v\n%.300s", what, err, got)
	}
	if err := cc.judge.Judge(sent, resp.StatusCode, resp.Header, got); err != nil {
		t.Errorf("%s: the AnswerJudge finds: %v", what, err)
	}
	return resp.StatusCode, got
}

// noted says whether a start-up note of srv says petmock may answer status
// to operations that do not document it.
func noted(srv *mockserver.Server, status int) bool {
	return slices.ContainsFunc(srv.Notes(), func(n string) bool {
		return strings.HasPrefix(n, fmt.Sprintf("%d is answered, as HTTP requires,", status))
	})
}

// TestCorpusAnswersValidate: petmock serves each document of the corpus,
// and its answers validate against the document: a valid request of every
// operation it can make one of, a read of an item that is not there, and
// a request without its key.
func TestCorpusAnswersValidate(t *testing.T) {
	t.Parallel()
	for _, f := range corpus.Documents(t) {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			c, err := spec.ReadOptions{}.ReadFile(f.Path)
			if err != nil {
				t.Fatalf("%s (%s): %v", f.Name, f.Source, err)
			}
			srv, base := plainServer(t, mockserver.Config{Contract: c})
			cc := newCorpusClient(t, c, base)
			cc.t, cc.srv = t, srv
			var answered int
			// Deletes go last, so that each reads an item the others
			// did not take away.
			ops := slices.Clone(c.Operations)
			slices.SortStableFunc(ops, func(a, b *spec.Operation) int {
				return cmpBool(a.Method == http.MethodDelete, b.Method == http.MethodDelete)
			})
			for _, op := range ops {
				ids, id, ok := cc.existing(t, srv, op)
				if !ok {
					t.Errorf("%s: no item of %s to ask about", op.ID, op.Resource.Name)
					continue
				}
				if op.Resource != nil && op.Resource.ByBody(op) {
					ids = nil // the id goes in the body
				}
				req, ok := cc.request(op, ids, false)
				if !ok {
					t.Logf("%s: a required parameter is not one a test can write", op.ID)
					continue
				}
				body, ok := cc.body(op, id)
				if !ok {
					t.Logf("%s: its body is not JSON", op.ID)
					continue
				}
				// An operation that documents no success is answered
				// the status it documents first (see the start-up
				// notes); send holds it to the document all the same,
				// and so the refusal of an operation whose key no test
				// can present, such as one of mutual TLS.
				if _, keyed := presentable(op); !keyed {
					cc.send(t, srv, op, req, body)
				} else if status, got := cc.send(t, srv, op, req, body); status/100 != 2 && op.Success != 0 {
					t.Errorf("%s %s: %d, want a success\n%.300s", req.Method, req.URL.RequestURI(), status, got)
				}
				answered++
				if op.Resource != nil && op.Role == spec.RoleRead {
					req, ok := cc.request(op, map[string]string{op.Resource.IDParam: unknownID(c, op.Resource)}, false)
					if !ok {
						t.Fatalf("%s: the unknown id is not one the test can write", op.ID)
					}
					if status, got := cc.send(t, srv, op, req, ""); status != http.StatusNotFound {
						t.Errorf("GET %s, an item that is not there: %d, want 404\n%.300s", req.URL.RequestURI(), status, got)
					}
				}
				if op.AsksForKey() {
					req, ok := cc.request(op, ids, true)
					if !ok {
						t.Fatalf("%s: no request without a key", op.ID)
					}
					if status, got := cc.send(t, srv, op, req, body); status != op.KeyRefusal() {
						t.Errorf("%s %s without a key: %d, want %d\n%.300s", req.Method, req.URL.RequestURI(), status, op.KeyRefusal(), got)
					}
				}
			}
			if answered == 0 && len(c.Operations) > 0 {
				t.Errorf("%s: no request was sent", f.Name)
			}
		})
	}
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// existing returns the id of an item of op's resource that is there, for
// an operation on one item (by its path or by its body), as a path writes
// it and as its JSON has it: the first of the resource's list, or one
// made through its create where it has no list. ok is false where there
// is none to be had.
func (cc *corpusClient) existing(t *testing.T, srv *mockserver.Server, op *spec.Operation) (ids map[string]string, value any, ok bool) {
	r := op.Resource
	if r == nil {
		return nil, nil, true
	}
	switch op.Role {
	case spec.RoleRead, spec.RoleReplace, spec.RoleUpdate, spec.RoleDelete:
	default:
		return nil, nil, true
	}
	if r.List != nil {
		req, ok := cc.request(r.List, nil, false)
		if !ok {
			return nil, nil, false
		}
		_, body := cc.send(t, srv, r.List, req, "")
		for _, it := range listItems(body) {
			if id, ok := paramText(it[r.IDProperty]); ok && id != "" {
				return map[string]string{r.IDParam: id}, it[r.IDProperty], true
			}
		}
	}
	if r.CreateOp == nil {
		return nil, nil, false
	}
	id, v := cc.create(t, srv, r, "existing-"+op.ID)
	return map[string]string{r.IDParam: id}, v, true
}

// body makes a JSON body of op's request, "" where it takes none; ok is
// false where it takes only another media type.
func (cc *corpusClient) body(op *spec.Operation, id any) (string, bool) {
	if op.Op.RequestBody == nil || op.Op.RequestBody.Value == nil {
		return "", true
	}
	s := op.RequestSchema()
	if s == nil {
		return "", !op.Op.RequestBody.Value.Required
	}
	name := ""
	if op.Resource != nil {
		name = op.Resource.Name
	}
	v := sendable(cc.c, s, cc.gen.Request(s, name), 0)
	// A replace or an update of the collection names its item by the id
	// in its body.
	if m, isObject := v.(map[string]any); isObject && op.Resource != nil && op.Resource.ByBody(op) {
		m[op.Resource.IDProperty] = id
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(data), true
}

// sendable returns v, a value of s, as a client sends it: without the
// properties s marks readOnly at any depth, in objects and the items of
// arrays, below allOf, oneOf and anyOf (Asana's data.gid), and with a
// value for each property an object requires and does not declare, which
// the generator leaves out (Asana's section requires a project of no
// schema).
func sendable(c *spec.Contract, s *openapi3.Schema, v any, depth int) any {
	if s == nil || depth > 32 {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		props := c.Properties(s)
		for _, p := range props {
			if _, sent := v[p.Name]; !sent {
				continue
			}
			if p.Schema.ReadOnly {
				delete(v, p.Name)
				continue
			}
			v[p.Name] = sendable(c, p.Schema, v[p.Name], depth+1)
		}
		for _, name := range s.Required {
			_, sent := v[name]
			if !sent && !slices.ContainsFunc(props, func(p spec.Property) bool { return p.Name == name }) {
				v[name] = "any"
			}
		}
		for _, member := range append(slices.Clone(s.OneOf), s.AnyOf...) {
			if member.Value != nil {
				sendable(c, member.Value, v, depth+1)
			}
		}
	case []any:
		if s.Items != nil {
			for i := range v {
				v[i] = sendable(c, s.Items.Value, v[i], depth+1)
			}
		}
	}
	return v
}

// unknownID is an id no item of r has: the catalogue's ids are small.
func unknownID(c *spec.Contract, r *spec.Resource) string {
	if r.IDIsString {
		if p := r.Read.Parameter(openapi3.ParameterInPath, r.IDParam); p != nil && p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Pattern != "" {
			// An id of the pattern, as Twitter's digits, that no item
			// has: a value made from it, of a seed of its own.
			g := &fake.Generator{Contract: c, Faker: fake.NewFaker(4242)}
			if v, err := g.Valid(p.Schema.Value, fake.Hint{Property: r.IDParam}); err == nil {
				if s, ok := v.(string); ok {
					return s
				}
			}
		}
		return "no-such-item-4242"
	}
	return "987654321"
}

// TestCorpusResourcesRoundTrip: what a client creates in a resource of a
// document of the corpus reads back, is listed, and once deleted reads
// 404.
func TestCorpusResourcesRoundTrip(t *testing.T) {
	t.Parallel()
	var any bool
	for _, f := range corpus.Documents(t) {
		c, err := spec.ReadOptions{}.ReadFile(f.Path)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, r := range c.Resources {
			if r.CreateOp == nil || r.Read == nil {
				continue
			}
			any = true
			t.Run(f.Name+r.CollectionPath, func(t *testing.T) {
				t.Parallel()
				// Empty stores, so that the first page of a list holds
				// the item created.
				srv, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
				roundTrip(t, srv, newCorpusClient(t, c, base), r)
			})
		}
	}
	if !any {
		t.Fatal("no document of the corpus has a resource")
	}
}

// create makes an item of r through its create, and returns its id as a
// path writes it and as its JSON has it. name is the id a create that
// sends a string id of its own, such as a user's username, sends.
func (cc *corpusClient) create(t *testing.T, srv *mockserver.Server, r *spec.Resource, name string) (string, any) {
	t.Helper()
	sent := cc.gen.Request(r.Create, r.Name)
	// A body that holds the item inside an object, as Directus'
	// {"data":{...}}, holds its id there.
	sentItem := sent
	if w := r.BodyWrapped[r.CreateOp]; w != nil {
		m, _ := sent.(map[string]any)
		sentItem = m[w.Property]
	}
	// A resource whose create sends its string id knows the item by the
	// one the client picks: the created answer may hold nothing, as
	// Swagger Petstore's createUser's does.
	if m, ok := sentItem.(map[string]any); ok && r.IDSent && r.IDIsString {
		if v, _ := m[r.IDProperty].(string); v == "" {
			m[r.IDProperty] = name
		}
	}
	body, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	req, ok := cc.request(r.CreateOp, nil, false)
	if !ok {
		t.Fatalf("%s: a required parameter is not one a test can write", r.CreateOp.ID)
	}
	status, created := cc.send(t, srv, r.CreateOp, req, string(body))
	if status/100 != 2 {
		t.Fatalf("%s %s: %d, want a success\n%s", req.Method, req.URL.RequestURI(), status, created)
	}
	var item map[string]any
	if m, ok := sentItem.(map[string]any); ok && len(created) == 0 && r.IDSent && r.IDIsString {
		item = map[string]any{r.IDProperty: m[r.IDProperty]}
	} else {
		var v any
		if err := json.Unmarshal(created, &v); err != nil {
			t.Fatalf("the created item: %v\n%s", err, created)
		}
		// An answer may hold the item inside an object too.
		item, _ = r.ItemOf(r.CreateOp, v)
	}
	id, ok := paramText(item[r.IDProperty])
	if (!ok || id == "") && cc.location != "" {
		// An answer of another schema than the item's, as Sakari's
		// contact created is answered with a page of contacts: the
		// Location names the item.
		if u, err := url.Parse(cc.location); err == nil && !strings.HasSuffix(u.Path, "/") {
			id, _ = url.PathUnescape(path.Base(u.Path))
			if !r.IDIsString {
				return id, json.Number(id)
			}
			return id, id
		}
	}
	if !ok || id == "" {
		t.Fatalf("the created item has no %s: %s", r.IDProperty, created)
	}
	return id, item[r.IDProperty]
}

func roundTrip(t *testing.T, srv *mockserver.Server, cc *corpusClient, r *spec.Resource) {
	id, value := cc.create(t, srv, r, "roundtrip-1")
	item := map[string]any{r.IDProperty: value}
	ids := map[string]string{r.IDParam: id}

	read := func(want int) []byte {
		t.Helper()
		req, ok := cc.request(r.Read, ids, false)
		if !ok {
			t.Fatalf("%s: a required parameter is not one a test can write", r.Read.ID)
		}
		status, got := cc.send(t, srv, r.Read, req, "")
		if status != want {
			t.Fatalf("GET %s: %d, want %d\n%s", req.URL.RequestURI(), status, want, got)
		}
		return got
	}
	var answered any
	err := json.Unmarshal(read(http.StatusOK), &answered)
	back, _ := r.ItemOf(r.Read, answered)
	if err != nil || fmt.Sprint(back[r.IDProperty]) != fmt.Sprint(item[r.IDProperty]) {
		t.Fatalf("the item read back is not the one created: %v, %v", back, err)
	}
	if r.List != nil {
		if req, ok := cc.request(r.List, nil, false); ok {
			if _, got := cc.send(t, srv, r.List, req, ""); !listed(got, r.IDProperty, item[r.IDProperty]) {
				t.Errorf("GET %s does not list the created item %s", req.URL.RequestURI(), id)
			}
		}
	}
	if r.Delete == nil {
		return
	}
	req, ok := cc.request(r.Delete, ids, false)
	if !ok {
		t.Fatalf("%s: a required parameter is not one a test can write", r.Delete.ID)
	}
	if status, got := cc.send(t, srv, r.Delete, req, ""); status/100 != 2 {
		t.Fatalf("DELETE %s: %d\n%s", req.URL.RequestURI(), status, got)
	}
	read(http.StatusNotFound)
}

// listItems returns the items of a list answer: an array, or the first array
// member of an object.
func listItems(body []byte) []map[string]any {
	var list []map[string]any
	if json.Unmarshal(body, &list) == nil {
		return list
	}
	var wrapped map[string]json.RawMessage
	if json.Unmarshal(body, &wrapped) != nil {
		return nil
	}
	// A member that is null, as a wrapper's next on its last page,
	// unmarshals into any slice as nil: only an array is the list.
	for _, v := range wrapped {
		if v = bytes.TrimSpace(v); len(v) > 0 && v[0] == '[' && json.Unmarshal(v, &list) == nil {
			return list
		}
	}
	return nil
}

// listed says whether a list answer holds an item whose property prop is
// id, or, a list of ids (spec.Resource.ListsIDs), id itself.
func listed(body []byte, prop string, id any) bool {
	var ids []any
	if json.Unmarshal(body, &ids) == nil && slices.ContainsFunc(ids, func(v any) bool { return fmt.Sprint(v) == fmt.Sprint(id) }) {
		return true
	}
	return slices.ContainsFunc(listItems(body), func(it map[string]any) bool {
		return fmt.Sprint(it[prop]) == fmt.Sprint(id)
	})
}

// minSwept is the fewest documents of the sweep petmock must serve.
const minSwept = 51

// TestCorpusSweep: every document of the swept packages is served, or
// refused in one line that names the place at fault, with at most a few
// lines of context, never a dump. Of the 59 of @readme/oas-examples, 51
// were served when this was written, the others being invalid by design
// (a security scheme that is not defined, a 3.1 document with 3.0's
// boolean exclusiveMinimum); fewer served is a regression.
func TestCorpusSweep(t *testing.T) {
	t.Parallel()
	var served, refused int
	for _, f := range corpus.SweepFiles(t) {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := spec.ReadOptions{}.Read(data)
		if err == nil {
			_, err = mockserver.New(mockserver.Config{Contract: c})
		}
		if err == nil {
			served++
			continue
		}
		refused++
		if msg := err.Error(); strings.Count(msg, "\n") > 3 || len(msg) > 500 {
			t.Errorf("%s is refused in %d lines, %d bytes:\n%s", f.Name, strings.Count(msg, "\n")+1, len(msg), msg)
		}
		t.Logf("%s: %v", f.Name, err)
	}
	t.Logf("%d documents served, %d refused in one line", served, refused)
	if served+refused == 0 || served < minSwept {
		t.Errorf("%d documents served of %d, want at least %d", served, served+refused, minSwept)
	}
}
