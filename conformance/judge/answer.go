package judge

import (
	"fmt"
	"net/http"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// AnswerJudge judges one answer at a time against a contract, by the
// rules the suite's client holds every answer to: its status is one the
// operation documents, its headers, Content-Type and body match the
// document, and an error's code, message and status, where the body its
// document describes has them, are not empty and the HTTP status.
// A server's own tests can judge each answer they get with it, as
// mockserver's do. It is safe for concurrent use.
type AnswerJudge struct {
	checker *answercheck.Checker
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
	return &AnswerJudge{checker: checker}, nil
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
		return breaks(x, RuleErrorShape, v.Message)
	}
	return breaks(x, RuleContract, violations[0].Message)
}

// JudgeError judges an error that the document does not describe for
// its operation, such as an outage a test asked for, or an answer of a
// request of no operation: it must be the error body the document gives
// such an error, the operation's default or the document's own error
// body, served as JSON, matching its schema, and of the shape the rule
// errors.shape asks where that body has a code, message or status; where
// the document describes no error body, any body passes. It returns nil,
// or a *Broken of rule errors.shape.
func (j *AnswerJudge) JudgeError(req *http.Request, status int, header http.Header, body []byte) error {
	violations := j.checker.CheckError(req, answercheck.Answer{Status: status, Header: header, Body: body})
	if len(violations) == 0 {
		return nil
	}
	return breaks(answered(req, status, header, body), RuleErrorShape, violations[0].Message)
}

// answered returns the exchange of an answer judged on its own. The key
// is not known, so nothing is redacted.
func answered(req *http.Request, status int, header http.Header, body []byte) *Exchange {
	return &Exchange{
		method: req.Method, URL: req.URL.String(), Path: req.URL.Path, RequestHeader: req.Header,
		Status: status, Header: header, body: body,
	}
}
