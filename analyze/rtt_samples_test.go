package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// samplesOf are ns as a direction's RTT samples.
func samplesOf(ns []int64) *rttSamples {
	var r rttSamples
	for _, v := range ns {
		r.add(v)
	}
	return &r
}

// fillRTTPlain is fillRTT as it was on a plain slice of nanoseconds.
func fillRTTPlain(st *DirStats, ns []int64) {
	st.RTTSamples = int64(len(ns))
	if len(ns) == 0 {
		return
	}
	s := slices.Clone(ns)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += float64(v)
	}
	mean := sum / float64(len(s))
	var sq float64
	for _, v := range s {
		d := float64(v) - mean
		sq += d * d
	}
	med := float64(s[len(s)/2])
	if len(s)%2 == 0 {
		med = (float64(s[len(s)/2-1]) + float64(s[len(s)/2])) / 2
	}
	st.RTTMinMs, st.RTTMaxMs = float64(s[0])/1e6, float64(s[len(s)-1])/1e6
	st.RTTMeanMs, st.RTTMedianMs = mean/1e6, med/1e6
	if len(s) > 1 {
		st.RTTStd = math.Sqrt(sq/float64(len(s)-1)) / 1e6
	}
}

// TestRTTSamplesExact: the RTT columns from the packed samples equal
// those from the samples as they were, bit for bit, whether every sample
// is whole microseconds (kept in 4 bytes), one is not (all moved to
// nanoseconds at once), or one is too large for 32 bits of µs.
func TestRTTSamplesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := range 2000 {
		n := rng.IntN(300)
		ns := make([]int64, n)
		for i := range ns {
			switch {
			case k%3 == 0 && rng.IntN(50) == 0:
				ns[i] = rng.Int64N(1e12) // any nanosecond
			case k%5 == 0 && rng.IntN(80) == 0:
				ns[i] = (math.MaxUint32 + 1 + rng.Int64N(1e6)) * 1000 // µs past 32 bits
			default:
				ns[i] = rng.Int64N(2e6) * 1000
			}
		}
		var got, want DirStats
		r := samplesOf(ns)
		fillRTT(&got, r)
		fillRTTPlain(&want, ns)
		cols := func(st *DirStats) [6]float64 {
			return [6]float64{float64(st.RTTSamples), st.RTTMinMs, st.RTTMaxMs, st.RTTMeanMs, st.RTTMedianMs, st.RTTStd}
		}
		if cols(&got) != cols(&want) {
			t.Fatalf("%d samples: got %+v, want %+v", n, got, want)
		}
		if packed := r.ns == nil; packed != !slices.ContainsFunc(ns, func(v int64) bool { return v%1000 != 0 || v/1000 > math.MaxUint32 }) {
			t.Fatalf("%d samples: kept as µs = %v", n, packed)
		}
	}
}
