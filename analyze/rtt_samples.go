package analyze

import (
	"math"
	"slices"
)

// rttSamples are a direction's ACK RTT samples, kept to its end for their
// exact median. Captures mostly time packets to the microsecond, so the
// samples are kept as microseconds in 4 bytes each while every one is a
// whole number of them below 2^32 µs (71 minutes), and as nanoseconds in
// 8 bytes from the first that is not: half the memory of the busiest
// connections' largest state (a direction with 200,000 ACKs), and the same
// values.
type rttSamples struct {
	us []uint32
	ns []int64 // all of them, once one did not fit us
}

func (r *rttSamples) add(v int64) {
	if r.ns == nil && v >= 0 && v%1000 == 0 && v/1000 <= math.MaxUint32 {
		r.us = append(r.us, uint32(v/1000))
		return
	}
	if r.ns == nil {
		r.ns = make([]int64, len(r.us), max(2*len(r.us), 8))
		for i, u := range r.us {
			r.ns[i] = int64(u) * 1000
		}
		r.us = nil
	}
	r.ns = append(r.ns, v)
}

func (r *rttSamples) len() int { return len(r.us) + len(r.ns) }

// sort puts the samples in increasing order (in place: their order is
// nothing but theirs).
func (r *rttSamples) sort() {
	slices.Sort(r.us)
	slices.Sort(r.ns)
}

// at is sample i, in nanoseconds.
func (r *rttSamples) at(i int) int64 {
	if r.ns != nil {
		return r.ns[i]
	}
	return int64(r.us[i]) * 1000
}
