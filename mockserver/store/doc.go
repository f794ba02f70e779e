// Package store keeps the items of one resource of an API in memory, as
// the JSON texts the API answers with, ordered by id, with an index for
// each filter. It knows nothing of HTTP or of the document: an item is an
// Entry, an id, a text and one key for each filter, and the caller decides
// what texts and keys are. The store compares keys and nothing more.
//
// A Store holds to these rules, which its tests check:
//
//   - Reads never wait. A page, a lookup, a scan, a count or an export
//     reads one immutable snapshot, taken without a lock; writers wait
//     only for each other.
//   - Every write publishes a new snapshot before it returns, so a read
//     that begins after a write was answered sees it. A snapshot shares
//     with the one before it all the write did not touch.
//   - A page costs in proportion to its size, not to the store's: each
//     filter key has its own sequence of items, in runs of a few hundred
//     records found by binary search. Adding an item costs the same at any
//     size; replacing or removing one costs in proportion to a run and the
//     number of runs.
//   - Records hold no pointers: an item is an id and the place of its text
//     in large chunks, so a store of a million items costs the garbage
//     collector nothing to scan. Text that no item has any more is let go
//     once it passes both 64 MiB and the length of the text items have.
//   - The texts a read returns are the store's own, and no write changes
//     them: a caller must not change them either, and may keep them, or a
//     PageView, as long as it likes; a page of long items is written from
//     them item by item rather than copied.
//   - An id is not given twice: Add gives one more than the largest id the
//     store has held since it was last replaced or restored, so a removed
//     item's id is not given to another. Past the largest id, Add fails
//     with ErrIDsExhausted. Set stores an item under an id a client chose,
//     which Add then gives ids past.
//   - An item may have a name, the id its clients know it by where that
//     is not its int64 id, such as a UUID; ID finds the item of a name,
//     and no two items hold one name at once. Only a store of named
//     items keeps an index of names, which holds pointers.
//   - Restore returns the store to a Mark: items added since are gone,
//     items changed or removed since are back, with their names, and ids
//     are given from where they were given then. Reads of states from
//     before the Restore still see those states.
//   - Limits bound the items and the bytes of text a store holds: a write
//     that would pass them fails with ErrStoreFull and changes nothing.
//     Replace and ReplaceAll change all or nothing.
//   - A tap (SetTap) is told every write, in the order the writes are
//     made, before readers see it, as the items it leaves: replaying what
//     it was told rebuilds the store. A write it refuses fails and
//     changes nothing, and Revert returns a store to a Mark without
//     giving an id twice, for a tap whose writes could not be kept.
//   - HandOver moves a store's items to another store and sends every
//     later write of the first to the second, so that a write made
//     through the first store by a writer that took it before the
//     handover is kept where readers look; ids go on from where the first
//     store gave them.
package store
