package conformance

import (
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/petstore/contract/conformance/judge"
)

// verdict turns the verdict of a check into Ginkgo's: nothing for nil,
// AbortSuite for an *Aborted, Skip for a *Skipped, and a failed Gomega
// assertion with the report for a *Broken or any other error. It is the one
// place where the checks meet the runner.
func verdict(err error) {
	GinkgoHelper()
	var aborted *judge.Aborted
	var skipped *judge.Skipped
	switch {
	case errors.As(err, &aborted):
		AbortSuite(err.Error())
	case errors.As(err, &skipped):
		Skip(skipped.Reason)
	}
	gomega.NewGomega(Fail).Expect(err).To(holdTheContract())
}

// holdTheContract matches a nil verdict. Its failure message is the
// verdict's own report, in which the key is redacted already: unlike
// Gomega's stock matchers, it never prints a value the server sent as it
// came.
func holdTheContract() types.GomegaMatcher { return contractMatcher{} }

type contractMatcher struct{}

func (contractMatcher) Match(actual any) (bool, error) {
	if actual == nil {
		return true, nil
	}
	if _, ok := actual.(error); !ok {
		return false, fmt.Errorf("a verdict is an error or nil, not %T", actual)
	}
	return false, nil
}

func (contractMatcher) FailureMessage(actual any) string { return actual.(error).Error() }

func (contractMatcher) NegatedFailureMessage(any) string {
	return "the check passed, and was expected to find a broken rule"
}
