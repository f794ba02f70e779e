package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/petstore/contract/mockserver/catalogue"
)

// A state file keeps the items between runs. It is a fixture, so a state
// file can also be loaded with --fixtures or PUT /__petmock/{resource}.

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

// tmpSuffix marks the temporary files of saveState.
const tmpSuffix = ".tmp-"

// removeStaleStateFiles removes the temporary files a crash during
// writeAtomically left beside path, of the state file and of its
// settings file.
func removeStaleStateFiles(path string) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	settings := filepath.Base(settingsPath(path))
	for _, e := range entries {
		stale := strings.HasPrefix(e.Name(), base+tmpSuffix) || strings.HasPrefix(e.Name(), settings+tmpSuffix)
		if stale && !e.IsDir() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
