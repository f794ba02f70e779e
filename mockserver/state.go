package mockserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A state file keeps the store between runs. It is a fixture, so a state
// file can also be loaded with --fixtures or PUT /__petmock/pets.

// LoadState reads the state file at path. A missing file gives an error
// for which errors.Is(err, os.ErrNotExist) holds; a file that is not a
// valid fixture gives an error that says where it is wrong.
func LoadState(path string) ([]Pet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pets, err := ReadFixture(f)
	if err != nil {
		return nil, fmt.Errorf("state file %s is corrupt, so petmock leaves it as it is; repair or remove it: %w", path, err)
	}
	return pets, nil
}

// SaveState writes the store to path atomically: it writes a temporary
// file in the same directory, syncs it, and renames it over path. A crash
// at any moment leaves either the old file or the new one, never a torn
// one. It returns the version of the store it saved.
func SaveState(path string, s *Store) (uint64, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+tmpSuffix+"*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	version, err := s.Export(tmp)
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
		return 0, fmt.Errorf("save state to %s: %w", path, err)
	}
	// Make the rename itself durable.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return version, nil
}

// tmpSuffix marks the temporary files of SaveState.
const tmpSuffix = ".tmp-"

// RemoveStaleStateFiles removes the temporary files a crash during
// SaveState left beside path.
func RemoveStaleStateFiles(path string) error {
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
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base+tmpSuffix) && !e.IsDir() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
