package persist

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestOpenRefusesPathsNoSaveCanBeMadeAt checks that Open refuses a path
// no state file could be saved at with a *PathError that names the path
// as given and says what is wrong, at once, even for a named pipe, which
// would hang a read; and that a state file that is not valid is refused
// otherwise, as no mistake of the path.
func TestOpenRefusesPathsNoSaveCanBeMadeAt(t *testing.T) {
	tests := []struct {
		name string
		path func(t *testing.T, dir string) string
		want string // of PathError.Err; "" for an error of another kind
	}{
		{"a directory", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "state.json")
			os.Mkdir(path, 0o755)
			return path
		}, "it is a directory, not a regular file"},
		{"a symbolic link to a named pipe", func(t *testing.T, dir string) string {
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
					f.Close() // a reader blocked in opening it waits for a writer
				}
			})
			os.Symlink("fifo", filepath.Join(dir, "state.json"))
			return filepath.Join(dir, "state.json")
		}, "it is a named pipe (FIFO), not a regular file"},
		{"a missing directory", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "missing", "state.json")
		}, "its directory DIR/missing does not exist"},
		{"a loop of symbolic links", func(t *testing.T, dir string) string {
			os.Symlink("b", filepath.Join(dir, "a"))
			os.Symlink("a", filepath.Join(dir, "b"))
			return filepath.Join(dir, "a")
		}, "too many levels of symbolic links"},
		{"a state file that is not valid", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "state.json")
			os.WriteFile(path, []byte(`[{"id":1,"na`), 0o644)
			return path
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.path(t, dir)
			srv, err := mockserver.New(mockserver.Config{Catalogue: seeded(3)})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := Open(path, source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(hangDetector):
				t.Fatalf("Open(%s) still opening after %s", path, hangDetector)
			}
			var bad *PathError
			isPath := errors.As(err, &bad)
			switch want := strings.ReplaceAll(tt.want, "DIR", dir); {
			case err == nil:
				t.Errorf("Open(%s): no error, want it refused", path)
			case want == "" && isPath:
				t.Errorf("Open(%s): %v, a *PathError, want an error of the file, not of its path", path, err)
			case want != "" && (!isPath || bad.Path != path || bad.Err.Error() != want):
				t.Errorf("Open(%s): %#v, want a *PathError of the path saying %q", path, err, want)
			}
		})
	}
}

// TestStateWritesThroughSymlink checks that a state file that is a symbolic
// link stays one: saves replace the file it leads to, in that file's
// directory, and it is read from there at the next start.
func TestStateWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	link := filepath.Join(dir, "state.json")
	target := filepath.Join(dir, "real", "target.json")
	if err := os.Symlink(filepath.Join("real", "target.json"), link); err != nil {
		t.Fatal(err)
	}
	first := newSavedServer(t, link, Config{}, mockserver.Config{Catalogue: seeded(2)})
	if status, body := get(t, "POST", first.url+"/pets", `{"name":"Linked","categoryId":1}`); status != 201 {
		t.Fatalf("POST: %d %s", status, body)
	}
	if err := first.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("--state %s is no longer a symbolic link: %v, %v", link, fi.Mode(), err)
	}
	pets, err := readPetsFile(target)
	if err != nil || len(pets) != 3 || pets[2].Name != "Linked" {
		t.Fatalf("the file the link leads to holds %+v (%v), want the 2 seeded pets and the one created", pets, err)
	}
	for _, d := range []string{dir, filepath.Dir(target)} {
		if left, _ := filepath.Glob(filepath.Join(d, "*.tmp-*")); len(left) != 0 {
			t.Errorf("temporary files left in %s: %v", d, left)
		}
	}
	second := newSavedServer(t, link, Config{}, mockserver.Config{Catalogue: seeded(2)})
	if status, body := get(t, "GET", second.url+"/pets/3", ""); status != 200 || !strings.Contains(body, `"name":"Linked"`) {
		t.Errorf("after a restart through the link, GET /v1/pets/3: %d %s", status, body)
	}
}
