// Package catalogue holds what the clients of petmock create, read, list,
// change and delete: the resources of a document, each over a store of
// package mockserver/store, and the items they hold.
//
// A Resource answers the operations of one resource as the document has
// them: a list, in pages with a Link to the next, and filtered by the
// query parameters that name properties; a create, under the id the
// document's schema gives, in order where it can, a UUID or a name where
// it asks for one, below the parent the path names; a read, a replace, a
// JSON merge patch and a delete; and a find, such as findByStatus. Every
// item is held in the one text petmock answers with (package
// mockserver/shape).
//
// Resources are all the resources of a document: their starting items,
// made from a seed (Seeded) or read from a fixture, the scenarios that
// change every store at once (Reset, Empty, LoadFixture, ReplaceItems),
// export and import, and the handover of their items to the resources of
// a new version of the document (TakeOver). A command that keeps the
// items, such as petmock --state, makes writes wait for their save
// (SetCommit) and refuses them while saves fail (SetPersistError).
package catalogue
