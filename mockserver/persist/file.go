package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/catalogue"
)

// A state file written by hand, or by a petmock before the log, is a
// fixture: it is imported, as --fixtures or PUT /__petmock/fixture would
// load it.

// loadState loads the state file at path into items. A missing file gives an
// error for which errors.Is(err, os.ErrNotExist) holds; a file that is not
// a valid fixture gives an error that says where it is wrong, and changes
// nothing.
func loadState(path string, items *catalogue.Resources) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := items.Load(f); err != nil {
		return fmt.Errorf("state file %s is corrupt, so petmock leaves it as it is; repair or remove it: %w", path, err)
	}
	return nil
}

// saveState writes items to path atomically (see
// writeAtomically), and returns the version of the items it saved and the
// size of the file.
func saveState(path string, items *catalogue.Resources) (version uint64, size int64, err error) {
	size, err = writeAtomically(path, func(w io.Writer) error {
		var err error
		version, err = items.Export(w)
		return err
	})
	return version, size, err
}

// writeAtomically writes a file at path with write: it writes a temporary
// file in the same directory, syncs it, and renames it over path. A crash
// at any moment leaves either the old file or the new one, never a torn
// one. path is the file itself, not a symbolic link to it: a rename would
// replace the link. It returns the size of the file.
func writeAtomically(path string, write func(io.Writer) error) (int64, error) {
	return writeAtomicallyThen(path, write, nil)
}

// writeAtomicallyThen is writeAtomically, calling beforeRename, when not
// nil, with the temporary file once it is written and synced: an error
// it returns leaves path as it was.
func writeAtomicallyThen(path string, write func(io.Writer) error, beforeRename func(tmp string) error) (int64, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+tmpSuffix+"*")
	if err != nil {
		return 0, fmt.Errorf("cannot persist to %s: %w", path, reason(err))
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	counted := &countingWriter{w: tmp}
	err = write(counted)
	if err == nil {
		err = tmp.Sync()
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil && beforeRename != nil {
		err = beforeRename(tmp.Name())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("cannot persist to %s: %w", path, reason(err))
	}
	// Make the rename itself durable.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return counted.n, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// tmpSuffix marks the temporary files of writeAtomically, and of a log
// written anew.
const tmpSuffix = ".tmp-"

// removeStaleStateFiles removes the temporary files a crash during
// writeAtomically, or while the log was written anew, left beside path:
// of the state file, its settings file, its held file and its log.
func removeStaleStateFiles(path string) error {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var prefixes []string
	for _, p := range []string{path, settingsPath(path), heldPath(path), logPath(path)} {
		prefixes = append(prefixes, filepath.Base(p)+tmpSuffix)
	}
	for _, e := range entries {
		stale := slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(e.Name(), p) })
		if stale && !e.IsDir() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
