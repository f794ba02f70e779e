package edge

import (
	"encoding/base64"
	"encoding/binary"
)

// cursorVersion leads every cursor, so that their format can change
// without old cursors being misread.
const cursorVersion = 1

// EncodeCursor returns the opaque cursor of the page that starts after the
// pet with id after.
func EncodeCursor(after int64) string {
	var b [9]byte
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:], uint64(after))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// DecodeCursor returns the id a cursor from EncodeCursor starts after.
func DecodeCursor(s string) (int64, *Error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 9 || b[0] != cursorVersion {
		return 0, BadRequest("cursor", "is not a cursor this server issued; follow the Link header of the previous page")
	}
	return int64(binary.BigEndian.Uint64(b[1:])), nil
}
