package persist

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// A save appends records to the log and syncs its data (fdatasync), which
// costs the same at any size of the store. Appending past the end of a
// file makes the sync write the file's size and block map too, through
// the file system's journal, which costs several times as much and now
// and then tens of milliseconds: so the log is made longer ahead of its
// records, with zeros written in the background through a descriptor of
// their own that writes through (O_DSYNC), so that no save's sync waits
// for them, and a save writes into blocks the file has already. A log on
// a file system with less room than preallocated times minRoomFactor is
// not made longer ahead: the room is the store's.

// preallocated is how far past its records a log is made longer at most.
const preallocated = 16 << 20

// preallocStep is how much of that one write of zeros makes.
const preallocStep = 1 << 20

// minRoomFactor times what a log is made longer by must be free for it to
// be.
const minRoomFactor = 8

// A log petmock does not write is closed after a moment (idle), so that
// an administrator may remount its file system read-only, which Linux
// refuses while a file is open to write; it is opened again for the next
// save, and refused then if another file took its place.

// idleClose is how long a log is left open after its last save.
const idleClose = 200 * time.Millisecond

// logFile is the log: its records end at off, and zeros follow up to the
// size of the file.
type logFile struct {
	// f is the file, open to write, or nil while idle; info is the file
	// it was first opened as.
	f    *os.File
	info os.FileInfo
	path string

	// off is where the next record is written. Only the saver's writes
	// change it, one at a time.
	off int64

	// alloc is the size of the file: zeros from off to it. It only
	// grows, but for cut, so that a record that ends below it is written
	// without a lock.
	alloc atomic.Int64
	// mu orders what is written past alloc: the zeros written ahead, a
	// step at a time, and a record longer than the room left.
	mu sync.Mutex
	// extended is closed once the zeros under way are written; nil when
	// none are. Guarded by mu.
	extended chan struct{}
}

// openLogFile opens the log at path, whose records end at off, to append
// to: whatever follows off, zeros or a torn tail, is cut off first, so
// that a record written there is never followed by a stale one.
func openLogFile(path string, off int64) (*logFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(off); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return adoptLogFile(f, path, off, off)
}

// adoptLogFile makes f, open on path and synced, the log, whose records
// end at off and whose size is size.
func adoptLogFile(f *os.File, path string, off, size int64) (*logFile, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	l := &logFile{f: f, info: info, path: path, off: off}
	l.alloc.Store(size)
	return l, nil
}

// open opens the log again after it was idle, and refuses a file that is
// not the one it was.
func (l *logFile) open() error {
	if l.f != nil {
		return nil
	}
	f, err := os.OpenFile(l.path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err == nil && !os.SameFile(info, l.info) {
		err = fmt.Errorf("its log %s was replaced by another file", l.path)
	}
	if err != nil {
		f.Close()
		return err
	}
	l.f = f
	return nil
}

// idle closes the log until the next save, once the zeros under way are
// written.
func (l *logFile) idle() {
	if l.f == nil {
		return
	}
	l.waitExtended()
	l.f.Close()
	l.f = nil
}

// write appends data at off and syncs it. On failure, off stays where it
// was: the records it wrote are not part of the log, and the next write
// overwrites them.
func (l *logFile) write(data []byte) error {
	if err := l.open(); err != nil {
		return err
	}
	end := l.off + int64(len(data))
	if end <= l.alloc.Load() {
		// Below alloc, where no zeros are written any more.
		if _, err := l.f.WriteAt(data, l.off); err != nil {
			return err
		}
	} else {
		l.mu.Lock()
		_, err := l.f.WriteAt(data, l.off)
		if err == nil && end > l.alloc.Load() {
			l.alloc.Store(end)
		}
		l.mu.Unlock()
		if err != nil {
			return err
		}
	}
	if err := fdatasync(l.f); err != nil {
		return err
	}
	l.off = end
	l.extend()
	return nil
}

// cut cuts the file at off, dropping the records a failed write left
// past it, and syncs, so that a record written there is read back whole.
func (l *logFile) cut() error {
	if err := l.open(); err != nil {
		return err
	}
	l.waitExtended()
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.f.Truncate(l.off); err != nil {
		return err
	}
	l.alloc.Store(l.off)
	return l.f.Sync()
}

// headroom returns how many bytes the log can take without growing the
// file: what a full disk still lets it save.
func (l *logFile) headroom() int64 { return l.alloc.Load() - l.off }

// extend makes the file longer ahead of the records, in the background,
// when less than half of preallocated is left and the file system has
// room to spare.
func (l *logFile) extend() {
	if l.alloc.Load()-l.off >= preallocated/2 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.extended != nil {
		return
	}
	free, ok := freeSpace(filepath.Dir(l.path))
	if !ok || free < minRoomFactor*preallocated {
		return
	}
	zf, err := os.OpenFile(l.path, os.O_WRONLY|writeThrough, 0)
	if err != nil {
		return
	}
	if info, err := zf.Stat(); err != nil || !os.SameFile(info, l.info) {
		zf.Close()
		return
	}
	done := make(chan struct{})
	l.extended = done
	until := l.off + preallocated
	go func() {
		defer close(done)
		defer zf.Close()
		zeros := make([]byte, preallocStep)
		for {
			l.mu.Lock()
			at := l.alloc.Load()
			if at >= until {
				l.extended = nil
				l.mu.Unlock()
				return
			}
			_, err := zf.WriteAt(zeros, at)
			if err == nil {
				l.alloc.Store(at + preallocStep)
			} else {
				l.extended = nil
			}
			l.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
}

// waitExtended waits for the zeros under way, if any.
func (l *logFile) waitExtended() {
	l.mu.Lock()
	done := l.extended
	l.mu.Unlock()
	if done != nil {
		<-done
	}
}

// sameFile reports whether the file at the log's path is still the one it
// writes: one removed or replaced would take the records nowhere a start
// reads.
func (l *logFile) sameFile() error {
	at, err := os.Stat(l.path)
	if err != nil {
		return fmt.Errorf("its log %s is gone: %w", l.path, reason(err))
	}
	if !os.SameFile(at, l.info) {
		return fmt.Errorf("its log %s was replaced by another file", l.path)
	}
	return nil
}

// close closes the file, once the zeros under way are written.
func (l *logFile) close() {
	l.idle()
}
