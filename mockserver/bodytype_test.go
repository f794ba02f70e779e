package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// bodyTypeDocument has a resource whose bodies say they are objects, one
// whose bodies have properties but no type, and an operation of no
// resource of each kind.
const bodyTypeDocument = `
  /typed:
    post:
      operationId: createTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
  /typed/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getTyped
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
    put:
      operationId: replaceTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
    patch:
      operationId: updateTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
  /loose:
    post:
      operationId: createLoose
      requestBody: {content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
  /loose/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getLoose
      responses:
        '200': {description: the item, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
    patch:
      operationId: updateLoose
      requestBody: {required: true, content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
  /actions/typed:
    post:
      operationId: typedAction
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: done, content: {application/json: {schema: {type: object}}}}
  /actions/loose:
    post:
      operationId: looseAction
      requestBody: {required: true, content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '200': {description: done, content: {application/json: {schema: {type: object}}}}
`

// TestBodyOfAnotherType: a body of another JSON type than the object the
// document asks for is a 400 on every operation, of a resource or not,
// never a success and never a 500; a schema without a type takes any JSON
// value, but a resource keeps its items as objects, and says so in a 400
// rather than fail.
func TestBodyOfAnotherType(t *testing.T) {
	c := document(t, bodyTypeDocument)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		method, path, body string
		want               int
	}{
		{"POST", "/typed", `[1,2]`, 400},
		{"POST", "/typed", `"a"`, 400},
		{"POST", "/typed", `null`, 400},
		{"PUT", "/typed/1", `[1,2]`, 400},
		{"PATCH", "/typed/1", `[1,2]`, 400},
		{"POST", "/actions/typed", `[1,2]`, 400},
		{"POST", "/actions/typed", `7`, 400},
		{"POST", "/actions/loose", `[1,2]`, 200},
		{"POST", "/actions/loose", `7`, 200},
		{"POST", "/loose", `[1,2]`, 400},
		{"POST", "/loose", `null`, 400},
		{"POST", "/loose", ``, 201},
		{"PATCH", "/loose/1", `[1,2]`, 400},
		{"PATCH", "/loose/1", `"a"`, 400},
		{"POST", "/loose", `{"name":"Rex"}`, 201},
	} {
		headers := []string{"X-API-Key", key}
		if tt.body != "" {
			headers = append(headers, "Content-Type", "application/json")
		}
		req, resp, body := fetch(t, tt.method, base+"/v1"+tt.path, tt.body, headers...)
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s %s: %d, want %d\n%s", tt.method, tt.path, tt.body, resp.StatusCode, tt.want, body)
			continue
		}
		if resp.StatusCode != http.StatusBadRequest {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s %s %s: %v", tt.method, tt.path, tt.body, err)
			}
		}
	}
}

// TestFormBodies: form bodies as OpenAPI and Swagger 2.0 define them: a
// ';' in a urlencoded body is a character of a value, as the URL Standard
// reads forms, not a separator to refuse; a member whose schema names no
// type, as Twilio's SinkConfiguration, or an array of items that name
// none, as its Types, is its text, not null nor unreadable, and still
// required; a member of an object, or an array of objects, is its JSON,
// where openapi3filter read no form of such a schema; a multipart body whose schema
// declares no part takes any parts, and still holds them to the schema's
// required parts; one that is not multipart at all is a 400.
func TestFormBodies(t *testing.T) {
	c := document(t, `
  /search:
    post:
      operationId: search
      requestBody: {required: true, content: {application/x-www-form-urlencoded: {schema: {type: object, required: [q], properties: {q: {type: string, pattern: '^[a-z;]+$'}, n: {type: integer}, filter: {type: object, properties: {a: {type: string}}}, tags: {type: array, items: {type: object, properties: {b: {type: integer}}}}}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
  /sinks:
    post:
      operationId: createSink
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: object, required: [Config, Kind], properties: {Config: {description: JSON}, Kind: {type: string}, Types: {type: array, items: {}}}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
  /upload:
    post:
      operationId: upload
      requestBody: {required: true, content: {multipart/form-data: {schema: {type: object, required: [file]}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
  /playlists:
    post:
      operationId: addPlaylist
      requestBody: {required: true, content: {multipart/form-data: {schema: {type: object, properties: {name: {type: string}, channel: {allOf: [{type: integer, minimum: 1}]}}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
  /upload/any:
    post:
      operationId: uploadAny
      requestBody: {required: true, content: {multipart/form-data: {schema: {}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	const form = "application/x-www-form-urlencoded"
	const multipart = "multipart/form-data; boundary=XX"
	parts := "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n" +
		"--XX\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--XX--\r\n"
	noFile := "--XX\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--XX--\r\n"
	channel := func(v string) string {
		return "--XX\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nmine\r\n--XX\r\nContent-Disposition: form-data; name=\"channel\"\r\n\r\n" + v + "\r\n--XX--\r\n"
	}
	for _, tt := range []struct {
		path, contentType, body string
		want                    int
	}{
		{"/search", form, "q=a;b&n=1", 200},
		{"/search", form, "q=a%3Bb", 200},
		{"/search", form, "q=A;b", 400},
		{"/search", form, "n=1;q=a", 400}, // n is "1;q=a", and q is missing
		// An object member as JSON, as the suite and many clients send
		// one (Salesloft's custom_fields), or an array of objects so.
		{"/search", form, "q=a&filter=%7B%22a%22%3A%22x%22%7D", 200},
		{"/search", form, "q=a&filter=%7B%7D", 200},
		{"/search", form, "q=a&filter=%7B%22a%22%3A1%7D", 400},
		{"/search", form, "q=a&filter=nothing", 400},
		{"/search", form, "q=a&tags=%5B%7B%22b%22%3A1%7D%5D", 200},
		{"/sinks", form, "Config=that&Kind=webhook", 200},
		{"/sinks", form, "Config=%7B%7D&Config=x&Kind=webhook", 200},
		{"/sinks", form, "Kind=webhook", 400},
		{"/sinks", form, "Config=that&Kind=webhook&Types=a&Types=b", 200},
		{"/sinks", form, "Config=that&Kind=webhook&Types=a", 200},
		{"/upload", multipart, parts, 200},
		// A member of an allOf of an integer, as PeerTube's
		// videoChannelId, is read as one.
		{"/playlists", multipart, channel("2"), 200},
		{"/playlists", multipart, channel("0"), 400},
		{"/playlists", multipart, channel("two"), 400},
		{"/upload", multipart, noFile, 400},
		{"/upload", multipart, "not multipart", 400},
		{"/upload/any", multipart, parts, 200},
	} {
		req, resp, body := fetch(t, "POST", base+"/v1"+tt.path, tt.body, "X-API-Key", key, "Content-Type", tt.contentType)
		if resp.StatusCode != tt.want {
			t.Errorf("POST %s %q: %d, want %d\n%s", tt.path, tt.body, resp.StatusCode, tt.want, body)
			continue
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); resp.StatusCode == 200 && err != nil {
			t.Errorf("POST %s %q: %v", tt.path, tt.body, err)
		}
	}
}
