// Package journal keeps what petmock saw and tells: the journal of the
// last requests and their answers, the violations a backend's answers
// made, the line of the request log, and the hub that tells the console's
// event streams what changed. Nothing it keeps or tells holds a key
// petmock accepts, in any form (Redactor), nor, unless asked to show
// them, the app's own secrets (Secrets): its tokens, passwords and
// session ids, wherever in a request or an answer they stand.
package journal
