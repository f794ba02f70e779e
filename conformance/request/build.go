package request

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// The generic checks judge every operation of the document from what the
// document says of it, with requests made from its parameters and body
// schema, and the ids of items the deployment lists. This file makes
// those requests.

// NamePrefix begins the name of every pet the suite creates, followed by
// the run id, so that they can be found later: the interface has no way to
// delete a pet.
const NamePrefix = "conformance-"

// Maker makes the requests of the generic checks from the document: valid
// ones, with values of its schemas, ids of the items the deployment lists
// and names of the run; and the run's key, where the document asks for it.
type Maker struct {
	contract *spec.Contract
	client   *judge.Client // lists the ids that requests name
	rnd      *rand.Rand    // shared with the checks, which run one at a time
	runID    string
	began    time.Time    // when the maker was made, for NameFor
	named    atomic.Int64 // names made so far

	mu       sync.Mutex                           // guards parents, required, choosing and made
	parents  map[*spec.Resource]map[string]string // of each resource, for the run: see CollectionParams
	required map[string]any                       // of each required query parameter, for the run: see requiredValue
	choosing map[*spec.Resource]bool              // resources whose parent CollectionParams is choosing
	// madeUpParents are the resources whose parents for the run were made
	// up: a path below them may rightly be answered 404.
	madeUpParents map[*spec.Resource]bool
	// make creates an item of a resource the run names no item of
	// otherwise, and returns its id: see SetItemMaker. made holds the id
	// of each resource's, "" where none could be made.
	make func(ctx context.Context, res *spec.Resource) (string, bool)
	made map[*spec.Resource]string
}

// SetItemMaker has make create, once a run, an item of a resource whose
// id a path names, where the resource's list shows none or it has no
// list, as Beanstream's profiles of /profiles/{profileId}/cards have none:
// a made-up id names no item, and what is below it answers 404.
func (m *Maker) SetItemMaker(make func(ctx context.Context, res *spec.Resource) (string, bool)) {
	m.make = make
}

// madeItem returns the id of the item made of res for the run, making it
// the first time it is asked for.
func (m *Maker) madeItem(ctx context.Context, res *spec.Resource) (string, bool) {
	if m.make == nil || res.CreateOp == nil {
		return "", false
	}
	m.mu.Lock()
	id, done := m.made[res]
	m.mu.Unlock()
	if !done {
		id, _ = m.make(ctx, res)
		m.mu.Lock()
		if m.made == nil {
			m.made = map[*spec.Resource]string{}
		}
		m.made[res] = id
		m.mu.Unlock()
	}
	return id, id != ""
}

// NewMaker returns the maker of the requests of a run of the document of
// c, which lists ids with client, draws its values from rnd and names
// what the run creates after runID.
func NewMaker(c *spec.Contract, client *judge.Client, rnd *rand.Rand, runID string) *Maker {
	return &Maker{contract: c, client: client, rnd: rnd, runID: runID, began: time.Now()}
}

// RunID returns the id of the run, which the names of the items it
// creates carry after NamePrefix.
func (m *Maker) RunID() string { return m.runID }

// PetName returns a new name for an item this run creates.
func (m *Maker) PetName() string {
	return NamePrefix + m.runID + "-" + strconv.FormatInt(m.named.Add(1), 10)
}

// NameFor returns a new name for an item this run creates, as long as s,
// the schema of the name, allows: the whole name where it fits; else the
// run id and the number, without NamePrefix; else ShortPrefix, the time
// the run began in seconds written in base 36, the run id's last part and
// the number, as Twitter's list names of at most 25 characters take, or
// without that part. Each run names its items apart from an earlier
// one's, with --seed too. ok is false where none fits.
func (m *Maker) NameFor(s *openapi3.Schema) (name string, ok bool) {
	n := strconv.FormatInt(m.named.Add(1), 10)
	tail := m.runID[strings.LastIndexByte(m.runID, '-')+1:]
	stamp := strconv.FormatInt(m.began.Unix(), 36)
	for _, name := range []string{NamePrefix + m.runID + "-" + n, m.runID + "-" + n, ShortPrefix + stamp + tail + "-" + n, ShortPrefix + stamp + "-" + n} {
		if length := uint64(utf8.RuneCountInString(name)); length >= s.MinLength && (s.MaxLength == nil || length <= *s.MaxLength) {
			return name, true
		}
	}
	return "", false
}

// ShortPrefix begins the names of the items the suite creates where the
// document allows a short name only: see NameFor.
const ShortPrefix = "cf-"

// OpRequest returns a request of op with the given path parameters, query
// and body (nil for none), and the run's key sent as op's security asks.
// A request of an operation on one item calls for 404: the item may not
// be there.
func (m *Maker) OpRequest(op *spec.Operation, params map[string]string, query url.Values, body any, opts ...judge.Option) *judge.Request {
	var raw []byte
	var mediaType string
	if body != nil {
		raw, mediaType = encodeBody(op, body)
	}
	r := judge.NewRequest(op.ID, op.Method, expandPath(op.Template, contentParams(op, params)), m.withRequiredQuery(op, query).Encode(), raw)
	r.Header.Set("Accept", accepts(op))
	if body != nil {
		r.Header.Set("Content-Type", mediaType)
	}
	m.requiredHeaders(op, r)
	m.Credentials(op, judge.KeyVar)(r)
	if onItem(op) {
		judge.CallingFor(http.StatusNotFound)(r)
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// contentParams returns params with the text of each path parameter of
// op sent as JSON content rather than by a schema, such as Stream's user
// id of content application/json, a string, written as that JSON: "16",
// quoted. An id listed, or made, is its text; one made up is written so
// already (spec.ParamText).
func contentParams(op *spec.Operation, params map[string]string) map[string]string {
	var out map[string]string
	for _, p := range op.Parameters {
		v, ok := params[p.Name]
		if p.In != openapi3.ParameterInPath || p.Schema != nil || !ok || strings.HasPrefix(v, `"`) {
			continue
		}
		for mt, content := range p.Content {
			if !spec.IsJSON(mt) || content == nil || content.Schema == nil || content.Schema.Value == nil || spec.TypeOf(content.Schema.Value) != "string" {
				continue
			}
			if out == nil {
				out = maps.Clone(params)
			}
			out[p.Name] = spec.ParamText(p, v)
		}
	}
	if out == nil {
		return params
	}
	return out
}

// accepts returns the Accept header of a request of op: JSON, and, less
// preferred, the other media types its successes come in, as Billingo's
// download of a document answers 200 with a PDF and 202 with JSON, and
// Keycloak's certificate a 2XX of bytes; JSON where they document none.
func accepts(op *spec.Operation) string {
	codes := slices.Clone(op.Statuses)
	if op.Success != 0 && !slices.Contains(codes, op.Success) {
		codes = append(codes, op.Success) // of a 2XX, or a default
	}
	json, others := false, []string(nil)
	for _, code := range codes {
		if code < 200 || code >= 300 {
			continue
		}
		resp := op.Response(code)
		if resp == nil {
			continue
		}
		for _, mediaType := range slices.Sorted(maps.Keys(resp.Content)) {
			switch {
			case judge.IsJSON(mediaType):
				json = true
			case !slices.Contains(others, mediaType):
				others = append(others, mediaType)
			}
		}
	}
	switch {
	case len(others) == 0:
		return "application/json"
	case json:
		// JSON is preferred, where the server can answer in it.
		return "application/json, " + strings.Join(others, ";q=0.5, ") + ";q=0.5"
	}
	return strings.Join(others, ", ")
}

// requiredHeaders sets, on r, values made from the document for the
// required header parameters of op that r does not set. OpenAPI says
// that Accept, Content-Type and Authorization are no parameters (3.0,
// 4.7.12.1), but a document that declares one required, such as a
// Content-Type of a GET, has servers that refuse a request without it:
// the suite sends one, but for Authorization, where the key goes.
func (m *Maker) requiredHeaders(op *spec.Operation, r *judge.Request) {
	var gen *fake.Generator
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInHeader || !p.Required || r.Header.Get(p.Name) != "" || http.CanonicalHeaderKey(p.Name) == "Authorization" {
			continue
		}
		if gen == nil {
			gen = &fake.Generator{Contract: m.contract, Faker: fake.NewFaker(m.rnd.Uint64())}
		}
		r.Header.Set(p.Name, spec.ParamText(p, m.paramValue(gen, p)))
	}
}

// withRequiredQuery returns query with a value made from the document for
// each required query parameter of op it leaves out, so that every
// request of op, a create or a read as much as a list, is valid. A check
// that gives a parameter, or leaves one out on purpose, gives query its
// own copy of the rest.
func (m *Maker) withRequiredQuery(op *spec.Operation, query url.Values) url.Values {
	var gen *fake.Generator
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInQuery || !p.Required || query.Has(p.Name) || hasMember(query, p.Name) {
			continue
		}
		if gen == nil {
			gen = &fake.Generator{Contract: m.contract, Faker: fake.NewFaker(m.rnd.Uint64())}
			query = maps.Clone(query)
			if query == nil {
				query = url.Values{}
			}
		}
		spec.AddQuery(query, p, m.requiredValue(gen, p))
	}
	return query
}

// requiredValue returns the value of the required query parameter p for
// the run: the one made for a parameter of that name before, where p's
// schema takes it, so that a create, its read and its list, which a
// required parameter such as Netlify's site_id scopes, all name one scope;
// else one made now, kept for the rest of the run.
func (m *Maker) requiredValue(gen *fake.Generator, p *openapi3.Parameter) any {
	m.mu.Lock()
	v, ok := m.required[p.Name]
	m.mu.Unlock()
	if s := schemaOf(p); ok && (s == nil || s.VisitJSON(v, spec.SchemaOptions(m.contract.Doc)...) == nil) {
		return v
	}
	v = m.paramValue(gen, p)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.required == nil {
		m.required = map[string]any{}
	}
	if _, ok := m.required[p.Name]; !ok {
		m.required[p.Name] = v
	}
	return v
}

// requiredScope returns the value the run gives a required query
// parameter of the list or the create of res named name, which a body
// property of that name is to have too, so that what is created shows in
// the list the parameter scopes.
func (m *Maker) requiredScope(res *spec.Resource, name string) (any, bool) {
	for _, op := range []*spec.Operation{res.List, res.CreateOp} {
		if op == nil {
			continue
		}
		if p := op.Parameter(openapi3.ParameterInQuery, name); p != nil && p.Required {
			// Made now where no request gave it yet, so that the items
			// created before the list is first asked for show in it:
			// Twitter's compliance jobs are listed by a required type.
			gen := &fake.Generator{Contract: m.contract, Faker: fake.NewFaker(m.rnd.Uint64())}
			return m.requiredValue(gen, p), true
		}
	}
	return nil, false
}

// hasMember reports whether query holds a member of the deepObject or
// exploded object parameter name, such as name[x].
func hasMember(query url.Values, name string) bool {
	for k := range query {
		if strings.HasPrefix(k, name+"[") {
			return true
		}
	}
	return false
}

// Made returns a value made for the schema s of a property or a
// parameter called name, one s takes.
func (m *Maker) Made(s *openapi3.Schema, name string) (any, error) {
	gen := &fake.Generator{Contract: m.contract, Faker: fake.NewFaker(m.rnd.Uint64())}
	return gen.Valid(s, fake.Hint{Property: name})
}

// paramValue makes a value of parameter p that its schema takes: a
// value the generator makes can miss an enumeration below an allOf, which
// the schema still holds it to, so a value is made again, and at last
// taken from the enumeration itself.
func (m *Maker) paramValue(gen *fake.Generator, p *openapi3.Parameter) any {
	s := schemaOf(p)
	var v any
	for range 10 {
		v = gen.Value(s, fake.Hint{Property: p.Name})
		if s == nil || s.VisitJSON(v, spec.SchemaOptions(m.contract.Doc)...) == nil {
			return v
		}
	}
	if e := enumOf(s); len(e) > 0 {
		return e[m.rnd.IntN(len(e))]
	}
	return v
}

// enumOf returns the values an enumeration of s or of its allOf members
// allows, the first found.
func enumOf(s *openapi3.Schema) []any {
	if s == nil {
		return nil
	}
	if len(s.Enum) > 0 {
		return s.Enum
	}
	for _, m := range s.AllOf {
		if m != nil {
			if e := enumOf(m.Value); len(e) > 0 {
				return e
			}
		}
	}
	return nil
}

// CannotSend says why the suite cannot make a valid request of op, or
// returns "": a body op requires in a media type the suite does not make,
// such as XML, or a required cookie.
func CannotSend(op *spec.Operation) string {
	if strings.ContainsAny(op.Path, "?#") {
		return fmt.Sprintf("the document's path %s holds a query string or a fragment, which a server cannot tell apart from its path: no request of %s can be sent as written", op.Path, op.ID)
	}
	if _, ok := Requirement(op); !ok && len(op.Requirements) > 0 {
		var whys []string
		for _, req := range op.Requirements {
			whys = append(whys, unmet(req))
		}
		return fmt.Sprintf("%s requires %s: no request the suite can make meets its security", op.ID, strings.Join(whys, ", or "))
	}
	if rb := op.Op.RequestBody; rb != nil && rb.Value != nil && rb.Value.Required && BodySchema(op) == nil {
		return fmt.Sprintf("%s takes its body as %s, and the suite makes JSON bodies, and form and multipart bodies of objects, only", op.ID, strings.Join(slices.Sorted(maps.Keys(rb.Value.Content)), ", "))
	}
	for _, p := range op.Parameters {
		if p.In == openapi3.ParameterInCookie && p.Required {
			return fmt.Sprintf("%s requires the cookie %s, which the suite does not send", op.ID, p.Name)
		}
		if p.Required && p.Schema != nil && p.Schema.Value != nil && spec.TypeOf(p.Schema.Value) == "array" && p.Schema.Value.Items != nil {
			if t := spec.TypeOf(p.Schema.Value.Items.Value); t == "object" || t == "array" {
				// Mastodon's markers ask for a timeline so.
				return fmt.Sprintf("%s requires the %s parameter %s, an array of %ss, which no style of OpenAPI writes", op.ID, p.In, p.Name, t)
			}
		}
	}
	return ""
}

// Credentials returns the option that sends key as the first security
// requirement of op asks, as spec says each scheme takes it, in place of
// any credential the request had. An empty key sends none; a public
// operation gets none either way. The run's key sent as HTTP basic
// credentials is encoded on the wire only, where judge.KeyVar is replaced
// by the key.
func (m *Maker) Credentials(op *spec.Operation, key string) judge.Option {
	return func(r *judge.Request) {
		r.Header.Del("Authorization")
		r.Basic = nil
		req, ok := Requirement(op)
		if !ok {
			return
		}
		for _, s := range req {
			in, name, value := s.Credential(key)
			switch {
			case key == "":
				value = ""
			case s.Place().As == spec.AsBasic && key == judge.KeyVar:
				place := s.Place()
				r.Basic, r.BasicKey, value = &place, key, ""
			}
			setCredential(r, in, name, value)
		}
	}
}

// Requirement returns the alternative of op's security the suite presents
// its key under: the first that a request can meet, and false where op
// asks for none or none can be met (see unmet).
func Requirement(op *spec.Operation) (spec.Requirement, bool) {
	for _, req := range op.Requirements {
		if unmet(req) == "" {
			return req, true
		}
	}
	return nil, false
}

// unmet says why no request can meet req, or returns "": a scheme no key
// meets, such as mutual TLS, which takes a client certificate; or two
// schemes whose credentials travel in one place written two ways, such as
// Conjur's HTTP basic and its own token, both in Authorization. Two
// written the same way, such as the two OAuth 2 schemes Google's
// documents ask for at once, take one credential.
func unmet(req spec.Requirement) string {
	for i, s := range req {
		if s.Unsupported != "" {
			return s.Unsupported
		}
		for _, t := range req[:i] {
			if s.Place().Same(t.Place()) {
				continue
			}
			if s.Place().In == t.Place().In && strings.EqualFold(s.Place().Name, t.Place().Name) {
				return fmt.Sprintf("security schemes %s and %s both at once, whose credentials both travel in %s %s", t.Name, s.Name, s.Place().In, s.Place().Name)
			}
		}
	}
	return ""
}

// setCredential sets the credential called name, sent in the header, the
// query or a cookie, to value, or removes it for "".
func setCredential(r *judge.Request, in, name, value string) {
	switch in {
	case spec.InQuery:
		q, _ := url.ParseQuery(r.Query)
		q.Del(name)
		if value != "" {
			q.Set(name, value)
		}
		r.Query = q.Encode()
	case spec.InCookie:
		r.Header.Del("Cookie")
		if value != "" {
			r.Header.Set("Cookie", name+"="+value)
		}
	default:
		r.Header.Del(name)
		if value != "" {
			r.Header.Set(name, value)
		}
	}
}

// generator returns a maker of values for the schemas of the document,
// seeded from the run's source, whose references point at items the
// deployment lists. Listing them may meet a verdict, which failed returns
// once the values are made: the maker cannot return it.
func (m *Maker) generator(ctx context.Context) (gen *fake.Generator, failed func() error) {
	var listErr error
	return &fake.Generator{
		Contract: m.contract,
		Faker:    fake.NewFaker(m.rnd.Uint64()),
		Refs: func(name string) (func(*gofakeit.Faker) any, bool) {
			res := m.contract.Resource(name)
			if res == nil || listErr != nil {
				return nil, false
			}
			ids, err := m.ListedIDs(ctx, res)
			if err != nil {
				listErr = err
			}
			if len(ids) == 0 {
				return nil, false
			}
			return func(f *gofakeit.Faker) any { return ids[f.IntN(len(ids))] }, true
		},
	}, func() error { return listErr }
}

// itemCensus returns the first page of a resource's list at its largest
// limit, listed under the collection's path parameters params, or nil
// when the list does not answer 200, or the resource has none, as Swagger
// Petstore v3's pets have not.
func (m *Maker) itemCensus(ctx context.Context, res *spec.Resource, params map[string]string) ([]judge.Item, error) {
	if res.List == nil {
		return nil, nil
	}
	query := url.Values{}
	if p := res.Paging; p.Limit != "" && p.Max > 0 {
		query.Set(p.Limit, fmt.Sprint(p.Max))
	}
	x, err := m.client.Send(ctx, m.OpRequest(res.List, params, query, nil))
	if err != nil || x.Status != http.StatusOK {
		return nil, err
	}
	return x.Items()
}

// ListedIDs returns the ids of the items of a resource's first page,
// below the run's parent of the resource (see CollectionParams).
func (m *Maker) ListedIDs(ctx context.Context, res *spec.Resource) ([]any, error) {
	params, err := m.CollectionParams(ctx, res)
	if err != nil {
		return nil, err
	}
	return m.ListedIDsIn(ctx, res, params)
}

// ListedIDsIn returns the ids of the items of a resource's first page
// listed under the collection's path parameters params.
func (m *Maker) ListedIDsIn(ctx context.Context, res *spec.Resource, params map[string]string) ([]any, error) {
	items, err := m.itemCensus(ctx, res, params)
	if err != nil {
		return nil, err
	}
	var ids []any
	for _, it := range items {
		// An empty id names no item a path can hold.
		if v, ok := it[res.IDProperty]; ok && spec.ValueText(v) != "" {
			ids = append(ids, v)
		}
	}
	return ids, nil
}

// maxParents bounds the parents CollectionParams tries, looking for one
// whose list shows items.
const maxParents = 3

// CollectionParams returns the path parameters of a resource's collection,
// such as the owner of /owners/{ownerId}/pets: ids of listed items of the
// resources they name, or made-up values. They are the same for the whole
// run, so that an item created below a parent is looked for below that
// parent, and one listed below it is read below it: of the first parents
// tried, the first whose list shows items.
func (m *Maker) CollectionParams(ctx context.Context, res *spec.Resource) (map[string]string, error) {
	if len(res.ParentParams) == 0 {
		return map[string]string{}, nil
	}
	m.mu.Lock()
	params, ok := m.parents[res]
	choosing := m.choosing[res]
	if !ok && !choosing {
		if m.choosing == nil {
			m.choosing = map[*spec.Resource]bool{}
		}
		m.choosing[res] = true
	}
	m.mu.Unlock()
	switch {
	case ok:
		return maps.Clone(params), nil
	case choosing:
		// A parameter of the collection names the resource itself:
		// a value made up, rather than choosing without end.
		params, _, err := m.pathParams(ctx, collectionOp(res), nil)
		return params, err
	}
	defer func() {
		m.mu.Lock()
		delete(m.choosing, res)
		m.mu.Unlock()
	}()
	chosenMadeUp := false
	for try := range maxParents {
		candidate, madeUp, err := m.pathParams(ctx, collectionOp(res), nil)
		if err != nil {
			return nil, err
		}
		if try == 0 {
			params, chosenMadeUp = candidate, madeUp
		}
		if res.List == nil {
			break
		}
		ids, err := m.ListedIDsIn(ctx, res, candidate)
		if err != nil {
			return nil, err
		}
		if len(ids) > 0 {
			// A parent below which items are listed is there.
			params, chosenMadeUp = candidate, false
			break
		}
		if madeUp {
			break // made-up parents would only be made up again
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.parents == nil {
		m.parents = map[*spec.Resource]map[string]string{}
		m.madeUpParents = map[*spec.Resource]bool{}
	}
	m.parents[res] = params
	m.madeUpParents[res] = chosenMadeUp
	return maps.Clone(params), nil
}

// parentsMadeUp reports whether the run's parents of res, which
// CollectionParams chose, were made up.
func (m *Maker) parentsMadeUp(res *spec.Resource) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.madeUpParents[res]
}

// collectionOp returns an operation of the collection path of res: its
// create, or its list where it has none.
func collectionOp(res *spec.Resource) *spec.Operation {
	if res.CreateOp != nil {
		return res.CreateOp
	}
	return res.List
}

// PathParams returns values for the path parameters of op that fixed does
// not give: those of a resource's collection, the run's parent of it
// (CollectionParams), where op is on its items or below them; the id of a
// listed item where a resource's item path names the parameter, such as
// petId, listed below that parent; and made-up values otherwise, which
// madeUp reports.
func (m *Maker) PathParams(ctx context.Context, op *spec.Operation, fixed map[string]string) (params map[string]string, madeUp bool, err error) {
	params = maps.Clone(fixed)
	if params == nil {
		params = map[string]string{}
	}
	parentMadeUp := false
	for _, res := range m.resourcesAbove(op) {
		if len(res.ParentParams) == 0 {
			continue
		}
		parent, err := m.CollectionParams(ctx, res)
		if err != nil {
			return nil, false, err
		}
		for k, v := range parent {
			if p := op.Parameter(openapi3.ParameterInPath, k); p != nil && !takes(p, v) {
				// A parent the op's own parameter does not take is made
				// anew: Magento's cart items are created below a quoteId
				// of a string, and listed below a cartId of an integer.
				continue
			}
			if _, ok := params[k]; !ok {
				params[k] = v
				// A parent made up is as made up below it: Jira's comments
				// are listed below an issue of no list, named at random.
				parentMadeUp = parentMadeUp || m.parentsMadeUp(res)
			}
		}
	}
	params, madeUp, err = m.pathParams(ctx, op, params)
	return params, madeUp || parentMadeUp, err
}

// pathParams is PathParams without the run's parents.
func (m *Maker) pathParams(ctx context.Context, op *spec.Operation, fixed map[string]string) (params map[string]string, madeUp bool, err error) {
	params = maps.Clone(fixed)
	if params == nil {
		params = map[string]string{}
	}
	gen, failed := m.generator(ctx)
	for _, name := range op.Template.Params() {
		p := op.Parameter(openapi3.ParameterInPath, name)
		if _, ok := params[name]; ok || p == nil {
			continue
		}
		if res := m.resourceOfParam(op, name); res != nil && !m.isChoosing(res) {
			// Its items are listed below the parent op's path names,
			// and else below the run's parent of it.
			parent := map[string]string{}
			for _, k := range res.ParentParams {
				if v, ok := params[k]; ok {
					parent[k] = v
				}
			}
			if len(parent) < len(res.ParentParams) {
				sticky, err := m.CollectionParams(ctx, res)
				if err != nil {
					return nil, false, err
				}
				maps.Copy(sticky, parent)
				parent = sticky
			}
			ids, err := m.ListedIDsIn(ctx, res, parent)
			if err != nil {
				return nil, false, err
			}
			if len(ids) > 0 {
				params[name] = spec.ValueText(ids[m.rnd.IntN(len(ids))])
				continue
			}
			if len(res.ParentParams) == 0 && res != op.Resource {
				if id, ok := m.madeItem(ctx, res); ok {
					params[name] = id
					continue
				}
			}
		}
		params[name] = spec.ParamText(p, m.pathValue(gen, p))
		madeUp = true
	}
	return params, madeUp, failed()
}

// takes reports whether the parameter p takes the text of a value as its
// value: a schema of a number takes digits alone.
func takes(p *openapi3.Parameter, text string) bool {
	s := schemaOf(p)
	return s == nil || s.VisitJSON(spec.TextValue(s, text)) == nil
}

// isChoosing reports whether the parents of res are being chosen: a
// parameter met on the way that names res again, as Orthanc's
// /modalities/{id}/storage-commitment names the commitments read at
// /storage-commitment/{id}, is made up, where choosing them again would
// not end.
func (m *Maker) isChoosing(res *spec.Resource) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.choosing[res]
}

// pathValue makes a value of the path parameter p whose text is not
// empty, as a path segment cannot be, and, where one of the values made is,
// that a path holds as it is, unescaped: a made-up value is no test of how
// a server decodes its paths (readme's filename pattern met "}xjson" as
// %7Dxjson, and refused it).
func (m *Maker) pathValue(gen *fake.Generator, p *openapi3.Parameter) any {
	var fallback any
	for range 10 {
		v := m.paramValue(gen, p)
		text := spec.ValueText(v)
		switch {
		case text == "":
		case url.PathEscape(text) == text:
			return v
		case fallback == nil:
			fallback = v
		}
	}
	if fallback != nil {
		return fallback
	}
	return "x"
}

// resourcesAbove returns the resources op acts on or below: its own, and
// those whose item path op's path begins with, such as pets of
// /pets/{petId}/photos.
func (m *Maker) resourcesAbove(op *spec.Operation) []*spec.Resource {
	var out []*spec.Resource
	if op.Resource != nil {
		out = append(out, op.Resource)
	}
	for _, r := range m.contract.Resources {
		if r != op.Resource && below(op.Template, r.ItemPath) {
			out = append(out, r)
		}
	}
	return out
}

// below reports whether the path t begins with the path template item,
// segment by segment, such as /pets/{petId}/photos with /pets/{petId}.
func below(t *spec.PathTemplate, item string) bool {
	return item != "" && (t.String() == item || strings.HasPrefix(t.String(), item+"/"))
}

// resourceOfParam returns the resource whose items the path parameter
// name of op names, such as petId: the one whose item path op's path
// begins with; else the one resource whose items it names, or nil where
// none or several do, as Kubernetes' {name} of hundreds.
func (m *Maker) resourceOfParam(op *spec.Operation, name string) *spec.Resource {
	var named []*spec.Resource
	for _, r := range m.contract.Resources {
		if r.IDParam != name {
			continue
		}
		if below(op.Template, r.ItemPath) {
			return r
		}
		named = append(named, r)
	}
	if len(named) == 1 {
		return named[0]
	}
	return nil
}

func schemaOf(p *openapi3.Parameter) *openapi3.Schema {
	if p.Schema == nil {
		// A parameter of JSON content, as Stream's push provider's
		// type, of an enumeration: its content's schema.
		for mt, content := range p.Content {
			if spec.IsJSON(mt) && content != nil && content.Schema != nil {
				return content.Schema.Value
			}
		}
		return nil
	}
	return p.Schema.Value
}

// RequiredQuery returns values for the required query parameters of op,
// each written as its style and explode ask, those that name an item of a
// resource an id the deployment lists.
func (m *Maker) RequiredQuery(ctx context.Context, op *spec.Operation) (url.Values, error) {
	q := url.Values{}
	gen, failed := m.generator(ctx)
	for _, p := range op.Parameters {
		if p.In == openapi3.ParameterInQuery && p.Required {
			spec.AddQuery(q, p, m.requiredValue(gen, p))
		}
	}
	return q, failed()
}

// Body returns a valid body for op, an object made from its schema, or
// nil when op takes none; one of another shape skips the check that needs
// an object, saying so. See Value.
func (m *Maker) Body(ctx context.Context, op *spec.Operation) (map[string]any, error) {
	v, err := m.Value(ctx, op)
	if err != nil || v == nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, judge.Skipf("%s takes a JSON %s as its body, and the check needs an object", op.ID, spec.TypeOf(BodySchema(op)))
	}
	return obj, nil
}

// maxBodyTries bounds the bodies Value makes before it gives up on a
// schema it cannot meet.
const maxBodyTries = 20

// Value returns a valid body for op, made from the schema of the media
// type the suite sends it in (see bodyMedia), of any shape: an object, an
// array such as a JSON Patch or a bulk create, or a scalar; nil when op
// takes none. It holds no read-only property at any depth. For a
// resource's item, a name property gets a name of this run, so that items
// the suite created can be found later, and an id property that names no
// resource, such as categoryId, gets the value most items listed have: one
// the deployment knows.
func (m *Maker) Value(ctx context.Context, op *spec.Operation) (any, error) {
	s := BodySchema(op)
	if s == nil || !bodySent(op) {
		return nil, nil
	}
	if isForm(op) && spec.TypeOf(s) == "" {
		// A form is an object, whatever its schema leaves unsaid, as
		// rclone's multipart upload of an empty schema.
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Properties: s.Properties, Required: s.Required, AllOf: s.AllOf}
	}
	gen, failed := m.generator(ctx)
	resName := ""
	if op.Resource != nil {
		resName = op.Resource.Name
	}
	opts := append([]openapi3.SchemaValidationOption{openapi3.MultiErrors(), openapi3.VisitAsRequest()}, spec.SchemaOptions(m.contract.Doc)...)
	if op.Resource != nil && op == op.Resource.Update && isJSONPatch(m.contract, s) {
		// Where the patch's schema takes one of the item (see itemPatches);
		// else one of the schema alone.
		patches := itemPatches(m.contract, op.Resource, s, gen)
		if err := failed(); err != nil {
			return nil, err
		}
		for _, v := range patches {
			if s.VisitJSON(v, opts...) == nil {
				return v, nil
			}
		}
	}
	if isJSONPatch(m.contract, s) && s.VisitJSON([]any{}, opts...) == nil {
		// Of an item the suite knows nothing of, a patch made of the
		// schema alone names paths no item has, which a server rightly
		// refuses (Visma's billing customers'): the patch of no
		// operations is valid wherever the schema takes it.
		return []any{}, nil
	}
	for range maxBodyTries {
		v := withoutReadOnly(m.contract, s, gen.Request(s, resName))
		if err := failed(); err != nil {
			return nil, err
		}
		if obj, ok := v.(map[string]any); ok && op.Resource != nil {
			in := s
			if w := bodyWrapper(op); w != nil {
				in = w.Inner(m.contract)
			}
			if item := ItemIn(op, obj); item != nil && in != nil {
				if err := m.knownValues(ctx, op.Resource, in, item); err != nil {
					return nil, err
				}
			}
		}
		if v != nil && s.VisitJSON(v, opts...) == nil {
			return v, nil
		}
	}
	return nil, judge.Skipf("%s: the suite could not make a body that matches the document's schema", op.ID)
}

// knownValues sets, in a body made for res, the properties whose values
// the deployment must know rather than take from any: a name of this run,
// and references to things the interface does not describe, such as a
// category, to the value most listed items have.
func (m *Maker) knownValues(ctx context.Context, res *spec.Resource, s *openapi3.Schema, body map[string]any) error {
	var census []judge.Item
	for _, p := range m.contract.Properties(s) {
		if _, sent := body[p.Name]; !sent {
			continue
		}
		if v, ok := m.requiredScope(res, p.Name); ok && p.Schema.VisitJSON(v, spec.SchemaOptions(m.contract.Doc)...) == nil {
			body[p.Name] = v
			continue
		}
		switch {
		case p.Name == "name" && spec.TypeOf(p.Schema) == "string" && len(p.Schema.Enum) == 0 && p.Schema.Pattern == "":
			if name, ok := m.NameFor(p.Schema); ok {
				body[p.Name] = name
			}
		case strings.HasSuffix(p.Name, "Id") && !m.namesResource(strings.TrimSuffix(p.Name, "Id")):
			if census == nil {
				var err error
				params, err := m.CollectionParams(ctx, res)
				if err != nil {
					return err
				}
				if census, err = m.itemCensus(ctx, res, params); err != nil {
					return err
				}
			}
			if v, ok := mostCommon(census, p.Name); ok {
				body[p.Name] = v
			}
		}
	}
	return nil
}

// namesResource reports whether a noun such as "pet" names a resource of
// the document.
func (m *Maker) namesResource(noun string) bool {
	for _, name := range fake.ReferredNames(noun) {
		if m.contract.Resource(name) != nil {
			return true
		}
	}
	return false
}

// mostCommon returns the value of prop most items have, the first in
// order of value among equals.
func mostCommon(items []judge.Item, prop string) (any, bool) {
	counts := map[string]int{}
	values := map[string]any{}
	for _, it := range items {
		if v, ok := it[prop]; ok {
			k := spec.ValueText(v)
			counts[k]++
			values[k] = v
		}
	}
	if len(counts) == 0 {
		return nil, false
	}
	keys := slices.Sorted(maps.Keys(counts))
	best := keys[0]
	for _, k := range keys {
		if counts[k] > counts[best] {
			best = k
		}
	}
	return values[best], true
}

// bodySent reports whether a valid request of op carries a body: one
// its document requires, and an optional one of a method whose request
// has a body by nature, POST, PUT or PATCH. Stripe's GETs take an
// optional form that a GET is better without.
func bodySent(op *spec.Operation) bool {
	rb := op.Op.RequestBody
	if rb == nil || rb.Value == nil {
		return false
	}
	switch op.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return true
	}
	return rb.Value.Required
}

// Mutating reports whether a request of op can change state.
func Mutating(op *spec.Operation) bool {
	return op.Method != http.MethodGet && op.Method != http.MethodHead && op.Method != http.MethodOptions
}

// onItem reports whether op acts on one item of a resource, which may not
// be there: its read, replace, update or delete.
func onItem(op *spec.Operation) bool {
	switch op.Role {
	case spec.RoleRead, spec.RoleReplace, spec.RoleUpdate, spec.RoleDelete:
		return op.Resource != nil
	}
	return false
}
