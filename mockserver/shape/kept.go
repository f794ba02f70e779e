package shape

import "slices"

// AppendKept appends the text of v, a value decoded with json.Number, as
// sh writes it, but for the members the schema does not declare, which it
// keeps after the others, sorted by name: an answer given whole, such as
// an expectation's, loses nothing it was given. A nil sh takes any value.
func (sh *Shape) AppendKept(dst []byte, v any) []byte {
	if sh == nil {
		sh = &Shape{}
	}
	switch v := v.(type) {
	case map[string]any:
		dst = append(dst, '{')
		first := true
		sep := func() {
			if !first {
				dst = append(dst, ',')
			}
			first = false
		}
		var declared []member
		if sh.kind == kindObject {
			declared = sh.members
		}
		for _, m := range declared {
			if mv, ok := v[m.name]; ok {
				sep()
				dst = m.shape.AppendKept(append(dst, m.key...), mv)
			}
		}
		for _, name := range sortedKeys(v) {
			if slices.ContainsFunc(declared, func(m member) bool { return m.name == name }) {
				continue
			}
			sep()
			dst = sh.extra.AppendKept(append(AppendString(dst, name), ':'), v[name])
		}
		return append(dst, '}')
	case []any:
		items := sh.items
		if sh.kind != kindArray {
			items = nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = items.AppendKept(dst, e)
		}
		return append(dst, ']')
	}
	return sh.AppendJSON(dst, v)
}
