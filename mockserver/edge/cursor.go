package mockserver

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"net/url"
	"strconv"

	"github.com/petstore/contract/spec"
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

// nextLink returns the RFC 8288 Link to the page after the item with id
// last, with the same limit and filters: filters are name, value pairs.
func nextLink(r *http.Request, path string, paging spec.Paging, limit int, filters []string, last int64) string {
	b := make([]byte, 0, 128)
	b = append(b, '<')
	b = appendOrigin(b, r)
	b = append(b, path...)
	b = append(b, '?')
	b = append(b, paging.Cursor...)
	b = append(b, '=')
	b = append(b, encodeCursor(last)...) // base64url: nothing to escape
	if paging.Limit != "" {
		b = append(b, '&')
		b = append(b, url.QueryEscape(paging.Limit)...)
		b = append(b, '=')
		b = strconv.AppendInt(b, int64(limit), 10)
	}
	for i := 0; i+1 < len(filters); i += 2 {
		b = append(b, '&')
		b = append(b, url.QueryEscape(filters[i])...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(filters[i+1])...)
	}
	b = append(b, `>; rel="next"`...)
	return string(b)
}
