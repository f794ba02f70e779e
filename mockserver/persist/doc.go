// Package persist keeps what a running petmock holds across restarts
// (petmock --state): the items of its catalogue, and its settings, forced
// answers and expectations.
//
// They are kept in a log beside the state file, state.log beside
// state.json: every write of the items is told to the Saver as it is made
// (catalogue.Keeper), encoded as a record, and appended with others to the
// log, which is synced (fdatasync) before the writes are answered. What a
// write costs does not grow with the store. Records are checksummed: a
// start reads them up to the last whole one, and a torn or corrupt tail,
// which no save acknowledged, is reported and set aside. Once the log has
// grown to twice the state it holds, it is written anew in the
// background, the whole state and then the writes made meanwhile, and
// renamed over the old one.
//
// The state file is a fixture of the items, which --fixtures and PUT
// /__petmock/fixture read, and the settings file beside it holds the
// settings: an export of the log, for people, written when the log is
// written anew, when petmock stops, and when it has been idle a moment
// with a small store. A state file of a petmock before the log, or one
// changed by hand while petmock was stopped, is loaded at start.
//
// A Saver is opened on a path and a Source, the server it keeps: Open
// recovers the server from the log, or imports the state file, or creates
// both, and refuses at once a path no save could be made at (PathError).
// Run saves as the Config says: with writes waiting for the save that
// holds them (Commit, given to catalogue.Resources.SetCommit), many to a
// save, or at an interval, with writes acknowledged at once
// (Acknowledge). Run looks for what would make a save fail, even while
// nothing changes, and tells the server (SetPersistError) so that writes
// are refused rather than acknowledged and lost; a write whose save fails
// anyway is undone, and answered 503 saying nothing was changed. Close
// makes the last save; if it fails, what the server holds is written
// elsewhere, and the error says how many acknowledged writes the log
// lacks and where they went.
//
// The server that serves may change while a Saver runs, when one made for
// a new version of the document takes over: its writes are told to the
// Saver as the first's were. The package knows the server only through
// Source; the command wires it.
package persist
