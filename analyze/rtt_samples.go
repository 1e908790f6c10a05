package analyze

import (
	"math"
	"slices"

	"tcpviz/internal/slab"
)

// rttSamples are a direction's ACK RTT samples, kept to its end for their
// exact median. Captures mostly time packets to the microsecond, so the
// samples are kept as microseconds in 4 bytes each while every one is a
// whole number of them below 2^32 µs (71 minutes), and as nanoseconds in
// 8 bytes from the first that is not: half the memory of the busiest
// connections' largest state (a direction with 200,000 ACKs), and the same
// values. Long lists live outside the Go heap (slab.Vec) until free.
type rttSamples struct {
	us   slab.Vec[uint32]
	ns   slab.Vec[int64] // all of them, once one did not fit us
	wide bool            // in ns
}

func (r *rttSamples) add(v int64) {
	if !r.wide && v >= 0 && v%1000 == 0 && v/1000 <= math.MaxUint32 {
		r.us.Append(uint32(v / 1000))
		return
	}
	if !r.wide {
		r.wide = true
		r.ns.Grow(max(2*r.us.Len(), 8))
		for _, u := range r.us.S() {
			r.ns.Append(int64(u) * 1000)
		}
		r.us.Free()
	}
	r.ns.Append(v)
}

func (r *rttSamples) len() int { return r.us.Len() + r.ns.Len() }

// sort puts the samples in increasing order (in place: their order is
// nothing but theirs).
func (r *rttSamples) sort() {
	slices.Sort(r.us.S())
	slices.Sort(r.ns.S())
}

// at is sample i, in nanoseconds.
func (r *rttSamples) at(i int) int64 {
	if r.wide {
		return r.ns.S()[i]
	}
	return int64(r.us.S()[i]) * 1000
}

// free gives the samples' memory back.
func (r *rttSamples) free() {
	r.us.Free()
	r.ns.Free()
	r.wide = false
}
