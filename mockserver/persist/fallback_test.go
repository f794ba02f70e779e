package persist

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestCloseSaysWhatItCouldNotKeep breaks the state file, then stops the
// server: when its last save cannot be made to the log a start reads,
// Close must fail with one line that says how many acknowledged writes the
// log lacks, and where what the server held went (beside the state file,
// or in the temporary directory when its directory is gone), and that file
// must hold them; when the log holds every write, it must stop cleanly,
// and a start, once the state file's path is mended, must serve them.
func TestCloseSaysWhatItCouldNotKeep(t *testing.T) {
	replaceByDir := func(path string) { os.Remove(path); os.Mkdir(path, 0o755) }
	dirByFile := func(path string) {
		os.Rename(filepath.Dir(path), filepath.Dir(path)+".moved")
		os.WriteFile(filepath.Dir(path), nil, 0o644)
	}
	tests := []struct {
		name     string
		interval time.Duration
		created  int  // pets created before the state file breaks
		setting  bool // a setting changed after it broke
		breakIt  func(path string)
		want     string // of the error; "" for none
		tempDir  bool   // whether what petmock held goes to the temporary directory
	}{
		{"saved at an interval, the file replaced by a directory", time.Hour, 3, false, replaceByDir, "", false},
		{"saved at an interval, its directory replaced by a file", time.Hour, 2, false, dirByFile,
			"; 2 acknowledged writes are not in it; what petmock held is in ", true},
		{"each write saved, a setting changed since", 0, 3, true, dirByFile,
			"; 0 acknowledged writes are not in it; what petmock held is in ", true},
		{"each write saved, nothing changed since", 0, 3, false, replaceByDir, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			path := filepath.Join(t.TempDir(), "data", "state.json")
			os.Mkdir(filepath.Dir(path), 0o755)
			s := newSavedServer(t, path, Config{Interval: tt.interval}, mockserver.Config{Catalogue: seeded(2)})
			for range tt.created {
				if status, body := post(t, s.url+"/pets", "Acknowledged"); status != 201 {
					t.Fatalf("POST /v1/pets: %d %s", status, body)
				}
			}
			tt.breakIt(path)
			root := s.URL
			awaitHealth(t, root, 503)
			if tt.setting {
				if status, body := get(t, "PATCH", root+"/__petmock/settings", `{"latency":"1ms"}`); status != 200 {
					t.Fatalf("PATCH settings: %d %s", status, body)
				}
			}
			err := s.stop()
			if tt.want == "" {
				if err != nil {
					t.Errorf("Close: %v, want no error: the log holds every write", err)
				}
				os.Remove(path)
				again := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(2)})
				if n := again.srv.Items().Store("pets").Len(); n != 2+tt.created {
					t.Errorf("a start once the path is mended serves %d pets, want the 2 seeded and the %d created", n, tt.created)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "the last save failed: cannot persist to "+path) ||
				!strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Close: %v, want one line saying %q", err, tt.want)
			}
			where := regexp.MustCompile(`is in (\S+\.unsaved-\d{8}T\d{6}Z\.json) `).FindStringSubmatch(err.Error())
			if where == nil {
				t.Fatalf("Close: %v, names no file", err)
			}
			wantDir := filepath.Dir(path)
			if tt.tempDir {
				wantDir = tmp
			}
			if filepath.Dir(where[1]) != wantDir {
				t.Errorf("what the server held went to %s, want it in %s", where[1], wantDir)
			}
			pets, err := readPetsFile(where[1])
			if err != nil || len(pets) != 2+tt.created {
				t.Errorf("%s holds %d pets (%v), want the 2 seeded and the %d created", where[1], len(pets), err, tt.created)
			}
		})
	}
}
