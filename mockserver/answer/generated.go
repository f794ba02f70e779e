package answer

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// Generated makes the answers of an operation that is not part of a
// resource, such as a report or an action, in the media type a request
// negotiated (edge.Negotiate), or petmock's choice: one of the examples
// the media type gives, first; else a value made from its schema, examples
// first, that matches the schema, as JSON, text or XML; or, where the
// document gives neither, a body of its media type. The same request gets
// the same answer for the same seed; another request, such as one with
// another query, gets another.
type Generated struct {
	op *spec.Operation
	// first is the maker of petmock's choice of media type, and byMedia
	// those of every media type of the answer, by the content's name.
	first   *mediaMaker
	byMedia map[string]*mediaMaker
}

// mediaMaker makes the answers of one media type.
type mediaMaker struct {
	contract    *spec.Contract
	op          *spec.Operation
	answer      spec.Answer
	shape       *shape.Shape // of a JSON body with a schema
	contentType []string     // the Content-Type header of the body
	// xml is set for an XML body with a schema, made from it.
	xml bool
	// fit is how a JSON answer follows its request; nil when nothing
	// of a request can show in it.
	fit *fit
	// loose is set when no value made from the schema matched it at
	// start, in a document read leniently: answers are made all the
	// same, unchecked.
	loose bool
	// made keeps the answers of the last requests (see made.go).
	made madeAnswers
}

// NewGenerated returns the maker of op's answers. A schema no made value
// matches is refused, in a document read strictly; read leniently, it is
// served all the same, with the warning returned. tried holds what making
// a value of each schema found, the error or nil, so that a schema many
// operations answer with is tried once.
func NewGenerated(c *spec.Contract, op *spec.Operation, shapes *shape.Builder, tried map[*openapi3.Schema]error) (*Generated, string, error) {
	a, err := op.Answer()
	if err != nil {
		return nil, "", err
	}
	g := &Generated{op: op, byMedia: map[string]*mediaMaker{}}
	first, warning, err := newMediaMaker(c, op, a, shapes, tried)
	if err != nil {
		return nil, "", err
	}
	g.first = first
	resp := op.Response(a.Status)
	if resp == nil {
		return g, warning, nil
	}
	firstKey := spec.AnswerMediaKey(resp.Content)
	g.byMedia[firstKey] = first
	for _, name := range slices.Sorted(maps.Keys(resp.Content)) {
		if name == firstKey {
			continue
		}
		in, ok, err := op.AnswerIn(name)
		if err != nil || !ok {
			continue
		}
		m, w, err := newMediaMaker(c, op, in, shapes, tried)
		if err != nil {
			return nil, "", err
		}
		if warning == "" {
			warning = w
		}
		g.byMedia[name] = m
	}
	return g, warning, nil
}

// newMediaMaker returns the maker of the answers a, of op.
func newMediaMaker(c *spec.Contract, op *spec.Operation, a spec.Answer, shapes *shape.Builder, tried map[*openapi3.Schema]error) (*mediaMaker, string, error) {
	g := &mediaMaker{contract: c, op: op, answer: a}
	if a.Kind == spec.AnswerEmpty {
		return g, "", nil
	}
	g.contentType = []string{edge.BodyContentType(a.MediaType)}
	g.xml = a.Kind == spec.AnswerBytes && spec.IsXML(a.MediaType) && a.Schema != nil
	if a.Kind == spec.AnswerJSON && a.Schema != nil {
		g.shape = shapes.Of(a.Schema)
		g.fit = newFit(c, op, a.Schema)
	}
	if len(a.Examples) > 0 {
		return g, "", nil // the document's own examples answer
	}
	// Try a schema at start, rather than fail the first request.
	err, done := tried[a.Schema]
	if !done || a.Schema == nil {
		_, err = g.make(0, "", request{})
		tried[a.Schema] = err
	}
	if err != nil {
		where := fmt.Sprintf("%s.responses.%d", op.Where, a.Status)
		if c.Strict {
			return nil, "", fmt.Errorf("%s: %w; change the schema so that a value can match it", where, err)
		}
		g.loose = true
		return g, fmt.Sprintf("%s: %v; its answers are made all the same, and may not match", where, err), nil
	}
	return g, "", nil
}

// make makes the answer body of a request, identified by key, for seed,
// following what of it the answer can show (see fit): one of the media
// type's examples where it gives some, else a value made from its schema.
func (g *mediaMaker) make(seed uint64, key string, req request) ([]byte, error) {
	h := fnv.New64a()
	h.Write([]byte(g.op.ID))
	h.Write([]byte{0})
	h.Write([]byte(key))
	gen := &fake.Generator{Contract: g.contract, Faker: fake.NewFaker(seed ^ h.Sum64()), Examples: true}
	a := g.answer
	if len(a.Examples) > 0 || a.Schema == nil || a.Kind == spec.AnswerBytes && !g.xml {
		return g.unschemed(gen.Faker), nil
	}
	hint := fake.Hint{Resource: a.About}
	var v any
	if g.loose {
		v = gen.Value(a.Schema, hint)
	} else {
		var err error
		if v, err = gen.Valid(a.Schema, hint); err != nil {
			return nil, err
		}
	}
	switch {
	case a.Kind == spec.AnswerText:
		return textOf(v), nil
	case g.xml:
		return XMLOf(g.contract, v, a.Schema, refName(a.SchemaRef), a.About), nil
	}
	if g.fit != nil {
		v = g.fit.follow(v, req, !g.loose)
	}
	return append(g.shape.AppendJSON(nil, v), '\n'), nil
}

// refName returns the name of the schema a reference names, such as Pet
// of #/components/schemas/Pet, or "".
func refName(ref string) string {
	if ref == "" {
		return ""
	}
	return ref[strings.LastIndexByte(ref, '/')+1:]
}

// unschemed makes a body of the media type's examples, or, where the
// document gives it neither examples nor a schema, a body of its media
// type.
func (g *mediaMaker) unschemed(f *gofakeit.Faker) []byte {
	a := g.answer
	examples := a.Examples
	if a.Kind == spec.AnswerBytes && !g.xml {
		// Bytes are written as the document gives them: only a string
		// example, or the schema's, can be.
		examples = slices.DeleteFunc(slices.Clone(examples), func(v any) bool { _, ok := v.(string); return !ok })
		if s, ok := schemaExample(a).(string); ok && len(examples) == 0 {
			examples = []any{s}
		}
	}
	if len(examples) > 0 {
		v := examples[f.IntN(len(examples))]
		switch {
		case a.Kind == spec.AnswerJSON:
			return append(shape.Marshal(v), '\n')
		case g.xml:
			if text, ok := v.(string); ok {
				return []byte(text) // XML as the document writes it
			}
			return XMLOf(g.contract, normalizeNumbers(v), a.Schema, refName(a.SchemaRef), a.About)
		}
		return textOf(v)
	}
	switch a.Kind {
	case spec.AnswerJSON:
		return []byte("{}\n") // any JSON value matches: the emptiest
	case spec.AnswerText:
		return []byte(f.Sentence(6))
	}
	return madeBytes(a.MediaType, a.About, f)
}

// normalizeNumbers returns v, read from the document, with its numbers as
// json.Number, as made values have them.
func normalizeNumbers(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

// schemaExample returns the example of the schema of a, or nil.
func schemaExample(a spec.Answer) any {
	if a.Schema == nil {
		return nil
	}
	return a.Schema.Example
}

// textOf writes a value as text: a string as it is, anything else as
// JSON.
func textOf(v any) []byte {
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	return shape.Marshal(v)
}

// Note returns what petmock does that the document does not say of the
// answers, such as the status of an operation that documents no success,
// or "".
func (g *Generated) Note() string { return g.first.answer.Note }

// Serve answers a request of the operation, c, with a made value in the
// media type the request negotiated, for seed; hides tells the values of
// the request that hold a key, which the answer must not repeat.
func (g *Generated) Serve(w http.ResponseWriter, r *http.Request, c *edge.Call, seed uint64, hides func(string) bool) error {
	m := g.first
	if c != nil && c.MediaType != "" {
		if in := g.byMedia[c.MediaType]; in != nil {
			m = in
		}
	}
	return m.serve(w, r, c, seed, hides)
}

func (g *mediaMaker) serve(w http.ResponseWriter, r *http.Request, c *edge.Call, seed uint64, hides func(string) bool) error {
	status := g.answer.Status
	if g.answer.Kind == spec.AnswerEmpty {
		w.WriteHeader(status)
		return nil
	}
	// The answer follows the path and the query alone, which the key
	// holds: the same key is the same answer.
	key := requestKey(r)
	body, ok := g.made.get(key)
	if !ok {
		var req request
		if g.fit != nil {
			req = requestOf(c, hides)
		}
		var err error
		if body, err = g.make(seed, key, req); err != nil {
			return fmt.Errorf("%s: %w", g.op.Where, err)
		}
		g.made.put(key, body)
	}
	h := w.Header()
	h["Content-Type"] = g.contentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
	return nil
}

// requestKey identifies what a request asks for: its path and its query,
// in a canonical order.
func requestKey(r *http.Request) string {
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(r.URL.Path)
	for _, k := range keys {
		for _, v := range q[k] {
			b.WriteString("\x00" + k + "=" + v)
		}
	}
	return b.String()
}
