package persist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
)

// TestStateSaveFailures breaks the state file while petmock runs, in ways
// that work as root too, and checks that from the next save or check on,
// health answers 503 with the reason and writes are refused with 503,
// changing nothing; and that once the file can be saved again, writes are
// acknowledged and every acknowledged pet is saved.
func TestStateSaveFailures(t *testing.T) {
	tests := []struct {
		name          string
		breakIt, mend func(dir, path string)
		want          string
		user          bool
	}{
		{"the file replaced by a directory",
			func(dir, path string) { os.Remove(path); os.Mkdir(path, 0o755) },
			func(dir, path string) { os.Remove(path) },
			"it is a directory, not a regular file", false},
		{"its directory replaced by a file",
			func(dir, path string) {
				os.Rename(filepath.Dir(path), filepath.Dir(path)+".moved")
				os.WriteFile(filepath.Dir(path), nil, 0o644)
			},
			func(dir, path string) {
				os.Remove(filepath.Dir(path))
				os.Rename(filepath.Dir(path)+".moved", filepath.Dir(path))
			},
			"is not a directory", false},
		{"its directory made read-only",
			func(dir, path string) { os.Chmod(filepath.Dir(path), 0o555) },
			func(dir, path string) { os.Chmod(filepath.Dir(path), 0o755) },
			"petmock cannot write in its directory", true},
	}
	for _, d := range durabilities {
		for _, tt := range tests {
			for _, created := range []bool{false, true} {
				for _, idle := range []bool{false, true} {
					name := d.name + ", " + tt.name + ", nothing changed since the last save"
					if created {
						name = d.name + ", " + tt.name + ", with a pet not saved yet"
					}
					if idle {
						name += ", the log closed, idle"
					}
					t.Run(name, func(t *testing.T) {
						saveFailure(t, d.interval, tt.breakIt, tt.mend, tt.want, tt.user, created, idle)
					})
				}
			}
		}
	}
}

// saveFailure is a case of TestStateSaveFailures. With idle, the log is
// closed when the file breaks, as petmock closes it once nothing was
// written for a moment, so that the next save opens it again, and fails
// where a save to the open file would not.
func saveFailure(t *testing.T, interval time.Duration, breakIt, mend func(dir, path string), want string, user, created, idle bool) {
	if user && asRoot() {
		t.Skip("permissions do not bite as root; the other cases make the same failure without them")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "data", "state.json")
	os.Mkdir(filepath.Dir(path), 0o755)
	s := newSavedServer(t, path, Config{Interval: interval}, mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 1, Count: 3}})
	acked := []string{}
	if status, _ := post(t, s.URL+"/v1/pets", "Before"); status == 201 {
		acked = append(acked, "Before")
	}
	s.saver.tick()

	still(s.saver, func() {
		if idle {
			s.saver.file.idle()
		}
		breakIt(dir, path)
	})
	t.Cleanup(func() { mend(dir, path) })
	if created {
		if status, _ := post(t, s.URL+"/v1/pets", "Unsaved"); status == 201 {
			acked = append(acked, "Unsaved")
		}
	}
	s.saver.tick()
	status, body := post(t, s.URL+"/__petmock/health", "")
	if status != 503 || !strings.Contains(body, "cannot persist to "+path) || !strings.Contains(body, want) {
		t.Errorf("GET health once saves fail: %d %s, want a 503 saying %q", status, body, want)
	}
	before := s.srv.Items().Store("pets").Len()
	status, body = post(t, s.URL+"/v1/pets", "Refused")
	if status != 503 || !strings.Contains(body, `"message":"state: cannot persist to `+path+": ") ||
		!strings.Contains(body, want) || !strings.Contains(body, "; nothing was changed") {
		t.Errorf("POST /v1/pets once saves fail: %d %s, want a 503 saying why", status, body)
	}
	if s.srv.Items().Store("pets").Len() != before {
		t.Errorf("a refused write changed the store")
	}
	if !strings.Contains(s.log.String(), "level=ERROR") {
		t.Errorf("the failure was not logged:\n%s", s.log)
	}

	still(s.saver, func() { mend(dir, path) })
	s.saver.tick()
	if status, body := post(t, s.URL+"/__petmock/health", ""); status != 200 {
		t.Errorf("GET health once the file can be saved again: %d %s", status, body)
	}
	if status, _ := post(t, s.URL+"/v1/pets", "After"); status == 201 {
		acked = append(acked, "After")
	} else {
		t.Errorf("POST /v1/pets once the file can be saved again: %d", status)
	}
	s.saver.tick()
	pets, err := readPetsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	saved := map[string]bool{}
	for _, p := range pets {
		saved[p.Name] = true
	}
	for _, name := range acked {
		if !saved[name] {
			t.Errorf("acknowledged pet %q is not in the state file", name)
		}
	}
}

// still runs f, which breaks or mends the files of s in more than one
// step, while s neither saves, probes nor writes its export: the saver's
// own quarter-second probe, had it run between two steps, such as a file
// removed and a directory made in its place, could write the export there
// first, and the break would not be the one the test makes.
func still(s *Saver, f func()) {
	s.exportMu.Lock()
	defer s.exportMu.Unlock()
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	f()
}

// TestStateSaveFailuresServedFromMemory checks --on-save-error serve:
// writes are still acknowledged, and the failure logged, while saves fail.
func TestStateSaveFailuresServedFromMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := newSavedServer(t, path, Config{KeepServing: true}, mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 1, Count: 3}})
	os.Remove(path)
	os.Mkdir(path, 0o755)
	s.saver.tick()
	if status, body := post(t, s.URL+"/v1/pets", "InMemory"); status != 201 {
		t.Errorf("POST /v1/pets with --on-save-error serve while saves fail: %d %s, want 201", status, body)
	}
	s.saver.tick()
	if status, _ := post(t, s.URL+"/__petmock/health", ""); status != 200 {
		t.Errorf("GET health with --on-save-error serve: %d, want 200", status)
	}
	if log := s.log.String(); !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "serving from memory only") {
		t.Errorf("the failure was not logged:\n%s", log)
	}
}
