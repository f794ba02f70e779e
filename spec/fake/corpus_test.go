package fake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/corpus"
	"github.com/petstore/contract/spec/fake"
)

// corpusSeeds is how many values are made of each schema of the corpus.
const corpusSeeds = 12

// TestCorpusValuesMatch: of every schema a public document gives an
// answer or a request body, the values made match the schema, as the
// document's own validator (kin-openapi's, with the options of the
// document's version) judges an answer or a request: answers without
// their writeOnly members, requests without their readOnly ones, one
// member of a oneOf and a member of an anyOf, the discriminator's value,
// unique items and integral numbers where the format asks for them. A
// schema whose oneOf members cannot be told apart is said so by Valid's
// error, and is listed here rather than failed.
func TestCorpusValuesMatch(t *testing.T) {
	t.Parallel()
	files := append(corpus.Documents(t), corpus.TrialDocuments(t)...)
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			c, err := spec.ReadOptions{}.ReadFile(f.Path)
			if err != nil {
				t.Skipf("not served: %v", err)
			}
			before, err := json.Marshal(c.Doc)
			if err != nil {
				t.Fatal(err)
			}
			faults := corpusFaults(c)
			if after, _ := json.Marshal(c.Doc); !bytes.Equal(before, after) {
				t.Errorf("making values changed the document:\n%s", firstDifference(before, after))
			}
			for _, fault := range faults {
				if strings.Contains(fault, fake.ErrIndistinct.Error()) || strings.Contains(fault, contradiction) {
					t.Logf("%s", fault)
					continue
				}
				t.Errorf("%s", fault)
			}
		})
	}
}

// firstDifference shows where two texts part: the 120 bytes around the
// first that differs, of each.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("was: %s\nnow: %s", a[from:min(len(a), i+60)], b[from:min(len(b), i+60)])
}

// contradiction is what Valid says of a schema that holds a contradiction,
// such as Vercel's nullable alternatives written as a type of null beside
// a oneOf of other types: the document's fault, listed, not failed.
const contradiction = "its type is null, and no member of its oneOf or anyOf takes null"

// corpusFaults makes values of every answer and request body schema of c
// and returns what does not match, one line for each schema.
func corpusFaults(c *spec.Contract) []string {
	var faults []string
	answer := append(spec.SchemaOptions(c.Doc), openapi3.VisitAsResponse())
	request := append(spec.SchemaOptions(c.Doc), openapi3.VisitAsRequest())
	seen := map[*openapi3.Schema]bool{}
	for _, op := range c.Operations {
		if op.Op.Responses != nil {
			responses := op.Op.Responses.Map()
			for _, code := range slices.Sorted(maps.Keys(responses)) {
				r := responses[code]
				if r == nil || r.Value == nil {
					continue
				}
				for _, mt := range slices.Sorted(maps.Keys(r.Value.Content)) {
					m := r.Value.Content[mt]
					if m == nil || m.Schema == nil || m.Schema.Value == nil || seen[m.Schema.Value] || !spec.IsJSON(mt) {
						continue
					}
					seen[m.Schema.Value] = true
					where := fmt.Sprintf("%s.responses.%s", op.Where, code)
					if fault := answerFault(c, m.Schema.Value, answer); fault != "" {
						faults = append(faults, where+": "+fault)
					}
				}
			}
		}
		if s := op.RequestSchema(); s != nil && !seen[s] {
			seen[s] = true
			if fault := requestFault(c, s, request); fault != "" {
				faults = append(faults, op.Where+".requestBody: "+fault)
			}
		}
	}
	return faults
}

// answerFault makes values of s for answers, and says what the first one
// that does not match breaks, or why none could be made.
func answerFault(c *spec.Contract, s *openapi3.Schema, opts []openapi3.SchemaValidationOption) string {
	for seed := range uint64(corpusSeeds) {
		g := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed), Examples: true}
		v, err := g.Valid(s, fake.Hint{})
		if err != nil {
			return fmt.Sprintf("seed %d: %v", seed, err)
		}
		if err := visit(s, v, opts); err != nil {
			return fmt.Sprintf("seed %d: %s", seed, firstLine(err))
		}
	}
	return ""
}

// visit checks v against s with opts; where kin-openapi cannot compile s
// for JSON Schema 2020-12, as a $ref below $defs of an allOf member of
// Scalar Galaxy's, by the validator of OpenAPI 3.0, as Valid does.
func visit(s *openapi3.Schema, v any, opts []openapi3.SchemaValidationOption) error {
	err := s.VisitJSON(v, opts...)
	if err != nil && strings.Contains(err.Error(), "failed to compile schema") {
		return s.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails())
	}
	return err
}

// requestFault is answerFault for request bodies.
func requestFault(c *spec.Contract, s *openapi3.Schema, opts []openapi3.SchemaValidationOption) string {
	for seed := range uint64(corpusSeeds) {
		g := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed)}
		v, err := g.ValidRequest(s, "")
		if err != nil {
			return fmt.Sprintf("seed %d: %v", seed, err)
		}
		if err := s.VisitJSON(v, opts...); err != nil {
			return fmt.Sprintf("seed %d: %s", seed, firstLine(err))
		}
	}
	return ""
}

func firstLine(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "\nSchema:"); i >= 0 {
		msg = msg[:i]
	}
	return strings.ReplaceAll(msg, "\n", " | ")
}
