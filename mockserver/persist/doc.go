// Package persist keeps what a running petmock holds across restarts, in
// a state file (petmock --state): the items of its catalogue, saved as a
// fixture that --fixtures and PUT /__petmock/fixture read too, and, in a
// settings file beside it, its settings, forced answers and expectations.
//
// A Saver is opened on a path and a Source, the server it keeps: Open
// loads the files into the server, or creates them, and refuses at once a
// path no save could be made at (PathError). Run saves as the Config says:
// with writes waiting for the save that holds them (Commit, given to
// catalogue.Resources.SetCommit), many to a save, or at an interval, with
// writes acknowledged at once (Acknowledge). Every save is atomic, so a
// crash leaves the old file or the new one, never a torn one. Run looks
// for what would make a save fail, even while nothing changes, and tells
// the server (SetPersistError) so that writes are refused rather than
// acknowledged and lost. Close makes the last save; if it fails, what the
// server holds is written elsewhere, and the error says how many
// acknowledged writes the state file lacks and where they went.
//
// The server that serves may change while a Saver runs, when one made for
// a new version of the document takes over: each save is of the one that
// serves then. The package knows the server only through Source; the
// command wires it.
package persist
