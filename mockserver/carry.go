package mockserver

import (
	"encoding/json"
	"strconv"

	"github.com/petstore/contract/mockserver/store"
)

// carried returns how an item of prev, a resource of the document a
// server takes over from, becomes an item of rs, the resource of the same
// name of the new document (see TakeOver), or false when it cannot:
//
//   - its id is written as rs's id property, as a string or a number as
//     rs has ids;
//   - where rs's item schema takes no properties but those it declares
//     (additionalProperties: false), the others are dropped, as a
//     property the new document removed or renamed would otherwise make
//     every item unfit;
//   - a property it lacks takes the value a created item would
//     (x-petmock-defaults), as a required property the new document
//     added would otherwise make every item unfit;
//   - it is then held to rs's item schema, as a fixture's items are, and
//     written in rs's form, with rs's filter keys.
//
// Nothing else is made up: an item that still breaks the schema, such as
// one without a required property the document gives no default for, or
// with a value outside a narrowed enumeration, is dropped.
func carried(prev, rs *resource) func(store.Entry) (store.Entry, bool) {
	var declared map[string]bool
	if ap := rs.spec.Item.AdditionalProperties.Has; ap != nil && !*ap {
		declared = make(map[string]bool, len(rs.spec.Properties))
		for _, p := range rs.spec.Properties {
			declared[p.Name] = true
		}
	}
	return func(e store.Entry) (store.Entry, bool) {
		v, bad := decodeJSON(e.Text)
		item, ok := v.(map[string]any)
		if bad != nil || !ok {
			return store.Entry{}, false
		}
		delete(item, prev.spec.IDProperty)
		if declared != nil {
			for name := range item {
				if !declared[name] {
					delete(item, name)
				}
			}
		}
		rs.withDefaults(item)
		if rs.spec.IDIsString {
			item[rs.spec.IDProperty] = strconv.FormatInt(e.ID, 10)
		} else {
			item[rs.spec.IDProperty] = json.Number(strconv.FormatInt(e.ID, 10))
		}
		out, err := rs.decodeItem(item)
		if err != nil || out.ID != e.ID {
			return store.Entry{}, false
		}
		return out, true
	}
}
