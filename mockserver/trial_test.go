package mockserver_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/corpus"
)

// slipping are trial documents of the corpus that petmock once refused
// for a slip it now serves past, or served at the wrong place: a
// protocol-relative server, servers of paths and operations.
var slipping = []string{
	"codat-commerce",        // definitions, a keyword of JSON Schema kin-openapi does not know, in a 3.1 schema
	"scalar-galaxy",         // a server variable whose default is ''
	"ideal-postcodes",       // nullable: true with enum: [null], a value always null
	"netlify-2.0",           // two paths that differ by the names of their parameters
	"vercel",                // the same, and unknown keywords in 3.1 schemas
	"discourse",             // a schema's members one level too high in a 3.1 schema
	"blockfrost",            // type: 'null' in an anyOf of a 3.0 schema
	"twilio-messaging-v1",   // every path with a server of its own on another host
	"oas-server-path-level", // servers of paths and operations, relative, with variables
}

// exampleIDs are trial documents of the corpus whose ids of a resource
// have a schema that gives one example, which the catalogue once made
// for every item, and refused the document at the second.
var exampleIDs = []string{
	"launchdarkly", // the key of a project, example: new-project
	"box",          // the id of a shield information barrier, example: "11446498"
	"dialogporten", // the id of a dialog, format guid, one example
}

// TestTrialDocumentsServed: each of the trial documents above is served,
// with its catalogue,
// and every GET operation of it that a test can write a request of is
// answered a status it documents, below the base path it is served below.
func TestTrialDocumentsServed(t *testing.T) {
	t.Parallel()
	for _, name := range slices.Concat(slipping, exampleIDs) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := corpus.Trial(t, name)
			c, err := spec.ReadFile(f.Path)
			if err != nil {
				t.Fatalf("%s is refused: %v", name, err)
			}
			srv, base := plainServer(t, mockserver.Config{Contract: c})
			cc := newCorpusClient(t, c, base)
			var sent int
			for _, op := range c.Operations {
				if op.Method != http.MethodGet {
					continue
				}
				req, ok := cc.request(op, nil, false)
				if !ok {
					t.Logf("%s: a required parameter is not one a test can write", op.ID)
					continue
				}
				var headers []string
				for name := range req.Header {
					headers = append(headers, name, req.Header.Get(name))
				}
				_, resp, body := fetch(t, req.Method, req.URL.String(), "", headers...)
				if !op.Documents(resp.StatusCode) && !noted(srv, resp.StatusCode) {
					t.Errorf("GET %s: %d, which %s does not document\n%.300s", req.URL.RequestURI(), resp.StatusCode, op.ID, body)
				}
				sent++
			}
			if sent == 0 {
				t.Errorf("%s: no GET was sent", name)
			}
		})
	}
}

// TestTrialRefusedInOneLine: DigitalOcean's document refers to other
// files, which petmock does not fetch: it is refused in one line that
// names the reference.
func TestTrialRefusedInOneLine(t *testing.T) {
	t.Parallel()
	f := corpus.Trial(t, "digitalocean")
	_, err := spec.ReadFile(f.Path)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "external reference") {
		t.Errorf("digitalocean: Read = %v, want a refusal in one line that names the external reference", err)
	}
}
