package request

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// An item's id may travel in a body as well as in a path: the create of
// a resource whose create sends its id, such as POST /pet of Swagger
// Petstore v3 or createUser's username; a replace or an update of the
// collection, which names the item by it, such as PUT /pet; and a replace
// of the item path whose body has the id, which keeps it.

// WithoutOwnID drops from a create body made for res, from the item it
// holds, the id the suite made up, where the schema leaves it optional:
// the deployment gives one, and the suite's made-up ids, such as an
// example's, the same for every create, would land on the items of other
// checks.
func (m *Maker) WithoutOwnID(res *spec.Resource, body map[string]any) {
	body = ItemIn(res.CreateOp, body)
	if !res.IDSent || body == nil {
		return
	}
	if !AnswersItem(res) {
		m.ownID(res, body)
		return
	}
	s := m.createItem(res)
	for _, p := range m.contract.Properties(s) {
		if p.Name == res.IDProperty && p.Required {
			m.ownID(res, body)
			return
		}
	}
	if s != nil && slices.Contains(spec.RequiredNames(s), res.IDProperty) {
		m.ownID(res, body)
		return
	}
	delete(body, res.IDProperty)
}

// createItem returns the schema of the item the create of res takes: its
// body's, or what the body's wrapper holds.
func (m *Maker) createItem(res *spec.Resource) *openapi3.Schema {
	if w := bodyWrapper(res.CreateOp); w != nil {
		return w.Inner(m.contract)
	}
	return res.Create
}

// NamesItem sets, in the item a body of op made for the item created
// holds, the id
// property to that item's id, where op's body has one: a replace of the
// collection names the item by it, and a replace of the item path keeps
// it rather than ask for another.
//
// An id its schema marks readOnly, as a Swagger 2.0 document's often is in
// the body of a PATCH, is not sent: a client sends no read-only property,
// and the path names the item.
func (m *Maker) NamesItem(res *spec.Resource, op *spec.Operation, body map[string]any, created judge.Item) {
	body = ItemIn(op, body)
	if body == nil || m.ItemSchema(op) == nil {
		return
	}
	if slices.ContainsFunc(m.contract.Properties(m.ItemSchema(op)), func(p spec.Property) bool { return p.Name == res.IDProperty && !p.Schema.ReadOnly }) {
		body[res.IDProperty] = created[res.IDProperty]
	}
}

// AnswersItem reports whether the create of res answers the item it
// created, whose id the suite then reads from the answer; one that answers
// no body, such as Swagger Petstore's createUser, names no id but the one
// its body sent.
func AnswersItem(res *spec.Resource) bool {
	return res.CreateOp != nil && res.CreateOp.JSONSchema(res.CreateOp.Success) != nil
}

// ownID gives the id property of a create body of res, whose create
// answers no item or requires the id, an id of the run's own, so that the
// item created is told by it, and lands on no item of another check (two
// creates of one made-up word would be one item): a name of the run for
// a string free of any pattern, format or enumeration, and a number far
// above the ids a store gives for an integer.
func (m *Maker) ownID(res *spec.Resource, body map[string]any) {
	declared := false
	for _, p := range m.contract.Properties(m.createItem(res)) {
		if p.Name != res.IDProperty {
			continue
		}
		declared = true
		switch s := p.Schema; spec.TypeOf(s) {
		case "string":
			if s.Pattern == "" && s.Format == "" && len(s.Enum) == 0 {
				if name, ok := m.NameFor(s); ok {
					body[p.Name] = name
				}
			}
		case "integer":
			if s.Max == nil {
				body[p.Name] = json.Number(strconv.FormatInt(1_000_000_000+m.rnd.Int64N(1_000_000_000), 10))
			}
		}
	}
	// An id the create requires and declares nowhere, as Turbine Labs'
	// listener_key, takes any value: a name of the run's own.
	if _, isString := body[res.IDProperty].(string); !declared && isString {
		body[res.IDProperty] = m.PetName()
	}
}
