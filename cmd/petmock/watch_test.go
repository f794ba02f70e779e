package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// startWatching starts the petmock binary on a free port with args, its
// log in a buffer the test reads while it runs.
func startWatching(t *testing.T, args ...string) (*binary, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(petmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v\n%s", err, log.String())
	}
	go io.Copy(io.Discard, stdout)
	return &binary{cmd: cmd, url: strings.Fields(line)[2], stderr: &strings.Builder{}}, &log
}

// documentStatus reads what petmock says of the versions of its
// document, at GET /__petmock/contract.
func documentStatus(t *testing.T, url string) mockserver.DocumentStatus {
	t.Helper()
	status, body := get(t, "GET", strings.TrimSuffix(url, "/v1")+"/__petmock/contract", "")
	var v struct{ Document mockserver.DocumentStatus }
	if status != 200 || json.Unmarshal([]byte(body), &v) != nil {
		t.Fatalf("GET /__petmock/contract: %d %s", status, body)
	}
	return v.Document
}

// waitUntil polls cond until it holds. A reload comes within a second or
// two; the bound only stops a broken watch from hanging the test.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 30s: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// replaceFile writes data to a file beside path and renames it over path,
// as many editors save.
func replaceFile(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".swp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestWatchReloadsTheDocument runs petmock --spec FILE --watch --state
// under a write load, and edits FILE as a developer would: an operation
// is added, then a field, then the file is broken, then fixed. Each
// reload keeps the items; the broken file keeps the version before
// serving and says why, in the log and the admin API, in the words
// petmock refuses it with at start; and every write acknowledged along
// the way is in the state file once petmock stops.
func TestWatchReloadsTheDocument(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "pets.yaml")
	state := filepath.Join(dir, "state.json")
	read := func(name string) []byte {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	petstore, ops, field := read("../../spec/openapi.yaml"), read("../../testdata/evolved-ops.yaml"), read("../../testdata/evolved-field.yaml")
	if err := os.WriteFile(doc, petstore, 0o644); err != nil {
		t.Fatal(err)
	}
	p, log := startWatching(t, "--spec", doc, "--watch", "--state", state, "--pets", "5")
	// The log is written out every 100ms.
	waitUntil(t, "the log says it watches "+doc, func() bool { return strings.Contains(log.String(), "watching "+doc) })
	status, body := get(t, "POST", p.url+"/pets", `{"name":"Before","categoryId":1}`)
	if status != 201 || !strings.Contains(body, `"id":6`) {
		t.Fatalf("POST /v1/pets: %d %s, want 201 with id 6", status, body)
	}
	stop := make(chan struct{})
	loaded := make(chan map[int64]string)
	go func() { loaded <- writeLoad(t, p.url, stop) }()
	reloads := func(n int) func() bool {
		return func() bool { return documentStatus(t, p.url).Reloads == n }
	}

	// An operation added, the file renamed over: it answers, and the
	// items are kept.
	replaceFile(t, doc, ops)
	waitUntil(t, "the orders are served", func() bool { s, _ := get(t, "GET", p.url+"/store/orders?limit=1", ""); return s == 200 })
	if status, body := get(t, "GET", p.url+"/pets/6", ""); status != 200 || !strings.Contains(body, `"Before"`) {
		t.Errorf("GET /v1/pets/6 after adding an operation: %d %s", status, body)
	}

	// A field added, the file truncated and written: the items are kept,
	// and the field is taken and served.
	if err := os.WriteFile(doc, field, 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the second reload", reloads(2))
	status, body = get(t, "POST", p.url+"/pets", `{"name":"Tagged","categoryId":1,"tag":"good boy"}`)
	if status != 201 || !strings.Contains(body, `"tag":"good boy"`) {
		t.Fatalf("POST with a tag after adding the field: %d %s", status, body)
	}
	var tagged pet
	json.Unmarshal([]byte(body), &tagged)
	if status, body := get(t, "GET", p.url+"/pets/6", ""); status != 200 || !strings.Contains(body, `"Before"`) {
		t.Errorf("GET /v1/pets/6 after adding a field: %d %s", status, body)
	}

	// The file broken: the version before goes on, and petmock says why
	// as it would at start.
	broken := []byte("openapi: 3.0.3\ninfo: {title: Pets, version: 2.0.0\npaths: {}\n")
	if err := os.WriteFile(doc, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the broken version is refused", func() bool { return documentStatus(t, p.url).Refused != nil })
	refused := documentStatus(t, p.url).Refused.Message
	out, _ := exec.Command(petmockBinary(t), "--addr", "127.0.0.1:0", "--spec", doc).CombinedOutput()
	if atStart := strings.TrimSpace(strings.TrimPrefix(string(out), "petmock: ")); refused != atStart {
		t.Errorf("the refusal says %q, and petmock at start %q", refused, atStart)
	}
	waitUntil(t, "the log says why", func() bool { return strings.Contains(log.String(), "document not reloaded") })
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "document not reloaded") && !strings.Contains(line, strings.ReplaceAll(refused, `"`, `\"`)) {
			t.Errorf("the log's refusal %q does not say %q", line, refused)
		}
	}
	if lines := strings.Count(log.String(), "document not reloaded"); lines != 1 {
		t.Errorf("the log has %d lines of the refusal, want one", lines)
	}
	if status, body := get(t, "GET", p.url+"/pets/"+jsonNumber(tagged.ID), ""); status != 200 || !strings.Contains(body, `"tag":"good boy"`) {
		t.Errorf("GET of the tagged pet while the file is broken: %d %s, want the version before served", status, body)
	}

	// Fixed again: it is served, and the refusal is gone.
	replaceFile(t, doc, field)
	waitUntil(t, "the third reload", reloads(3))
	if d := documentStatus(t, p.url); d.Refused != nil || d.Last == nil || d.Last.Kept["pets"] < 7 {
		t.Errorf("after the fix: %+v, last %+v", d, d.Last)
	}
	close(stop)
	acked := <-loaded
	acked[6], acked[tagged.ID] = "Before", "Tagged"
	pets := stopAndCheckSaved(t, p, state, acked)
	if len(pets) < 5+len(acked) {
		t.Errorf("%d pets saved, want the 5 seeded and the %d acknowledged", len(pets), len(acked))
	}
	if len(acked) < 10 {
		t.Logf("only %d writes were acknowledged under the load", len(acked))
	}
}

// TestWatchWaitsForTheFileToSettle: a file that is missing for a moment,
// or half written, is not taken up until two looks find the same content.
func TestWatchWaitsForTheFileToSettle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pets.yaml")
	if err := os.WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(path, time.Hour)
	if w.changed() {
		t.Error("the content it started with is a change")
	}
	os.Remove(path)
	if w.changed() {
		t.Error("a file missing at one look is a change")
	}
	os.WriteFile(path, []byte("tw"), 0o644)
	if w.changed() {
		t.Error("a file written since the last look is a change")
	}
	os.WriteFile(path, []byte("two"), 0o644)
	if w.changed() {
		t.Error("a file still being written is a change")
	}
	if !w.changed() {
		t.Error("a file found alike by two looks is not a change")
	}
	if w.changed() {
		t.Error("the content tried is a change again")
	}
	// Back to what it started with, after trying another: a change, so
	// that a refusal is lifted.
	os.WriteFile(path, []byte("one"), 0o644)
	w.changed()
	if !w.changed() {
		t.Error("the content of before, back, is not a change")
	}
	// The same size, time and file, written within the time a coarse
	// clock would hide: the content tells.
	fi, _ := os.Stat(path)
	os.WriteFile(path, []byte("uno"), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	w.changed()
	if !w.changed() {
		t.Error("a change of content alone is not a change")
	}
}

// TestWatchInProcess runs petmock --watch in this process, so that the
// race detector sees a reload beside the requests, the saves and the
// shutdown.
func TestWatchInProcess(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "pets.yaml")
	petstore, err := os.ReadFile("../../spec/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ops, err := os.ReadFile("../../testdata/evolved-ops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(doc, petstore, 0o644)
	var stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--pets", "3", "--spec", doc, "--watch", "--state", filepath.Join(dir, "state.json")}, env(), outW, &stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v", err)
	}
	go io.Copy(io.Discard, outR)
	url := strings.Fields(line)[2]
	stop := make(chan struct{})
	loaded := make(chan map[int64]string)
	go func() { loaded <- writeLoad(t, url, stop) }()
	replaceFile(t, doc, ops)
	waitUntil(t, "the orders are served", func() bool { s, _ := get(t, "GET", url+"/store/orders?limit=1", ""); return s == 200 })
	os.WriteFile(doc, []byte("not: [a document"), 0o644)
	waitUntil(t, "the broken version is refused", func() bool { return documentStatus(t, url).Refused != nil })
	close(stop)
	acked := <-loaded
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	// The document has two resources: the state file is an object of
	// their items.
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var saved struct{ Pets []pet }
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	ids := map[int64]bool{}
	for _, p := range saved.Pets {
		ids[p.ID] = true
	}
	for id := range acked {
		if !ids[id] {
			t.Errorf("acknowledged pet %d is not in the state file", id)
		}
	}
}

// TestWatchFlipsLoseNothing flips the watched file between a version of
// the document with pets and orders and one without orders whose pets may
// only be available, as an editor's half-saved file or a branch switch
// does, under creates of both, and then restores it: every pet and order
// acknowledged must be served again, each id given once, and so again
// after a restart from the state file.
func TestWatchFlipsLoseNothing(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "pets.yaml")
	state := filepath.Join(dir, "state.json")
	full, err := os.ReadFile("../../testdata/evolved-ops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	petstore, err := os.ReadFile("../../spec/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	narrowed := strings.Replace(string(petstore), "        - available\n        - pending\n        - sold\n", "        - available\n", 1)
	if narrowed == string(petstore) {
		t.Fatal("the Petstore's statuses are not where the test narrows them")
	}
	os.WriteFile(doc, full, 0o644)
	p, log := startWatching(t, "--spec", doc, "--watch", "--state", state, "--pets", "20")
	waitUntil(t, "the log says it watches "+doc, func() bool { return strings.Contains(log.String(), "watching "+doc) })

	// Creates of pets and of orders, each id acknowledged once.
	var mu sync.Mutex
	acked := map[string]map[int64]string{"pets": {}, "store/orders": {}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	create := func(path string, w int, body func(i int) (string, string)) {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			mark, sent := body(i)
			status, answer := get(t, "POST", p.url+"/"+path, sent)
			if status != 201 {
				continue // refused while a version that lacks it serves
			}
			var v struct{ ID int64 }
			json.Unmarshal([]byte(answer), &v)
			mu.Lock()
			if was, dup := acked[path][v.ID]; dup {
				t.Errorf("POST /v1/%s: id %d acknowledged for %s and for %s", path, v.ID, was, mark)
			}
			acked[path][v.ID] = mark
			mu.Unlock()
		}
	}
	for w := range 3 {
		wg.Add(1)
		go create("pets", w, func(i int) (string, string) {
			name := fmt.Sprintf("flip-%d-%d", w, i)
			return `"name":"` + name + `"`, `{"name":"` + name + `","categoryId":1}`
		})
	}
	wg.Add(1)
	go create("store/orders", 0, func(i int) (string, string) {
		q := 1 + i%9
		return fmt.Sprintf(`"quantity":%d`, q), fmt.Sprintf(`{"petId":1,"quantity":%d}`, q)
	})
	reloads := 0
	flip := func(data []byte, what string) {
		reloads++
		replaceFile(t, doc, data)
		n := reloads
		waitUntil(t, what, func() bool { return documentStatus(t, p.url).Reloads == n })
	}
	for range 3 {
		time.Sleep(300 * time.Millisecond)
		flip([]byte(narrowed), "the narrowed version is served")
		if held := documentStatus(t, p.url).Last.HeldBack; held["orders"] == 0 || held["pets"] == 0 {
			t.Errorf("the narrowed version holds back %v, want orders and the pets that are not available", held)
		}
		time.Sleep(300 * time.Millisecond)
		flip(full, "the full version is served again")
	}
	close(stop)
	wg.Wait()
	if held := documentStatus(t, p.url).Last.HeldBack; len(held) != 0 {
		t.Errorf("once the full version is back, %v are still held back", held)
	}
	served := func(url, when string) {
		t.Helper()
		for path, ids := range acked {
			for id, mark := range ids {
				status, body := get(t, "GET", fmt.Sprintf("%s/%s/%d", url, path, id), "")
				if status != 200 || !strings.Contains(body, mark) {
					t.Errorf("%s: GET /v1/%s/%d: %d %s, want the one acknowledged with %s", when, path, id, status, body, mark)
				}
			}
		}
	}
	served(p.url, "once the full version is back")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("petmock exited with %v after SIGTERM\n%s", err, log.String())
	}
	again, _ := startWatching(t, "--spec", doc, "--watch", "--state", state, "--pets", "20")
	served(again.url, "after a restart")
	t.Logf("%d pets and %d orders acknowledged across %d reloads", len(acked["pets"]), len(acked["store/orders"]), reloads)
}
