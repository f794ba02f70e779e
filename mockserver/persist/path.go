package persist

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// A state file is saved by writing a new file beside it and renaming it
// over the old one. That needs a regular file, or none yet, in a directory
// petmock can write in: anything else is refused at start, with what is
// wrong, rather than found out at the first save with writes already
// acknowledged. A FIFO would even hang the start, since opening one to
// read waits for a writer.

// PathError is the error of Open for a path no state file can be saved
// at: a directory, a named pipe, a device, a path under a file, a missing
// or read-only directory, or a loop of symbolic links.
type PathError struct {
	Path string // as given to Open
	Err  error  // what is wrong with it, such as "it is a directory, not a regular file"
}

// Error says which path is refused, and why.
func (e *PathError) Error() string { return "state file " + e.Path + ": " + e.Err.Error() }

// Unwrap returns what is wrong with the path.
func (e *PathError) Unwrap() error { return e.Err }

// resolveState returns the file --state names: path itself, or, when path
// is a symbolic link, the file it leads to, which need not exist yet.
// Saves then replace that file, and leave the link as it is.
func resolveState(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil // a missing path is created; a bad one is checkState's to name
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", errors.New("too many levels of symbolic links")
}

// statePathProblem says why a save to path could not be made now, from
// what can be seen without writing, or returns nil.
func statePathProblem(path string) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("it is %s, not a regular file", kindOf(fi.Mode()))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("its directory %s does not exist", dir)
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir():
		return fmt.Errorf("its directory %s is not a directory", dir)
	case err != nil:
		return fmt.Errorf("its directory %s cannot be read: %w", dir, reason(err))
	}
	if err := writable(dir); err != nil {
		return fmt.Errorf("petmock cannot write in its directory %s: %w", dir, reason(err))
	}
	return nil
}

// checkState checks at start that the state file at path can be saved:
// statePathProblem, and a file actually created in its directory.
func checkState(path string) error {
	if err := statePathProblem(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+tmpSuffix+"*")
	if err != nil {
		return fmt.Errorf("petmock cannot write in its directory %s: %w", dir, reason(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// kindOf names the kind of file of mode, for messages.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file but some other kind of file"
}

// reason returns what the system said of a failed operation on a file,
// such as "permission denied", without the operation and the path, which
// the message around it says better; or err itself.
func reason(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
