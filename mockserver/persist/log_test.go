package persist

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// recovered opens a server of three seeded pets on the log data, as a
// start after a crash does, and returns its pets by name and what the
// saver logged.
func recovered(t *testing.T, data []byte) (map[string]int64, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(logPath(path), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := mockserver.New(mockserver.Config{Catalogue: seeded(3)})
	if err != nil {
		t.Fatal(err)
	}
	log := &syncWriter{}
	saver, err := Open(path, source{srv}, slog.New(slog.NewTextHandler(log, nil)), Config{})
	if err != nil {
		t.Fatalf("Open of a log of %d bytes: %v", len(data), err)
	}
	// As a crash leaves it: closed without a last save or an export.
	defer saver.file.close()
	names := map[string]int64{}
	for _, e := range srv.Items().Store("pets").Entries() {
		var p pet
		if err := jsonUnmarshal(e.Text, &p); err != nil {
			t.Fatal(err)
		}
		names[p.Name] = p.ID
	}
	return names, log.String()
}

// records returns where each whole record of the log data begins, and
// where the last ends.
func records(data []byte) (starts []int, end int) {
	off := 0
	for off+frameHeader <= len(data) {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		if n == 0 || off+frameHeader+n > len(data) {
			break
		}
		starts = append(starts, off)
		off += frameHeader + n
	}
	return starts, off
}

// TestTornLastRecordRecoversEveryWriteBeforeIt cuts a log at every byte of
// its last record, the create of the last pet, as a crash during its save
// leaves it, and flips a byte of it, as a disk may: each start must serve
// every pet acknowledged before it, and not that one, say that the tail
// is torn or corrupt, and set it aside; a log cut where the record begins
// holds no tail to report.
func TestTornLastRecordRecoversEveryWriteBeforeIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	var acked []string
	for i := range 5 {
		name := fmt.Sprintf("Pet %d", i)
		if status, body := post(t, s.url+"/pets", name); status != 201 {
			t.Fatalf("POST /v1/pets: %d %s", status, body)
		}
		acked = append(acked, name)
	}
	// Every create was answered once saved: the log on disk holds them,
	// as a crash now would leave it.
	data, err := os.ReadFile(logPath(path))
	if err != nil {
		t.Fatal(err)
	}
	starts, end := records(data)
	last := starts[len(starts)-1]
	if data[last+frameHeader] != recAdd {
		t.Fatalf("the last record is of kind %d, want the create of the last pet", data[last+frameHeader])
	}
	before, lastPet := acked[:len(acked)-1], acked[len(acked)-1]
	check := func(what string, log []byte, torn bool) {
		t.Helper()
		pets, logged := recovered(t, log)
		for _, name := range before {
			if _, ok := pets[name]; !ok {
				t.Errorf("%s: %q, acknowledged before it, is not served", what, name)
			}
		}
		if _, ok := pets[lastPet]; ok {
			t.Errorf("%s: %q is served from a record that is not whole", what, lastPet)
		}
		if said := strings.Contains(logged, "torn or corrupt tail"); said != torn {
			t.Errorf("%s: the start said of a torn tail: %v, want %v\n%s", what, said, torn, logged)
		}
	}
	for cut := last; cut < end; cut++ {
		check(fmt.Sprintf("a log cut at byte %d of %d", cut, end), data[:cut], cut > last)
	}
	// The preallocated zeros that follow the records are no tail.
	padded := append(append([]byte{}, data[:last]...), make([]byte, 4096)...)
	check("a log cut where its last record begins, then zeros", padded, false)
	for _, at := range []int{last + 2, last + frameHeader + 1, end - 1} {
		flipped := append([]byte{}, data[:end]...)
		flipped[at] ^= 0x40
		check(fmt.Sprintf("a log with byte %d flipped", at), flipped, true)
	}
	// The tail is set aside, for whoever wants to look.
	dir := t.TempDir()
	os.WriteFile(logPath(filepath.Join(dir, "state.json")), data[:end-3], 0o644)
	srv, _ := mockserver.New(mockserver.Config{Catalogue: seeded(3)})
	saver, err := Open(filepath.Join(dir, "state.json"), source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	if err != nil {
		t.Fatal(err)
	}
	saver.Close()
	aside, _ := filepath.Glob(logPath(filepath.Join(dir, "state.json")) + ".torn-*")
	if len(aside) != 1 {
		t.Fatalf("torn tails set aside: %v, want one", aside)
	}
	if got, _ := os.ReadFile(aside[0]); string(got) != string(data[last:end-3]) {
		t.Errorf("the tail set aside holds %d bytes, want the %d of the torn record", len(got), end-3-last)
	}
}

// TestLogWrittenAnewLosesNoWrite creates pets from four clients while the
// log is written anew again and again, and copies the log at moments
// between, as a crash would leave it: a start from each copy must serve
// every pet acknowledged before the copy was taken.
func TestLogWrittenAnewLosesNoWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(200)})
	var mu sync.Mutex
	var acked []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%d-%d", w, i)
				if status, body := post(t, s.url+"/pets", name); status != 201 {
					t.Errorf("POST /v1/pets: %d %s", status, body)
					return
				}
				mu.Lock()
				acked = append(acked, name)
				mu.Unlock()
			}
		})
	}
	type copied struct {
		data  []byte
		acked []string
	}
	var copies []copied
	rewrites := 0
	inode := func() uint64 {
		fi, err := os.Stat(logPath(path))
		if err != nil {
			return 0 // between the removal and the rename of a rewrite
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	for i := range 15 {
		if i%3 == 0 {
			// Ask for the log to be written anew, and wait until it is:
			// on a busy machine, a rewrite may take longer than the
			// copies between two asks, and each must be taken over.
			was := inode()
			s.saver.compactSoon.Store(true)
			deadline := time.Now().Add(time.Minute)
			for ino := inode(); ino == was || ino == 0; ino = inode() {
				if time.Now().After(deadline) {
					t.Fatalf("the log was not written anew within a minute of asking, after %d copies", i)
				}
				time.Sleep(5 * time.Millisecond)
			}
			rewrites++
		}
		time.Sleep(20 * time.Millisecond) // writes between two copies
		mu.Lock()
		before := append([]string{}, acked...)
		mu.Unlock()
		data, err := os.ReadFile(logPath(path))
		if err != nil {
			t.Fatal(err)
		}
		copies = append(copies, copied{data, before})
	}
	close(stop)
	wg.Wait()
	for i, c := range copies {
		pets, _ := recovered(t, c.data)
		missing := 0
		for _, name := range c.acked {
			if _, ok := pets[name]; !ok {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("copy %d: %d of the %d pets acknowledged before it are not served", i, missing, len(c.acked))
		}
	}
	t.Logf("%d copies of the log, %d pets acknowledged in all, %d logs written anew", len(copies), len(acked), rewrites)
}

// TestStateFileChangedByHandIsLoaded changes the state file while petmock
// is stopped: the next start serves what it holds, in place of the log's
// items, and keeps it; a file only touched is not taken for a change.
func TestStateFileChangedByHandIsLoaded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	post(t, s.url+"/pets", "Kept in the log")
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	s = newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	if n := s.srv.Items().Store("pets").Len(); n != 4 || strings.Contains(s.log.String(), "changed since") {
		t.Errorf("after the state file was touched, %d pets are served, want the log's 4\n%s", n, s.log)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}

	const fixture = `[{"id":7,"name":"By hand","categoryId":1,"status":"sold"}]`
	os.WriteFile(path, []byte(fixture), 0o644)
	for round := range 2 {
		s = newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
		entries := s.srv.Items().Store("pets").Entries()
		if len(entries) != 1 || !strings.Contains(string(entries[0].Text), `"By hand"`) {
			t.Errorf("start %d after the state file was written by hand serves %d pets, want its one", round, len(entries))
		}
		if said := strings.Contains(s.log.String(), "state file was changed since petmock wrote it"); said != (round == 0) {
			t.Errorf("start %d: the log says the file changed: %v\n%s", round, said, s.log)
		}
		if err := s.stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStateFileOfAnEarlierPetmockIsLoaded starts on a state file and a
// settings file as a petmock before the log wrote them, with no log: the
// items and settings are served, and a log is made beside them.
func TestStateFileOfAnEarlierPetmockIsLoaded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(path, []byte(`[{"id":1,"name":"Old","categoryId":1},{"id":9,"name":"Older","categoryId":2}]`), 0o644)
	os.WriteFile(settingsPath(path), []byte(`{"savedAt":"2030-01-01T00:00:00Z","latency":"5ms","failRate":0,"journal":10,"forced":[]}`), 0o644)
	s := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	if n := s.srv.Items().Store("pets").Len(); n != 2 {
		t.Errorf("%d pets served, want the state file's 2", n)
	}
	if l := s.srv.Steering().Settings().Latency; l != "5ms" {
		t.Errorf("latency %q, want the settings file's 5ms", l)
	}
	if _, err := os.Stat(logPath(path)); err != nil {
		t.Errorf("no log beside the state file: %v", err)
	}
	if status, body := post(t, s.url+"/pets", "New"); status != 201 || !strings.Contains(body, `"id":10`) {
		t.Errorf("POST /v1/pets: %d %s, want pet 10", status, body)
	}
}

// jsonUnmarshal decodes a pet's text.
func jsonUnmarshal(text []byte, v any) error { return json.Unmarshal(text, v) }
