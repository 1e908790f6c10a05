package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/internal/slab"
	"tcpviz/reassembly"
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
		if packed := !r.wide; packed != !slices.ContainsFunc(ns, func(v int64) bool { return v%1000 != 0 || v/1000 > math.MaxUint32 }) {
			t.Fatalf("%d samples: kept as µs = %v", n, packed)
		}
	}
}

// TestSampleListsFreedAtForget: a long connection's sample lists are kept
// outside the heap and given back when the analyzer forgets it, at once,
// not when a collection finds them unreachable: a long capture's memory
// follows its live connections.
func TestSampleListsFreedAtForget(t *testing.T) {
	const n = 5000
	r, err := reassembly.NewReader(gencap.Flight(n, 1000, -1, true, 1))
	if err != nil {
		t.Fatal(err)
	}
	sc := reassembly.NewScanner(r)
	a := newAnalyzer()
	before := slab.Mapped()
	var c *reassembly.Conn
	for sc.Scan() {
		c = sc.Conn()
		a.segment(c, sc.Segment())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	st := a.stats(c)
	if st[reassembly.C2S].RTTSamples < n {
		t.Fatalf("%d RTT samples, want %d or more", st[reassembly.C2S].RTTSamples, n)
	}
	// The samples in µs (4 bytes) and the clean ones with their peaks (8
	// bytes each), outside the heap; given back at forget (the scanner's
	// tracker keeps its own slab).
	lists := slab.Mapped()
	if held := lists - before; held < n*(4+8+8) {
		t.Errorf("%d bytes outside the heap for %d samples: want them there", held, n)
	}
	a.forget(c)
	for i := range a.sc { // the statistics' sorted copies, kept for the next connection
		a.sc[i].Free()
	}
	if freed := lists - slab.Mapped(); freed < n*(4+8+8) {
		t.Errorf("%d bytes given back at forget, want at least %d", freed, n*(4+8+8))
	}
}
