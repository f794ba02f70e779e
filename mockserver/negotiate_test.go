package mockserver_test

import (
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// negotiateDocument answers in several media types: a resource of pets in
// JSON and XML, as Swagger Petstore's, and an operation of no resource in
// JSON, a vendor's JSON, XML and text, with examples of its own.
const negotiateDocument = `
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '201':
          description: created
          content:
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
            application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: the pet
          content:
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
            application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
            application/vnd.pets+json: {schema: {$ref: '#/components/schemas/Pet'}}
  /report:
    get:
      operationId: getReport
      responses:
        '200':
          description: the report
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Report'}
              example: {title: "the report", total: 3}
            application/xml:
              schema: {$ref: '#/components/schemas/Report'}
            text/plain:
              schema: {type: string}
              examples: {short: {value: "three pets"}}
`

const negotiateSchemas = `
    Report:
      type: object
      required: [title, total]
      properties:
        title: {type: string}
        total: {type: integer}
        tags:
          type: array
          xml: {wrapped: true}
          items: {type: string, xml: {name: tag}}
      xml: {name: report}
`

// TestContentNegotiation: an answer is in the media type the request's
// Accept prefers among those its operation documents, XML made from the
// schema, a vendor's JSON under its name, text as text, and 406 where
// Accept takes none of them; a media type's own example answers before a
// made value.
func TestContentNegotiation(t *testing.T) {
	c := documentWith(t, negotiateDocument, negotiateSchemas)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	for _, tt := range []struct {
		path, accept string
		want         int
		contentType  string
		body         string // the body holds it
	}{
		{"/pets/1", "", 200, "application/json", `"id":1`},
		{"/pets/1", "application/xml", 200, "application/xml", "<Pet><id>1</id>"},
		{"/pets/1", "application/vnd.pets+json", 200, "application/vnd.pets+json", `"id":1`},
		{"/pets/1", "application/xml;q=0.5, application/json", 200, "application/json", `"id":1`},
		{"/pets/1", "text/html", 406, "application/json", "accept: text/html takes none of the media types of this answer: application/json, application/vnd.pets+json, application/xml"},
		{"/report", "*/*", 200, "application/json", `{"title":"the report","total":3}`},
		{"/report", "text/plain", 200, "text/plain; charset=utf-8", "three pets"},
		{"/report", "application/xml", 200, "application/xml", "<report><title>"},
		{"/report", "image/png", 406, "application/json", "not_acceptable"},
	} {
		headers := auth
		if tt.accept != "" {
			headers = append(headers, "Accept", tt.accept)
		}
		req, resp, body := fetch(t, http.MethodGet, base+"/v1"+tt.path, "", headers...)
		what := "GET " + tt.path + " with Accept: " + tt.accept
		if resp.StatusCode != tt.want || resp.Header.Get("Content-Type") != tt.contentType || !strings.Contains(string(body), tt.body) {
			t.Errorf("%s: %d %s %s, want %d %s holding %s", what, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.want, tt.contentType, tt.body)
			continue
		}
		if strings.Contains(tt.contentType, "xml") {
			var v any
			if err := xml.Unmarshal(body, &v); err != nil {
				t.Errorf("%s: not XML: %v\n%s", what, err, body)
			}
			continue // kin-openapi reads no XML
		}
		if resp.StatusCode == http.StatusOK {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s: %v", what, err)
			}
		}
	}
	// A create answers the item in XML too.
	_, resp, body := fetch(t, http.MethodPost, base+"/v1/pets", `{"name":"Rex"}`, append(auth, "Content-Type", "application/json", "Accept", "application/xml")...)
	if resp.StatusCode != http.StatusCreated || !strings.Contains(string(body), "<name>Rex</name>") {
		t.Errorf("POST /pets with Accept: application/xml: %d %s", resp.StatusCode, body)
	}
}

// TestIgnoredHeaderParameters: a header parameter named Accept,
// Content-Type or Authorization is ignored, as OpenAPI says: rev.ai
// declares Accept of an enumeration of one media type each, and an Accept
// of both, or of another type the answers offer, is negotiated, not
// refused for the enumeration.
func TestIgnoredHeaderParameters(t *testing.T) {
	c := document(t, `
  /captions:
    get:
      operationId: getCaptions
      parameters:
        - {name: Accept, in: header, schema: {type: string, enum: [application/x-subrip, text/vtt]}}
        - {name: Content-Type, in: header, required: true, schema: {type: string, enum: [text/plain]}}
      responses:
        '200':
          description: The captions.
          content:
            application/x-subrip: {schema: {type: string}}
            text/vtt: {schema: {type: string}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, accept := range []string{"application/x-subrip, text/vtt", "text/vtt;q=0.5, application/x-subrip"} {
		if _, resp, body := fetch(t, http.MethodGet, base+"/v1/captions", "", "X-API-Key", key, "Accept", accept); resp.StatusCode != http.StatusOK {
			t.Errorf("GET /v1/captions, Accept: %s: %d, want 200\n%s", accept, resp.StatusCode, body)
		}
	}
}
