//go:build unix

package persist

import "syscall"

// writable returns nil if the process may create files in dir, as the
// system sees it now: a read-only file system or a directory without write
// permission say so, without a file being written.
func writable(dir string) error {
	const wOK = 2 // W_OK of access(2)
	return syscall.Access(dir, wOK)
}
