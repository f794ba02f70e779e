package check

import (
	"errors"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
)

// TestNestedResources: the items of a resource nested below another are
// created, listed, walked, read, deleted and read again at the end below
// one parent: petmock serving them passes every check, and the checks of
// the nested items ran, not skipped.
func TestNestedResources(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.Vaults)
	c := readFile(t, path)
	if c.Resource("items") == nil || len(c.Resource("items").ParentParams) == 0 {
		t.Fatalf("no nested resource items: %v", c.Notes)
	}
	for seed := range uint64(4) {
		h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c, Seed: seed + 1})
		ctx := checkContext(t)
		ran := 0
		for _, chk := range genericChecks(h.contract, h.cfg.APIKey) {
			err := chk.run(h, ctx)
			if errors.As(err, new(*judge.Skipped)) {
				continue
			}
			if err != nil {
				t.Errorf("seed %d: %s: %v", seed+1, chk.name, err)
			}
			ran++
		}
		if err := h.CheckKept(ctx); err != nil {
			t.Errorf("seed %d: the items kept: %v", seed+1, err)
		}
		if ran == 0 {
			t.Errorf("seed %d: no check ran", seed+1)
		}
	}
}
