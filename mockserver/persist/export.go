package persist

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// The log is petmock's to read. For people, and for the tools that read
// fixtures, the state file (--state's path) is an export of the items the
// log holds, a fixture that --fixtures and PUT /__petmock/fixture read,
// with the settings file beside it; and, while some items are held back
// (see catalogue.Held), a file that lists them and why. They are written
// when the log is written anew, when petmock stops, and when it has been
// idle a moment with a small store. A state file or a settings file
// changed by hand while petmock was stopped is loaded at the next start:
// the log records the fingerprint of each file it wrote, before the file
// replaces the last, so that a file it wrote is never taken for one
// changed by hand.

// exportFiles names the files of an export.
type exportFiles struct {
	state, settings, held string
}

// heldPath returns the file that lists the items held back beside the
// state file at path: state.held.json beside state.json.
func heldPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".held.json"
}

// logPath returns the log beside the state file at path: state.log beside
// state.json.
func logPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".log"
}

// writeFixture writes the served items of marks as a fixture, as
// catalogue.Resources.Export writes one: an array for one resource, an
// object of arrays by name for more.
func writeFixture(w io.Writer, marks []cutMark) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	array := func(m store.Mark) {
		bw.WriteString("[")
		first := true
		m.Each(func(e store.Entry) bool {
			if !first {
				bw.WriteString(",")
			}
			first = false
			bw.WriteString("\n  ")
			bw.Write(e.Text)
			return true
		})
		bw.WriteString("\n]\n")
	}
	if len(marks) == 1 {
		array(marks[0].mark)
		return bw.Flush()
	}
	bw.WriteString("{")
	for i, m := range marks {
		if i > 0 {
			bw.WriteString(",")
		}
		name, _ := json.Marshal(m.resource)
		bw.WriteString("\n")
		bw.Write(name)
		bw.WriteString(": ")
		array(m.mark)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// heldItem is an item held back as the held file lists it.
type heldItem struct {
	Reason string          `json:"reason"`
	Item   json.RawMessage `json:"item"`
}

// writeHeld writes the items held back, by resource, with why.
func writeHeld(w io.Writer, held map[string][]catalogue.Held) error {
	out := map[string][]heldItem{}
	for name, items := range held {
		for _, h := range items {
			item := json.RawMessage(h.Entry.Text)
			if !json.Valid(item) {
				item, _ = json.Marshal(string(h.Entry.Text))
			}
			out[name] = append(out[name], heldItem{Reason: h.Reason, Item: item})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// exportFile writes a file of the export atomically (see
// writeAtomically), and returns its fingerprint; record is called with it
// before the file replaces the last, and the file is not written unless
// it succeeds.
func exportFile(path string, write func(io.Writer) error, record func(fingerprint) error) (fingerprint, error) {
	var fp fingerprint
	_, err := writeAtomicallyThen(path, func(w io.Writer) error {
		sum := crc32.New(castagnoli())
		if err := write(io.MultiWriter(w, sum)); err != nil {
			return err
		}
		fp.sum = sum.Sum32()
		return nil
	}, func(tmp string) error {
		fi, err := os.Stat(tmp)
		if err != nil {
			return err
		}
		fp.size, fp.modTime = fi.Size(), fi.ModTime().UnixNano()
		if record != nil {
			return record(fp)
		}
		return nil
	})
	return fp, err
}

// changedByHand reports whether the file at path is other than every one
// of fps, the fingerprints of the files the log says petmock wrote there:
// a file of their size and time of change is petmock's; another is read
// and its sum compared. A missing file is not changed.
func changedByHand(path string, fps []fingerprint) (bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, fp := range fps {
		if fp.size == fi.Size() && fp.modTime == fi.ModTime().UnixNano() {
			return false, nil
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sum := crc32.New(castagnoli())
	if _, err := io.Copy(sum, f); err != nil {
		return false, err
	}
	for _, fp := range fps {
		if fp.size == fi.Size() && fp.sum == sum.Sum32() {
			return false, nil
		}
	}
	return true, nil
}

// writeExport writes the export of a cut: the state file, the settings
// file and the held file, each recorded in the log before it replaces the
// last (see exportFile). A held file is removed once nothing is held.
func (s *Saver) writeExport(c *cut) error {
	files := s.files
	record := func(name string) func(fingerprint) error {
		return func(fp fingerprint) error {
			s.mu.Lock()
			s.exported[name] = append([]fingerprint{fp}, s.exported[name]...)[:min(2, len(s.exported[name])+1)]
			s.mu.Unlock()
			return s.saveRecord(exportedRecord(name, fp))
		}
	}
	if _, err := exportFile(files.state, func(w io.Writer) error { return writeFixture(w, c.marks) }, record(filepath.Base(files.state))); err != nil {
		return err
	}
	if c.settings != nil {
		if _, err := exportFile(files.settings, func(w io.Writer) error { _, err := w.Write(c.settings); return err },
			record(filepath.Base(files.settings))); err != nil {
			return err
		}
	}
	if len(c.held) == 0 {
		if err := os.Remove(files.held); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("cannot remove %s: %w", files.held, reason(err))
		}
		return nil
	}
	_, err := exportFile(files.held, func(w io.Writer) error { return writeHeld(w, c.held) }, nil)
	return err
}
