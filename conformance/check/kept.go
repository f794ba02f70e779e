package check

import (
	"context"
	"fmt"
	"maps"
	"net/http"
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

// keep notes an item the run created, with the path parameters of its
// collection, to read again at the end of the run. Only checks that leave
// their items alone keep them.
func (h *Harness) keep(res *spec.Resource, params map[string]string, it judge.Item) {
	if len(h.kept) == maxKept {
		return
	}
	params = maps.Clone(params)
	if params == nil {
		params = map[string]string{}
	}
	params[res.IDParam] = it.ID(res.IDProperty)
	h.kept = append(h.kept, keptItem{res: res, params: params, item: it, at: time.Now()})
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
		if read == nil || h.Served(read) != nil || time.Since(k.at) < h.cfg.Recheck {
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
		if err := x.Require(x.Status == http.StatusOK, judge.RuleItemKept, fmt.Sprintf("%s of the %s the run created %v ago (%s %s): status %d, want 200", read.ID, spec.Singular(k.res.Name), age, k.res.IDProperty, id, x.Status)); err != nil {
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
