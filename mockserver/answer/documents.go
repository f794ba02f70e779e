package answer

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/spec"
)

// The document is served at /openapi.yaml and /openapi.json, with its
// servers replaced by the running mock, at the origin the client used as
// Link URLs are, so that code generators and API explorers can be aimed
// at it. Both keep the document's order. Neither needs a key.
const (
	DocYAMLPath = "/openapi.yaml"
	DocJSONPath = "/openapi.json"
)

// originPlaceholder stands for the origin a request was sent to, scheme
// and host, in the documents as they are made, once, for every request.
const originPlaceholder = "http://petmock.host.placeholder"

// Documents are the document as YAML and JSON, with originPlaceholder
// where the origin goes. They are made on the first request of either:
// the two are copies of the whole document, which no answer of the API
// needs, so that a start neither spends the time of writing them nor
// holds their memory (60 MB for a document of 60,000 paths) until a
// client asks.
type Documents struct {
	contract *spec.Contract
	once     sync.Once
	yaml     []byte
	json     []byte
	err      error
}

// NewDocuments returns the document of c as it is served, made on first
// use.
func NewDocuments(c *spec.Contract) *Documents {
	return &Documents{contract: c}
}

// prepared returns the documents, made the first time it is called.
func (d *Documents) prepared() (ym, js []byte, err error) {
	d.once.Do(func() {
		c := d.contract
		d.yaml, d.json, d.err = c.Served(originPlaceholder+c.Base, "This petmock.")
	})
	return d.yaml, d.json, d.err
}

// IsDocument reports whether path is where the document is served.
func IsDocument(path string) bool { return path == DocYAMLPath || path == DocJSONPath }

// Serve answers /openapi.yaml or /openapi.json.
func (d *Documents) Serve(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return edge.MethodNotAllowed(r.Method, r.URL.Path, edge.Allow([]string{http.MethodGet}))
	}
	ym, js, err := d.prepared()
	if err != nil {
		return err
	}
	body, contentType := js, "application/json"
	if r.URL.Path == DocYAMLPath {
		body, contentType = ym, "application/yaml"
	}
	scheme, host := edge.Origin(r)
	if !edge.ValidHost(host) {
		// A Host header may hold what would break out of the URL.
		host = "localhost"
	}
	body = bytes.ReplaceAll(body, []byte(originPlaceholder), []byte(scheme+"://"+host))
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	return nil
}
