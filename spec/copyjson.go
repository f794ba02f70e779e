package spec

// CopyJSON returns a copy of v, a value decoded from JSON, that shares no
// map or slice with it: an example made part of an answer, a made value
// that follows a request, and an item a JSON Patch changes half way are
// each changed without touching what they were copied from.
func CopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = CopyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = CopyJSON(e)
		}
		return out
	}
	return v
}
