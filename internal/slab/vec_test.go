package slab

import (
	"runtime"
	"testing"
	"time"
)

// TestVec: a Vec holds what was appended, in order, through its move
// from the heap to a mapping and its growths there; the mapping is
// counted while held and given back at Free.
func TestVec(t *testing.T) {
	before := Mapped()
	var x Vec[int64]
	const n = 3*vecHeapBytes/8 + 5
	for i := range n {
		x.Append(int64(i) * 7)
		if i == 100 && Mapped() != before {
			t.Fatalf("a short Vec mapped %d bytes: want it on the heap", Mapped()-before)
		}
	}
	if x.Len() != n {
		t.Fatalf("Len %d, want %d", x.Len(), n)
	}
	for i, v := range x.S() {
		if v != int64(i)*7 {
			t.Fatalf("value %d is %d, want %d", i, v, i*7)
		}
	}
	held := Mapped() - before
	if held < n*8 {
		t.Errorf("%d bytes mapped for %d values: want them outside the heap", held, n)
	}
	x.S()[3] = -1 // in place
	if x.S()[3] != -1 {
		t.Error("a value set in place was lost")
	}
	x.Grow(10 * n)
	if x.Cap() < 11*n || x.Len() != n || x.S()[n-1] != int64(n-1)*7 {
		t.Errorf("after Grow: cap %d, len %d, last %d", x.Cap(), x.Len(), x.S()[n-1])
	}
	x.Free()
	if got := Mapped(); got != before {
		t.Errorf("%d bytes still mapped after Free", got-before)
	}
	if x.Len() != 0 {
		t.Errorf("Len %d after Free", x.Len())
	}
	x.Append(9) // usable again
	if x.Len() != 1 || x.S()[0] != 9 {
		t.Errorf("after Free and Append: %v", x.S())
	}
}

// TestVecPointers: a Vec of values with pointers stays on the heap,
// however long (the collector must see its pointers).
func TestVecPointers(t *testing.T) {
	before := Mapped()
	var x Vec[*int]
	v := 1
	for range 2 * vecHeapBytes / 8 {
		x.Append(&v)
	}
	if Mapped() != before {
		t.Errorf("a Vec of pointers mapped %d bytes", Mapped()-before)
	}
	runtime.GC()
	if *x.S()[len(x.S())-1] != 1 {
		t.Error("a pointer's value was lost")
	}
}

// TestVecDroppedUnfreed: a Vec dropped without Free gives its mapping
// back once the collector finds it unreachable.
func TestVecDroppedUnfreed(t *testing.T) {
	before := Mapped()
	func() {
		x := new(Vec[uint32])
		for i := range 4 * vecHeapBytes / 4 {
			x.Append(uint32(i))
		}
		if Mapped() == before {
			t.Fatal("nothing mapped")
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); Mapped() != before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still mapped after the Vec was dropped", Mapped()-before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// TestVecAppendOwn: a mapped Vec at its capacity appends its own values:
// they are read before the mapping they were in is given back.
func TestVecAppendOwn(t *testing.T) {
	var x Vec[int64]
	for i := range 1024 {
		x.Append(int64(i))
	}
	before := Mapped()
	for x.Len() < x.Cap() {
		x.Append(int64(x.Len()))
	}
	n := x.Len()
	x.AppendAll(x.S())
	if x.Len() != 2*n {
		t.Fatalf("Len %d, want %d", x.Len(), 2*n)
	}
	for i, v := range x.S() {
		if v != int64(i%n) {
			t.Fatalf("value %d is %d, want %d", i, v, i%n)
		}
	}
	if Mapped() <= before {
		t.Errorf("mapped %d bytes, then %d: want the values moved to a larger mapping", before, Mapped())
	}
	x.Free()
}
