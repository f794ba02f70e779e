package catalogue

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
)

// An update changes an item by the body the document gives it: a JSON
// merge patch (RFC 7396), an object merged into the item, or a JSON Patch
// (RFC 6902), an array of operations, such as LaunchDarkly's
// [{"op":"replace","path":"/name","value":"New name"}].

// patched returns the item current changed by the body of an update.
func patched(current, body any) (any, error) {
	ops, ok := body.([]any)
	if !ok {
		return mergePatch(current, body), nil
	}
	doc := spec.CopyJSON(current)
	for i, raw := range ops {
		op, _ := raw.(map[string]any)
		name, _ := op["op"].(string)
		// As ASP.NET Core reads one: Visma's document enumerates Add,
		// Replace and the others so written.
		name = strings.ToLower(name)
		path, _ := op["path"].(string)
		field := "body[" + strconv.Itoa(i) + "]"
		var err error
		switch name {
		case "add", "replace":
			value, ok := op["value"]
			if !ok {
				return nil, edge.BadRequest(field+".value", "is required by %s", name)
			}
			doc, err = patchAt(doc, path, name, spec.CopyJSON(value), field)
		case "remove":
			doc, err = patchAt(doc, path, name, nil, field)
		case "move", "copy":
			from, _ := op["from"].(string)
			var v any
			if v, err = pointed(doc, from, field+".from"); err != nil {
				return nil, err
			}
			if name == "move" {
				if doc, err = patchAt(doc, from, "remove", nil, field+".from"); err != nil {
					return nil, err
				}
			}
			doc, err = patchAt(doc, path, "add", spec.CopyJSON(v), field)
		case "test":
			var v any
			if v, err = pointed(doc, path, field+".path"); err == nil && !reflect.DeepEqual(v, op["value"]) {
				err = edge.NewError(409, field, "test of %s failed: the item holds another value there", path)
			}
		default:
			return nil, edge.BadRequest(field+".op", "%q is no operation of a JSON Patch (add, remove, replace, move, copy, test)", name)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// tokens splits a JSON Pointer (RFC 6901) into its reference tokens.
func tokens(pointer, field string) ([]string, error) {
	if pointer == "" {
		return nil, nil
	}
	if pointer[0] != '/' {
		return nil, edge.BadRequest(field, "%q is not a JSON Pointer: it must begin with /", pointer)
	}
	parts := strings.Split(pointer[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// pointed returns the value at pointer in doc.
func pointed(doc any, pointer, field string) (any, error) {
	parts, err := tokens(pointer, field)
	if err != nil {
		return nil, err
	}
	v := doc
	for _, p := range parts {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[p]; !ok {
				return nil, edge.BadRequest(field, "%s: the item has nothing there", pointer)
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, edge.BadRequest(field, "%s: the item has nothing there", pointer)
			}
			v = c[i]
		default:
			return nil, edge.BadRequest(field, "%s: the item has nothing there", pointer)
		}
	}
	return v, nil
}

// patchAt adds, replaces or removes the value at pointer in doc, and
// returns doc changed.
func patchAt(doc any, pointer, op string, value any, field string) (any, error) {
	parts, err := tokens(pointer, field)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		if op == "remove" {
			return nil, edge.BadRequest(field, "the whole item cannot be removed")
		}
		return value, nil
	}
	var set func(v any, parts []string) (any, error)
	set = func(v any, parts []string) (any, error) {
		p := parts[0]
		last := len(parts) == 1
		switch c := v.(type) {
		case map[string]any:
			if last {
				_, had := c[p]
				switch {
				case op == "remove" && !had, op == "replace" && !had:
					return nil, edge.BadRequest(field, "%s: the item has nothing there to %s", pointer, op)
				case op == "remove":
					delete(c, p)
				default:
					c[p] = value
				}
				return c, nil
			}
			inner, ok := c[p]
			if !ok {
				return nil, edge.BadRequest(field, "%s: the item has nothing there", pointer)
			}
			changed, err := set(inner, parts[1:])
			c[p] = changed
			return c, err
		case []any:
			i, err := strconv.Atoi(p)
			switch {
			case last && op == "add" && p == "-":
				return append(c, value), nil
			case err != nil || i < 0 || i > len(c) || i == len(c) && !(last && op == "add"):
				return nil, edge.BadRequest(field, "%s: no such index of the array", pointer)
			case !last:
				changed, err := set(c[i], parts[1:])
				c[i] = changed
				return c, err
			case op == "add":
				return append(c[:i], append([]any{value}, c[i:]...)...), nil
			case op == "remove":
				return append(c[:i], c[i+1:]...), nil
			}
			c[i] = value
			return c, nil
		}
		return nil, edge.BadRequest(field, "%s: the item has nothing there", pointer)
	}
	return set(doc, parts)
}
