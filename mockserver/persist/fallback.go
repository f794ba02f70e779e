package persist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
)

// When the last save fails, what petmock holds would be lost with the
// process: it is written elsewhere instead, as a fixture.

// unsavedName names the file that holds what a failed last save could not
// keep: state.unsaved-20310101T120000Z.json for state.json.
func unsavedName(path string, at time.Time) string {
	return strings.TrimSuffix(filepath.Base(path), ".json") + ".unsaved-" + at.UTC().Format("20060102T150405Z") + ".json"
}

// keepElsewhere writes items beside the state file at path,
// or, when that directory cannot take it, in the system's temporary
// directory, and returns the file it wrote.
func keepElsewhere(path string, items *catalogue.Resources) (string, error) {
	name := unsavedName(path, time.Now())
	var failures []string
	for _, dir := range []string{filepath.Dir(path), os.TempDir()} {
		where := filepath.Join(dir, name)
		_, _, err := saveState(where, items)
		if err == nil {
			return where, nil
		}
		failures = append(failures, err.Error())
	}
	return "", errors.New(strings.Join(failures, "; "))
}
