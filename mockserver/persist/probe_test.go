package persist

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// awaitHealth asks the health of the server at root until it answers
// want, and returns how long that took and the last answer's body. It
// fails the test if that takes longer than hangDetector.
func awaitHealth(t *testing.T, root string, want int) (time.Duration, string) {
	t.Helper()
	start := time.Now()
	for {
		status, body := get(t, "GET", root+"/__petmock/health", "")
		if status == want {
			return time.Since(start), body
		}
		if time.Since(start) > hangDetector {
			t.Fatalf("GET /__petmock/health still %d %s after %s, want %d", status, body, hangDetector, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestUnkeepableStateNoticedWhenIdle breaks the state file while the
// server is idle, with no write and no save to find it out: the check the
// saver makes on its own must make health fail, saying why, and refuse
// writes; once mended, health is 200 again and writes are acknowledged and
// saved.
func TestUnkeepableStateNoticedWhenIdle(t *testing.T) {
	tests := []struct {
		name          string
		breakIt, mend func(path string)
		want          string
		user          bool // made with permissions, which do not bite as root
	}{
		{"the file replaced by a directory",
			func(path string) { os.Remove(path); os.Mkdir(path, 0o755) },
			func(path string) { os.Remove(path) },
			"it is a directory, not a regular file", false},
		{"its directory made read-only",
			func(path string) { os.Chmod(filepath.Dir(path), 0o555) },
			func(path string) { os.Chmod(filepath.Dir(path), 0o755) },
			"petmock cannot write in its directory", true},
	}
	for _, d := range durabilities {
		for _, tt := range tests {
			t.Run(d.name+", "+tt.name, func(t *testing.T) {
				if tt.user && asRoot() {
					t.Skip("permissions do not bite as root; TestFullDiskNoticedWhenIdle remounts a file system read-only instead")
				}
				path := filepath.Join(t.TempDir(), "data", "state.json")
				os.Mkdir(filepath.Dir(path), 0o755)
				s := newSavedServer(t, path, Config{Interval: d.interval}, mockserver.Config{Catalogue: seeded(3)})
				root := s.URL
				tt.breakIt(path)
				t.Cleanup(func() { tt.mend(path) })
				took, body := awaitHealth(t, root, 503)
				if !strings.Contains(body, "cannot persist to "+path) || !strings.Contains(body, tt.want) {
					t.Errorf("GET health once the file cannot be saved: %s, want it to say %q", body, tt.want)
				}
				t.Logf("noticed after %s, idle", took.Round(time.Millisecond))
				if status, body := post(t, s.url+"/pets", "Refused"); status != 503 || !strings.Contains(body, "nothing was changed") {
					t.Errorf("POST /v1/pets once noticed: %d %s, want 503", status, body)
				}
				tt.mend(path)
				awaitHealth(t, root, 200)
				if status, body := post(t, s.url+"/pets", "After"); status != 201 {
					t.Errorf("POST /v1/pets once mended: %d %s, want 201", status, body)
				}
				if err := s.stop(); err != nil {
					t.Fatalf("Close: %v", err)
				}
				if pets, err := readPetsFile(path); err != nil || len(pets) != 4 || pets[3].Name != "After" {
					t.Errorf("the state file holds %+v (%v), want the 3 seeded pets and the one created", pets, err)
				}
			})
		}
	}
}

// mountTmpfs mounts a file system of size in memory, such as "256k", on a
// directory of the test's, and returns it. It needs root; otherwise the
// test is skipped, saying why.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if !asRoot() {
		t.Skip("mounting a small file system needs root; TestUnkeepableStateNoticedWhenIdle makes a directory read-only instead")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	// Cleanups run last first: this one before TempDir's removal.
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// remount remounts the file system at dir with the options given, such as
// "ro". Linux refuses to make a file system read-only while a file is
// open on it to write: petmock closes its log a moment after its last
// save, which the remount waits for.
func remount(t *testing.T, dir, opts string) {
	t.Helper()
	start := time.Now()
	for {
		out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput()
		if err == nil {
			return
		}
		if !strings.Contains(string(out), "busy") || time.Since(start) > hangDetector {
			t.Fatalf("mount -o remount,%s %s: %v %s", opts, dir, err, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fillDisk writes a file in dir until the file system is full, and returns
// its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", dir, err)
			}
			return path
		}
	}
}

// TestFullDiskNoticedWhenIdle fills the file system of the state file,
// then remounts it read-only, while the server is idle: each must make health
// fail and writes be refused, and once space is freed, or the file system
// writable again, writes must resume and be saved.
func TestFullDiskNoticedWhenIdle(t *testing.T) {
	dir := mountTmpfs(t, "256k")
	path := filepath.Join(dir, "state.json")
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	root := s.URL
	if status, body := post(t, s.url+"/pets", "Before"); status != 201 {
		t.Fatalf("POST /v1/pets: %d %s", status, body)
	}

	filler := fillDisk(t, dir)
	took, body := awaitHealth(t, root, 503)
	if !strings.Contains(body, "cannot persist to "+path+": no space left on device") {
		t.Errorf("GET health once the disk is full: %s, want it to say so", body)
	}
	t.Logf("a full disk noticed after %s, idle", took.Round(time.Millisecond))
	if status, body := post(t, s.url+"/pets", "Refused"); status != 503 || !strings.Contains(body, "nothing was changed") {
		t.Errorf("POST /v1/pets on a full disk: %d %s, want 503", status, body)
	}
	os.Remove(filler)
	awaitHealth(t, root, 200)
	if status, body := post(t, s.url+"/pets", "After space was freed"); status != 201 {
		t.Errorf("POST /v1/pets once space was freed: %d %s, want 201", status, body)
	}

	remount(t, dir, "ro")
	t.Cleanup(func() { exec.Command("mount", "-o", "remount,rw", dir).Run() })
	took, body = awaitHealth(t, root, 503)
	if !strings.Contains(body, "read-only file system") {
		t.Errorf("GET health once the file system is read-only: %s, want it to say so", body)
	}
	t.Logf("a read-only file system noticed after %s, idle", took.Round(time.Millisecond))
	if status, body := post(t, s.url+"/pets", "Refused"); status != 503 || !strings.Contains(body, "nothing was changed") {
		t.Errorf("POST /v1/pets on a read-only file system: %d %s, want 503", status, body)
	}
	remount(t, dir, "rw")
	awaitHealth(t, root, 200)
	if status, body := post(t, s.url+"/pets", "After it was writable"); status != 201 {
		t.Errorf("POST /v1/pets once writable again: %d %s, want 201", status, body)
	}

	if err := s.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	pets, err := readPetsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pets[3:] {
		names = append(names, p.Name)
	}
	if want := "Before,After space was freed,After it was writable"; strings.Join(names, ",") != want {
		t.Errorf("created pets in the state file: %q, want %q", names, want)
	}
}

// leaveFree fills the file system at dir, then frees about free bytes of
// it, and returns the filler.
func leaveFree(t *testing.T, dir string, free int64) string {
	t.Helper()
	filler := fillDisk(t, dir)
	fi, err := os.Stat(filler)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filler, max(0, fi.Size()-free)); err != nil {
		t.Fatal(err)
	}
	return filler
}

// TestWriteWhoseSaveFailsIsUndone sends a create too large for what the
// disk has left, though enough is left for a save of an ordinary one to
// be tried: its save fails, and it must be answered 503 saying that
// nothing was changed, and be undone, so that a client that sends it
// again, once space is freed, makes one pet, not two, served after a
// restart too.
func TestWriteWhoseSaveFailsIsUndone(t *testing.T) {
	dir := mountTmpfs(t, "1m")
	path := filepath.Join(dir, "state.json")
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	filler := leaveFree(t, dir, 96<<10)
	awaitHealth(t, s.URL, 200)
	big := strings.Repeat("x", 400<<10)
	status, body := post(t, s.url+"/pets", big)
	if status != 503 || !strings.Contains(body, "no space left on device") || !strings.Contains(body, "nothing was changed") {
		t.Fatalf("POST /v1/pets of a pet the disk cannot take: %d %.200s, want a 503 saying nothing was changed", status, body)
	}
	if n := s.srv.Items().Store("pets").Len(); n != 3 {
		t.Errorf("after the refused create the store holds %d pets, want the 3 it held", n)
	}
	os.Remove(filler)
	awaitHealth(t, s.URL, 200)
	// The saver learns that the space is back on its next tick, and a
	// client sends again what was answered 503 with nothing changed, as
	// often as it is so answered: each retry must change nothing either.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, body := post(t, s.url+"/pets", big)
		if status == 201 {
			break
		}
		if status != 503 || !strings.Contains(body, "nothing was changed") || time.Now().After(deadline) {
			t.Fatalf("POST /v1/pets sent again once space was freed: %d %.200s", status, body)
		}
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	again := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	made := 0
	for _, e := range again.srv.Items().Store("pets").Entries() {
		if strings.Contains(string(e.Text), big) {
			made++
		}
	}
	if made != 1 {
		t.Errorf("after a restart %d pets of the name sent twice are served, want 1", made)
	}
}
