package mockserver

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// The document is served at /openapi.yaml and /openapi.json, with its
// servers replaced by the running mock, so that code generators and API
// explorers can be aimed at it. Neither needs a key.
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

func newServedDocs(doc *openapi3.T, base string) (*servedDocs, error) {
	server := "http://" + hostPlaceholder + base
	d := *doc
	d.Servers = openapi3.Servers{{URL: server, Description: "This petmock."}}
	js, err := d.MarshalJSON()
	if err != nil {
		return nil, err
	}
	ym, err := replaceServers(spec.YAML(), server)
	if err != nil {
		return nil, err
	}
	return &servedDocs{yaml: ym, json: append(js, '\n')}, nil
}

// replaceServers replaces the top-level servers block of a YAML document,
// keeping everything else as written, comments and order included.
func replaceServers(doc []byte, url string) ([]byte, error) {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	start := -1
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("servers:")) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("document has no top-level servers")
	}
	end := start + 1
	for end < len(lines) && (len(lines[end]) == 0 || lines[end][0] == ' ' || lines[end][0] == '-' || lines[end][0] == '\n') {
		end++
	}
	var out bytes.Buffer
	for _, l := range lines[:start] {
		out.Write(l)
	}
	fmt.Fprintf(&out, "servers:\n  - url: %s\n    description: This petmock.\n", url)
	for _, l := range lines[end:] {
		out.Write(l)
	}
	return out.Bytes(), nil
}

// serveDoc answers /openapi.yaml or /openapi.json.
func (s *Server) serveDoc(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return newError(http.StatusMethodNotAllowed, "method", "%s is not allowed on %s; use GET, HEAD", r.Method, r.URL.Path).
			withHeader("Allow", "GET, HEAD")
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
