package mockserver

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/petstore/contract/spec"
)

// The document is served at /openapi.yaml and /openapi.json, with its
// servers replaced by the running mock, so that code generators and API
// explorers can be aimed at it. Both keep the document's order. Neither
// needs a key.
const (
	docYAMLPath = "/openapi.yaml"
	docJSONPath = "/openapi.json"
)

// hostPlaceholder stands for the host a request was sent to in the
// documents prepared at start.
const hostPlaceholder = "petmock.host.placeholder"

// servedDocs are the document as YAML and JSON, with hostPlaceholder where
// the host goes.
type servedDocs struct {
	yaml, json []byte
}

func newServedDocs(c *spec.Contract) (*servedDocs, error) {
	ym, js, err := c.Served("http://"+hostPlaceholder+c.Base, "This petmock.")
	if err != nil {
		return nil, err
	}
	return &servedDocs{yaml: ym, json: js}, nil
}

// serveDoc answers /openapi.yaml or /openapi.json.
func (s *Server) serveDoc(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodNotAllowed(r.Method, r.URL.Path, s.methodsFor(r))
	}
	body, contentType := s.docs.json, "application/json"
	if r.URL.Path == docYAMLPath {
		body, contentType = s.docs.yaml, "application/yaml"
	}
	body = bytes.ReplaceAll(body, []byte(hostPlaceholder), []byte(safeHost(r.Host)))
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	return nil
}

// safeHost returns host if it is a plain host[:port], and localhost if it
// holds anything that could break out of a URL in a document.
func safeHost(host string) string {
	if host == "" || strings.IndexFunc(host, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c))
	}) >= 0 {
		return "localhost"
	}
	return host
}
