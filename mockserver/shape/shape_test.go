package shape

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/petstore/contract/spec"
)

// testPet is a pet as encoding/json writes it, for the texts petmock's
// are compared with.
type testPet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// text returns encoding/json's text of p, without HTML escaping.
func (p testPet) text() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(p)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// petShape returns the shape of a pet of the embedded document.
func petShape(tb testing.TB) *Shape {
	tb.Helper()
	c, err := spec.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return NewBuilder(c).Item(c.Resources[0])
}

// checkItemJSON compares the text petmock writes for a pet with the text
// encoding/json writes without HTML escaping, members in the order of the
// document.
func checkItemJSON(t *testing.T, sh *Shape, p testPet) {
	t.Helper()
	item := map[string]any{"id": json.Number(strconv.FormatInt(p.ID, 10)), "name": p.Name, "categoryId": json.Number(strconv.FormatInt(p.CategoryID, 10))}
	if p.Status != "" {
		item["status"] = p.Status
	}
	if got, want := sh.AppendJSON(nil, item), p.text(); !bytes.Equal(got, want) {
		t.Errorf("item %+q = %s, want %s", p.Name, got, want)
	}
}

func TestItemJSONMatchesEncodingJSON(t *testing.T) {
	sh := petShape(t)
	names := []string{"", "Rex", `quo"te`, `back\slash`, "<b>&amp;</b>", "tab\there", "\x00\x01\x1f\x7f",
		"Zoë 🐶", "\u2028\u2029", "bad \xff utf8", "\xed\xa0\x80", "new\nline\r"}
	for _, name := range names {
		p := testPet{ID: -42, Name: name, CategoryID: math.MaxInt64, Status: "sold"}
		checkItemJSON(t, sh, p)
		p.Status = ""
		checkItemJSON(t, sh, p)
	}
}

func FuzzItemJSON(f *testing.F) {
	f.Add("Rex", int64(1), int64(2))
	f.Add("<\u2028\xff>", int64(-1), int64(math.MinInt64))
	sh := petShape(f)
	f.Fuzz(func(t *testing.T, name string, id, category int64) {
		checkItemJSON(t, sh, testPet{ID: id, Name: name, CategoryID: category, Status: "pending"})
	})
}

// TestItemJSONKeepsWhatTheSchemaDeclares: members come in the document's
// order whatever order they were sent in, undeclared ones are dropped, and
// integers are written in plain digits.
func TestItemJSONKeepsWhatTheSchemaDeclares(t *testing.T) {
	sh := petShape(t)
	v, e := decode([]byte(`{"status":"sold","NAME":"shadow","categoryId":1e2,"name":"Rex","id":7.0,"extra":{"a":1}}`))
	if e != nil {
		t.Fatal(e)
	}
	if got, want := string(sh.AppendJSON(nil, v)), `{"id":7,"name":"Rex","categoryId":100,"status":"sold"}`; got != want {
		t.Errorf("item = %s, want %s", got, want)
	}
}

func TestExactIntegers(t *testing.T) {
	sh := petShape(t)
	for _, tt := range []struct {
		body, want string
	}{
		{`{"id":1,"name":"a","categoryId":9223372036854775807}`, ""},
		{`{"id":1,"name":"a","categoryId":1e2}`, ""},
		{`{"id":1,"name":"a","categoryId":9223372036854775808}`, "categoryId: must be an integer (int64)"},
		{`{"id":1.5,"name":"a","categoryId":1}`, "id: must be an integer (int64)"},
		{`{"id":1,"name":"a","categoryId":-9223372036854775809}`, "categoryId: must be an integer (int64)"},
	} {
		v, _ := decode([]byte(tt.body))
		e := sh.ExactIntegers(v, "body")
		switch {
		case tt.want == "" && e != nil:
			t.Errorf("%s: %v, want none", tt.body, e)
		case tt.want != "" && (e == nil || e.Error() != tt.want):
			t.Errorf("%s: %v, want %q", tt.body, e, tt.want)
		}
	}
}

// decode decodes a JSON text with its numbers as json.Number.
func decode(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// discriminated is a Pet whose oneOf names a Cat and a Dog, each an allOf
// of the Pet itself, as a discriminator's children often are.
const discriminated = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths: {}
components:
  schemas:
    Pet:
      type: object
      required: [id, petType]
      properties: {id: {type: integer}, petType: {type: string}}
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: petType}
    Cat: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {meow: {type: boolean}}}]}
    Dog: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {bark: {type: boolean}}}]}
`

// TestAlternativeNamesOfCycles: the members of a oneOf that refer back to
// its owner are walked once each, their names given once: where each
// level was walked twice over, to a depth of 32, a start never ended.
func TestAlternativeNamesOfCycles(t *testing.T) {
	c, err := spec.Read([]byte(discriminated))
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(slices.Values(alternativeNames(c.Doc.Components.Schemas["Pet"].Value)))
	if want := []string{"bark", "id", "meow", "petType"}; !slices.Equal(got, want) {
		t.Errorf("alternativeNames(Pet) = %v, want %v", got, want)
	}
}
