package persist

import (
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/steer"
)

// Source is the server a Saver keeps. The server that serves may change
// while the Saver runs, when one made for a new version of the document
// takes over from it (petmock --watch): each save is of the one that
// serves then.
type Source interface {
	// Serving returns the items and the steering of the server that
	// serves now.
	Serving() (*catalogue.Resources, *steer.Steering)
	// Subscribe returns a subscription to the changes of the server, and
	// of those that take over from it.
	Subscribe() Subscription
}

// Subscription tells a Saver what changed on its Source.
type Subscription interface {
	// Take returns the kinds of change since it was last called.
	Take() journal.Change
	// Close ends the subscription.
	Close()
}
