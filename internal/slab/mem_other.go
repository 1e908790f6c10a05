//go:build !unix

package slab

// mapChunk is not available: chunks are on the heap.
func mapChunk[T any](n int) ([]T, func()) { return nil, nil }
