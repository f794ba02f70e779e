package mockserver

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
	docYAMLPath = "/openapi.yaml"
	docJSONPath = "/openapi.json"
)

// originPlaceholder stands for the origin a request was sent to, scheme
// and host, in the documents prepared at start.
const originPlaceholder = "http://petmock.host.placeholder"

// servedDocs are the document as YAML and JSON, with originPlaceholder
// where the origin goes.
type servedDocs struct {
	yaml, json []byte
}

func newServedDocs(c *spec.Contract) (*servedDocs, error) {
	ym, js, err := c.Served(originPlaceholder+c.Base, "This petmock.")
	if err != nil {
		return nil, err
	}
	return &servedDocs{yaml: ym, json: js}, nil
}

// serveDoc answers /openapi.yaml or /openapi.json.
func (s *Server) serveDoc(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return edge.MethodNotAllowed(r.Method, r.URL.Path, s.methodsFor(r))
	}
	body, contentType := s.docs.json, "application/json"
	if r.URL.Path == docYAMLPath {
		body, contentType = s.docs.yaml, "application/yaml"
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

// methodsFor returns the methods the path of r takes, as an Allow header
// lists them both on a 405 and on an answer to OPTIONS: those of the
// documents, or of the operations of its path. It returns nil for a path
// that is nothing the server serves.
func (s *Server) methodsFor(r *http.Request) []string {
	if path := r.URL.Path; path == docYAMLPath || path == docJSONPath {
		return edge.Allow([]string{http.MethodGet})
	}
	return s.gate.MethodsFor(r)
}
