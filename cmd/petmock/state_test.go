package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asRoot reports whether the tests run as root, for whom permissions do
// not bite: a directory of mode 0555 is writable all the same.
func asRoot() bool { return os.Geteuid() == 0 }

// TestStateRefusedAtStart checks that a --state petmock could not save to
// is refused at start, with exit status 2 and a message that names the
// path and says why, rather than found out at the first save, or, for a
// FIFO, hanging the start.
func TestStateRefusedAtStart(t *testing.T) {
	tests := []struct {
		name string
		path func(t *testing.T, dir string) string
		want string
		user bool // made with permissions, which do not bite as root
	}{
		{"a named pipe", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "state.json")
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { unblockFIFO(path) })
			return path
		}, "it is a named pipe (FIFO), not a regular file", false},
		{"a directory", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "state.json")
			os.Mkdir(path, 0o755)
			return path
		}, "it is a directory, not a regular file", false},
		{"a device", func(t *testing.T, dir string) string { return os.DevNull }, "it is a device, not a regular file", false},
		{"a path under a file", func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
			return filepath.Join(dir, "file", "state.json")
		}, "its directory " + "DIR/file is not a directory", false},
		{"a missing directory", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "missing", "state.json")
		}, "its directory DIR/missing does not exist", false},
		{"a symbolic link to a named pipe", func(t *testing.T, dir string) string {
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { unblockFIFO(fifo) })
			os.Symlink("fifo", filepath.Join(dir, "state.json"))
			return filepath.Join(dir, "state.json")
		}, "it is a named pipe (FIFO), not a regular file", false},
		{"a loop of symbolic links", func(t *testing.T, dir string) string {
			os.Symlink("b", filepath.Join(dir, "a"))
			os.Symlink("a", filepath.Join(dir, "b"))
			return filepath.Join(dir, "a")
		}, "too many levels of symbolic links", false},
		{"a read-only directory, with the file already there", func(t *testing.T, dir string) string {
			ro := filepath.Join(dir, "ro")
			os.Mkdir(ro, 0o755)
			os.WriteFile(filepath.Join(ro, "state.json"), []byte("[]\n"), 0o644)
			os.Chmod(ro, 0o555)
			t.Cleanup(func() { os.Chmod(ro, 0o755) })
			return filepath.Join(ro, "state.json")
		}, "petmock cannot write in its directory DIR/ro: permission denied", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.user && asRoot() {
				t.Skip("permissions do not bite as root; the other cases make the same failure without them")
			}
			dir := t.TempDir()
			path := tt.path(t, dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--pets", "1", "--state", path}, env(), io.Discard, io.Discard)
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(hangDetector):
				t.Fatalf("--state %s: petmock still starting after %s", path, hangDetector)
			}
			want := strings.ReplaceAll(tt.want, "DIR", dir)
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "--state "+path+": ") || !strings.Contains(err.Error(), want) {
				t.Errorf("--state %s: err = %v, want a usage error naming the path and saying %q", path, err, want)
			}
			if status := exitStatus(err, io.Discard); status != 2 {
				t.Errorf("--state %s: exit status %d, want 2", path, status)
			}
		})
	}
}

// unblockFIFO opens a FIFO for writing, which a reader blocked in opening
// it is waiting for.
func unblockFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	}
}

// TestShutdownSaysWhatItCouldNotKeep breaks the state file, then stops
// petmock: when its last save fails, run must fail with the saver's one
// line, which says how many acknowledged writes the state file lacks and
// where what petmock held went, and petmock exits with status 1. What the
// line says in each case is mockserver/persist's to test.
func TestShutdownSaysWhatItCouldNotKeep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "state.json")
	s := start(t, "--state", path, "--pets", "2", "--save-interval", "1h")
	if status, body := post(t, s.url+"/pets", "Acknowledged"); status != 201 {
		t.Fatalf("POST /v1/pets: %d %s", status, body)
	}
	// The directory of the state file and its log moves away, and a file
	// takes its place: no save reaches where a start reads.
	os.Rename(dir, dir+".moved")
	os.WriteFile(dir, nil, 0o644)
	err := s.stop(t)
	const want = "; 1 acknowledged write is not in it; what petmock held is in "
	if err == nil || !strings.HasPrefix(err.Error(), "the last save failed: cannot persist to "+path) ||
		!strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("run: %v, want one line saying %q", err, want)
	}
	if status := exitStatus(err, &strings.Builder{}); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
}

// post sends a POST creating a pet named name, or, with no name, a GET.
func post(t *testing.T, url, name string) (int, string) {
	t.Helper()
	if name == "" {
		return get(t, "GET", url, "")
	}
	return get(t, "POST", url, `{"name":"`+name+`","categoryId":1}`)
}

// TestUnnamedResourcesHoldTheirStartingItems checks the one rule of the
// three ways a file is loaded, --fixtures, --state and PUT
// /__petmock/fixture: a file of orders alone sets the orders, and leaves
// the pets as petmock starts without it, with the generated catalogue.
func TestUnnamedResourcesHoldTheirStartingItems(t *testing.T) {
	evolved := filepath.Join("..", "..", "testdata", "evolved-ops.yaml")
	const orders = `{"orders":[{"id":3,"petId":1,"quantity":2,"status":"placed","complete":false}]}`
	dir := t.TempDir()
	fixture := filepath.Join(dir, "orders.json")
	os.WriteFile(fixture, []byte(orders), 0o644)
	state := filepath.Join(dir, "state.json")
	os.WriteFile(state, []byte(orders), 0o644)

	catalogue := start(t, "--spec", evolved, "--pets", "3")
	_, want := get(t, "GET", catalogue.url+"/pets", "")
	loads := []struct {
		name string
		load func(t *testing.T) *started
	}{
		{"--fixtures", func(t *testing.T) *started { return start(t, "--spec", evolved, "--pets", "3", "--fixtures", fixture) }},
		{"--state", func(t *testing.T) *started { return start(t, "--spec", evolved, "--pets", "3", "--state", state) }},
		{"PUT /__petmock/fixture", func(t *testing.T) *started {
			s := start(t, "--spec", evolved, "--pets", "3")
			post(t, s.url+"/pets", "Gone after the fixture")
			if status, body := get(t, "PUT", strings.TrimSuffix(s.url, "/v1")+"/__petmock/fixture", orders); status != 200 {
				t.Fatalf("PUT /__petmock/fixture: %d %s", status, body)
			}
			return s
		}},
	}
	for _, l := range loads {
		s := l.load(t)
		if _, pets := get(t, "GET", s.url+"/pets", ""); pets != want {
			t.Errorf("%s of orders alone: GET /v1/pets = %s, want the generated catalogue %s", l.name, pets, want)
		}
		if _, got := get(t, "GET", s.url+"/store/orders", ""); strings.Count(got, `"id"`) != 1 || !strings.Contains(got, `"id":3`) {
			t.Errorf("%s of orders alone: GET /v1/store/orders = %s, want the file's one order", l.name, got)
		}
	}
}
