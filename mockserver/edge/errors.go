package edge

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Error codes sent in the code field of an Error body. The interface leaves
// the set open; the document lists these under x-petmock-codes.
const (
	CodeBadRequest           = "bad_request"
	CodeUnauthorized         = "unauthorized"
	CodeForbidden            = "forbidden"
	CodeNotAcceptable        = "not_acceptable"
	CodeNotFound             = "not_found"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodePayloadTooLarge      = "payload_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeGone                 = "gone"
	CodeConflict             = "conflict"
	CodeStoreFull            = "store_full"
	CodeInternal             = "internal"
	CodeUnavailable          = "unavailable"
	CodeBadGateway           = "bad_gateway"

	// Codes of the answers Go's HTTP server makes before petmock sees a
	// request, which Listener turns into Error bodies.
	CodeRequestTimeout          = "request_timeout"
	CodeExpectationFailed       = "expectation_failed"
	CodeHeadersTooLarge         = "headers_too_large"
	CodeNotImplemented          = "not_implemented"
	CodeHTTPVersionNotSupported = "http_version_not_supported"
)

// codeFor returns the code of an Error with the given status.
func codeFor(status int) string {
	switch status {
	case http.StatusBadRequest:
		return CodeBadRequest
	case http.StatusUnauthorized:
		return CodeUnauthorized
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotAcceptable:
		return CodeNotAcceptable
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusMethodNotAllowed:
		return CodeMethodNotAllowed
	case http.StatusGone:
		return CodeGone
	case http.StatusConflict:
		return CodeConflict
	case http.StatusRequestEntityTooLarge:
		return CodePayloadTooLarge
	case http.StatusUnsupportedMediaType:
		return CodeUnsupportedMediaType
	case http.StatusInsufficientStorage:
		return CodeStoreFull
	case http.StatusServiceUnavailable:
		return CodeUnavailable
	case http.StatusBadGateway:
		return CodeBadGateway
	case http.StatusRequestTimeout:
		return CodeRequestTimeout
	case http.StatusExpectationFailed:
		return CodeExpectationFailed
	case http.StatusRequestHeaderFieldsTooLarge:
		return CodeHeadersTooLarge
	case http.StatusNotImplemented:
		return CodeNotImplemented
	case http.StatusHTTPVersionNotSupported:
		return CodeHTTPVersionNotSupported
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

// NewError returns an *Error with the given status, its code, and a
// message that begins with the field at fault:
// NewError(400, "limit", "must be at most %d", 100) says
// "limit: must be at most 100".
func NewError(status int, field, format string, args ...any) *Error {
	return &Error{Status: status, Code: codeFor(status), Message: field + ": " + fmt.Sprintf(format, args...)}
}

func BadRequest(field, format string, args ...any) *Error {
	return NewError(http.StatusBadRequest, field, format, args...)
}

// Each error below is built in one place, whichever path refuses the
// request.

// NotAnOperation is the 404 of a path that is no operation of the API.
func NotAnOperation(path string) *Error {
	return NewError(http.StatusNotFound, "path", "%s is not an operation of this API", path)
}

// MethodNotAllowed is the 405 of a method the path does not take, with the
// Allow header that OPTIONS sends too.
func MethodNotAllowed(method, path string, allow []string) *Error {
	list := strings.Join(allow, ", ")
	return NewError(http.StatusMethodNotAllowed, "method", "%s is not allowed on %s; use %s", method, path, list).
		WithHeader("Allow", list)
}

// TooLarge is the 413 of a body over limit bytes.
func TooLarge(limit int64) *Error {
	return NewError(http.StatusRequestEntityTooLarge, "body", "larger than %d bytes", limit)
}

// UnsupportedMediaType is the 415 of a body of another type than those
// the operation takes.
func UnsupportedMediaType(want []string, got string) *Error {
	if got == "" {
		got = "none"
	}
	return NewError(http.StatusUnsupportedMediaType, "content-type", "must be %s, not %s", strings.Join(want, " or "), got)
}

// WithHeader returns e with a header to send along, such as Allow or
// Retry-After.
func (e *Error) WithHeader(name, value string) *Error {
	if e.header == nil {
		e.header = make(map[string]string, 1)
	}
	e.header[name] = value
	return e
}

// WriteBody answers with status and a body of the given Content-Type,
// such as the JSON type a document names.
func WriteBody(w http.ResponseWriter, status int, contentType []string, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// SharedWriter is a ResponseWriter that keeps what it writes, as the
// journal's recorder does, and can keep the bytes it is given rather than
// a copy of them when they are never written to again.
type SharedWriter interface {
	WriteShared(b []byte) (int, error)
}

// WriteSharedBody is WriteBody of a body that nobody writes to again, such
// as the bytes of an answer kept for the requests that ask the same, or
// made for this answer alone and let go after it: a SharedWriter keeps
// body itself, where Write would copy it. length is its Content-Length,
// as ContentLength gives it, which a body kept keeps too.
func WriteSharedBody(w http.ResponseWriter, status int, contentType, length []string, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentType
	h["Content-Length"] = length
	w.WriteHeader(status)
	if sw, ok := w.(SharedWriter); ok {
		sw.WriteShared(body)
		return
	}
	w.Write(body)
}

// ContentLength is the value of the Content-Length header of body.
func ContentLength(body []byte) []string { return []string{strconv.Itoa(len(body))} }

var JSONContentType = []string{"application/json"}

// StatusList writes statuses as a message lists them: "200, 400, 401".
func StatusList(statuses []int) string {
	list := make([]string, len(statuses))
	for i, c := range statuses {
		list[i] = strconv.Itoa(c)
	}
	return strings.Join(list, ", ")
}
