package slab

import "testing"

func TestSlab(t *testing.T) {
	var s Slab[[2]int]
	idx := map[uint32]int{}
	for v := range 3 * chunk {
		idx[s.Add([2]int{v, -v})] = v
	}
	for i, v := range idx {
		if v%3 == 0 {
			s.Free(i)
			delete(idx, i)
		}
	}
	for v := range chunk { // into the freed indexes first
		i := s.Add([2]int{-1 - v, 1 + v})
		if _, used := idx[i]; used {
			t.Fatalf("index %d given twice", i)
		}
		idx[i] = -1 - v
	}
	if s.Len() != len(idx) {
		t.Errorf("Len %d, want %d", s.Len(), len(idx))
	}
	if s.next != 3*chunk {
		t.Errorf("%d indexes used, want %d (the freed ones reused)", s.next, 3*chunk)
	}
	for i, v := range idx {
		if got := *s.At(i); got != [2]int{v, -v} {
			t.Fatalf("index %d holds %v, want %v", i, got, [2]int{v, -v})
		}
	}
}

// TestPointerFree: only values without pointers go outside the heap.
func TestPointerFree(t *testing.T) {
	type flat struct {
		a [3]uint64
		b struct{ c int8 }
	}
	type withPtr struct {
		a int
		s string
	}
	for _, c := range []struct {
		got, want bool
	}{{pointerFree[flat](), true}, {pointerFree[withPtr](), false}, {pointerFree[[2]*int](), false},
		{pointerFree[[]byte](), false}, {pointerFree[int](), true}} {
		if c.got != c.want {
			t.Errorf("pointerFree %v, want %v", c.got, c.want)
		}
	}
}
