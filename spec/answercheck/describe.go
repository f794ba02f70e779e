package answercheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// MaxReportedSchemaErrors is how many of the schema errors of one answer
// a Violation lists; it says how many more there are.
const MaxReportedSchemaErrors = 5

// describeValidation shortens a validation error: kin-openapi appends the
// whole schema and value, which a log reader does not need, and a body of
// ten thousand bad items has ten thousand errors, of which a few say it.
func describeValidation(err error) string {
	var re *openapi3filter.ResponseError
	if !errors.As(err, &re) {
		return err.Error()
	}
	msg := re.Reason
	var me openapi3.MultiError
	if errors.As(re.Err, &me) {
		all := flatten(me)
		for i, e := range all {
			if i == MaxReportedSchemaErrors {
				msg += fmt.Sprintf("; and %d more", len(all)-i)
				break
			}
			msg += "; " + DescribeSchemaError(e)
		}
	} else if re.Err != nil {
		msg += ": " + DescribeSchemaError(re.Err)
	}
	return msg
}

// flatten lists the errors of a MultiError and of those it holds.
func flatten(me openapi3.MultiError) []error {
	var out []error
	for _, e := range me {
		var inner openapi3.MultiError
		if errors.As(e, &inner) && len(inner) > 0 {
			out = append(out, flatten(inner)...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// DescribeSchemaError says where a value breaks its schema and how, such
// as "0.name: property \"name\" is missing", without the schema and the
// value kin-openapi's message holds; an error of another kind is told as
// it is.
func DescribeSchemaError(err error) string {
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		where := strings.Join(se.JSONPointer(), ".")
		if where == "" {
			where = "body"
		}
		return where + ": " + se.Reason
	}
	return err.Error()
}

// invalidJSON says why a body served as JSON is not JSON, or returns "".
// The schema check would say it too, less plainly.
func invalidJSON(header http.Header, body []byte) string {
	mediaType, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if len(body) == 0 || !isJSON(mediaType) {
		return ""
	}
	var v json.RawMessage
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &se):
		return fmt.Sprintf("the body is not valid JSON: %s, at byte %d of %d", se, se.Offset, len(body))
	default:
		return "the body is not valid JSON: " + err.Error()
	}
}
