package mockserver

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"net/url"
	"strconv"
)

// cursorVersion leads every cursor, so that their format can change
// without old cursors being misread.
const cursorVersion = 1

// encodeCursor returns the opaque cursor of the page that starts after the
// pet with id after.
func encodeCursor(after int64) string {
	var b [9]byte
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:], uint64(after))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// decodeCursor returns the id a cursor from encodeCursor starts after.
func decodeCursor(s string) (int64, *Error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 9 || b[0] != cursorVersion {
		return 0, badRequest("cursor", "is not a cursor this server issued; follow the Link header of the previous page")
	}
	return int64(binary.BigEndian.Uint64(b[1:])), nil
}

// nextLink returns the RFC 8288 Link to the page after the pet with id
// last, with the same limit and status.
func nextLink(r *http.Request, path string, limit int, status string, last int64) string {
	b := make([]byte, 0, 128)
	b = append(b, '<')
	b = appendOrigin(b, r)
	b = append(b, path...)
	b = append(b, "?cursor="...)
	b = append(b, encodeCursor(last)...) // base64url: nothing to escape
	b = append(b, "&limit="...)
	b = strconv.AppendInt(b, int64(limit), 10)
	if status != "" {
		b = append(b, "&status="...)
		b = append(b, url.QueryEscape(status)...)
	}
	b = append(b, `>; rel="next"`...)
	return string(b)
}
