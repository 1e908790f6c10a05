package slab

import (
	"os"
	"runtime"
	"slices"
	"unsafe"
)

// vecHeapBytes is the most a Vec holds on the Go heap: past it, its
// values are mapped outside the heap. A page, so that the many short lists
// of small connections cost no system call and no page each, and a long
// list leaves little garbage on the heap on its way there.
const vecHeapBytes = 4 << 10

// Vec is a growable list of T, a type without pointers, that keeps its
// values outside the Go heap once they take more than vecHeapBytes, and
// gives them back to the system at Free. A long connection's sample
// lists (millions of RTT samples kept for an exact median) then neither
// count towards the garbage collector's heap goal, which lets the heap
// grow to twice what is live, nor wait for a collection to be freed: the
// memory of a long capture follows the connections alive, not the
// capture's length. A Vec must not be copied once used.
//
// The slice S returns is valid until the next Append, Grow or Free, and
// while the Vec is reachable: a caller reading it after its last use of
// the Vec keeps the Vec's owner alive (runtime.KeepAlive).
type Vec[T any] struct {
	v   []T
	off *mapping // the mapping v is in; nil while v is on the heap
}

// mapping is a Vec's values outside the heap. If a Vec is dropped
// unfreed, its cleanup unmaps them once the collector finds the mapping
// unreachable.
type mapping struct {
	unmap   func()
	cleanup runtime.Cleanup
}

// Append adds v at the end.
func (x *Vec[T]) Append(v T) {
	if len(x.v) == cap(x.v) {
		x.Grow(1)
	}
	x.v = append(x.v, v)
}

// AppendAll adds the values of v at the end; v may be x's own.
func (x *Vec[T]) AppendAll(v []T) {
	old := x.grow(len(v)) // still mapped while v is read
	x.v = append(x.v, v...)
	old.release()
}

// Reset empties x, keeping its memory for the values to come.
func (x *Vec[T]) Reset() { x.v = x.v[:0] }

// Truncate keeps the first n values (n at most Len), and the memory.
func (x *Vec[T]) Truncate(n int) { x.v = x.v[:n] }

// Len returns how many values x holds.
func (x *Vec[T]) Len() int { return len(x.v) }

// Cap returns how many values x holds without growing.
func (x *Vec[T]) Cap() int { return cap(x.v) }

// S returns the values, to read or write in place (see Vec).
func (x *Vec[T]) S() []T { return x.v }

// Grow makes room for n more values without another growth.
func (x *Vec[T]) Grow(n int) { x.grow(n).release() }

// grow makes room for n more values and returns the mapping the values
// were in if they moved out of one, for the caller to release.
func (x *Vec[T]) grow(n int) *mapping {
	need := len(x.v) + n
	if need <= cap(x.v) {
		return nil
	}
	old := x.off
	x.off = nil
	var zero T
	size := int(unsafe.Sizeof(zero))
	want := max(need, 2*cap(x.v), 8)
	if size == 0 || want*size <= vecHeapBytes || !pointerFree[T]() {
		x.v = slices.Grow(x.v, want-len(x.v))
		return old
	}
	page := os.Getpagesize()
	want = (want*size + page - 1) / page * page / size // the whole pages mapped
	v, unmap := mapChunk[T](want)
	if v == nil { // refused: on the heap
		x.v = slices.Grow(x.v, want-len(x.v))
		return old
	}
	m := &mapping{unmap: unmap}
	m.cleanup = runtime.AddCleanup(m, func(f func()) { f() }, unmap)
	x.v, x.off = v[:copy(v, x.v)], m
	return old
}

// Free drops the values and gives their memory back.
func (x *Vec[T]) Free() {
	x.off.release()
	x.off, x.v = nil, nil
}

// release unmaps m (nil: nothing to do).
func (m *mapping) release() {
	if m != nil {
		m.cleanup.Stop()
		m.unmap()
	}
}
