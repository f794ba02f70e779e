package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The check of time: what the run created, and then left alone, is still
// there, unchanged, at its end. A deployment that loses writes after a
// while, a cache that expires them or a store that drops them, passes
// every check made right after a write.

// maxKept bounds the items read again at the end of a run: the earliest
// the run created.
const maxKept = 20

// keptItem is an item the run created and left as it was.
type keptItem struct {
	res    *spec.Resource
	params map[string]string // of its collection, and its id
	item   judge.Item
	at     time.Time // when it was created
}

// sentWrite is a write of the run that succeeded: the path it was sent
// to, below the base URL, and its body.
type sentWrite struct {
	path string
	body []byte
	at   time.Time // when it was sent
}

// Send sends r, as the client does, and notes each write that succeeds,
// so that an item another check wrote over after it was kept is not held
// to what it was created as: a create of a resource whose creates send
// their ids, as Google Vault's savedQueries take a savedQueryId, puts the
// item it sends in place of the one of that id.
func (h *Harness) Send(ctx context.Context, r *judge.Request) (*judge.Exchange, error) {
	at := time.Now()
	x, err := h.Client.Send(ctx, r)
	if x != nil && x.Status >= 200 && x.Status < 300 {
		if op := h.contract.Operation(x.Op); op != nil && op.Method != http.MethodGet && op.Method != http.MethodHead {
			h.writes = append(h.writes, sentWrite{path: r.Path, body: r.Body(), at: at})
		}
	}
	return x, err
}

// writtenOver reports whether a write of the run after k was kept sent
// to its item's path, or a body that names its id, which may have put
// another item in its place.
func (h *Harness) writtenOver(k keptItem, itemPath string) bool {
	id, ok := k.item[k.res.IDProperty]
	if !ok {
		return false
	}
	idJSON, _ := json.Marshal(id)
	inJSON := append([]byte(strconv.Quote(k.res.IDProperty)+":"), idJSON...)
	inForm := []byte(url.QueryEscape(k.res.IDProperty) + "=" + url.QueryEscape(spec.ValueText(id)))
	for _, w := range h.writes {
		if w.at.Before(k.at) {
			continue
		}
		if w.path == itemPath || bytes.Contains(w.body, inJSON) || bytes.Contains(w.body, inForm) {
			return true
		}
	}
	return false
}

// keep notes an item the run created, with the path parameters of its
// collection, to read again at the end of the run, for what its read
// answers of it (see readable). Only checks that leave their items alone
// keep them.
func (h *Harness) keep(res *spec.Resource, params map[string]string, it judge.Item) {
	if len(h.kept) == maxKept {
		return
	}
	params = maps.Clone(params)
	if params == nil {
		params = map[string]string{}
	}
	params[res.IDParam] = it.ID(res.IDProperty)
	h.kept = append(h.kept, keptItem{res: res, params: params, item: h.readable(res, it), at: time.Now()})
}

// CheckKept reads again, at the end of the run, the items the run created
// and left alone at least Settings.Recheck before: each must read as
// created, within the settle window, as a deployment may show its writes
// late. It first waits until the earliest is that old, so that a
// deployment that loses items after a while shows it even in a quick run.
func (h *Harness) CheckKept(ctx context.Context) error {
	if len(h.kept) == 0 {
		return judge.Skipf("the run created no item that it left alone, to read again")
	}
	if wait := time.Until(h.kept[0].at.Add(h.cfg.Recheck)); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	for _, k := range h.kept {
		read := k.res.Read
		// An item created late in the run was read back when it was
		// created: only the early ones tell more now.
		if !readsItem(k.res) || h.Served(read) != nil || time.Since(k.at) < h.cfg.Recheck {
			continue
		}
		if h.writtenOver(k, h.OpRequest(read, k.params, nil, nil).Path) {
			continue
		}
		var x *judge.Exchange
		if _, err := h.settle(ctx, func() (bool, error) {
			var err error
			x, err = h.Send(ctx, h.OpRequest(read, k.params, nil, nil))
			return x.Status != http.StatusNotFound, err
		}); err != nil {
			return err
		}
		id := k.item.ID(k.res.IDProperty)
		age := time.Since(k.at).Round(time.Millisecond)
		if err := x.Require(x.Status == x.Success(), judge.RuleItemKept, fmt.Sprintf("%s of the %s the run created %v ago (%s %s): status %d, want %d", read.ID, spec.Singular(k.res.Name), age, k.res.IDProperty, id, x.Status, x.Success())); err != nil {
			return err
		}
		got, err := x.Item()
		if err != nil {
			return err
		}
		if diff := judge.Differences(got, k.item); diff != "" {
			return x.Require(false, judge.RuleItemKept, fmt.Sprintf("the %s the run created %v ago (%s %s) reads otherwise now: %s", spec.Singular(k.res.Name), age, k.res.IDProperty, id, diff))
		}
	}
	return nil
}
