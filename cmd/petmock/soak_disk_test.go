//go:build soak

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// mountTmpfs mounts a file system of size in memory, such as "4m", on a
// directory of the test's, and returns it. It needs root; otherwise the
// test is skipped, saying why.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if !asRoot() {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	// Cleanups run last first: this one before TempDir's removal.
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// TestSoakFullDisk creates pets with names of a kilobyte from four clients
// against a petmock whose state file is on a file system of 4 MiB, half of
// it taken by another file: the disk fills while they write, the other
// file goes halfway through, and the disk fills again. No acknowledged
// create may be lost, and no refused one made: after SIGKILL, a restart
// must serve every pet whose creation was answered 201, and none whose
// creation was answered 503, which a client would send again.
func TestSoakFullDisk(t *testing.T) {
	dir := mountTmpfs(t, "4m")
	hog := filepath.Join(dir, "hog")
	if err := os.WriteFile(hog, make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state.json")
	p := startBinary(t, "--state", state, "--pets", "10")

	until := soakUntil()
	half := time.Now().Add(time.Until(until) / 2)
	var mu sync.Mutex
	acked := map[int64]string{}
	refusedNames := map[string]bool{}
	var refused, other atomic.Int64
	long := strings.Repeat("x", 1000)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			for i := 0; time.Now().Before(until); i++ {
				name := fmt.Sprintf("full-%d-%d-%s", w, i, long)
				req, _ := http.NewRequest("POST", p.url+"/pets", strings.NewReader(`{"name":"`+name+`","categoryId":1}`))
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("POST /v1/pets: %v", err)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusCreated:
					var pt pet
					json.Unmarshal(body, &pt)
					mu.Lock()
					acked[pt.ID] = pt.Name
					mu.Unlock()
				case http.StatusServiceUnavailable:
					refused.Add(1)
					mu.Lock()
					refusedNames[name] = true
					mu.Unlock()
					time.Sleep(10 * time.Millisecond) // as a client backs off
				default:
					other.Add(1)
					t.Errorf("POST /v1/pets: %d %s", resp.StatusCode, body)
				}
			}
		})
	}
	time.Sleep(time.Until(half))
	os.Remove(hog)
	wg.Wait()
	alive(t, p)
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	again := startBinary(t, "--state", state, "--pets", "10")
	pets := servedPets(t, again.url)
	saved := make(map[int64]string, len(pets))
	made := 0
	for _, pt := range pets {
		saved[pt.ID] = pt.Name
		if refusedNames[pt.Name] {
			made++
		}
	}
	lost := 0
	for id, name := range acked {
		if saved[id] != name {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged creates are not served after a restart", lost, len(acked))
	}
	if made > 0 {
		t.Errorf("%d creates answered 503 are served after a restart: a client that sends them again makes duplicates", made)
	}
	if refused.Load() == 0 {
		t.Errorf("no create was refused: the disk never filled")
	}
	t.Logf("%d creates acknowledged, %d refused while the disk was full, %d acknowledged lost and %d refused made after SIGKILL; %d pets served after a restart",
		len(acked), refused.Load(), lost, made, len(pets))
}
