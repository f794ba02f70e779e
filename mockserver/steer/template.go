package steer

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/answer"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// An expectation's answer may use values of the request it answers: a
// string of its body, or a value of its headers, holds {{path.petId}},
// {{query.status}}, {{header.X-Request-Id}}, or {{body/name}} (a JSON
// pointer into the request's JSON body; {{body}} is the whole of it). A
// string that is one of them alone takes the value as it is, a number as
// a number; one with other text around it takes the value's text.
//
// Such an answer is checked when it is set for every value the request can
// give it, not for one: each value must be one the request always has (a
// path parameter, a parameter or a member the document requires, or one
// the expectation's own matchers require), and every value its schema
// allows must be one the answer's schema allows where it goes. petmock
// proves that from the two schemas (the types, bounds, lengths, patterns,
// formats and enumerations), and refuses, saying why, what it cannot
// prove. So an answer made of a request's values matches the document
// whatever the request, as every other answer does.

// placeholderText finds the placeholders of a string.
var placeholderText = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_./~-]*)\s*\}\}`)

// source is a value of the request an answer uses.
type source struct {
	written string // as the answer writes it, such as path.petId
	kind    string // path, query, header or body
	name    string // the parameter's or the header's
	pointer []string
	// schemas are what the values it takes match, all of them; none for
	// any value.
	schemas []*openapi3.Schema
}

// textTemplate is a string of an answer that uses values of the request:
// literal text and sources, in turn.
type textTemplate struct {
	parts []any // string or *source
}

// whole returns the source of a template that is one source alone, or nil.
func (t *textTemplate) whole() *source {
	if len(t.parts) == 1 {
		if s, ok := t.parts[0].(*source); ok {
			return s
		}
	}
	return nil
}

// templateAnswer is the answer of an expectation that uses values of the
// request, ready to be made for each request.
type templateAnswer struct {
	op      *spec.Operation
	rs      *answer.Responses
	status  int
	header  map[string]any // string or *textTemplate
	body    any            // decoded, with a *textTemplate for each string that uses values
	hasBody bool
}

// parseText returns the template of a string, or nil when it uses no
// value of the request. A placeholder it cannot read is an error.
func parseText(field, s string, op *edge.Operation) (*textTemplate, *edge.Error) {
	found := placeholderText.FindAllStringSubmatchIndex(s, -1)
	if len(found) == 0 {
		if strings.Contains(s, "{{") && strings.Contains(s, "}}") && placeholderish(s) {
			return nil, edge.BadRequest(field, "%q: a value of the request is written {{path.NAME}}, {{query.NAME}}, {{header.NAME}} or {{body/POINTER}}", s)
		}
		return nil, nil
	}
	t := &textTemplate{}
	at := 0
	for _, m := range found {
		if m[0] > at {
			t.parts = append(t.parts, s[at:m[0]])
		}
		src, e := parseSource(field, s[m[2]:m[3]], op)
		if e != nil {
			return nil, e
		}
		t.parts = append(t.parts, src)
		at = m[1]
	}
	if at < len(s) {
		t.parts = append(t.parts, s[at:])
	}
	return t, nil
}

// placeholderish reports whether s holds {{ and }} with no space between
// them, as a mistyped placeholder would.
func placeholderish(s string) bool {
	i := strings.Index(s, "{{")
	j := strings.Index(s[i:], "}}")
	return j > 0 && !strings.ContainsAny(s[i:i+j], " \t\n\"")
}

// parseSource reads what a placeholder names, and finds it in op.
func parseSource(field, written string, op *edge.Operation) (*source, *edge.Error) {
	bad := func(format string, args ...any) *edge.Error {
		return edge.BadRequest(field, "{{%s}}: "+format, append([]any{written}, args...)...)
	}
	src := &source{written: written}
	switch kind, name, _ := strings.Cut(written, "."); {
	case written == "body" || strings.HasPrefix(written, "body/"):
		src.kind = "body"
		schema := op.Spec.RequestSchema()
		if schema == nil {
			return nil, bad("%s takes no JSON body", op.Spec.ID)
		}
		if ptr := strings.TrimPrefix(written, "body"); ptr != "" {
			for _, t := range strings.Split(ptr[1:], "/") {
				src.pointer = append(src.pointer, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
			}
		}
		schemas, why := schemasAt([]*openapi3.Schema{schema}, src.pointer)
		if why != "" {
			return nil, bad("%s", why)
		}
		src.schemas = schemas
	case kind == "path" || kind == "query":
		src.kind, src.name = kind, name
		p := op.Spec.Parameter(kind, name)
		if p == nil {
			return nil, bad("not a %s parameter of %s; %s", kind, op.Spec.ID, parameterNames(op.Spec, kind))
		}
		if p.Schema != nil && p.Schema.Value != nil {
			if t := spec.TypeOf(p.Schema.Value); t == "array" || t == "object" {
				return nil, bad("the %s parameter %s is an %s, which an answer cannot take a value of", kind, name, t)
			}
			src.schemas = []*openapi3.Schema{p.Schema.Value}
		}
	case kind == "header":
		src.kind, src.name = kind, http.CanonicalHeaderKey(name)
		if e := checkHeaderName(field, name); e != nil {
			return nil, e
		}
		src.schemas = []*openapi3.Schema{openapi3.NewStringSchema()}
		if p := headerParameter(op.Spec, name); p != nil && p.Schema != nil && p.Schema.Value != nil {
			src.schemas = []*openapi3.Schema{p.Schema.Value}
		}
	default:
		return nil, bad("want {{path.NAME}}, {{query.NAME}}, {{header.NAME}} or {{body/POINTER}}")
	}
	return src, nil
}

// parameterNames lists the parameters of op in in, for messages.
func parameterNames(op *spec.Operation, in string) string {
	var names []string
	for _, p := range op.Parameters {
		if p.In == in {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return "it declares none"
	}
	return "its " + in + " parameters are " + strings.Join(names, ", ")
}

// headerParameter returns op's header parameter of name, in any case.
func headerParameter(op *spec.Operation, name string) *openapi3.Parameter {
	for _, p := range op.Parameters {
		if p.In == "header" && strings.EqualFold(p.Name, name) {
			return p
		}
	}
	return nil
}

// schemasAt returns the schemas a value at the JSON pointer tokens of a
// value of the schemas in must match, all of them: those of the members
// and the items of each, and of the branches of an allOf. A oneOf or an
// anyOf on the way is no place a value can be held to, and an empty list
// says the value may be anything.
func schemasAt(in []*openapi3.Schema, tokens []string) ([]*openapi3.Schema, string) {
	current := flatten(in)
	if current == nil {
		return nil, "below a oneOf or an anyOf, which petmock cannot hold every value to"
	}
	for i, t := range tokens {
		var next []*openapi3.Schema
		for _, s := range current {
			if p, ok := s.Properties[t]; ok && p != nil && p.Value != nil {
				next = append(next, p.Value)
				continue
			}
			if s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil && len(s.Properties) == 0 {
				next = append(next, s.AdditionalProperties.Schema.Value)
				continue
			}
			if _, err := strconv.Atoi(t); err == nil && s.Items != nil && s.Items.Value != nil {
				next = append(next, s.Items.Value)
			}
		}
		if len(next) == 0 && len(current) > 0 {
			return nil, "/" + strings.Join(tokens[:i+1], "/") + " is not in the schema"
		}
		if current = flatten(next); current == nil {
			return nil, "/" + strings.Join(tokens[:i+1], "/") + " is below a oneOf or an anyOf, which petmock cannot hold every value to"
		}
	}
	return current, ""
}

// flatten returns the schemas and the branches of their allOf, or nil
// when one of them has a oneOf or an anyOf.
func flatten(in []*openapi3.Schema) []*openapi3.Schema {
	out := []*openapi3.Schema{}
	var walk func(s *openapi3.Schema) bool
	walk = func(s *openapi3.Schema) bool {
		if s == nil {
			return true
		}
		if len(s.OneOf)+len(s.AnyOf) > 0 || s.Not != nil {
			return false
		}
		out = append(out, s)
		for _, ref := range s.AllOf {
			if ref != nil && !walk(ref.Value) {
				return false
			}
		}
		return true
	}
	for _, s := range in {
		if !walk(s) {
			return nil
		}
	}
	return out
}

// always says whether a request of op that matches m always gives the
// value of src: a path parameter; a parameter, a header or a member the
// document requires; or one m requires. It returns "" when it does, or
// what to do instead.
func always(op *spec.Operation, m RequestMatch, src *source) string {
	switch src.kind {
	case "path":
		return ""
	case "query":
		if p := op.Parameter("query", src.name); p != nil && p.Required {
			return ""
		}
		if _, ok := m.Query[src.name]; ok {
			return ""
		}
		if qm, ok := m.QueryMatches[src.name]; ok && qm.present() {
			return ""
		}
		return "the query parameter " + src.name + " may be absent: " + op.ID + " does not require it; match it in when.query"
	case "header":
		if p := headerParameter(op, src.name); p != nil && p.Required {
			return ""
		}
		for name, hm := range m.Headers {
			if strings.EqualFold(name, src.name) && hm.present() {
				return ""
			}
		}
		return "the header " + src.name + " may be absent: match it in when.headers"
	}
	if _, ok := m.Body["/"+strings.Join(escapePointer(src.pointer), "/")]; ok && len(src.pointer) > 0 {
		return ""
	}
	rb := op.Op.RequestBody
	if rb == nil || rb.Value == nil || !rb.Value.Required {
		return "the body may be absent: " + op.ID + " does not require one"
	}
	current := flatten([]*openapi3.Schema{op.RequestSchema()})
	for i, t := range src.pointer {
		required := false
		var next []*openapi3.Schema
		for _, s := range current {
			required = required || slices.Contains(s.Required, t)
			if p, ok := s.Properties[t]; ok && p != nil {
				next = append(next, p.Value)
			}
		}
		if !required {
			return "/" + strings.Join(src.pointer[:i+1], "/") + " may be absent: the schema of the body does not require it; match it in when.body"
		}
		current = flatten(next)
	}
	return ""
}

// escapePointer escapes the tokens of a JSON pointer.
func escapePointer(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return out
}

// compileTemplate returns the answer a of an expectation of op, matching
// m, as a template when it uses values of the request, checked for every
// value they take; nil when it uses none.
func (s *Steering) compileTemplate(op *edge.Operation, m RequestMatch, a CannedAnswer) (*templateAnswer, *edge.Error) {
	t := &templateAnswer{op: op.Spec, rs: s.responses(op), status: a.Status, header: map[string]any{}}
	uses := false
	for _, name := range slices.Sorted(maps.Keys(a.Headers)) {
		field := "answer.headers." + name
		tt, e := parseText(field, a.Headers[name], op)
		if e != nil {
			return nil, e
		}
		if tt == nil {
			t.header[name] = a.Headers[name]
			continue
		}
		uses = true
		if e := s.checkSources(op.Spec, m, field, tt, headerSchemas(op.Spec, a.Status, name), false); e != nil {
			return nil, e
		}
		t.header[name] = tt
	}
	if a.Body != nil {
		v, e := decodeJSONValue("answer.body", a.Body)
		if e != nil {
			return nil, e
		}
		target := s.answerSchema(op.Spec, a.Status)
		var walk func(v any, tokens []string) (any, *edge.Error)
		walk = func(v any, tokens []string) (any, *edge.Error) {
			switch node := v.(type) {
			case string:
				field := strings.Join(append([]string{"answer", "body"}, tokens...), ".")
				tt, e := parseText(field, node, op)
				if e != nil || tt == nil {
					return node, e
				}
				uses = true
				at, why := schemasAt(target, tokens)
				if why != "" {
					return nil, edge.BadRequest(field, "{{%s}} cannot be held to the answer's schema there: %s", tt.sourceNames(), why)
				}
				return tt, s.checkSources(op.Spec, m, field, tt, at, true)
			case map[string]any:
				out := make(map[string]any, len(node))
				for _, k := range slices.Sorted(maps.Keys(node)) {
					x, e := walk(node[k], append(slices.Clip(tokens), k))
					if e != nil {
						return nil, e
					}
					out[k] = x
				}
				return out, nil
			case []any:
				out := make([]any, len(node))
				for i, x := range node {
					y, e := walk(x, append(slices.Clip(tokens), strconv.Itoa(i)))
					if e != nil {
						return nil, e
					}
					out[i] = y
				}
				return out, nil
			}
			return v, nil
		}
		body, e := walk(v, nil)
		if e != nil {
			return nil, e
		}
		t.body, t.hasBody = body, true
	}
	if !uses {
		return nil, nil
	}
	// The rest of the answer is checked with a value each source can
	// take, which the checks above found every such value to be.
	if _, e := t.make(func(src *source) any { return s.sample(src) }); e != nil {
		return nil, e
	}
	return t, nil
}

// sourceNames lists the sources of t, for messages.
func (t *textTemplate) sourceNames() string {
	var names []string
	for _, p := range t.parts {
		if src, ok := p.(*source); ok {
			names = append(names, src.written)
		}
	}
	return strings.Join(names, "}}, {{")
}

// answerSchema returns the schema of the body of op's answer of status,
// as answer.Check holds it: the JSON or text the response documents, or
// the document's error body of an outage.
func (s *Steering) answerSchema(op *spec.Operation, status int) []*openapi3.Schema {
	if r := op.Response(status); r != nil {
		if sc := op.JSONSchema(status); sc != nil {
			return []*openapi3.Schema{sc}
		}
		if mt := r.Content.Get("text/plain"); mt != nil && mt.Schema != nil {
			return []*openapi3.Schema{mt.Schema.Value}
		}
		return nil
	}
	if b := s.contract.ErrorBody(nil, status); b.Schema != nil {
		return []*openapi3.Schema{b.Schema}
	}
	return nil
}

// headerSchemas returns the schema op documents for the header name of
// its answer of status, or none.
func headerSchemas(op *spec.Operation, status int, name string) []*openapi3.Schema {
	r := op.Response(status)
	if r == nil {
		return nil
	}
	for n, ref := range r.Headers {
		if strings.EqualFold(n, name) && ref != nil && ref.Value != nil && ref.Value.Schema != nil {
			return []*openapi3.Schema{ref.Value.Schema.Value}
		}
	}
	return nil
}

// checkSources checks that every value the sources of t take is one the
// request always gives, and, where t stands, one the schemas target
// allow: as it is, for a whole value of a body, or as text.
func (s *Steering) checkSources(op *spec.Operation, m RequestMatch, field string, t *textTemplate, target []*openapi3.Schema, inBody bool) *edge.Error {
	for _, p := range t.parts {
		src, ok := p.(*source)
		if !ok {
			continue
		}
		if why := always(op, m, src); why != "" {
			return edge.BadRequest(field, "{{%s}}: %s", src.written, why)
		}
	}
	if src := t.whole(); src != nil && inBody {
		for _, tg := range target {
			if why := fitsAll(tg, src.schemas, s.checkOptions()); why != "" {
				return edge.BadRequest(field, "{{%s}} may take a value the answer's schema refuses there: %s", src.written, why)
			}
		}
		return nil
	}
	literal := 0
	for _, p := range t.parts {
		if text, ok := p.(string); ok {
			literal += len(text)
		} else if src := p.(*source); len(src.schemas) > 0 && !scalar(src.schemas) {
			return edge.BadRequest(field, "{{%s}} is an object or an array, which text cannot hold; give it alone as the value", src.written)
		}
	}
	for _, tg := range target {
		if why := takesText(tg, literal); why != "" {
			return edge.BadRequest(field, "{{%s}} makes text the answer's schema may refuse there: %s", t.sourceNames(), why)
		}
	}
	return nil
}

// checkOptions are the options a value of the document is checked with.
func (s *Steering) checkOptions() []openapi3.SchemaValidationOption {
	return append(spec.SchemaOptions(s.contract.Doc), openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails())
}

// scalar reports whether the values of schemas are no object or array.
func scalar(schemas []*openapi3.Schema) bool {
	for _, s := range schemas {
		if t := spec.TypeOf(s); t == "object" || t == "array" {
			return false
		}
	}
	return true
}

// takesText says why target may refuse a string made of a value's text
// and literal bytes of text, or "" when it takes any.
func takesText(target *openapi3.Schema, literal int) string {
	if target == nil {
		return ""
	}
	switch {
	case spec.TypeOf(target) != "" && spec.TypeOf(target) != "string":
		return "it is " + spec.TypeOf(target) + ", not text"
	case len(target.Enum) > 0:
		return "it takes only the values of its enum"
	case target.Pattern != "":
		return "it must match " + target.Pattern
	case target.Format != "":
		return "it must be of the format " + target.Format
	case target.MaxLength != nil:
		return "it is at most " + strconv.FormatUint(*target.MaxLength, 10) + " characters"
	case target.MinLength > uint64(literal):
		return "it is at least " + strconv.FormatUint(target.MinLength, 10) + " characters"
	}
	return ""
}

// fitsAll says why a value that matches every schema of source may break
// target, or "" when none does: some schema of source must hold it to
// target.
func fitsAll(target *openapi3.Schema, source []*openapi3.Schema, opts []openapi3.SchemaValidationOption) string {
	if len(source) == 0 {
		return fits(target, nil, opts)
	}
	first := ""
	for _, s := range source {
		why := fits(target, s, opts)
		if why == "" {
			return ""
		}
		if first == "" {
			first = why
		}
	}
	return first
}

// fits says why a value of the schema source (nil for any value) may
// break target, or "" when every one fits it.
func fits(target, source *openapi3.Schema, opts []openapi3.SchemaValidationOption) string {
	if target == nil || target == source || reflect.DeepEqual(target, source) {
		return ""
	}
	if len(target.OneOf)+len(target.AnyOf) > 0 || target.Not != nil {
		return "the answer's schema there is a oneOf, an anyOf or a not, which petmock cannot hold every value to"
	}
	for _, ref := range target.AllOf {
		if ref != nil {
			if why := fits(ref.Value, source, opts); why != "" {
				return why
			}
		}
	}
	if source != nil && len(source.Enum) > 0 {
		for _, v := range source.Enum {
			if err := target.VisitJSON(jsonValue(v), opts...); err != nil {
				return fmt.Sprintf("it may be %v, which the answer's schema refuses", v)
			}
		}
		return ""
	}
	tt := spec.TypeOf(target)
	if tt == "" && len(target.Enum) == 0 && !constrained(target) {
		return ""
	}
	if source == nil {
		return "it may be any value, and the answer's schema there is " + describeSchema(target)
	}
	st := spec.TypeOf(source)
	switch {
	case len(target.Enum) > 0:
		return "the answer's schema there takes only the values of its enum, and it has none"
	case source.Nullable && !target.Nullable:
		return "it may be null"
	case st == "":
		return "it may be of any type, and the answer's schema there is " + describeSchema(target)
	case tt != "" && st != tt && !(st == "integer" && tt == "number"):
		return "it is " + describeSchema(source) + ", and the answer's schema there is " + describeSchema(target)
	}
	switch st {
	case "integer", "number":
		return fitsNumber(target, source)
	case "string":
		switch {
		case target.Pattern != "" && source.Pattern != target.Pattern:
			return "the answer's schema there must match " + target.Pattern + ", which its schema does not say"
		case target.Format != "" && source.Format != target.Format:
			return "the answer's schema there is of the format " + target.Format + ", which its schema does not say"
		case target.MinLength > source.MinLength:
			return fmt.Sprintf("it may be shorter than the %d characters the answer's schema there asks", target.MinLength)
		case target.MaxLength != nil && (source.MaxLength == nil || *source.MaxLength > *target.MaxLength):
			return fmt.Sprintf("it may be longer than the %d characters the answer's schema there takes", *target.MaxLength)
		}
	case "array", "object":
		return "it is " + st + ", which fits only the same schema, and the answer's schema there is another"
	}
	return ""
}

// constrained reports whether an untyped schema still constrains values.
func constrained(s *openapi3.Schema) bool {
	return s.Min != nil || s.Max != nil || s.MultipleOf != nil || s.Pattern != "" || s.Format != "" || s.MinLength > 0 ||
		s.MaxLength != nil || len(s.Properties) > 0 || len(s.Required) > 0 || s.Items != nil
}

// describeSchema names a schema's type in a message.
func describeSchema(s *openapi3.Schema) string {
	t := spec.TypeOf(s)
	switch t {
	case "":
		t = "of no type"
	case "integer", "object", "array":
		t = "an " + t
	default:
		t = "a " + t
	}
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	return t
}

// bound is one end of the values of a number schema.
type bound struct {
	v         float64
	exclusive bool
	set       bool
}

// numberBounds returns the lowest and the highest values of s, of its
// bounds and of its integer format.
func numberBounds(s *openapi3.Schema) (lo, hi bound) {
	if s.Min != nil {
		lo = bound{*s.Min, s.ExclusiveMin.IsTrue(), true}
	}
	if x := s.ExclusiveMin.Value; x != nil && (!lo.set || *x >= lo.v) {
		lo = bound{*x, true, true}
	}
	if s.Max != nil {
		hi = bound{*s.Max, s.ExclusiveMax.IsTrue(), true}
	}
	if x := s.ExclusiveMax.Value; x != nil && (!hi.set || *x <= hi.v) {
		hi = bound{*x, true, true}
	}
	var fmin, fmax float64
	switch s.Format {
	case "int32":
		fmin, fmax = math.MinInt32, math.MaxInt32
	case "int64":
		fmin, fmax = math.MinInt64, math.MaxInt64
	default:
		return lo, hi
	}
	if !lo.set || lo.v < fmin {
		lo = bound{fmin, false, true}
	}
	if !hi.set || hi.v > fmax {
		hi = bound{fmax, false, true}
	}
	return lo, hi
}

// fitsNumber says why a number of source may break target's bounds,
// format or multipleOf, or "".
func fitsNumber(target, source *openapi3.Schema) string {
	tlo, thi := numberBounds(target)
	slo, shi := numberBounds(source)
	if tlo.set && (!slo.set || slo.v < tlo.v || slo.v == tlo.v && tlo.exclusive && !slo.exclusive) {
		return "it may be below the " + strconv.FormatFloat(tlo.v, 'f', -1, 64) + " the answer's schema there takes at least" + formatNote(target)
	}
	if thi.set && (!shi.set || shi.v > thi.v || shi.v == thi.v && thi.exclusive && !shi.exclusive) {
		return "it may be above the " + strconv.FormatFloat(thi.v, 'f', -1, 64) + " the answer's schema there takes at most" + formatNote(target)
	}
	if spec.TypeOf(target) == "integer" && spec.TypeOf(source) != "integer" {
		return "it is a number, and the answer's schema there is an integer"
	}
	if m := target.MultipleOf; m != nil {
		if source.MultipleOf == nil || math.Mod(*source.MultipleOf, *m) != 0 {
			return fmt.Sprintf("the answer's schema there takes multiples of %v only", *m)
		}
	}
	return ""
}

// formatNote says the format a bound comes from, if it does.
func formatNote(s *openapi3.Schema) string {
	if s.Format == "int32" || s.Format == "int64" {
		return " (" + s.Format + ")"
	}
	return ""
}

// jsonValue makes a value of an enum, as YAML or JSON decoded it, one
// that the schema checks take.
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	out, e := decodeJSONValue("", b)
	if e != nil {
		return v
	}
	return out
}

// sample returns a value src may take, for checking the rest of an answer
// when it is set.
func (s *Steering) sample(src *source) any {
	g := &fake.Generator{Contract: s.contract, Faker: fake.NewFaker(s.seed), Examples: true}
	for _, sc := range src.schemas {
		if v, err := g.Valid(sc, fake.Hint{Property: src.name}); err == nil {
			return jsonValue(v)
		}
	}
	return "x"
}

// value returns the value of src in a request r of the call c, as its
// schema types it, and whether the request gives it.
func (src *source) value(r *http.Request, c *edge.Call) (any, bool) {
	var text string
	switch src.kind {
	case "body":
		if c.Body == nil {
			return nil, false
		}
		return pointAt(c.Body, src.pointer)
	case "path":
		v, ok := c.Params[src.name]
		if !ok {
			return nil, false
		}
		text = v
	case "query":
		v, ok := c.Query[src.name]
		if !ok || len(v) == 0 {
			return nil, false
		}
		text = v[0]
	case "header":
		v := r.Header.Values(src.name)
		if len(v) == 0 {
			return nil, false
		}
		text = v[0]
	}
	for _, sc := range src.schemas {
		switch spec.TypeOf(sc) {
		case "integer", "number":
			if _, err := strconv.ParseFloat(text, 64); err == nil {
				return json.Number(text), true
			}
		case "boolean":
			if b, err := strconv.ParseBool(text); err == nil {
				return b, true
			}
		}
	}
	return text, true
}

// make returns the answer of t with the values value gives each source.
func (t *templateAnswer) make(value func(src *source) any) (*answer.Canned, *edge.Error) {
	fill := func(tt *textTemplate, whole bool) any {
		if src := tt.whole(); src != nil && whole {
			return value(src)
		}
		var b strings.Builder
		for _, p := range tt.parts {
			if text, ok := p.(string); ok {
				b.WriteString(text)
			} else {
				b.WriteString(jsonText(value(p.(*source))))
			}
		}
		return b.String()
	}
	header := make(map[string]string, len(t.header))
	for name, h := range t.header {
		if tt, ok := h.(*textTemplate); ok {
			header[name] = fill(tt, false).(string)
		} else {
			header[name] = h.(string)
		}
	}
	var body json.RawMessage
	if t.hasBody {
		var walk func(v any) any
		walk = func(v any) any {
			switch node := v.(type) {
			case *textTemplate:
				return fill(node, true)
			case map[string]any:
				out := make(map[string]any, len(node))
				for k, x := range node {
					out[k] = walk(x)
				}
				return out
			case []any:
				out := make([]any, len(node))
				for i, x := range node {
					out[i] = walk(x)
				}
				return out
			}
			return v
		}
		var err error
		if body, err = json.Marshal(walk(t.body)); err != nil {
			return nil, edge.BadRequest("answer.body", "%v", err)
		}
	}
	return answer.Check(t.op, t.rs, answer.Given{Status: t.status, Header: header, Body: body}, "answer")
}
