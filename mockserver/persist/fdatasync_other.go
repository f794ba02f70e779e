//go:build !linux

package persist

import "os"

// writeThrough opens a file whose writes return once they are on disk.
const writeThrough = os.O_SYNC

// fdatasync syncs f: elsewhere than on Linux, as fsync does.
func fdatasync(f *os.File) error { return f.Sync() }
