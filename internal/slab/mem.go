package slab

import (
	"reflect"
	"runtime"
	"sync/atomic"
)

// mapped counts the bytes of chunks outside the heap, for Mapped.
var mapped atomic.Int64

// Mapped returns how many bytes slabs hold outside the Go heap now: what
// runtime.MemStats does not count (the memory tests add it).
func Mapped() int64 { return mapped.Load() }

// block is a chunk's memory, freed once nothing refers to the block (by
// a cleanup: Slab has no Close).
type block[T any] struct{ v []T }

// newBlock allocates a chunk: outside the Go heap where the platform
// allows and T holds no pointers (mapChunk), so that a slab of millions of
// values neither counts towards the garbage collector's heap goal (which
// would double the memory it takes) nor is visited by it; on the heap
// otherwise.
func newBlock[T any]() *block[T] {
	if !pointerFree[T]() {
		return &block[T]{v: make([]T, chunk)}
	}
	v, unmap := mapChunk[T](chunk)
	if v == nil {
		return &block[T]{v: make([]T, chunk)}
	}
	b := &block[T]{v: v}
	runtime.AddCleanup(b, func(f func()) { f() }, unmap)
	return b
}

// pointerFree reports whether a T holds no pointers (the garbage
// collector must see every pointer: memory outside its heap holds none).
func pointerFree[T any]() bool { return noPointers(reflect.TypeFor[T]()) }

func noPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || noPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !noPointers(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}
