package mockserver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A fixture is a catalogue as a JSON array of Pet objects, the body of
// GET /pets. petmock writes one pet per line, so that fixtures under
// version control diff well, and reads any JSON array.

// WriteFixture writes pets as a fixture.
func WriteFixture(w io.Writer, pets []Pet) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	var buf []byte
	for i, p := range pets {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		buf = appendPetJSON(buf[:0], p)
		bw.Write(buf)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// Export writes every pet in the store as a fixture, from one consistent
// state, and returns the version of that state.
func (s *Store) Export(w io.Writer) (version uint64, err error) {
	sn := s.snap.Load()
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	for i, r := range sn.recs {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		bw.Write(sn.text(r))
	}
	bw.WriteString("\n]\n")
	return sn.version, bw.Flush()
}

// ReadFixture reads a fixture and checks it pet by pet against the Pet
// schema of the document: the first pet that does not fit is named in the
// error, such as "pets[3]: status: must be one of available, pending,
// sold". Ids must be unique. It reads pets as they come, so a fixture is
// never held in memory twice. A failure to read is returned as it is.
func ReadFixture(r io.Reader) ([]Pet, error) {
	doc, err := spec.Load()
	if err != nil {
		return nil, err
	}
	ref := doc.Components.Schemas["Pet"]
	if ref == nil || ref.Value == nil {
		return nil, errors.New("schema Pet is missing")
	}
	return readFixture(r, ref.Value)
}

// FixtureError is a fixture that is not a JSON array of valid pets.
type FixtureError struct {
	Index int    // position of the first bad pet, or -1 when the array itself is at fault
	Err   *Error // what is wrong, naming the field
}

// Error names the pet at fault, when there is one, and what is wrong.
func (e *FixtureError) Error() string {
	if e.Index < 0 {
		return e.Err.Message
	}
	return fmt.Sprintf("pets[%d]: %s", e.Index, e.Err.Message)
}

// Unwrap returns the *Error that says what is wrong.
func (e *FixtureError) Unwrap() error { return e.Err }

func readFixture(r io.Reader, petSchema *openapi3.Schema) ([]Pet, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.UseNumber()
	whole := func(format string, args ...any) error {
		return &FixtureError{Index: -1, Err: badRequest("fixture", format, args...)}
	}
	if tok, err := dec.Token(); err != nil {
		if readFailed(err) {
			return nil, err
		}
		return nil, whole("not JSON: %v", err)
	} else if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, whole("want a JSON array of pets")
	}
	var pets []Pet
	seen := map[int64]int{}
	for i := 0; dec.More(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			if readFailed(err) {
				return nil, err
			}
			return nil, &FixtureError{Index: i, Err: badRequest("pet", "malformed JSON: %v", err)}
		}
		p, e := decodePet(v, petSchema)
		if e != nil {
			return nil, &FixtureError{Index: i, Err: e}
		}
		if j, dup := seen[p.ID]; dup {
			return nil, &FixtureError{Index: i, Err: badRequest("id", "%d is also the id of pets[%d]", p.ID, j)}
		}
		seen[p.ID] = i
		pets = append(pets, p)
	}
	if _, err := dec.Token(); err != nil {
		if readFailed(err) {
			return nil, err
		}
		return nil, whole("malformed JSON after pets[%d]: %v", len(pets)-1, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, whole("data after the array")
	}
	if pets == nil {
		pets = []Pet{}
	}
	return pets, nil
}

// readFailed reports whether err is a failure to read, such as a body cut
// at its limit, rather than bad JSON: it is returned as it is, for the
// caller to answer.
func readFailed(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return !errors.As(err, &syntax) && !errors.As(err, &typ) && err != io.ErrUnexpectedEOF && err != io.EOF
}

// decodePet checks one decoded JSON value against the Pet schema and
// returns it as a Pet, its integers read exactly.
func decodePet(v any, petSchema *openapi3.Schema) (Pet, *Error) {
	if err := petSchema.VisitJSON(v, openapi3.DisableSchemaErrorDetails(), openapi3.VisitAsResponse()); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return Pet{}, schemaError("pet", se)
		}
		return Pet{}, badRequest("pet", "%v", err)
	}
	m, _ := v.(map[string]any)
	var p Pet
	var ok bool
	n, _ := m["id"].(json.Number)
	if p.ID, ok = exactInt64(string(n)); !ok {
		return Pet{}, badRequest("id", "must be an integer (int64)")
	}
	n, _ = m["categoryId"].(json.Number)
	if p.CategoryID, ok = exactInt64(string(n)); !ok {
		return Pet{}, badRequest("categoryId", "must be an integer (int64)")
	}
	p.Name, _ = m["name"].(string)
	p.Status, _ = m["status"].(string)
	return p, nil
}
