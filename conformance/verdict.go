package conformance

import (
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// A check returns its verdict, and the judge of one answer judges, by the
// types of package judge; the suite names them too, for its users.

// Broken is the verdict on an answer that breaks a rule of the contract:
// its Rule, such as "auth.required", and its report (judge.Broken).
type Broken = judge.Broken

// Skipped is the verdict of a check that cannot judge the deployment
// (judge.Skipped).
type Skipped = judge.Skipped

// Aborted is the verdict that stops a run (judge.Aborted).
type Aborted = judge.Aborted

// AnswerJudge judges one answer at a time against a contract, by the
// rules the suite's client holds every answer to (judge.AnswerJudge). A
// server's own tests can judge each answer they get with it.
type AnswerJudge = judge.AnswerJudge

// NewAnswerJudge returns an AnswerJudge of the document of c, or of
// spec.Default() if c is nil; with strict, answers are held to the whole
// document, petmock's choices included, as a strict run holds them.
func NewAnswerJudge(c *spec.Contract, strict bool) (*AnswerJudge, error) {
	return judge.NewAnswerJudge(c, strict)
}

// ErrNoOperation says that a request is no operation of the document, so
// that nothing in the document says what its answer should be.
var ErrNoOperation = judge.ErrNoOperation
