// Package slab holds many small values without a pointer or an
// allocation each: in chunks, by index, reusing the indexes of values
// freed. A slab of a type without pointers is kept outside the garbage
// collector's heap (see newBlock), and costs the values' size and no
// more.
package slab

// chunk is how many values a chunk holds.
const chunk = 1 << 12

// Slab holds values of T by index.
type Slab[T any] struct {
	chunks []*block[T]
	free   []uint32 // indexes freed, for reuse
	next   uint32   // the first index never used
	n      int
}

// Add stores v and returns its index.
func (s *Slab[T]) Add(v T) uint32 {
	var i uint32
	if n := len(s.free); n > 0 {
		i, s.free = s.free[n-1], s.free[:n-1]
	} else {
		i = s.next
		s.next++
		if int(i/chunk) == len(s.chunks) {
			s.chunks = append(s.chunks, newBlock[T]())
		}
	}
	*s.At(i) = v
	s.n++
	return i
}

// At returns the value of index i, which must be in use. The pointer is
// valid while the slab is reachable: keep it so (runtime.KeepAlive) when
// dropping a slab whose values are still read.
func (s *Slab[T]) At(i uint32) *T { return &s.chunks[i/chunk].v[i%chunk] }

// Free releases index i for reuse.
func (s *Slab[T]) Free(i uint32) {
	var zero T
	*s.At(i) = zero
	s.free = append(s.free, i)
	s.n--
}

// Len returns how many values are in use.
func (s *Slab[T]) Len() int { return s.n }
