//go:build linux

package persist

import (
	"os"
	"syscall"
)

// writeThrough opens a file whose writes return once they are on disk.
const writeThrough = syscall.O_DSYNC

// fdatasync syncs the data of f, and of its metadata only what reading
// the data back needs, such as its size: not its time of change.
func fdatasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
