package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startWithFiles starts the petmock binary with at most limit open files,
// and the flags given.
func startWithFiles(t *testing.T, limit int, args ...string) *binary {
	t.Helper()
	args = append([]string{`ulimit -n "$0" && exec "$@"`, strconv.Itoa(limit), petmockBinary(t), "--addr", "127.0.0.1:0"}, args...)
	cmd := exec.Command("sh", append([]string{"-c"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &binary{cmd: cmd, stderr: &strings.Builder{}}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v\n%s", err, b.stderr)
	}
	go io.Copy(io.Discard, stdout)
	b.url = strings.Fields(line)[2]
	return b
}

// openFiles counts the files a process holds open.
func openFiles(t *testing.T, pid int) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Skipf("cannot count the files of petmock: %v", err)
	}
	return len(entries)
}

// TestIdleConnectionsLeaveHealthAnswering opens 5,000 idle connections to
// a petmock that may open 4,096 files, which once took every descriptor
// it had for 10 s: petmock holds at most half of its descriptors in
// connections, closing the idle ones longest idle, and health answers.
func TestIdleConnectionsLeaveHealthAnswering(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 5,000 connections")
	}
	const limit, flood = 4096, 5000
	p := startWithFiles(t, limit, "--pets", "10")
	addr := strings.TrimPrefix(strings.TrimSuffix(p.url, "/v1"), "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range flood {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("connection %d: %v", len(conns)+1, err)
		}
		conns = append(conns, c)
	}
	held := openFiles(t, p.cmd.Process.Pid)
	client := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	resp, err := client.Get(strings.TrimSuffix(p.url, "/v1") + "/__petmock/health")
	if err != nil {
		t.Fatalf("health after %d idle connections, with petmock holding %d files of %d: %v", flood, held, limit, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if resp.StatusCode != 200 {
		t.Errorf("health after %d idle connections: %d %s", flood, resp.StatusCode, body)
	}
	t.Logf("%d idle connections at %d descriptors: petmock held %d files; health answered %d in %s", flood, limit, held, resp.StatusCode, took)
	if held > limit*3/4 {
		t.Errorf("petmock held %d files of %d, want at most half in connections", held, limit)
	}
}
