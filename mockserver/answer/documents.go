package answer

import (
	"bytes"
	"net/http"

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
// and host, in the documents prepared at start.
const originPlaceholder = "http://petmock.host.placeholder"

// Documents are the document as YAML and JSON, with originPlaceholder
// where the origin goes.
type Documents struct {
	yaml, json []byte
}

// NewDocuments prepares the document of c to be served.
func NewDocuments(c *spec.Contract) (*Documents, error) {
	ym, js, err := c.Served(originPlaceholder+c.Base, "This petmock.")
	if err != nil {
		return nil, err
	}
	return &Documents{yaml: ym, json: js}, nil
}

// IsDocument reports whether path is where the document is served.
func IsDocument(path string) bool { return path == DocYAMLPath || path == DocJSONPath }

// Serve answers /openapi.yaml or /openapi.json.
func (d *Documents) Serve(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return edge.MethodNotAllowed(r.Method, r.URL.Path, edge.Allow([]string{http.MethodGet}))
	}
	body, contentType := d.json, "application/json"
	if r.URL.Path == DocYAMLPath {
		body, contentType = d.yaml, "application/yaml"
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
