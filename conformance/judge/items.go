package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/spec"
)

// Item is an item of any resource as received: a JSON object, numbers as
// sent, so that an int64 a server rounded through a float64 is seen as it
// is.
type Item map[string]any

// Items decodes the body of x as a list of items: the JSON array
// answered, or, for a list of a resource whose answer is an envelope, the
// array its items property holds, as spec reads the envelope (such as
// Stripe's {"data":[...],"has_more":false}); for a list of the items' ids,
// such as Pinecone's of its collections' names, each id as an item of that
// one member. The schema has been checked.
func (x *Exchange) Items() ([]Item, error) {
	var v any
	if err := x.decode(&v); err != nil {
		return nil, err
	}
	list, ok := x.envelope.ItemsOf(v)
	if !ok {
		return nil, breaks(x, RuleContract, "decoding the body: no list of items in it")
	}
	out := make([]Item, 0, len(list))
	for _, e := range list {
		it, isObject := e.(map[string]any)
		if !isObject && x.listedBy != "" {
			it, isObject = map[string]any{x.listedBy: e}, true
		}
		if !isObject {
			return nil, breaks(x, RuleContract, "decoding the body: an item of the list is not a JSON object")
		}
		out = append(out, it)
	}
	return out, nil
}

// NextInBody returns where the body of x, a page of a list whose answer
// is an envelope, says the next page is: the link its next property holds,
// or the page's own URL with the cursor its cursor property holds in the
// query parameter the list takes it back in. more says whether the
// envelope says that more pages follow, where it says so; "" where the
// body says nothing of a next page.
func (x *Exchange) NextInBody() (target string, more *bool) {
	e := x.envelope
	if e == nil {
		return "", nil
	}
	var v any
	if x.decode(&v) != nil {
		return "", nil
	}
	if m, ok := spec.Lookup(v, e.More); ok {
		if b, isBool := m.(bool); isBool {
			more = &b
		}
	}
	if link, ok := spec.Lookup(v, e.Next); ok {
		if s, isString := link.(string); isString && s != "" {
			return s, more
		}
	}
	if cursor, ok := spec.Lookup(v, e.Cursor); ok && x.cursorParam != "" {
		if s, isString := cursor.(string); isString && s != "" {
			u, err := url.Parse(x.URL)
			if err != nil {
				return "", more
			}
			q := u.Query()
			q.Set(x.cursorParam, s)
			u.RawQuery = q.Encode()
			return u.String(), more
		}
	}
	return "", more
}

// Item decodes the body of x as one item: the JSON object answered, or,
// for an operation of a resource that answers its item inside an object,
// such as Asana's {"data":{...}}, the object that holds, as spec reads
// the wrapper (spec.Resource.Wrapped), where the status answered is the
// one whose schema is the wrapper's.
func (x *Exchange) Item() (Item, error) {
	w := x.wrapper()
	if w == nil {
		var out Item
		return out, x.decode(&out)
	}
	var v any
	if err := x.decode(&v); err != nil {
		return nil, err
	}
	item, ok := x.op.Resource.ItemOf(x.op, v)
	if !ok {
		return nil, breaks(x, RuleContract, fmt.Sprintf("decoding the body: no item in its %s property", w.Property))
	}
	return item, nil
}

// wrapper returns how the answer of x holds the item inside an object,
// nil where it is the item itself.
func (x *Exchange) wrapper() *spec.Wrapper {
	if x.op == nil || x.op.Resource == nil {
		return nil
	}
	w := x.op.Resource.Wrapped[x.op]
	if w == nil || x.op.JSONSchema(x.Status) != w.Schema {
		return nil
	}
	return w
}

// ID returns the item's id, the value of the property prop, as text: the
// digits of an integer, or a string as it is.
func (it Item) ID(prop string) string {
	return spec.ValueText(it[prop])
}

func (it Item) String() string {
	b, _ := json.Marshal(map[string]any(it))
	return string(b)
}

// SameValue reports whether two JSON values are equal, numbers compared
// by value and exactly: 1e2 equals 100, and 9223372036854775807 does not
// equal 9223372036854775808.
func SameValue(a, b any) bool {
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
			if w, ok := b[k]; !ok || !SameValue(v, w) {
				return false
			}
		}
		return true
	case Item:
		return SameValue(map[string]any(a), b)
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !SameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// Differences says how got differs from sent in what was sent: each
// property sent must come back equal, an object with at least the
// properties sent, at any depth, and an array with as many items, each
// holding what was sent of it. Properties not sent may hold anything.
func Differences(got Item, sent map[string]any) string {
	var diffs []string
	differences("", map[string]any(got), sent, &diffs)
	return strings.Join(diffs, "; ")
}

// differences appends to diffs how got, at path, differs from sent.
func differences(path string, got, sent any, diffs *[]string) {
	switch s := sent.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s %s, want %s", pathName(path), JSONText(got), JSONText(sent)))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(s)) {
			v, ok := g[k]
			if !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s is missing, want %s", join(path, k), JSONText(s[k])))
				continue
			}
			differences(join(path, k), v, s[k], diffs)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(s) {
			*diffs = append(*diffs, fmt.Sprintf("%s %s, want %s", pathName(path), JSONText(got), JSONText(sent)))
			return
		}
		for i := range s {
			differences(join(path, strconv.Itoa(i)), g[i], s[i], diffs)
		}
	default:
		if !SameValue(got, sent) {
			*diffs = append(*diffs, fmt.Sprintf("%s %s, want %s", pathName(path), JSONText(got), JSONText(sent)))
		}
	}
}

// join names a member of the value at path.
func join(path, member string) string {
	if path == "" {
		return member
	}
	return path + "." + member
}

// pathName names the value at path, the whole body where path is empty.
func pathName(path string) string {
	if path == "" {
		return "the body"
	}
	return path
}

// JSONText writes a value as JSON, numbers as sent.
func JSONText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(buf.String())
}
