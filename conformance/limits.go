package conformance

import (
	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
)

// Limits on what a run takes from a deployment, which the suite's client
// holds every request to (see package judge): they lie far above any
// answer a correct deployment sends, and keep a broken or hostile one from
// exhausting the run's memory or time.
const (
	// MaxBodyBytes is the most of a response body a run reads.
	MaxBodyBytes = judge.MaxBodyBytes
	// MaxHeaderBytes is the most of a response's status line and headers
	// a run reads.
	MaxHeaderBytes = judge.MaxHeaderBytes
	// MaxBodyValues is the most JSON values of a body a run judges.
	MaxBodyValues = judge.MaxBodyValues
	// MaxTransportFailures is how many requests of a run may go without a
	// complete answer before the run stops and skips the checks left.
	MaxTransportFailures = judge.MaxTransportFailures
	// MaxRateLimitRetries is how often a request answered 429 is sent
	// again.
	MaxRateLimitRetries = judge.MaxRateLimitRetries
	// MaxRetryWait bounds each wait before a request answered 429 is
	// sent again.
	MaxRetryWait = judge.MaxRetryWait
	// MaxRateLimited is how many requests of a run may still be answered
	// 429 after their retries before the run stops.
	MaxRateLimited = judge.MaxRateLimited
)

// MaxSampledValues is the most values of one enumeration that the checks
// take one each of, such as a check of the status filter for each
// PetStatus; the coverage summary says which enumerations were sampled.
const MaxSampledValues = check.MaxSampledValues
