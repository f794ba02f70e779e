// Command enginecompare compares three ways of keeping items durably, as
// petmock --state keeps them: an append-only log of checksummed records
// with a group commit (the standard library's), bbolt with Batch, and
// SQLite in WAL mode with synchronous=FULL (modernc.org/sqlite, no cgo)
// with one transaction per group. Each is loaded with items, then written
// by concurrent clients, each waiting for its write to be durable; then
// the items are read back as a start would. It is a module of its own, so
// that petmock does not depend on what it compares:
//
//	cd mockserver/persist/testdata/enginecompare
//	go run . -engine log -items 1000000
//	go run . -engine bolt -items 1000000
//	go run . -engine sqlite -items 1000000
//
// docs/performance.md has what it measured, and why petmock keeps a log.
package main

import (
	"bufio"
	"database/sql"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	_ "modernc.org/sqlite"
)

type engine interface {
	preload(n int) error
	put(id int64, text []byte) error
	close() error
	recover() (int, error)
}

var item = []byte(`{"id":123456,"name":"Rex the fourth","categoryId":2,"status":"available","tags":["a","b"]}`)

// ---- log ----
type logEngine struct {
	off, alloc int64
	path       string
	f          *os.File
	mu         sync.Mutex
	buf        []byte
	last       uint64 // lsn appended
	cond       *sync.Cond
	durable    uint64
	kick       chan struct{}
	done       chan struct{}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendRecord(buf []byte, id int64, text []byte) []byte {
	var hdr [8]byte
	start := len(buf)
	buf = append(buf, hdr[:]...)
	buf = binary.AppendVarint(buf, id)
	buf = binary.AppendUvarint(buf, uint64(len(text)))
	buf = append(buf, text...)
	payload := buf[start+8:]
	binary.LittleEndian.PutUint32(buf[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(payload, castagnoli))
	return buf
}

func newLog(dir string) *logEngine {
	l := &logEngine{path: filepath.Join(dir, "state.log"), kick: make(chan struct{}, 1), done: make(chan struct{})}
	l.cond = sync.NewCond(&l.mu)
	l.f, _ = os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o644)
	go l.run()
	return l
}
func (l *logEngine) run() {
	for {
		select {
		case <-l.kick:
		case <-l.done:
			return
		}
		l.mu.Lock()
		buf, upTo := l.buf, l.last
		l.buf = nil
		l.mu.Unlock()
		if len(buf) == 0 {
			continue
		}
		if l.off+int64(len(buf)) > l.alloc {
			grow := int64(64 << 20)
			switch *prealloc {
			case "zeros":
				l.f.WriteAt(make([]byte, grow), l.alloc)
			case "fallocate":
				syscall.Fallocate(int(l.f.Fd()), 0, l.alloc, grow)
			}
			l.alloc += grow
		}
		l.f.WriteAt(buf, l.off)
		l.off += int64(len(buf))
		syscall.Fdatasync(int(l.f.Fd()))
		l.mu.Lock()
		l.durable = upTo
		l.cond.Broadcast()
		l.mu.Unlock()
	}
}
func (l *logEngine) preload(n int) error {
	w := bufio.NewWriterSize(l.f, 1<<20)
	var b []byte
	for i := 1; i <= n; i++ {
		b = appendRecord(b[:0], int64(i), item)
		w.Write(b)
		l.off += int64(len(b))
	}
	w.Flush()
	l.alloc = l.off
	return l.f.Sync()
}
func (l *logEngine) put(id int64, text []byte) error {
	l.mu.Lock()
	l.buf = appendRecord(l.buf, id, text)
	l.last++
	me := l.last
	select {
	case l.kick <- struct{}{}:
	default:
	}
	for l.durable < me {
		l.cond.Wait()
	}
	l.mu.Unlock()
	return nil
}
func (l *logEngine) close() error { close(l.done); return l.f.Close() }
func (l *logEngine) recover() (int, error) {
	f, err := os.Open(l.path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, _ := f.Stat()
	data := make([]byte, fi.Size())
	_, err = io.ReadFull(f, data)
	if err != nil {
		return 0, err
	}
	type rec struct {
		id   int64
		text []byte
	}
	items := make([]rec, 0, 1<<20)
	for off := 0; off+8 <= len(data); {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		if n == 0 || off+8+n > len(data) {
			break
		}
		sum := binary.LittleEndian.Uint32(data[off+4:])
		p := data[off+8 : off+8+n]
		if crc32.Checksum(p, castagnoli) != sum {
			break
		}
		id, k := binary.Varint(p)
		ln, k2 := binary.Uvarint(p[k:])
		items = append(items, rec{id, p[k+k2 : k+k2+int(ln)]})
		off += 8 + n
	}
	return len(items), nil
}

// ---- bbolt ----
type boltEngine struct {
	db   *bolt.DB
	path string
}

func newBolt(dir string) *boltEngine {
	p := filepath.Join(dir, "state.db")
	db, err := bolt.Open(p, 0o644, nil)
	if err != nil {
		panic(err)
	}
	db.MaxBatchDelay = 2 * time.Millisecond
	db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists([]byte("pets")); return err })
	return &boltEngine{db, p}
}
func key(id int64) []byte { var k [8]byte; binary.BigEndian.PutUint64(k[:], uint64(id)); return k[:] }
func (b *boltEngine) preload(n int) error {
	for start := 1; start <= n; start += 100000 {
		err := b.db.Update(func(tx *bolt.Tx) error {
			bk := tx.Bucket([]byte("pets"))
			bk.FillPercent = 1
			for i := start; i < start+100000 && i <= n; i++ {
				if err := bk.Put(key(int64(i)), item); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
func (b *boltEngine) put(id int64, text []byte) error {
	return b.db.Batch(func(tx *bolt.Tx) error { return tx.Bucket([]byte("pets")).Put(key(id), text) })
}
func (b *boltEngine) close() error { return b.db.Close() }
func (b *boltEngine) recover() (int, error) {
	db, err := bolt.Open(b.path, 0o644, nil)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	type rec struct {
		id   int64
		text []byte
	}
	items := make([]rec, 0, 1<<20)
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("pets")).ForEach(func(k, v []byte) error {
			items = append(items, rec{int64(binary.BigEndian.Uint64(k)), append([]byte(nil), v...)})
			n++
			return nil
		})
	})
	return n, err
}

// ---- sqlite ----
type sqliteEngine struct {
	db      *sql.DB
	path    string
	mu      sync.Mutex
	pending []pend
	kick    chan struct{}
	done    chan struct{}
}
type pend struct {
	id   int64
	text []byte
	done chan error
}

func newSQLite(dir string) *sqliteEngine {
	p := filepath.Join(dir, "state.sqlite")
	db, err := sql.Open("sqlite", p+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE IF NOT EXISTS pets (id INTEGER PRIMARY KEY, text BLOB)"); err != nil {
		panic(err)
	}
	s := &sqliteEngine{db: db, path: p, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go s.run()
	return s
}
func (s *sqliteEngine) run() {
	for {
		select {
		case <-s.kick:
		case <-s.done:
			return
		}
		s.mu.Lock()
		batch := s.pending
		s.pending = nil
		s.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		tx, err := s.db.Begin()
		if err == nil {
			st, _ := tx.Prepare("INSERT OR REPLACE INTO pets (id, text) VALUES (?, ?)")
			for _, p := range batch {
				if _, e := st.Exec(p.id, p.text); e != nil {
					err = e
				}
			}
			st.Close()
			if err == nil {
				err = tx.Commit()
			} else {
				tx.Rollback()
			}
		}
		for _, p := range batch {
			p.done <- err
		}
	}
}
func (s *sqliteEngine) preload(n int) error {
	for start := 1; start <= n; start += 100000 {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		st, _ := tx.Prepare("INSERT INTO pets (id, text) VALUES (?, ?)")
		for i := start; i < start+100000 && i <= n; i++ {
			st.Exec(int64(i), item)
		}
		st.Close()
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}
func (s *sqliteEngine) put(id int64, text []byte) error {
	p := pend{id, text, make(chan error, 1)}
	s.mu.Lock()
	s.pending = append(s.pending, p)
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return <-p.done
}
func (s *sqliteEngine) close() error { close(s.done); return s.db.Close() }
func (s *sqliteEngine) recover() (int, error) {
	db, err := sql.Open("sqlite", s.path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rows, err := db.Query("SELECT id, text FROM pets ORDER BY id")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	type rec struct {
		id   int64
		text []byte
	}
	items := make([]rec, 0, 1<<20)
	for rows.Next() {
		var r rec
		rows.Scan(&r.id, &r.text)
		items = append(items, r)
	}
	return len(items), rows.Err()
}

// prealloc is how the log is made longer ahead of its records.
var prealloc = flag.String("prealloc", "zeros", "how the log is made longer ahead of its records: zeros, fallocate or none")

func main() {
	which := flag.String("engine", "log", "log, bolt or sqlite")
	n := flag.Int("items", 1000, "items before the load")
	clients := flag.Int("clients", 16, "concurrent writers")
	dur := flag.Duration("time", 5*time.Second, "load time")
	dirFlag := flag.String("dir", "", "directory (default a temporary one)")
	flag.Parse()
	dir := *dirFlag
	if dir == "" {
		dir, _ = os.MkdirTemp(".", "enginecompare-")
		defer os.RemoveAll(dir)
	}
	var e engine
	switch *which {
	case "log":
		e = newLog(dir)
	case "bolt":
		e = newBolt(dir)
	case "sqlite":
		e = newSQLite(dir)
	}
	t0 := time.Now()
	if err := e.preload(*n); err != nil {
		panic(err)
	}
	preload := time.Since(t0)
	var next atomic.Int64
	next.Store(int64(*n))
	var mu sync.Mutex
	var lat []time.Duration
	stop := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for range *clients {
		wg.Go(func() {
			var mine []time.Duration
			for time.Now().Before(stop) {
				id := next.Add(1)
				t := time.Now()
				if err := e.put(id, item); err != nil {
					panic(err)
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	e.close()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t1 := time.Now()
	got, err := e.recover()
	if err != nil {
		panic(err)
	}
	rec := time.Since(t1)
	var size int64
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if fi != nil && !fi.IsDir() {
			size += fi.Size()
		}
		return nil
	})
	fmt.Printf("%-6s items=%-8d writes/s=%-7.0f p50=%-8s p99=%-8s recover %d items in %s; preload %s; %d MB on disk\n",
		*which, *n, float64(len(lat))/dur.Seconds(), lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*99/100].Round(time.Microsecond), got, rec.Round(time.Millisecond), preload.Round(time.Millisecond), size>>20)
}
