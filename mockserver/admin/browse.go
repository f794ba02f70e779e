package admin

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/store"
)

// GET /__petmock/catalogue/{resource} is how the console reads a
// catalogue: a page of items, as the resource's list answers it, but
// straight from the store, so that reading it is not journaled, not
// delayed, and takes no forced answer meant for the app. It takes the
// list's filters, such as status=sold, and:
//
//	limit=N        items on a page, from 1 to 100 (20)
//	order=desc     newest first; asc, the list's order, by default
//	q=TEXT         only items with a value that contains TEXT, in any case
//	cursor=C       the page after the one whose Link gave C
//
// It answers {"items": [...], "total": N}, where total counts the items
// the first filter selects (all of them without one), and a Link to the
// next page, rel="next", while more may follow.
//
// The API has no search, so q is petmock's: it scans the store from the
// cursor on, and looks at no more than browseScanLimit items for one page,
// so that a search of a million items costs a bounded time per page. A
// page cut short by that bound has a Link to carry on from where it
// stopped, and says "scanned" how many items it looked at.

// browseScanLimit is the most items one page of a search looks at.
const browseScanLimit = 10_000

// browsePage is the body of GET /__petmock/catalogue/{resource}. Its
// items are the store's own texts, not copies: no write changes them, so
// a page of a hundred items of a mebibyte each takes no more memory to
// send than one of small items.
type browsePage struct {
	items   [][]byte
	total   int
	scanned int // 0 for a page without a search
}

// writeTo answers with the page, {"items":[...],"total":N}.
func (p *browsePage) writeTo(w http.ResponseWriter) {
	head := []byte(`{"items":[`)
	tail := `],"total":` + strconv.Itoa(p.total)
	if p.scanned > 0 {
		tail += `,"scanned":` + strconv.Itoa(p.scanned)
	}
	tail += "}\n"
	size := len(head) + len(tail) + max(len(p.items)-1, 0)
	for _, it := range p.items {
		size += len(it)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	w.Write(head)
	for i, it := range p.items {
		if i > 0 {
			w.Write([]byte{','})
		}
		if _, err := w.Write(it); err != nil {
			return
		}
	}
	io.WriteString(w, tail)
}

// browse answers GET /__petmock/catalogue/{resource}. The edge checked
// limit, order and q against the document; the filters are the
// resource's, which the server reads as its list does.
func (h *handler) browse(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	name := r.PathValue("resource")
	query := c.Query
	limit := 20
	if v := query.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v) // from 1 to 100
	}
	newestFirst := query.Get("order") == "desc"
	after := int64(math.MinInt64)
	if newestFirst {
		after = math.MaxInt64
	}
	if v := query.Get("cursor"); v != "" {
		id, err := decodeCursor(v)
		if err != nil {
			return err
		}
		after = id
	}
	search := query.Get("q")
	where, err := h.srv.Items().Where(name, query)
	if err != nil {
		return err
	}
	st := h.srv.Items().Store(name)

	var page browsePage
	var first *store.Match
	if len(where) > 0 {
		first = &where[0]
	}
	page.total = st.Count(first)
	needle := []byte(strings.ToLower(search))
	var last int64
	more := false
	scanned := 0
	st.Scan(after, newestFirst, where, func(id int64, text []byte) bool {
		if len(page.items) == limit {
			more = true
			return false
		}
		if search != "" && scanned == browseScanLimit {
			more = true
			return false
		}
		scanned++
		last = id
		if search == "" || valuesContain(text, needle) {
			page.items = append(page.items, text)
		}
		return true
	})
	if search != "" {
		page.scanned = scanned
	}
	if more {
		next := url.Values{}
		for k, v := range query {
			next[k] = v
		}
		next.Set("cursor", encodeCursor(last))
		w.Header().Set("Link", "<"+edge.AbsoluteURL(r, r.URL.Path+"?"+next.Encode())+`>; rel="next"`)
	}
	page.writeTo(w)
	return nil
}

// encodeCursor returns the cursor of the page after the item with id
// after: the id. The console does not read it; it follows the Link.
func encodeCursor(after int64) string {
	return strconv.FormatInt(after, 10)
}

// decodeCursor returns the id a cursor of encodeCursor starts after.
func decodeCursor(s string) (int64, error) {
	after, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, edge.NewError(http.StatusBadRequest, "cursor", "is not a cursor this server issued; follow the Link header of the previous page")
	}
	return after, nil
}

// valuesContain reports whether a value of the JSON text, a string or a
// number at any depth, contains needle, which is lower case. Names of
// properties do not count: a search for "name" finds a pet called Name,
// not every pet.
func valuesContain(text, needle []byte) bool {
	// The text is JSON, where some characters are escaped: only a needle
	// of none of them may be looked for in it as it is.
	if !bytes.ContainsFunc(needle, escapedInJSON) && !bytes.Contains(bytes.ToLower(text), needle) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			return bytes.Contains(bytes.ToLower([]byte(v)), needle)
		case json.Number:
			return strings.Contains(v.String(), string(needle))
		case map[string]any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// escapedInJSON reports whether a JSON text may hold r escaped: a quote, a
// backslash, a control character, or what an encoder may write as \u.
func escapedInJSON(r rune) bool {
	return r == '"' || r == '\\' || r < 0x20 || r == '<' || r == '>' || r == '&' || r >= utf8.RuneSelf
}
