package analyze

import (
	"math"
	"slices"

	"tcpviz/internal/slab"
)

// nsList is a list of nanosecond values (a direction's RTT samples, kept
// to its end for their exact median; the bounded samples of RTT and
// one-way delay the loss ranks read). Captures mostly time packets to the
// microsecond, so the values are kept as microseconds in 4 bytes each
// while every one is a whole number of them within ±2^31 µs (35 minutes),
// and as nanoseconds in 8 bytes from the first that is not: half the
// memory of the busiest connections' largest state, and the same values.
// Long lists live outside the Go heap (slab.Vec) until free.
type nsList struct {
	us   slab.Vec[int32]
	ns   slab.Vec[int64] // all of them, once one did not fit us
	wide bool            // in ns
}

// asUS is v in whole microseconds within int32, if it is one.
func asUS(v int64) (int32, bool) {
	if v%1000 != 0 || v/1000 < math.MinInt32 || v/1000 > math.MaxInt32 {
		return 0, false
	}
	return int32(v / 1000), true
}

func (r *nsList) add(v int64) {
	if !r.wide {
		if u, ok := asUS(v); ok {
			r.us.Append(u)
			return
		}
		r.widen()
	}
	r.ns.Append(v)
}

// set makes value i v.
func (r *nsList) set(i int, v int64) {
	if !r.wide {
		if u, ok := asUS(v); ok {
			r.us.S()[i] = u
			return
		}
		r.widen()
	}
	r.ns.S()[i] = v
}

// widen moves the values to nanoseconds, for good.
func (r *nsList) widen() {
	r.wide = true
	r.ns.Grow(max(2*r.us.Len(), 8))
	for _, u := range r.us.S() {
		r.ns.Append(int64(u) * 1000)
	}
	r.us.Free()
}

func (r *nsList) len() int { return r.us.Len() + r.ns.Len() }

// room is how many values the list holds without growing.
func (r *nsList) room() int {
	if r.wide {
		return r.ns.Cap()
	}
	return r.us.Cap()
}

// grow makes room for n more values.
func (r *nsList) grow(n int) {
	if r.wide {
		r.ns.Grow(n)
	} else {
		r.us.Grow(n)
	}
}

// sort puts the values in increasing order (in place: their order is
// nothing but theirs).
func (r *nsList) sort() {
	slices.Sort(r.us.S())
	slices.Sort(r.ns.S())
}

// at is value i, in nanoseconds.
func (r *nsList) at(i int) int64 {
	if r.wide {
		return r.ns.S()[i]
	}
	return int64(r.us.S()[i]) * 1000
}

// copyTo makes b a copy of the values, in nanoseconds, and returns it.
func (r *nsList) copyTo(b *slab.Vec[int64]) []int64 {
	b.Reset()
	if r.wide {
		b.AppendAll(r.ns.S())
		return b.S()
	}
	b.Grow(r.us.Len())
	for _, u := range r.us.S() {
		b.Append(int64(u) * 1000)
	}
	return b.S()
}

// halve keeps the values at even indices (0, 2, 4 ...), in order.
func (r *nsList) halve() {
	if r.wide {
		keepEven(&r.ns)
	} else {
		keepEven(&r.us)
	}
}

func keepEven[T any](v *slab.Vec[T]) {
	s := v.S()
	n := (len(s) + 1) / 2
	for i := range n {
		s[i] = s[2*i]
	}
	v.Truncate(n)
}

// thinned keeps an even sample of a series in lists of at most limit
// values: every value until the lists fill, then (each time they fill)
// every second one of those kept and of those to come, so that what is
// kept is the series' values at every stride-th place, from its start to
// its end. (Lists that kept the first values until full, and then
// overwrote one place in 64 with a later one, held mostly the series'
// start: a queue that grew over a long transfer read as the queue of its
// first seconds.)
type thinned struct {
	stride int // 0: 1
	n      int // values offered
}

// take tells whether the next value of the series is to be kept: add it
// to the lists, then call fill.
func (t *thinned) take() bool {
	keep := t.stride <= 1 || t.n&(t.stride-1) == 0 // stride: a power of 2
	t.n++
	return keep
}

// fill halves a and b (kept side by side) once they hold limit values.
func (t *thinned) fill(limit int, a, b *nsList) {
	if a.len() < limit {
		return
	}
	a.halve()
	b.halve()
	t.stride = 2 * max(t.stride, 1)
}

// free gives the values' memory back.
func (r *nsList) free() {
	r.us.Free()
	r.ns.Free()
	r.wide = false
}
