package mockserver

import (
	"fmt"
	"net/http"
	"strconv"
)

// Error codes sent in the code field of an Error body. The interface leaves
// the set open; the document lists these under x-petmock-codes.
const (
	CodeBadRequest           = "bad_request"
	CodeUnauthorized         = "unauthorized"
	CodeNotFound             = "not_found"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodePayloadTooLarge      = "payload_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeGone                 = "gone"
	CodeStoreFull            = "store_full"
	CodeInternal             = "internal"
	CodeUnavailable          = "unavailable"
)

// codeFor returns the code of an Error with the given status.
func codeFor(status int) string {
	switch status {
	case http.StatusBadRequest:
		return CodeBadRequest
	case http.StatusUnauthorized:
		return CodeUnauthorized
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusMethodNotAllowed:
		return CodeMethodNotAllowed
	case http.StatusGone:
		return CodeGone
	case http.StatusRequestEntityTooLarge:
		return CodePayloadTooLarge
	case http.StatusUnsupportedMediaType:
		return CodeUnsupportedMediaType
	case http.StatusInsufficientStorage:
		return CodeStoreFull
	case http.StatusServiceUnavailable:
		return CodeUnavailable
	default:
		return CodeInternal
	}
}

// Error is an error answer: its status is the HTTP status, and it is sent
// as the Error body {"code", "message", "status"}. Every failure a handler
// or the request pipeline returns is an *Error or is answered as an
// internal one.
type Error struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"` // lowercase, naming the field at fault: "limit: must be at most 100"

	header map[string]string // sent with the answer, such as Allow
}

var _ error = (*Error)(nil)

// Error returns the status, code and message of e on one line.
func (e *Error) Error() string {
	return strconv.Itoa(e.Status) + " " + e.Code + ": " + e.Message
}

// newError returns an *Error with the given status, its code, and a
// message that begins with the field at fault.
func newError(status int, field, format string, args ...any) *Error {
	return &Error{Status: status, Code: codeFor(status), Message: field + ": " + fmt.Sprintf(format, args...)}
}

func badRequest(field, format string, args ...any) *Error {
	return newError(http.StatusBadRequest, field, format, args...)
}

// withHeader returns e with a header to send along.
func (e *Error) withHeader(name, value string) *Error {
	if e.header == nil {
		e.header = make(map[string]string, 1)
	}
	e.header[name] = value
	return e
}

// writeError answers with the Error body of e.
func writeError(w http.ResponseWriter, e *Error) {
	for name, value := range e.header {
		w.Header().Set(name, value)
	}
	writeJSON(w, e.Status, append(appendErrorJSON(make([]byte, 0, 96+len(e.Message)), e), '\n'))
}

// writeJSON answers with status and a JSON body.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

var jsonContentType = []string{"application/json"}
