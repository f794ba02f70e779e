// Package request makes the requests the suite sends, from the OpenAPI
// document alone: a valid request of any operation, its parameters
// written as their styles ask (by package spec), its body made from its
// schema, the items it names taken from the deployment's own lists, and
// the run's key presented as the operation's security asks (Maker); a
// request that breaks the schema in one way (InvalidRequests); and the
// keys near the run's, each of which a deployment must refuse
// (NearMisses). It decides nothing of the answers: package judge judges
// them, and each check says what it wants of them.
package request
