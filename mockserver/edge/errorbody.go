package edge

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// An error is answered in the body its document describes for the
// operation and the status (spec.ErrorBody), so that every answer matches
// the document: the Petstore's Error {"code", "message", "status"} is one
// such body, a Spring error, an OAuth error or problem details others. The
// *Error's message goes in the member the schema names for it (message,
// detail, error_description, description, error, title...), its code in
// a string code or error, its status in an integer code or status, the
// status's text in a title beside a detail; a member the schema requires
// and petmock has nothing for gets a value made from its schema. Where a
// value of the error does not match its member, such as a code beside an
// enumeration, the member gets the enumeration's value of the same name
// or a made one; where the body as a whole does not, a body made from the
// schema is sent instead. A plan works all that out once, at start, and
// checks nothing at run time for a schema whose every filled body matches
// it, as the Petstore's does.

// ErrorPlan writes the error answers of one body a document describes.
type ErrorPlan struct {
	kind        spec.AnswerKind
	contentType []string
	// obj writes a JSON object body; nil for a JSON body of another
	// schema, such as a string.
	obj *errorObject
	// schema is the schema of a JSON body; nil for problem details or a
	// JSON body of no schema.
	schema *openapi3.Schema
	// exact says that every body obj writes matches schema, unchecked.
	exact bool
	// made is a JSON body made from schema that matches it, sent when
	// the one filled with the error does not; nil when none was made.
	made []byte
	xml  bool // a body of an XML type
}

// errorObject writes an error object: its members in the order of the
// document.
type errorObject struct {
	members []errorMember
}

// errorMember is one member of an error object, and where its value comes
// from.
type errorMember struct {
	key  []byte // `"name":`
	role role
	// made is the JSON of a value made from the member's schema: the
	// value of roleMade, and of a role whose value does not match.
	made []byte
	// check is the member's schema, when a value of its role may not
	// match it; nil when every one does.
	check *openapi3.Schema
	// nested writes the object of roleNested, or of its one item when
	// inArray.
	nested  *errorObject
	inArray bool
}

// role is where the value of a member comes from.
type role uint8

const (
	roleMade       role = iota // a value made from its schema
	roleMessage                // the message
	roleCode                   // petmock's code, such as not_found
	roleStatus                 // the status, an integer
	roleStatusText             // the status, as a string such as "404"
	roleTitle                  // the status's text, such as "Not Found"
	roleType                   // problem details' type: about:blank
	roleNested                 // an object, or an array of one, that holds the error
)

// problemPlan writes RFC 9457 problem details, of the given media type.
func problemPlan(contentType string) *ErrorPlan {
	members := []errorMember{
		{key: []byte(`"type":`), role: roleType},
		{key: []byte(`"title":`), role: roleTitle},
		{key: []byte(`"status":`), role: roleStatus},
		{key: []byte(`"detail":`), role: roleMessage},
	}
	return &ErrorPlan{kind: spec.AnswerJSON, contentType: []string{contentType}, obj: &errorObject{members: members}, exact: true}
}

// errorPlans builds the plans of a document's error bodies, each once.
type errorPlans struct {
	contract *spec.Contract
	built    map[spec.ErrorBody]*ErrorPlan
}

func newErrorPlans(c *spec.Contract) *errorPlans {
	return &errorPlans{contract: c, built: map[spec.ErrorBody]*ErrorPlan{}}
}

// of returns the plan of body b.
func (ps *errorPlans) of(b spec.ErrorBody) *ErrorPlan {
	b.Documented = false // the same body, whether documented or not
	if p, ok := ps.built[b]; ok {
		return p
	}
	p := ps.build(b)
	ps.built[b] = p
	return p
}

func (ps *errorPlans) build(b spec.ErrorBody) *ErrorPlan {
	ct := b.MediaType
	if ct == "" {
		ct = spec.ProblemContentType
	}
	switch {
	case b.Kind == spec.AnswerEmpty:
		return &ErrorPlan{kind: spec.AnswerEmpty}
	case b.Kind == spec.AnswerText:
		return &ErrorPlan{kind: spec.AnswerText, contentType: []string{BodyContentType(ct)}}
	case b.Kind == spec.AnswerBytes:
		mt, _, _ := mime.ParseMediaType(ct)
		return &ErrorPlan{kind: spec.AnswerBytes, contentType: []string{ct}, xml: strings.HasSuffix(mt, "/xml") || strings.HasSuffix(mt, "+xml")}
	case b.Schema == nil:
		return problemPlan(ct) // problem details, or any JSON a body of no schema may be
	}
	p := &ErrorPlan{kind: spec.AnswerJSON, contentType: []string{ct}, schema: b.Schema}
	if spec.TypeOf(b.Schema) == "object" {
		p.obj, p.exact = ps.object(b.Schema, 0)
		p.exact = p.exact && plainObject(b.Schema, 0)
	}
	if v, err := ps.generator().Valid(b.Schema, fake.Hint{}); err == nil {
		p.made = shape.Marshal(v)
	}
	return p
}

// generator makes the values of members petmock has nothing for, the
// same at every start.
func (ps *errorPlans) generator() *fake.Generator {
	return &fake.Generator{Contract: ps.contract, Faker: fake.NewFaker(1), Examples: true}
}

// maxErrorDepth bounds the nesting of error objects a plan follows.
const maxErrorDepth = 3

// object plans an error object of schema s, and reports whether every
// value it writes matches the schema of its member.
func (ps *errorPlans) object(s *openapi3.Schema, depth int) (*errorObject, bool) {
	// A member the schema requires and declares nowhere is written too:
	// openchannel's Event requires a message its properties do not name.
	props := spec.WithUndeclared(s, ps.contract.Properties(s))
	message := messageMember(props)
	nested := ""
	if message == "" && depth < maxErrorDepth {
		nested = ps.nestedMember(props, depth)
	}
	obj := &errorObject{}
	exact := true
	for _, p := range props {
		key, _ := json.Marshal(p.Name)
		m := errorMember{key: append(key, ':'), role: roleOf(p, message, nested)}
		switch m.role {
		case roleNested:
			inner := p.Schema
			if spec.TypeOf(inner) == "array" {
				m.inArray, inner = true, inner.Items.Value
			}
			var ok bool
			m.nested, ok = ps.object(inner, depth+1)
			exact = exact && ok && plainObject(inner, 0) && (!m.inArray || plainArray(p.Schema))
		case roleMade:
			if !p.Required {
				continue // nothing to say in it
			}
			var ok bool
			m.made, ok = ps.made(p)
			exact = exact && ok
		default:
			if !free(m.role, p.Schema) {
				m.check = p.Schema
				if p.Required {
					var ok bool
					m.made, ok = ps.made(p)
					exact = exact && ok
				}
			}
		}
		obj.members = append(obj.members, m)
	}
	return obj, exact
}

// made makes the JSON of a value of property p, and reports whether it
// matches p's schema, as it does unless no value made does.
func (ps *errorPlans) made(p spec.Property) ([]byte, bool) {
	hint := fake.Hint{Property: p.Name}
	if v, err := ps.generator().Valid(p.Schema, hint); err == nil {
		return shape.Marshal(v), true
	}
	return shape.Marshal(ps.generator().Value(p.Schema, hint)), false
}

// messageMember returns the name of the member of props that holds the
// message, or "".
func messageMember(props []spec.Property) string {
	best, rank := "", -1
	for _, p := range props {
		t, r := spec.TypeOf(p.Schema), spec.MessageRank(p.Name)
		if r >= 0 && (t == "string" || t == "") && (rank < 0 || r < rank) {
			best, rank = p.Name, r
		}
	}
	return best
}

// nestedMember returns the name of the member of props that holds the
// error in an object of its own, or in an array of them, such as
// {"error": {"code": ..., "message": ...}} or {"errors": [...]}: a
// required one first. It returns "" when none does.
func (ps *errorPlans) nestedMember(props []spec.Property, depth int) string {
	found := ""
	for _, p := range props {
		inner := p.Schema
		if spec.TypeOf(inner) == "array" && inner.Items != nil {
			inner = inner.Items.Value
		}
		if inner == nil || spec.TypeOf(inner) != "object" || !ps.holdsMessage(inner, depth+1) {
			continue
		}
		if p.Required {
			return p.Name
		}
		if found == "" {
			found = p.Name
		}
	}
	return found
}

// holdsMessage reports whether an object of schema s holds a message, in
// a member of its own or nested.
func (ps *errorPlans) holdsMessage(s *openapi3.Schema, depth int) bool {
	props := ps.contract.Properties(s)
	return messageMember(props) != "" || depth < maxErrorDepth && ps.nestedMember(props, depth) != ""
}

// roleOf returns the role of a member of an error object, whose message
// and nested members are named.
func roleOf(p spec.Property, message, nested string) role {
	// "" names no member: SendGrid's errors declare a property named "",
	// which was taken for the nested error none is.
	switch {
	case message != "" && p.Name == message:
		return roleMessage
	case nested != "" && p.Name == nested:
		return roleNested
	}
	switch spec.ErrorRoleOf(p) {
	case spec.ErrorStatus, spec.ErrorNumber:
		return roleStatus
	case spec.ErrorCode:
		return roleCode
	case spec.ErrorStatusText:
		return roleStatusText
	case spec.ErrorTitle:
		return roleTitle
	case spec.ErrorType:
		return roleType
	}
	return roleMade
}

// free reports whether every value of role matches s: a string of no
// enumeration, pattern, format or bounds of length; or a number of no
// enumeration, no multiple, and bounds that take every HTTP status.
func free(r role, s *openapi3.Schema) bool {
	if len(s.Enum) > 0 || s.Not != nil || len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0 || s.Const != nil {
		return false
	}
	switch r {
	case roleStatus:
		return s.MultipleOf == nil && (s.Min == nil || *s.Min <= 100) && (s.Max == nil || *s.Max >= 599) &&
			!s.ExclusiveMin.IsSet() && !s.ExclusiveMax.IsSet()
	case roleType:
		return false // about:blank, checked against the schema's format
	}
	return s.Pattern == "" && s.Format == "" && s.MaxLength == nil && s.MinLength <= 1
}

// plainObject reports whether an object schema asks nothing of a value
// but its members': no alternatives, no counts of members, at any depth
// of its allOf.
func plainObject(s *openapi3.Schema, depth int) bool {
	if s == nil || depth > 8 || len(s.OneOf)+len(s.AnyOf) > 0 || s.Not != nil || s.MinProps > 0 || s.MaxProps != nil ||
		len(s.Enum) > 0 || s.Discriminator != nil {
		return false
	}
	for _, m := range s.AllOf {
		if m == nil || !plainObject(m.Value, depth+1) {
			return false
		}
	}
	return true
}

// plainArray reports whether an array schema takes an array of one item.
func plainArray(s *openapi3.Schema) bool {
	return s.MinItems <= 1 && (s.MaxItems == nil || *s.MaxItems >= 1) && len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) == 0 && s.Not == nil
}

// ReasonHeader carries petmock's reason for an error whose documented
// response has no body, such as Swagger Petstore's "400: Invalid ID
// supplied", where the response declares no header of that name: the
// client learns why all the same, as the journal and the console do.
const ReasonHeader = "X-Petmock-Reason"

// maxReason bounds the bytes of a reason sent in ReasonHeader.
const maxReason = 512

// write answers with the body of the plan for e, with e's headers. An
// answer without a body says e's message in ReasonHeader, unless resp,
// the response documented for it, declares a header of that name.
func (p *ErrorPlan) write(w http.ResponseWriter, e *Error, resp *openapi3.Response) {
	h := w.Header()
	for name, value := range e.header {
		h.Set(name, value)
	}
	if p.kind == spec.AnswerEmpty {
		if !declares(resp, ReasonHeader) {
			h.Set(ReasonHeader, headerText(e.Message))
		}
		w.WriteHeader(e.Status)
		return
	}
	contentType, body := p.answer(e)
	WriteBody(w, e.Status, contentType, body)
}

// answer returns the Content-Type and the body of the plan for e: none
// of either for a response documented without content.
func (p *ErrorPlan) answer(e *Error) ([]string, []byte) {
	switch p.kind {
	case spec.AnswerEmpty:
		return nil, nil
	case spec.AnswerJSON:
		return p.contentType, append(p.appendJSON(make([]byte, 0, 96+len(e.Message)), e), '\n')
	case spec.AnswerText:
		return p.contentType, []byte(e.Message + "\n")
	}
	return p.contentType, p.appendBytes(nil, e)
}

// appendJSON appends the JSON body of e to dst.
func (p *ErrorPlan) appendJSON(dst []byte, e *Error) []byte {
	start := len(dst)
	if p.obj != nil {
		dst = p.obj.appendJSON(dst, e)
	} else {
		dst = shape.AppendString(dst, e.Message)
	}
	if p.exact || p.schema == nil || matches(p.schema, dst[start:]) || p.made == nil {
		return dst
	}
	return append(dst[:start], p.made...)
}

// matches reports whether the JSON text body matches s, as an answer.
func matches(s *openapi3.Schema, body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	return dec.Decode(&v) == nil && s.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()) == nil
}

func (o *errorObject) appendJSON(dst []byte, e *Error) []byte {
	dst = append(dst, '{')
	first := true
	for i := range o.members {
		m := &o.members[i]
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, m.key...)
		var ok bool
		if dst, ok = m.appendValue(dst, e); !ok {
			dst = dst[:mark]
			continue
		}
		first = false
	}
	return append(dst, '}')
}

// appendValue appends the value of m for e, and reports whether it has
// one: a member the schema does not require, whose value of the error
// does not match it, has none.
func (m *errorMember) appendValue(dst []byte, e *Error) ([]byte, bool) {
	switch m.role {
	case roleMade:
		return append(dst, m.made...), true
	case roleNested:
		if m.inArray {
			return append(m.nested.appendJSON(append(dst, '['), e), ']'), true
		}
		return m.nested.appendJSON(dst, e), true
	}
	if m.check == nil {
		return appendRole(dst, m.role, e), true
	}
	if v := roleValue(m.role, e); m.check.VisitJSON(v, openapi3.DisableSchemaErrorDetails()) == nil {
		return appendRole(dst, m.role, e), true
	}
	if v := enumValue(m.check, e); v != nil {
		return append(dst, shape.Marshal(v)...), true
	}
	if m.made != nil {
		return append(dst, m.made...), true
	}
	return dst, false
}

// appendRole appends the value of role for e.
func appendRole(dst []byte, r role, e *Error) []byte {
	switch r {
	case roleMessage:
		return shape.AppendString(dst, e.Message)
	case roleCode:
		return shape.AppendString(dst, e.Code)
	case roleStatus:
		return strconv.AppendInt(dst, int64(e.Status), 10)
	case roleStatusText:
		return strconv.AppendQuote(dst, strconv.Itoa(e.Status))
	case roleTitle:
		return shape.AppendString(dst, statusText(e.Status))
	}
	return append(dst, `"about:blank"`...)
}

// roleValue returns the value of role for e, as a value decoded from
// JSON.
func roleValue(r role, e *Error) any {
	switch r {
	case roleMessage:
		return e.Message
	case roleCode:
		return e.Code
	case roleStatus:
		return float64(e.Status)
	case roleStatusText:
		return strconv.Itoa(e.Status)
	case roleTitle:
		return statusText(e.Status)
	}
	return "about:blank"
}

// statusNames are other names of statuses, as an enumeration of codes may
// have them, such as gRPC's canonical codes of Google's JSON errors.
var statusNames = map[int][]string{
	http.StatusBadRequest:          {"invalidargument", "invalidrequest"},
	http.StatusUnauthorized:        {"unauthenticated", "invalidtoken"},
	http.StatusForbidden:           {"permissiondenied"},
	http.StatusConflict:            {"alreadyexists", "aborted"},
	http.StatusTooManyRequests:     {"resourceexhausted"},
	http.StatusInternalServerError: {"internal", "internalerror"},
	http.StatusNotImplemented:      {"unimplemented"},
	http.StatusServiceUnavailable:  {"unavailable"},
	http.StatusGatewayTimeout:      {"deadlineexceeded"},
}

// enumValue returns the value of the enumeration of s that names e's
// code, status or status text, such as NOT_FOUND for not_found, or nil.
func enumValue(s *openapi3.Schema, e *Error) any {
	names := append([]string{spec.NormName(e.Code), spec.NormName(statusText(e.Status)), strconv.Itoa(e.Status)}, statusNames[e.Status]...)
	for _, v := range s.Enum {
		if str, ok := v.(string); ok {
			for _, n := range names {
				if spec.NormName(str) == n {
					return str
				}
			}
		}
	}
	return nil
}

// statusText returns the text of a status, such as "Not Found", or
// "Error" for one without.
func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

// appendBytes appends a body of another type than JSON and text: an XML
// element for an XML type, the message otherwise.
func (p *ErrorPlan) appendBytes(dst []byte, e *Error) []byte {
	if !p.xml {
		return append(append(dst, e.Message...), '\n')
	}
	var b bytes.Buffer
	b.WriteString(xml.Header + "<error><code>")
	xml.EscapeText(&b, []byte(e.Code))
	b.WriteString("</code><message>")
	xml.EscapeText(&b, []byte(e.Message))
	b.WriteString("</message><status>" + strconv.Itoa(e.Status) + "</status></error>\n")
	return append(dst, b.Bytes()...)
}

// planErrors plans the error bodies of the statuses op documents, and of
// its default response.
func (op *Operation) planErrors(c *spec.Contract, plans *errorPlans) {
	so := op.Spec
	for _, status := range so.Statuses {
		if status >= 400 {
			if op.errorBodies == nil {
				op.errorBodies = map[int]*ErrorPlan{}
			}
			op.errorBodies[status] = plans.of(c.ErrorBody(so, status))
		}
	}
	for _, r := range so.Ranges {
		// A range, such as 4XX, is planned by a status of it that the
		// operation does not document on its own.
		for status := r * 100; status < r*100+100 && r >= 4; status++ {
			if !slices.Contains(so.Statuses, status) {
				if op.errorRanges == nil {
					op.errorRanges = map[int]*ErrorPlan{}
				}
				op.errorRanges[r] = plans.of(c.ErrorBody(so, status))
				break
			}
		}
	}
	if so.Op.Responses != nil && so.Op.Responses.Default() != nil {
		op.errorDefault = plans.of(c.ErrorBody(so, 0))
	}
	// A request the document's checks refuse is answered 400; an
	// operation that documents 422 for it instead, as FastAPI's do, gets
	// 422.
	op.unprocessable = !slices.Contains(so.Statuses, http.StatusBadRequest) && slices.Contains(so.Statuses, http.StatusUnprocessableEntity)
}

// WriteError answers with the error e of a request of op, nil for a
// request of no operation, in the body the document describes for it.
func (g *Gate) WriteError(w http.ResponseWriter, op *Operation, e *Error) {
	plan := g.errorBody
	if op != nil {
		if e.Status == http.StatusBadRequest && op.unprocessable {
			cp := *e
			cp.Status = http.StatusUnprocessableEntity
			e = &cp
		}
		if p := op.errorBodies[e.Status]; p != nil {
			plan = p
		} else if p := op.errorRanges[e.Status/100]; p != nil {
			plan = p
		} else if op.errorDefault != nil {
			plan = op.errorDefault
		}
		op.SetRequiredHeaders(w.Header(), e.Status)
		plan.write(w, e, op.Spec.Response(e.Status))
		return
	}
	plan.write(w, e, nil)
}

// declares reports whether resp declares the header name.
func declares(resp *openapi3.Response, name string) bool {
	if resp == nil {
		return false
	}
	for declared := range resp.Headers {
		if strings.EqualFold(declared, name) {
			return true
		}
	}
	return false
}

// headerText returns msg as the value of a header: its printable ASCII,
// anything else as '?', within maxReason bytes.
func headerText(msg string) string {
	b := []byte(msg)
	if len(b) > maxReason {
		b = b[:maxReason]
	}
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i] = '?'
		}
	}
	return string(b)
}

// BodyContentType is the Content-Type a body of the media type the
// document names is sent with: the name as written, which the document's
// readers look up first; text without a charset gets UTF-8's, which they
// find under the bare name too.
func BodyContentType(mediaType string) string {
	mt, params, err := mime.ParseMediaType(mediaType)
	if err == nil && strings.HasPrefix(mt, "text/") && params["charset"] == "" && !strings.Contains(mediaType, ";") {
		return mediaType + "; charset=utf-8"
	}
	return mediaType
}
