package batch

import (
	"errors"
	"strings"
	"testing"
)

// TestHandoffOrder: every item is done once, in the order given, whether
// copied (Add) or filled in place (Next), across many batches; a filled
// item starts zero.
func TestHandoffOrder(t *testing.T) {
	var got []int
	h := New(func(r *[2]int) error { got = append(got, r[0]+r[1]); return nil }, nil, "adding")
	const n = 5*size + 7
	for i := range n {
		if i%2 == 0 {
			h.Add(&[2]int{i, 0})
			continue
		}
		r := h.Next()
		if *r != [2]int{} {
			t.Fatalf("item %d: Next gave %v, not zero", i, *r)
		}
		r[0] = i
	}
	if err := h.Finish(); err != nil || len(got) != n {
		t.Fatalf("%d of %d done, %v", len(got), n, err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("item %d done as %d", i, v)
		}
	}
}

// TestHandoffFailure: after do's first error (or a panic) nothing more is
// done, failed is called once, Finish returns the error and Add does not
// block.
func TestHandoffFailure(t *testing.T) {
	for _, panics := range []bool{false, true} {
		done, failed := 0, 0
		h := New(func(r *int) error {
			if *r == 1500 {
				if panics {
					panic("boom")
				}
				return errors.New("disk full")
			}
			done++
			return nil
		}, func() { failed++ }, "writing a row")
		for i := range 10 * size {
			h.Add(&i)
		}
		err := h.Finish()
		if done != 1500 || failed != 1 || err == nil {
			t.Fatalf("panics %v: %d done, failed %d times, %v", panics, done, failed, err)
		}
		if panics && !strings.Contains(err.Error(), "internal error writing a row: boom") {
			t.Errorf("panic as %q", err)
		}
	}
	if err := New(func(*int) error { return nil }, nil, "").Finish(); err != nil {
		t.Errorf("nothing added: %v", err)
	}
}

// TestHandoffClearsReused: a batch taken back for filling is cleared
// whole at once (see room), so no item of its last use is left past the
// ones given since.
func TestHandoffClearsReused(t *testing.T) {
	h := New(func(r *[2]int) error { return nil }, nil, "adding")
	const n = (batches+2)*size + 1 // past every batch's first use
	for i := range n {
		h.Add(&[2]int{i + 1, 1})
	}
	for i, r := range h.cur[len(h.cur):cap(h.cur)] {
		if r != [2]int{} {
			t.Fatalf("item %d past the %d given still holds %v", i, len(h.cur), r)
		}
	}
	if err := h.Finish(); err != nil {
		t.Fatal(err)
	}
}
