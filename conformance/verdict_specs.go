package conformance

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
)

// verdict turns the verdict of a check into Ginkgo's: nothing for nil,
// AbortSuite for an *Aborted, Skip for a *Skipped, and Fail with the
// report for a *Broken or any other error. It is the one place where the
// checks meet the runner.
func verdict(err error) {
	GinkgoHelper()
	var aborted *Aborted
	var skipped *Skipped
	switch {
	case err == nil:
	case errors.As(err, &aborted):
		AbortSuite(err.Error())
	case errors.As(err, &skipped):
		Skip(skipped.Reason)
	default:
		Fail(err.Error())
	}
}
