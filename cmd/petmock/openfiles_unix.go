//go:build unix

package main

import "syscall"

// openFileLimit returns how many file descriptors the process may open,
// and whether the system says.
func openFileLimit() (uint64, bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, false
	}
	return l.Cur, true
}
