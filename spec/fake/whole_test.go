package fake_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// wholeDocument is a document whose schemas ask of a value what public
// documents ask: discriminators, overlapping oneOf members, anyOf, unique
// items, integral numbers, allOf members that require or enumerate, deep
// required members, and members only written or only read.
const wholeDocument = `
openapi: 3.0.3
info: {title: whole, version: "1"}
paths: {}
components:
  schemas:
    Magnet: {type: string, format: uri, pattern: '(?i)magnet:\?xt=urn:[a-z0-9]+:[a-z0-9]{8}'}
    TaggedApi:
      type: object
      required: [tags]
      properties:
        tags:
          allOf:
            - {$ref: '#/components/schemas/TagMap'}
            - {description: The tags.}
    TagMap: {type: object, minProperties: 1, maxProperties: 50, additionalProperties: {type: string, maxLength: 256}}
    TypedSection:
      allOf:
        - {$ref: '#/components/schemas/Section'}
        - {type: object, properties: {Type: {type: string, example: About}}}
    ScimGroup:
      allOf:
        - type: object
          required: [members]
          properties:
            members:
              type: array
              minItems: 1
              items: {type: object, required: [value, $ref], properties: {value: {type: string}, $ref: {type: string}}}
        - type: object
          properties:
            members:
              type: array
              example: [{"$+ref": "https://x/Users/1", value: "1"}]
              items: {type: object, properties: {value: {type: string}, $ref: {type: string}}}
    Stations:
      allOf:
        - type: object
          required: [data]
          properties:
            data: {type: array, minItems: 1, items: {type: object}}
        - properties:
            data:
              type: array
              items: {type: object, required: [id, name], properties: {id: {type: string, format: uuid}, name: {type: string}}}
    Section:
      type: object
      required: [Type]
      properties:
        Type: {type: string, enum: [about, notes]}
    Stamps:
      type: object
      required: [used, made, sent]
      properties:
        used: {type: string, format: date-time, minLength: 24, maxLength: 24}
        made: {type: string, format: date-time, minLength: 27}
        sent: {type: string, format: date-time, minLength: 33, maxLength: 40}
    Pet:
      type: object
      required: [petType, name]
      properties:
        petType: {type: string}
        name: {type: string}
      discriminator:
        propertyName: petType
        mapping:
          cat: '#/components/schemas/Cat'
          dog: Dog
    Cat:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties:
            hunts: {type: boolean}
    Dog:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties:
            bark: {type: boolean}
    AnyPet:
      oneOf:
        - $ref: '#/components/schemas/Cat'
        - $ref: '#/components/schemas/Dog'
      discriminator:
        propertyName: petType
        mapping:
          cat: '#/components/schemas/Cat'
          dog: Dog
    Track:
      type: object
      required: [id]
      properties:
        id: {type: string}
        type: {type: string, enum: [track]}
        duration: {type: integer}
    Episode:
      type: object
      required: [id]
      properties:
        id: {type: string}
        type: {type: string, enum: [episode]}
        show: {type: string}
    Playable:
      oneOf:
        - $ref: '#/components/schemas/Track'
        - $ref: '#/components/schemas/Episode'
      discriminator:
        propertyName: type
    Loose:
      oneOf:
        - type: object
          properties:
            a: {description: anything}
        - type: object
          properties:
            b: {description: anything}
    Parent:
      type: object
      required: [id, petType]
      properties: {id: {type: integer}, petType: {type: string}}
      oneOf: [{$ref: '#/components/schemas/Kitten'}, {$ref: '#/components/schemas/Puppy'}]
      discriminator: {propertyName: petType}
    Kitten: {allOf: [{$ref: '#/components/schemas/Parent'}, {type: object, properties: {meow: {type: boolean}}}]}
    Puppy: {allOf: [{$ref: '#/components/schemas/Parent'}, {type: object, properties: {bark: {type: boolean}}}]}
    Loop:
      type: object
      required: [id]
      properties: {id: {type: integer}}
      oneOf: [{$ref: '#/components/schemas/LoopA'}, {$ref: '#/components/schemas/LoopB'}]
    LoopA: {allOf: [{$ref: '#/components/schemas/Loop'}, {type: object, properties: {a: {type: boolean}}}]}
    LoopB: {allOf: [{$ref: '#/components/schemas/Loop'}, {type: object, properties: {b: {type: boolean}}}]}
    OnlyOptional:
      oneOf:
        - {type: object, properties: {audio: {type: string}, title: {type: string}}}
        - {type: object, properties: {email: {type: string}, title: {type: string}}}
        - {type: object, properties: {podcasts: {type: array, items: {type: string}}, title: {type: string}}}
    Untyped:
      type: array
      items:
        oneOf:
          - properties:
              type: {type: string, enum: [email]}
              email: {type: string}
          - properties:
              type: {type: string, enum: [sms]}
              sms: {type: string}
    Overlapping:
      oneOf:
        - type: object
          required: [a]
          properties:
            a: {type: string}
            kind: {type: string, enum: [first]}
        - type: object
          required: [a]
          properties:
            a: {type: string}
            kind: {type: string, enum: [second]}
    Expandable:
      type: object
      anyOf:
        - type: string
        - $ref: '#/components/schemas/Track'
    Tags:
      type: array
      minItems: 5
      maxItems: 5
      uniqueItems: true
      items: {type: string, enum: [a, b, c, d, e]}
    Counts:
      type: object
      required: [small, big]
      properties:
        small: {type: number, format: int32, minimum: 0, maximum: 9}
        big: {type: number, format: int64}
    Paging:
      type: object
      required: [items, total]
      properties:
        total: {type: integer}
    PagedTracks:
      allOf:
        - $ref: '#/components/schemas/Paging'
        - type: object
          properties:
            items:
              type: array
              items: {$ref: '#/components/schemas/Track'}
    EventType:
      type: string
      enum: [CREATED, DELETED]
    Event:
      type: object
      required: [type]
      properties:
        type:
          allOf:
            - $ref: '#/components/schemas/EventType'
          description: what happened
    State:
      type: object
      required: [state]
      properties:
        state:
          type: string
          enum: [open, null]
    # Deep* hold a value below the depth where optional members are left
    # out: the discriminator's or the kind that tells members apart is
    # not, and so are the items one member requires and another declares.
    DeepPlayable:
      type: object
      required: [x]
      properties:
        x:
          type: object
          required: [y]
          properties:
            y:
              type: array
              minItems: 1
              items: {$ref: '#/components/schemas/Playable'}
    DeepOverlapping:
      type: object
      required: [x]
      properties:
        x:
          type: object
          required: [y]
          properties:
            y:
              type: array
              minItems: 1
              items: {$ref: '#/components/schemas/Overlapping'}
    DeepPaged:
      type: object
      required: [x]
      properties:
        x:
          type: object
          required: [y]
          properties:
            y:
              type: array
              minItems: 1
              items: {$ref: '#/components/schemas/PagedTracks'}
    Deep:
      type: object
      required: [a]
      properties:
        a:
          type: array
          minItems: 1
          items:
            type: object
            required: [b]
            properties:
              b:
                type: array
                minItems: 1
                items:
                  type: object
                  required: [c]
                  properties:
                    c:
                      type: object
                      required: [d]
                      properties:
                        d:
                          type: object
                          required: [e]
                          properties:
                            e:
                              type: object
                              required: [f]
                              properties:
                                f: {type: object, required: [created], properties: {created: {type: integer}}}
    User:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true}
        friends:
          type: array
          items:
            type: object
            properties:
              id: {type: integer, readOnly: true}
              secret: {type: string, writeOnly: true}
`

// wholeDocument31 asks for a constant, as OpenAPI 3.1 writes it.
const wholeDocument31 = `
openapi: 3.1.0
info: {title: whole, version: "1"}
paths: {}
components:
  schemas:
    Const:
      type: object
      required: [version, kind]
      properties:
        version: {const: 2}
        kind: {type: string, const: fixed}
        nothing: {type: "null"}
    Examples:
      type: object
      required: [size, target]
      properties:
        size: {type: string, enum: [small, large], examples: [huge]}
        target: {type: [string, "null"], enum: [staging, production], examples: [null]}
        additionalProperties: false
    Formats:
      type: object
      required: [trip, day, at, mail, link, links, good]
      properties:
        trip: {type: string, format: uuid, examples: [4f4e4e1-c824-4d63-b37a-d8d698862f1d]}
        day: {type: string, format: date, examples: ["2024-02-30"]}
        at: {type: string, format: date-time, examples: ["yesterday"]}
        mail: {type: string, format: email, examples: [nobody]}
        link: {type: string, format: uri-reference, examples: ["/companies/{id}/data?page=1"]}
        links:
          type: object
          properties: {self: {type: object, properties: {href: {type: string, format: uri-reference}}}}
          examples: [{self: {href: "/companies/{id}/data"}}]
        good: {type: string, format: uuid, examples: [efdbb9d1-02c2-4bc3-afb7-6788d8782b1e]}
    Named:
      type: object
      minProperties: 1
      propertyNames: {pattern: '^x-[a-z]+$'}
      additionalProperties: {type: integer}
`

// TestValuesMatchTheWholeSchema: what a schema asks of a value beyond its
// type, the values made give, seed after seed, as the document's own
// validator judges an answer, or a request: each check says what more it
// holds them to.
func TestValuesMatchTheWholeSchema(t *testing.T) {
	c30, err := spec.Read([]byte(wholeDocument))
	if err != nil {
		t.Fatal(err)
	}
	c31, err := spec.Read([]byte(wholeDocument31))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		contract *spec.Contract
		schema   string
		request  bool
		check    func(v any) error
	}{
		{c30, "AnyPet", false, func(v any) error {
			m := v.(map[string]any)
			_, hunts := m["hunts"]
			_, bark := m["bark"]
			switch m["petType"] {
			case "cat":
				if bark {
					return errors.New("a cat barks")
				}
			case "dog":
				if hunts {
					return errors.New("a dog hunts")
				}
			default:
				return fmt.Errorf("petType %v is not a name of the mapping", m["petType"])
			}
			return nil
		}},
		{c30, "Parent", false, func(v any) error {
			// Children each an allOf of the parent that lists them: the
			// discriminator names the child, and nothing else need tell
			// them apart.
			m := v.(map[string]any)
			_, meow := m["meow"]
			_, bark := m["bark"]
			if m["petType"] == "Kitten" && bark || m["petType"] == "Puppy" && meow {
				return fmt.Errorf("a %v has another child's property", m["petType"])
			}
			return nil
		}},
		{c30, "Loop", false, nil},
		{c30, "DeepPlayable", false, func(v any) error {
			if typ := deep(v)["type"]; typ != "track" && typ != "episode" {
				return fmt.Errorf("type %v, want the discriminator's value, track or episode", typ)
			}
			return nil
		}},
		{c30, "DeepOverlapping", false, func(v any) error {
			if _, ok := deep(v)["kind"]; !ok {
				return errors.New("no kind, which alone tells the members apart")
			}
			return nil
		}},
		// Listen Notes' search results: any object matches every member;
		// one whose other members' properties are of other types does not.
		{c30, "OnlyOptional", false, nil},
		// Gérer mes affaires' sections: the example of one member's Type
		// is no value of the other's enumeration.
		{c30, "TypedSection", false, nil},
		// GitHub's SCIM groups: one member's members require a $ref,
		// the other's example has none.
		{c30, "ScimGroup", false, nil},
		// The train travel API's stations: one member's data is of any
		// objects, the other's of stations, which require an id.
		{c30, "Stations", false, nil},
		// AWS's tags: an allOf of a map of at least one member, and of
		// a description.
		{c30, "TaggedApi", false, nil},
		// PeerTube's magnet URI: of the format uri, and of a pattern
		// no URL made for the format matches.
		{c30, "Magnet", false, nil},
		{c30, "Stamps", false, func(v any) error {
			// Telstra's lastUse of 24 characters is a date-time of
			// milliseconds, not one padded with letters.
			for name, e := range v.(map[string]any) {
				if _, err := time.Parse(time.RFC3339, e.(string)); err != nil {
					return fmt.Errorf("%s %s is no date-time: %v", name, show(e), err)
				}
			}
			return nil
		}},
		{c30, "Untyped", false, func(v any) error {
			// Members without a type but with properties are objects: a
			// string matches both.
			for _, e := range v.([]any) {
				if _, ok := e.(map[string]any); !ok {
					return fmt.Errorf("%s, want an object", show(e))
				}
			}
			return nil
		}},
		{c30, "Expandable", false, nil},
		{c30, "Tags", false, func(v any) error {
			seen := map[any]bool{}
			for _, e := range v.([]any) {
				if seen[e] {
					return fmt.Errorf("%v twice", e)
				}
				seen[e] = true
			}
			return nil
		}},
		{c30, "Counts", false, func(v any) error {
			for name, n := range v.(map[string]any) {
				if strings.ContainsAny(string(n.(json.Number)), ".eE") {
					return fmt.Errorf("%s is %v, not a whole number", name, n)
				}
			}
			return nil
		}},
		{c30, "DeepPaged", false, func(v any) error {
			if _, ok := deep(v)["items"].([]any); !ok {
				return errors.New("items, required by one member and declared by the other, is not an array")
			}
			return nil
		}},
		{c30, "Event", false, nil},
		{c30, "Deep", false, nil},
		{c30, "User", false, func(v any) error { return without(v, "password", "secret") }},
		{c30, "User", true, func(v any) error { return without(v, "id") }},
		{c31, "Examples", false, func(v any) error {
			m := v.(map[string]any)
			if _, ok := m["additionalProperties"]; ok {
				return errors.New("a member of the schema false")
			}
			if m["size"] == "huge" || m["target"] == nil {
				return fmt.Errorf("size %v and target %v, examples the schema refuses", m["size"], m["target"])
			}
			return nil
		}},
		{c31, "Formats", false, func(v any) error {
			// Examples of the wrong format, which the document's own
			// validator lets by, are not answered; a right one is.
			m := v.(map[string]any)
			for name, bad := range map[string]string{"trip": "4f4e4e1-c824-4d63-b37a-d8d698862f1d", "day": "2024-02-30", "at": "yesterday", "mail": "nobody", "link": "/companies/{id}/data?page=1"} {
				if m[name] == bad {
					return fmt.Errorf("%s is %q, an example not of its format", name, bad)
				}
			}
			if links, _ := m["links"].(map[string]any); links != nil {
				if self, _ := links["self"].(map[string]any); self != nil && self["href"] == "/companies/{id}/data" {
					return errors.New("links is an example whose href is no uri-reference")
				}
			}
			if m["good"] != "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e" {
				return fmt.Errorf("good is %v, want its example, which is of its format", m["good"])
			}
			return nil
		}},
		{c31, "Named", false, nil},
		{c31, "Const", false, func(v any) error {
			m := v.(map[string]any)
			if fmt.Sprint(m["version"]) != "2" || m["kind"] != "fixed" {
				return fmt.Errorf("version %v and kind %v, want the constants 2 and fixed", m["version"], m["kind"])
			}
			return nil
		}},
	}
	for _, tt := range tests {
		s := tt.contract.Doc.Components.Schemas[tt.schema].Value
		opts := append(spec.SchemaOptions(tt.contract.Doc), openapi3.VisitAsResponse())
		as := "an answer"
		if tt.request {
			opts = append(spec.SchemaOptions(tt.contract.Doc), openapi3.VisitAsRequest())
			as = "a request"
		}
		for seed := range uint64(200) {
			g := &fake.Generator{Contract: tt.contract, Faker: fake.NewFaker(seed), Examples: true}
			var v any
			if tt.request {
				v, err = g.ValidRequest(s, "")
			} else {
				v, err = g.Valid(s, fake.Hint{})
			}
			if err == nil {
				err = s.VisitJSON(v, opts...)
			}
			if err == nil && tt.check != nil {
				err = tt.check(v)
			}
			if err != nil {
				t.Errorf("%s as %s, seed %d: %v\n%s", tt.schema, as, seed, err, show(v))
				break
			}
		}
	}
}

// deep returns the first item of x.y of a Deep* value.
func deep(v any) map[string]any {
	return v.(map[string]any)["x"].(map[string]any)["y"].([]any)[0].(map[string]any)
}

// TestEnumerationsOfTheirSchema: a value of an enumeration is one the
// rest of its schema takes, even where Value is not checked, as the
// requests of the suite are not: no null of a schema that is not
// nullable.
func TestEnumerationsOfTheirSchema(t *testing.T) {
	c, err := spec.Read([]byte(wholeDocument))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Doc.Components.Schemas["State"].Value
	for seed := range uint64(100) {
		g := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed)}
		if v := g.Value(s, fake.Hint{}); s.VisitJSON(v) != nil {
			t.Fatalf("seed %d: %s does not match: %v", seed, show(v), s.VisitJSON(v))
		}
	}
}

// without says which of names v holds, at any depth.
func without(v any, names ...string) error {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			for _, n := range names {
				if k == n {
					return fmt.Errorf("%s is there", n)
				}
			}
			if err := without(e, names...); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range v {
			if err := without(e, names...); err != nil {
				return err
			}
		}
	}
	return nil
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestIndistinctMembersAreSaid: where no value made for a member of a
// oneOf fails the others, Valid says so, naming the oneOf, rather than
// return a value that matches two members.
func TestIndistinctMembersAreSaid(t *testing.T) {
	c, err := spec.Read([]byte(wholeDocument))
	if err != nil {
		t.Fatal(err)
	}
	g := &fake.Generator{Contract: c, Faker: fake.NewFaker(1)}
	_, err = g.Valid(c.Doc.Components.Schemas["Loose"].Value, fake.Hint{})
	if !errors.Is(err, fake.ErrIndistinct) || !errors.Is(err, fake.ErrNoValue) {
		t.Fatalf("Valid(Loose) = %v, want ErrIndistinct", err)
	}
	if !strings.Contains(err.Error(), "oneOf [#0, #1]") {
		t.Errorf("Valid(Loose) = %v, want the oneOf named", err)
	}
}

// TestValuesLeaveTheDocumentAlone: making values reads the document and
// never writes to it. The walk that finds what no value can have once
// appended a schema's allOf members and required properties to its
// oneOf's first member, in the oneOf's own array, so that a oneOf [Cat,
// Dog] of an object that requires its id became [Cat, {type: integer}]
// in the document petmock then served and checked answers against.
func TestValuesLeaveTheDocumentAlone(t *testing.T) {
	const doc = `
openapi: 3.0.3
info: {title: alone, version: "1"}
paths: {}
components:
  schemas:
    Shape:
      type: object
      required: [id]
      properties:
        id: {type: integer}
      oneOf:
        - {type: object, required: [radius], properties: {radius: {type: number}}}
        - {type: object, required: [side], properties: {side: {type: number}}}
    Listed:
      type: array
      minItems: 1
      items: {type: string}
      anyOf:
        - {maxItems: 3}
        - {minItems: 2}
    Joined:
      allOf:
        - {type: object, properties: {a: {type: string}}}
      oneOf:
        - {type: object, required: [b], properties: {b: {type: string}}}
        - {type: object, required: [c], properties: {c: {type: string}}}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(c.Doc)
	for _, name := range []string{"Shape", "Listed", "Joined"} {
		s := c.Doc.Components.Schemas[name].Value
		for seed := range uint64(5) {
			g := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed)}
			if _, err := g.Valid(s, fake.Hint{}); err != nil {
				t.Errorf("%s, seed %d: %v", name, seed, err)
			}
		}
	}
	if after, _ := json.Marshal(c.Doc); string(before) != string(after) {
		t.Errorf("making values changed the document\nwas: %s\nnow: %s", before, after)
	}
}
