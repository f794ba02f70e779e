package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// writeLoad creates pets from a few clients until stop is closed, and
// returns the pets whose creation was answered, by id.
func writeLoad(t *testing.T, url string, stop <-chan struct{}) map[int64]string {
	t.Helper()
	var mu sync.Mutex
	acked := map[int64]string{}
	client := &http.Client{Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("durable-%d-%d", w, i)
				req, _ := http.NewRequest("POST", url+"/pets", strings.NewReader(`{"name":"`+name+`","categoryId":1}`))
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					return // the process is gone: this one was never answered
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					continue
				}
				var p pet
				if err := json.Unmarshal(body, &p); err != nil {
					continue
				}
				mu.Lock()
				acked[p.ID] = p.Name
				mu.Unlock()
			}
		})
	}
	<-stop
	wg.Wait()
	return acked
}

// TestStateSurvivesSIGKILL kills petmock with SIGKILL in the middle of a
// write load, over a store small enough that its log is written anew
// while it runs. Each time a restart must serve every pet whose creation
// was answered before the last save that held it: since ids are given in
// the order the writes are saved, that is every answered pet up to the
// largest id it serves, with no gap. By default, with every write saved
// before it is answered, no answered pet may be missing at all; with
// --save-interval, those answered since the last save may be.
func TestStateSurvivesSIGKILL(t *testing.T) {
	for _, mode := range []struct {
		name    string
		args    []string
		keepAll bool // whether every answered pet must be kept
	}{
		{"each write saved", nil, true},
		{"saved every 10ms", []string{"--save-interval", "10ms"}, false},
	} {
		t.Run(mode.name, func(t *testing.T) {
			survivesSIGKILL(t, mode.args, mode.keepAll)
		})
	}
}

// survivesSIGKILL is a case of TestStateSurvivesSIGKILL.
func survivesSIGKILL(t *testing.T, args []string, keepAll bool) {
	state := filepath.Join(t.TempDir(), "state.json")
	const seeded = 500
	keptAtAll := 0
	for round := range 3 {
		p := startBinary(t, append([]string{"--state", state, "--pets", fmt.Sprint(seeded)}, args...)...)
		stop := make(chan struct{})
		loaded := make(chan map[int64]string)
		go func() { loaded <- writeLoad(t, p.url, stop) }()
		time.Sleep(time.Duration(300+150*round) * time.Millisecond)
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
		close(stop)
		acked := <-loaded

		// A restart serves what the log holds.
		again := startBinary(t, append([]string{"--state", state, "--pets", fmt.Sprint(seeded)}, args...)...)
		pets := servedPets(t, again.url)
		names := make(map[int64]string, len(pets))
		for i, p := range pets {
			if p.ID != int64(i+1) {
				t.Fatalf("round %d: a restart serves a gap: pets[%d] has id %d", round, i, p.ID)
			}
			names[p.ID] = p.Name
		}
		last := int64(len(pets))
		kept, lost := 0, 0
		for id, name := range acked {
			if id > last {
				lost++ // answered after the last save
				continue
			}
			if names[id] != name {
				t.Errorf("round %d: answered pet %d %q is %q after a restart", round, id, name, names[id])
			}
			kept++
		}
		if last < seeded || len(acked) == 0 {
			t.Fatalf("round %d: a restart serves %d pets, %d answered: the load did not run", round, last, len(acked))
		}
		if keepAll && lost > 0 {
			t.Errorf("round %d: %d answered pets are not served after a restart, want none lost", round, lost)
		}
		keptAtAll += kept
		t.Logf("round %d: %d answered pets kept, %d answered after the last save", round, kept, lost)
		again.cmd.Process.Signal(syscall.SIGTERM)
		if err := again.cmd.Wait(); err != nil {
			t.Fatalf("round %d: petmock exited with %v after SIGTERM\n%s", round, err, again.stderr)
		}
		// After a graceful stop, the state file is an export of them all.
		if exported, err := readPetsFile(state); err != nil || len(exported) != len(pets) {
			t.Errorf("round %d: the state file holds %d pets (%v) after SIGTERM, want the %d served", round, len(exported), err, len(pets))
		}
	}
	if keptAtAll == 0 {
		t.Errorf("no answered pet was ever saved")
	}
}

// servedPets returns the pets petmock at url serves, as the admin API
// exports them.
func servedPets(t *testing.T, url string) []pet {
	t.Helper()
	req, _ := http.NewRequest("GET", strings.TrimSuffix(url, "/v1")+"/__petmock/pets", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /__petmock/pets: %d %s", resp.StatusCode, body)
	}
	pets, err := readPets(body)
	if err != nil {
		t.Fatalf("GET /__petmock/pets: %v", err)
	}
	return pets
}

// TestStateKeepsEveryPetOnSIGTERM checks that a graceful shutdown saves
// every pet whose creation was answered.
func TestStateKeepsEveryPetOnSIGTERM(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	p := startBinary(t, "--state", state, "--pets", "10", "--save-interval", "1h")
	stop := make(chan struct{})
	loaded := make(chan map[int64]string)
	go func() { loaded <- writeLoad(t, p.url, stop) }()
	time.Sleep(300 * time.Millisecond)
	close(stop)
	acked := <-loaded
	pets := stopAndCheckSaved(t, p, state, acked)
	if len(acked) == 0 || len(pets) != 10+len(acked) {
		t.Errorf("%d pets saved, want the 10 seeded and the %d answered", len(pets), len(acked))
	}
	if left, _ := filepath.Glob(state + ".tmp-*"); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// stopAndCheckSaved stops petmock with SIGTERM, and checks that every pet
// it acknowledged, by id and name, is in the state file. It returns the
// pets of the file.
func stopAndCheckSaved(t *testing.T, p *binary, state string, acked map[int64]string) []pet {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("petmock exited with %v after SIGTERM\n%s", err, p.stderr)
	}
	pets, err := readPetsFile(state)
	if err != nil {
		t.Fatal(err)
	}
	saved := map[int64]string{}
	for _, pt := range pets {
		saved[pt.ID] = pt.Name
	}
	for id, name := range acked {
		if saved[id] != name {
			t.Errorf("acknowledged pet %d %q is %q in the state file after a graceful shutdown", id, name, saved[id])
		}
	}
	return pets
}
