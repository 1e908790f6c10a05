package join

import (
	"math"
	"slices"
)

// The clocks of two captures: each capture point stamps packets with its
// own clock, so the raw difference of a packet's two times is its one-way
// delay plus the downstream clock's offset, theta(t). Seen from the other
// direction the offset counts the other way. Following Paxson ("On
// calibrating measurements of packet transit times", 1998) and Moon,
// Skelly and Towsley ("Estimation and removal of clock skew from network
// delay measurements", 1999): the delays' lower envelope in each direction
// is the path's fixed delay plus the offset, its slope over time is the
// clocks' drift (skew), and on a path of equal fixed delay both ways the
// offset is half the difference of the two envelopes. A link's rate makes
// the fixed delay grow with the frame's size (serialisation), so each
// direction's envelope is taken after removing size × (time per byte),
// estimated from the direction's smallest and largest frames.
//
// What one-way delays cannot tell apart is the offset and the path's
// asymmetry: the offset is exact when the fixed delays are equal both
// ways and off by half their difference otherwise; Clock.Bound says how
// far that can be at most.

// sample is one packet seen at both points: the upstream time, the raw
// difference (downstream time minus upstream time, each on its own clock)
// and the frame's size.
type sample struct {
	t    int64
	d    int64
	size int32
}

// Clock is the downstream capture's clock against the upstream one's.
type Clock struct {
	// Offset is the downstream clock minus the upstream one at T0 (ns), Drift
	// how much that grows per ns (the clocks' relative skew).
	Offset float64
	T0     int64
	Drift  float64
	// Err is how well the envelopes pin the offset down (ns): half the
	// spread of the few fastest packets each way, plus the timestamps'
	// resolution. Bound is half the round trip between the two points at
	// zero size: the most path asymmetry can move the true offset.
	Err, Bound float64
	// PerByte is each direction's serialisation time per frame byte
	// (forward: upstream to downstream), Base its fixed one-way delay at
	// zero size, both in ns.
	PerByte [2]float64
	Base    [2]float64
	// Samples are how many packets each way the estimate rests on.
	Samples [2]int
}

// at is the offset at upstream time t.
func (c *Clock) at(t int64) float64 { return c.Offset + c.Drift*float64(t-c.T0) }

// owd is the one-way delay (ns, never negative) of a packet seen
// upstream at up and downstream at down, forward or back.
func (c *Clock) owd(up, down int64, forward bool) float64 {
	var d float64
	if forward {
		d = float64(down-up) - c.at(up)
	} else {
		// up is on the downstream capture's clock here: the offset at the
		// other capture's time up - offset, to within drift × offset.
		d = float64(down-up) + c.at(down)
	}
	return math.Max(d, 0)
}

// fixed is the fixed one-way delay of a frame of size bytes, forward or
// back: what the OWD of a packet that met no queue is.
func (c *Clock) fixed(size uint16, forward bool) float64 {
	i := 0
	if !forward {
		i = 1
	}
	return c.Base[i] + c.PerByte[i]*float64(size)
}

// minSizeSpread is how far apart (bytes) a direction's smallest and
// largest frames must be for its time per byte to be measured.
const minSizeSpread = 400

// estimateClock estimates the downstream clock from the samples of both
// directions: fwd travelled from upstream to downstream (d = owd +
// theta), rev back (their d is upstream time minus downstream time on the
// same two clocks' terms: d = owd - theta; t is then the downstream
// capture's time). ok is false without samples both ways.
func estimateClock(fwd, rev []sample) (c Clock, ok bool) {
	if len(fwd) == 0 || len(rev) == 0 {
		return c, false
	}
	c.Samples = [2]int{len(fwd), len(rev)}
	// T0: the middle of the samples' time span.
	lo, hi := fwd[0].t, fwd[0].t
	for _, set := range [][]sample{fwd, rev} {
		for _, s := range set {
			lo, hi = min(lo, s.t), max(hi, s.t)
		}
	}
	c.T0 = lo + (hi-lo)/2
	// Twice: the time per byte with the drift removed, the drift with the
	// serialisation removed.
	for range 2 {
		kf, okf := perByte(fwd, c.Drift, c.T0)
		kr, okr := perByte(rev, -c.Drift, c.T0)
		switch {
		case okf && !okr:
			kr = kf
		case okr && !okf:
			kf = kr
		}
		c.PerByte = [2]float64{kf, kr}
		bf := hullSlope(fwd, kf)
		br := hullSlope(rev, kr)
		// A drift tilts the two envelopes opposite ways; a queue that
		// builds up only raises one. The drift is the part both share.
		c.Drift = 0
		if bf*(-br) > 0 {
			c.Drift = math.Copysign(math.Min(math.Abs(bf), math.Abs(br)), bf)
		}
	}
	mf, gf := envelope(fwd, c.PerByte[0], c.Drift, c.T0)
	mr, gr := envelope(rev, c.PerByte[1], -c.Drift, c.T0)
	c.Offset = (mf - mr) / 2
	rtt := mf + mr
	c.Bound = math.Max(rtt, 0) / 2
	c.Base = [2]float64{c.Bound, c.Bound}
	c.Err = (gf+gr)/2 + 1000 // µs timestamps
	return c, true
}

// perByte is the time per frame byte of a direction's samples: the slope
// from its smallest frames' fastest sample to its largest frames'
// fastest, with drift removed; ok is false when the sizes are too close.
func perByte(ss []sample, drift float64, t0 int64) (float64, bool) {
	var smin, smax int32 = math.MaxInt32, 0
	for _, s := range ss {
		smin, smax = min(smin, s.size), max(smax, s.size)
	}
	if smax-smin < minSizeSpread {
		return 0, false
	}
	// The fastest of the frames within 10% of the range of each end.
	band := (smax - smin) / 10
	dlo, dhi := math.Inf(1), math.Inf(1)
	var slo, shi float64
	for _, s := range ss {
		d := float64(s.d) - drift*float64(s.t-t0)
		if s.size <= smin+band && d < dlo {
			dlo, slo = d, float64(s.size)
		}
		if s.size >= smax-band && d < dhi {
			dhi, shi = d, float64(s.size)
		}
	}
	return math.Max((dhi-dlo)/(shi-slo), 0), true
}

// hullSlope is the slope (ns per ns) of the line under every sample (size
// removed at k per byte) that is highest at their mean time: Moon et
// al.'s linear program, solved on the lower convex hull. 0 when the
// samples span no time.
func hullSlope(ss []sample, k float64) float64 {
	type pt struct{ x, y float64 }
	pts := make([]pt, len(ss))
	var mean float64
	for i, s := range ss {
		pts[i] = pt{float64(s.t), float64(s.d) - k*float64(s.size)}
		mean += pts[i].x
	}
	mean /= float64(len(pts))
	slices.SortFunc(pts, func(a, b pt) int {
		if a.x != b.x {
			if a.x < b.x {
				return -1
			}
			return 1
		}
		if a.y < b.y {
			return -1
		}
		if a.y > b.y {
			return 1
		}
		return 0
	})
	// The lower hull (Andrew's monotone chain), one point per x.
	var h []pt
	for i, p := range pts {
		if i > 0 && p.x == pts[i-1].x {
			continue
		}
		for len(h) >= 2 {
			a, b := h[len(h)-2], h[len(h)-1]
			if (b.x-a.x)*(p.y-a.y)-(b.y-a.y)*(p.x-a.x) > 0 {
				break
			}
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	for i := 1; i < len(h); i++ {
		if h[i].x >= mean {
			return (h[i].y - h[i-1].y) / (h[i].x - h[i-1].x)
		}
	}
	return 0
}

// envelope is the lowest sample (size and drift removed) and how far the
// third lowest is above it: the envelope and its tightness.
func envelope(ss []sample, k, drift float64, t0 int64) (m, gap float64) {
	low := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	for _, s := range ss {
		d := float64(s.d) - k*float64(s.size) - drift*float64(s.t-t0)
		switch {
		case d < low[0]:
			low = [3]float64{d, low[0], low[1]}
		case d < low[1]:
			low[1], low[2] = d, low[1]
		case d < low[2]:
			low[2] = d
		}
	}
	gap = 0
	for i := 2; i >= 1; i-- {
		if !math.IsInf(low[i], 1) {
			gap = low[i] - low[0]
			break
		}
	}
	return low[0], gap
}
