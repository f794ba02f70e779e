package answercheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/petstore/contract/spec"
)

// ErrorProblem returns what is wrong with body as the Error body of an
// answer of the given status, or "": its code and message must be
// non-empty strings, and its status the HTTP status. The schema says the
// types; this says what it cannot.
func ErrorProblem(status int, body []byte) string {
	var e struct {
		Code    *string      `json:"code"`
		Message *string      `json:"message"`
		Status  *json.Number `json:"status"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil {
		return "the body is not an Error object: " + err.Error()
	}
	var problems []string
	if e.Code == nil || *e.Code == "" {
		problems = append(problems, "code is missing or empty")
	}
	if e.Message == nil || *e.Message == "" {
		problems = append(problems, "message is missing or empty")
	}
	switch {
	case e.Status == nil:
		problems = append(problems, "status is missing")
	default:
		if n, ok := spec.ExactInt64(string(*e.Status)); !ok || n != int64(status) {
			problems = append(problems, fmt.Sprintf("status is %s, but the HTTP status is %d", e.Status, status))
		}
	}
	return strings.Join(problems, "; ")
}
