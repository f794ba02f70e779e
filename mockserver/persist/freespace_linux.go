//go:build linux

package persist

import "syscall"

// freeSpace returns how many bytes the process may still write on the
// file system that holds dir, as the system sees it now.
func freeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
