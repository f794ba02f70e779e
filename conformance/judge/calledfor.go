package judge

import (
	"slices"
)

// HTTP requires some statuses of a server whatever its document says: 401
// to a request without a valid key (RFC 9110, 15.5.2), 400 to one it will
// not process as sent (15.5.1), and 404 for an item that is not there
// (15.5.5). Documents often leave them out: Swagger Petstore's addPet
// documents only a 405, and no 401 though it takes a key. A server answers
// them all the same, petmock included (it lists such operations in its
// start-up notes), so a request that calls for one on purpose may get it
// where its operation does not document it: a request without a key, or
// with a wrong one, calls for 401 and 403 (the check wants the one the
// operation documents, and 401 where it documents neither); an invalid
// request calls for 400; and a request of an operation on one item of a
// resource calls for 404, as the item may not be there. The body of such
// an answer is held to the error body the document gives an error its
// operation does not document (answercheck.CheckError): any body where the
// document gives none. Anywhere else a status the operation does not
// document breaks contract.response, as a 401 to a request with the run's
// key does, or a 500. The suite never sends a body too large or of a
// media type the operation does not take, so it never calls for 413 or
// 415. This holds in a strict run too: petmock answers those statuses
// itself.

// CallingFor returns the option that marks a request as one that calls
// for statuses, which its answer may have whether its operation documents
// them or not.
func CallingFor(statuses ...int) Option {
	return func(r *Request) {
		for _, s := range statuses {
			if !slices.Contains(r.calledFor, s) {
				r.calledFor = append(r.calledFor, s)
			}
		}
	}
}
