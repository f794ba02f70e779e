package conformance

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// AnswerJudge judges one answer at a time against a contract, by the
// rules the suite's client holds every answer to: its status is one the
// operation documents, its headers, Content-Type and body match the
// document, and an error is an Error body whose status is the HTTP status.
// A server's own tests can judge each answer they get with it, as
// mockserver's do. It is safe for concurrent use.
type AnswerJudge struct {
	checker *answercheck.Checker
	// errorSchema is the document's Error schema, nil if it has none.
	errorSchema *openapi3.Schema
}

// NewAnswerJudge returns an AnswerJudge of the document of c, or of
// spec.Default() if c is nil. With strict, answers are held to the whole
// document, as a strict run holds them: petmock's choices included, such
// as the patterns of its deprecation headers. Without, they are held to
// the interface alone.
func NewAnswerJudge(c *spec.Contract, strict bool) (*AnswerJudge, error) {
	if c == nil {
		var err error
		if c, err = spec.Default(); err != nil {
			return nil, err
		}
	}
	checker, err := answercheck.New(c, strict)
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	j := &AnswerJudge{checker: checker}
	if c.Doc.Components != nil {
		if ref := c.Doc.Components.Schemas["Error"]; ref != nil {
			j.errorSchema = ref.Value
		}
	}
	return j, nil
}

// Judge judges the answer to req: its status, header and body. It returns
// nil when the document describes the answer, and otherwise a *Broken
// that names the rule it breaks, contract.response or errors.shape. When
// req is no operation of the document, nothing says what its answer
// should be: the error then wraps ErrNoOperation.
func (j *AnswerJudge) Judge(req *http.Request, status int, header http.Header, body []byte) error {
	violations, err := j.checker.Check(req, answercheck.Answer{Status: status, Header: header, Body: body})
	if err != nil {
		return err
	}
	if len(violations) == 0 {
		return nil
	}
	x := answered(req, status, header, body)
	if v := violations[0]; v.Rule == answercheck.RuleErrorShape {
		return breaks(x, ruleErrorShape, v.Message)
	}
	return breaks(x, ruleContract, violations[0].Message)
}

// JudgeError judges an error that the document does not describe, such
// as an outage a test asked for, or an answer of an API the server has
// beside the document's: it must be an Error body, served as
// application/json, that matches the document's Error schema and whose
// status is the HTTP status. It returns nil, or a *Broken of rule
// errors.shape.
func (j *AnswerJudge) JudgeError(req *http.Request, status int, header http.Header, body []byte) error {
	x := answered(req, status, header, body)
	if mediaType, _, err := mime.ParseMediaType(header.Get("Content-Type")); err != nil || mediaType != "application/json" {
		return breaks(x, ruleErrorShape, "Content-Type is "+strconv.Quote(header.Get("Content-Type"))+", want application/json")
	}
	if j.errorSchema != nil {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return breaks(x, ruleErrorShape, "the body is not JSON: "+err.Error())
		}
		if err := j.errorSchema.VisitJSON(v); err != nil {
			return breaks(x, ruleErrorShape, "the body is not an Error: "+answercheck.DescribeSchemaError(err))
		}
	}
	if problem := answercheck.ErrorProblem(status, body); problem != "" {
		return breaks(x, ruleErrorShape, problem)
	}
	return nil
}

// answered returns the exchange of an answer judged on its own. The key
// is not known, so nothing is redacted.
func answered(req *http.Request, status int, header http.Header, body []byte) *exchange {
	return &exchange{
		method: req.Method, url: req.URL.String(), path: req.URL.Path, reqHeader: req.Header,
		status: status, header: header, body: body,
	}
}
