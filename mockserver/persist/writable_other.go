//go:build !unix

package persist

// writable cannot tell without writing on this system; a save that fails
// says so.
func writable(dir string) error { return nil }
