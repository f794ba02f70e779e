package spec

import (
	"fmt"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// Deprecation describes how a deprecated operation is retired.
type Deprecation struct {
	// Since is when the operation was deprecated (the RFC 9745 date),
	// from x-petmock-deprecated-at: the interface does not give it. Zero
	// when the document has none.
	Since time.Time
	// Sunset is when the operation is removed (the RFC 8594 date), from
	// x-sunset. Zero when the document has none.
	Sunset time.Time
	// ReplacedBy is the operation id of the replacement, from
	// x-replaced-by, or "".
	ReplacedBy string
}

// readDeprecation reads the deprecation facts of a deprecated operation.
// Each is optional; a date that does not parse, or a deprecation after the
// sunset, is an error.
func readDeprecation(op *openapi3.Operation) (Deprecation, error) {
	var d Deprecation
	var err error
	if d.Sunset, err = timeExtension(op.Extensions, "x-sunset"); err != nil {
		return Deprecation{}, err
	}
	if d.Since, err = timeExtension(op.Extensions, "x-petmock-deprecated-at"); err != nil {
		return Deprecation{}, err
	}
	if !d.Since.IsZero() && !d.Sunset.IsZero() && d.Since.After(d.Sunset) {
		return Deprecation{}, fmt.Errorf("deprecated at %s, after its sunset %s", d.Since.Format(time.RFC3339), d.Sunset.Format(time.RFC3339))
	}
	if v, ok := op.Extensions["x-replaced-by"]; ok {
		if d.ReplacedBy, ok = v.(string); !ok {
			return Deprecation{}, fmt.Errorf("x-replaced-by: want an operation id")
		}
	}
	return d, nil
}

func timeExtension(ext map[string]any, name string) (time.Time, error) {
	v, present := ext[name]
	if !present {
		return time.Time{}, nil
	}
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("%s: want an RFC 3339 time as a string", name)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", name, err)
	}
	return t.UTC(), nil
}
