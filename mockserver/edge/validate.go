package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/mockserver/shape"
)

// MaxBodyBytes is the largest request body petmock reads. A larger one is
// refused with 413 without being read.
const MaxBodyBytes = 1 << 20

// readBody reads a request body of at most limit bytes. A larger body is
// refused as soon as its size is known: at once from Content-Length, or
// after limit+1 bytes otherwise.
func readBody(r *http.Request, limit int64) ([]byte, *Error) {
	if r.ContentLength > limit {
		return nil, TooLarge(limit)
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > 0 {
		// The size is known: read exactly that, in one allocation. net/http
		// ends the body there, and a body shorter than it announced is an
		// error.
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, BadRequest("body", "could not be read")
		}
		return body, nil
	}
	buf := bytes.NewBuffer(make([]byte, 0, 512))
	n, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1))
	if n > limit {
		return nil, TooLarge(limit)
	}
	if err != nil {
		return nil, BadRequest("body", "could not be read")
	}
	return buf.Bytes(), nil
}

// RequestError turns a failure of openapi3filter's validation of the
// parameters or the body into the 400 to answer with, with a message that
// names the field at fault instead of dumping the schema. The key was
// checked before (authenticate).
func RequestError(err error) *Error {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return BadRequest("request", "%v", err)
	}
	field := "body"
	var schema *openapi3.Schema
	if re.Parameter != nil {
		field = re.Parameter.Name
		if re.Parameter.Schema != nil {
			schema = re.Parameter.Schema.Value
		}
	}
	var se *openapi3.SchemaError
	var pe *openapi3filter.ParseError
	switch {
	case errors.As(err, &se):
		return SchemaError(field, se)
	case errors.Is(err, openapi3filter.ErrInvalidRequired):
		return BadRequest(field, "is required")
	case errors.Is(err, openapi3filter.ErrInvalidEmptyValue):
		return BadRequest(field, "must not be empty")
	case errors.As(err, &pe):
		if re.Parameter == nil {
			return BadRequest("body", "malformed JSON: %s", rootCause(pe))
		}
		if errors.Is(pe, strconv.ErrRange) && schema != nil {
			// An integer, but too large for its format: say the bound.
			switch negative := strings.HasPrefix(fmt.Sprint(pe.Value), "-"); {
			case !negative && schema.Max != nil:
				return BadRequest(field, "must be at most %v", *schema.Max)
			case negative && schema.Min != nil:
				return BadRequest(field, "must be at least %v", *schema.Min)
			}
		}
		return BadRequest(field, "must be %s", describeType(schema))
	}
	return BadRequest(field, "%s", re.Reason)
}

// reason2020 returns what the JSON Schema 2020-12 validator of an OpenAPI
// 3.1 document says is wrong, without the place and the schema's address
// it says first: of `error at "/a": jsonschema validation failed with
// 'https://example.com/schema.json#'\n- at '/a': value must be one of
// 'x', 'y'`, the last line's words.
func reason2020(reason string) string {
	why := reason[strings.LastIndexByte(reason, '\n')+1:]
	if strings.HasPrefix(why, "- at '") {
		if _, rest, ok := strings.Cut(why, "': "); ok {
			return rest
		}
	}
	if _, rest, ok := strings.Cut(why, `": `); ok && strings.HasPrefix(why, `error at "`) {
		return rest
	}
	return why
}

// SchemaError names the field a schema violation is about, from its JSON
// pointer, and says what the schema wanted. whole names the value as a
// whole, such as "body" or a parameter, for a violation at its root.
func SchemaError(whole string, se *openapi3.SchemaError) *Error {
	// "doesn't match all schemas from allOf" says nothing; the violation
	// of the subschema does.
	for se.SchemaField == "allOf" {
		var inner *openapi3.SchemaError
		if !errors.As(se.Origin, &inner) {
			break
		}
		se = inner
	}
	field := whole
	if ptr := se.JSONPointer(); len(ptr) > 0 {
		field = strings.Join(ptr, ".")
	}
	s := se.Schema
	if s == nil {
		return BadRequest(field, "%s", reason2020(se.Reason))
	}
	switch se.SchemaField {
	case "properties":
		// A member the schema does not take, with additionalProperties
		// false: the error names the object, so name the member.
		if m, ok := se.Value.(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(m)) {
				if _, declared := s.Properties[name]; !declared {
					if field != whole {
						name = field + "." + name
					}
					return BadRequest(name, "is not a member; the members are %s", strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", "))
				}
			}
		}
	case "required":
		return BadRequest(field, "is required")
	case "type":
		return BadRequest(field, "must be %s", describeType(s))
	case "nullable":
		return BadRequest(field, "must not be null")
	case "enum":
		return BadRequest(field, "must be one of %s", enumList(s.Enum))
	case "minimum":
		return BadRequest(field, "must be at least %v", *s.Min)
	case "maximum":
		return BadRequest(field, "must be at most %v", *s.Max)
	case "maxLength":
		return BadRequest(field, "must be at most %d characters long", *s.MaxLength)
	}
	return BadRequest(field, "%s", strings.TrimPrefix(se.Reason, "value "))
}

// describeType says what a value of schema is, for a message that begins
// "must be".
func describeType(s *openapi3.Schema) string {
	if s == nil || s.Type == nil {
		return "valid"
	}
	switch {
	case s.Type.Is("integer") && s.Format == "int64":
		return "an integer (int64)"
	case s.Type.Is("integer"):
		return "an integer"
	case s.Type.Is("object"):
		return "a JSON object"
	case s.Type.Is("array"):
		return "an array"
	default:
		return "a " + strings.Join(s.Type.Slice(), " or ")
	}
}

func enumList(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// DecodeJSON decodes a body that must hold one JSON value and nothing
// after it, with numbers kept as written.
func DecodeJSON(body []byte) (any, *Error) {
	if v, ok := decodePlain(body); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, BadRequest("body", "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, BadRequest("body", "malformed JSON: data after the JSON value")
	}
	return v, nil
}

// integerError is the 400 of an integer beyond the size of its format.
func integerError(e *shape.IntegerError) *Error {
	return BadRequest(e.Field, "must be an integer (int%d)", e.Bits)
}
