package persist

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sync"
)

// The log is a sequence of records, each framed as
//
//	length  uint32, little-endian: of the payload
//	sum     uint32, little-endian: CRC-32C (Castagnoli) of the payload
//	payload kind byte, then the fields of its kind
//
// Integers in a payload are varints, texts a uvarint length and the
// bytes. A frame of zeros ends the log: the file is made longer ahead of
// the records, with zeros, so that a save is one write and one
// fdatasync of blocks already allocated (see logFile). A frame whose sum
// does not match, or that the file cuts short, is a torn or corrupt tail.

// Kinds of record.
const (
	// recHeader begins a log: logMagic and logVersion.
	recHeader byte = 1
	// recForm names a form: its number, the resource, and the
	// catalogue.Form. Records of items name their form by its number.
	recForm byte = 2
	// recAdd is an item added: form, id, next id, name, keys, text.
	recAdd byte = 3
	// recPut is an item replaced, which keeps its name: form, id, next
	// id, keys, text.
	recPut byte = 4
	// recDelete is an item removed: form, id, next id.
	recDelete byte = 5
	// recState is every item a resource serves, in one record or more:
	// form, next id, flags (stateFirst, stateLast), the number of items
	// of the whole state, then items of id, name, keys and text. The items held back of the resource are let
	// go: a recHeld follows if it has any.
	recState byte = 6
	// recHeld is every item held back of a resource, in one record or
	// more: resource, flags, the id the resource gave next when the
	// document lacks it (0 otherwise), then items of form, id, name,
	// keys, text and reason.
	recHeld byte = 7
	// recSettings is the settings, forced answers and expectations, as
	// the JSON of savedSettings.
	recSettings byte = 8
	// recExported is a file written for people to read, the export or
	// its settings file: its name, size, time of change and CRC-32C, so
	// that a file changed since, by hand, is told from petmock's own.
	recExported byte = 9
)

// Flags of recState and recHeld.
const (
	stateFirst = 1 << 0 // the first record of the state
	stateLast  = 1 << 1 // the last: the state is whole
)

// logMagic and logVersion begin every log.
const (
	logMagic   = "petmock state log"
	logVersion = 1
)

// frameHeader is the length of a frame's length and sum.
const frameHeader = 8

// maxPayload bounds a record: a longer length is a corrupt frame, not an
// allocation to make. States are written in records of about stateChunk.
const maxPayload = 256 << 20

// stateChunk is about how many bytes of items a record of a state holds.
const stateChunk = 1 << 20

// castagnoli is the table of CRC-32C, made on first use: making it at
// start would cost every start of petmock, --state or not.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// frame appends a frame to buf whose payload write appends, and returns
// buf.
func frame(buf []byte, write func([]byte) []byte) []byte {
	start := len(buf)
	buf = append(buf, make([]byte, frameHeader)...)
	buf = write(buf)
	payload := buf[start+frameHeader:]
	binary.LittleEndian.PutUint32(buf[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(payload, castagnoli()))
	return buf
}

// appendText appends a text: its length and its bytes.
func appendText[T string | []byte](buf []byte, t T) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(t)))
	return append(buf, t...)
}

// appendKeys appends filter keys: their number and each as a text.
func appendKeys(buf []byte, keys []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		buf = appendText(buf, k)
	}
	return buf
}

// errShort is a payload that ends before its fields do.
var errShort = errors.New("a record ends before its fields")

// reader reads the fields of a payload. The first failure sticks: the
// fields read after it are zero, and err says what went wrong.
type reader struct {
	p   []byte
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.p) == 0 {
		r.fail()
		return 0
	}
	b := r.p[0]
	r.p = r.p[1:]
	return b
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.p)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.p = r.p[n:]
	return v
}

// bytes returns a text, the payload's own bytes.
func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.p)) {
		r.fail()
		return nil
	}
	b := r.p[:n:n]
	r.p = r.p[n:]
	return b
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errShort
	}
}
