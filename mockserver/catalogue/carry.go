package catalogue

import (
	"github.com/petstore/contract/mockserver/store"
)

// carried returns how an item of prev, a resource of the document a
// server takes over from, becomes an item of rs, the resource of the same
// name of the new document (see TakeOver), or why it cannot:
//
//   - it keeps its id, as the store has it, and its name, the id clients
//     know it by where that is not the store's (see store.Entry), unless
//     rs's ids are integers, which no name is; its id property is then
//     written as rs writes ids, so that an id written as rs writes it,
//     such as an integer or a UUID of it, stays the same;
//   - where rs's item schema takes no properties but those it declares
//     (additionalProperties: false), the others are dropped, as a
//     property the new document removed or renamed would otherwise make
//     every item unfit;
//   - a property it lacks takes the value a created item would
//     (x-petmock-defaults), and a required one it still lacks its
//     schema's default, else its example, else a value made from its
//     schema (see fillRequired), as a required property the new document
//     added would otherwise make every item unfit;
//   - it is then held to rs's item schema, as a fixture's items are, and
//     written in rs's form, with rs's filter keys, and the parent it had
//     where rs's item does not name one.
//
// Nothing else is made up: an item that still breaks the schema, such as
// one with a value outside a narrowed enumeration, is held back (see
// Held), and the reason is the schema's error.
func carried(prev, rs *Resource) func(store.Entry) (store.Entry, string) {
	from := Form{Seed: prev.ids.seed, IDProperty: prev.spec.IDProperty, ParentKey: prev.parentKey}
	return func(e store.Entry) (store.Entry, string) { return rs.convert(e, from) }
}
