package analyze

// withRoom returns q with room for one more element. q is a list that
// loses elements at its front by reslicing (q = q[i:]) and gains them at
// its back; mem is the array it lives in. When q is full it moves back to
// the front of mem if it fills less than half of it, else to a new array
// twice its size (which becomes mem): each element is copied O(1) times
// on average, and no element is shifted when the front goes.
func withRoom[T any](q, mem []T) (room, newMem []T) {
	if len(q) < cap(q) {
		return q, mem
	}
	if 2*len(q) < cap(mem) {
		return mem[:copy(mem[:len(q)], q)], mem
	}
	n := make([]T, len(q), 2*len(q)+4)
	copy(n, q)
	return n, n[:0]
}
