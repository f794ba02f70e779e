package cli

import "strings"

// KeyVar stands for the API key wherever the commands show what they sent
// or got: the variable the key is read from, so that a line copied from a
// message still works in a shell where it is set.
const KeyVar = "$PETSTORE_API_KEY"

// RedactKey replaces the API key in s by KeyVar. A deployment can echo the
// key anywhere: in a body, a header, even a status line that ends up in an
// error message. Every command shows what it got from a deployment
// through RedactKey, so that no message or log holds the key.
func RedactKey(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, KeyVar)
}
