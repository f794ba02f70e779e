package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/petstore/contract/spec"
)

// item is an item of any resource as received: a JSON object, numbers as
// sent, so that an int64 a server rounded through a float64 is seen as it
// is.
type item map[string]any

// items decodes the body of x as a list of items. The schema has been
// checked.
func (x *exchange) items() ([]item, error) {
	var out []item
	return out, x.decode(&out)
}

// item decodes the body of x as one item.
func (x *exchange) item() (item, error) {
	var out item
	return out, x.decode(&out)
}

// id returns the item's id, the value of the property prop, as text: the
// digits of an integer, or a string as it is.
func (it item) id(prop string) string {
	return spec.ValueText(it[prop])
}

func (it item) String() string {
	b, _ := json.Marshal(map[string]any(it))
	return string(b)
}

// sameValue reports whether two JSON values are equal, numbers compared
// by value and exactly: 1e2 equals 100, and 9223372036854775807 does not
// equal 9223372036854775808.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x, okA := spec.ExactInt64(string(a)); okA {
			y, okB := spec.ExactInt64(string(b))
			return okB && x == y
		}
		x, errA := a.Float64()
		y, errB := b.Float64()
		return errA == nil && errB == nil && x == y
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case item:
		return sameValue(map[string]any(a), b)
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// differences says how got differs from sent in the properties that were
// sent: each must come back equal. Properties not sent may hold anything.
func differences(got item, sent map[string]any) string {
	var diffs []string
	names := make([]string, 0, len(sent))
	for k := range sent {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v, ok := got[k]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s is missing, want %s", k, jsonText(sent[k])))
		case !sameValue(v, sent[k]):
			diffs = append(diffs, fmt.Sprintf("%s %s, want %s", k, jsonText(v), jsonText(sent[k])))
		}
	}
	return strings.Join(diffs, "; ")
}

// jsonText writes a value as JSON, numbers as sent.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(buf.String())
}
