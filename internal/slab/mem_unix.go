//go:build unix

package slab

import (
	"syscall"
	"unsafe"
)

// mapChunk maps n zeroed values of T (holding no pointers) outside the Go
// heap, and returns them with the function that unmaps them; nil if the
// system refused.
func mapChunk[T any](n int) ([]T, func()) {
	var zero T
	size := int(unsafe.Sizeof(zero)) * n
	if size == 0 {
		return nil, nil
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	mapped.Add(int64(size))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(mem))), n), func() {
		syscall.Munmap(mem)
		mapped.Add(-int64(size))
	}
}
