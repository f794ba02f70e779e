package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// MaxJournalBytes bounds what Read reads: petmock's journal keeps at most
// 10,000 requests of at most 4 KiB of body each, far less.
const MaxJournalBytes = 256 << 20

// Request is one request of the app and petmock's answer, as petmock's
// journal shows them (GET /__petmock/requests).
type Request struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	// Path is the path as the app sent it, petmock's base path included,
	// and Query its raw query.
	Path  string `json:"path"`
	Query string `json:"query,omitempty"`
	// Status is petmock's, 0 when a fault answered below HTTP.
	Status int `json:"status"`
	// Fault and Expectation say what answered in petmock's handler's
	// place, if anything did.
	Fault       string  `json:"fault,omitempty"`
	Expectation int64   `json:"expectation,omitempty"`
	Request     Message `json:"request"`
	Response    Message `json:"response"`
}

// Message is the headers and the body of a request or an answer, as the
// journal kept them: secrets shown as "[redacted]", a body cut after 4
// KiB, which Truncated says.
type Message struct {
	Header    http.Header `json:"headers,omitempty"`
	Body      string      `json:"body,omitempty"`
	Truncated bool        `json:"truncated,omitempty"`
}

// Read reads a journal export: the object GET /__petmock/requests answers,
// {"requests": [...]}, or the array of its requests alone. It returns the
// requests oldest first, the order the app sent them in, where the
// journal lists them newest first.
func Read(r io.Reader) ([]Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxJournalBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxJournalBytes {
		return nil, fmt.Errorf("larger than %d MiB; is it a journal of petmock's?", MaxJournalBytes>>20)
	}
	data = bytes.TrimSpace(data)
	var reqs []Request
	switch {
	case len(data) == 0:
		return nil, errors.New("empty: want the JSON GET /__petmock/requests answers")
	case data[0] == '[':
		err = json.Unmarshal(data, &reqs)
	default:
		var export struct {
			Requests *[]Request `json:"requests"`
		}
		err = json.Unmarshal(data, &export)
		if err == nil && export.Requests == nil {
			err = errors.New(`no "requests": want the JSON GET /__petmock/requests answers, {"requests": [...]}`)
		}
		if export.Requests != nil {
			reqs = *export.Requests
		}
	}
	if err != nil {
		return nil, fmt.Errorf("not a journal of petmock's: %v", err)
	}
	for i, x := range reqs {
		switch {
		case x.Method == "":
			return nil, fmt.Errorf("requests[%d]: no method", i)
		case x.Path == "" || x.Path[0] != '/':
			return nil, fmt.Errorf("requests[%d]: path %q: want one as the app sent it, such as /v1/pets", i, x.Path)
		}
	}
	slices.Reverse(reqs)
	// A journal is newest first; so is an export joined of several. The
	// sort keeps the order of requests of one instant.
	slices.SortStableFunc(reqs, func(a, b Request) int { return a.Time.Compare(b.Time) })
	return reqs, nil
}
