package slab

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// TestTable inserts, finds and deletes values at random against a Go map,
// through several growths, with hashes drawn from few values (whole
// collisions, long runs) and from many (the probe wrapping at the end).
func TestTable(t *testing.T) {
	for _, hashes := range []uint64{7, 1 << 12, 1 << 62} {
		rng := rand.New(rand.NewPCG(1, hashes))
		var tab Table
		want := map[uint32]uint64{} // value: its hash
		var vals []uint32
		next := uint32(0)
		steps := 60000
		if hashes < 1<<12 { // runs of thousands: slow to probe
			steps = 10000
		}
		for step := range steps {
			switch op := rng.IntN(10); {
			case op < 6 || len(vals) == 0: // insert
				h := rng.Uint64N(hashes) * 0x9E3779B97F4A7C15 // spread over every bit
				v := next
				next++
				tab.Insert(h, v)
				want[v] = h
				vals = append(vals, v)
			case op < 8: // delete one there
				k := rng.IntN(len(vals))
				v := vals[k]
				vals[k] = vals[len(vals)-1]
				vals = vals[:len(vals)-1]
				if !tab.Delete(want[v], v) {
					t.Fatalf("step %d: value %d not deleted", step, v)
				}
				if tab.Delete(want[v], v) {
					t.Fatalf("step %d: value %d deleted twice", step, v)
				}
				delete(want, v)
			default: // find one there, and one gone
				v := vals[rng.IntN(len(vals))]
				if got, ok := tab.Find(want[v], func(x uint32) bool { return x == v }); !ok || got != v {
					t.Fatalf("step %d: Find %d = %d, %v", step, v, got, ok)
				}
				if _, ok := tab.Find(want[v], func(x uint32) bool { return x == next }); ok {
					t.Fatalf("step %d: found %d, never inserted", step, next)
				}
			}
			if tab.Len() != len(want) {
				t.Fatalf("step %d: Len %d, want %d", step, tab.Len(), len(want))
			}
		}
		// Every value is found, All lists each once.
		seen := map[uint32]bool{}
		tab.All(func(v uint32) {
			if _, ok := want[v]; !ok || seen[v] {
				t.Fatalf("All lists %d (there: %v, twice: %v)", v, ok, seen[v])
			}
			seen[v] = true
		})
		if len(seen) != len(want) {
			t.Fatalf("All lists %d values, want %d", len(seen), len(want))
		}
		for v, h := range want {
			if _, ok := tab.Find(h, func(x uint32) bool { return x == v }); !ok {
				t.Fatalf("value %d not found", v)
			}
		}
		if hashes > 1<<12 && len(tab.slots) < 4*minTable {
			t.Fatalf("%d slots: the table never grew", len(tab.slots))
		}
		tab.Reset()
		if tab.Len() != 0 || tab.slots != nil {
			t.Fatal("Reset left values")
		}
		if _, ok := tab.Find(1, func(uint32) bool { return true }); ok {
			t.Fatal("found in an empty table")
		}
	}
}

// TestTableMapped: a table's slots are outside the heap (where the
// platform maps them), and freed when it grows and on Reset.
func TestTableMapped(t *testing.T) {
	before := settledMapped()
	var tab Table
	for v := range uint32(100000) {
		tab.Insert(uint64(v)*0x9E3779B97F4A7C15, v)
	}
	got := Mapped() - before
	if want := int64(len(tab.slots)) * 8; got != 0 && got != want {
		t.Errorf("%d bytes mapped, want %d (the old arrays freed)", got, want)
	}
	tab.Reset()
	if got := Mapped() - before; got != 0 {
		t.Errorf("%d bytes still mapped after Reset", got)
	}
}

// settledMapped is Mapped once the chunks earlier tests left to the
// garbage collector have been unmapped by their cleanups (which run on
// their own goroutine, after a collection): otherwise they are freed
// while a test counts its own.
func settledMapped() int64 {
	last := Mapped()
	for range 200 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if m := Mapped(); m == last {
			return m
		} else {
			last = m
		}
	}
	return last
}
