package analyze

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"tcpviz/internal/gencap"
	"tcpviz/internal/slab"
	"tcpviz/reassembly"
)

// samplesOf are ns as a direction's RTT samples.
func samplesOf(ns []int64) *nsList {
	var r nsList
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
				ns[i] = (math.MaxInt32 + 1 + rng.Int64N(1e6)) * 1000 // µs past 31 bits
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
		if packed := !r.wide; packed != !slices.ContainsFunc(ns, func(v int64) bool { return v%1000 != 0 || v/1000 > math.MaxInt32 || v/1000 < math.MinInt32 }) {
			t.Fatalf("%d samples: kept as µs = %v", n, packed)
		}
	}
}

// TestSampleListsFreedAtForget: a long connection's sample lists are kept
// outside the heap and given back when the analyzer forgets it, at once,
// not when a collection finds them unreachable: a long capture's memory
// follows its live connections. What a read cut short leaves unforgotten,
// and the statistics' sorted copies, go back at close.
func TestSampleListsFreedAtForget(t *testing.T) {
	for _, forget := range []bool{true, false} {
		const n = 5000
		r, err := reassembly.NewReader(gencap.Flight(n, 1000, -1, true, 1))
		if err != nil {
			t.Fatal(err)
		}
		sc := reassembly.NewScanner(r)
		a := newAnalyzer()
		before := settledMapped()
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
		// The samples, the clean ones and their peaks, in µs (4 bytes
		// each), outside the heap, and the sorted copies of the clean ones
		// and their peaks in ns (8 bytes each); given back at forget and
		// close (the scanner's tracker keeps its own slab).
		lists := slab.Mapped()
		if held := lists - before; held < n*(4+4+4+8+8) {
			t.Errorf("%d bytes outside the heap for %d samples: want them there", held, n)
		}
		want := int64(n * (4 + 4 + 4))
		if forget {
			a.forget(c)
			if freed := lists - slab.Mapped(); freed < want {
				t.Errorf("%d bytes given back at forget, want at least %d", freed, want)
			}
		}
		a.close()
		if freed := lists - slab.Mapped(); freed < want+n*(8+8) {
			t.Errorf("forget %v: %d bytes given back at close, want at least %d", forget, freed, want+n*(8+8))
		}
	}
}

// settledMapped is slab.Mapped once the lists earlier tests left as
// garbage are given back: their cleanups run after a collection, in
// their own goroutine, and one that ran during TestSampleListsFreedAtForget
// took 180 KB off the count it measured (a CI rehearsal, 2026-12-06).
func settledMapped() int64 {
	last := int64(-1)
	for range 100 {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
		m := slab.Mapped()
		if m == last {
			return m
		}
		last = m
	}
	return last
}

// TestNSListAsPlain: an nsList reads back, after any mix of add and set,
// exactly what a plain list of nanoseconds holds, whether its values are
// whole microseconds within 31 bits either way of zero (kept in 4 bytes)
// or one is not (all moved to nanoseconds at once, by an add or a set).
func TestNSListAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var b slab.Vec[int64]
	var wide, packed int
	for k := range 500 {
		value := func() int64 {
			switch {
			case k%3 == 0 && rng.IntN(400) == 0:
				return rng.Int64N(2e12) - 1e12 // any nanosecond
			case k%4 == 0 && rng.IntN(400) == 0:
				return (math.MinInt32 - 1 - rng.Int64N(1e3)) * 1000 // µs below 31 bits
			default:
				return (rng.Int64N(4e6) - 2e6) * 1000
			}
		}
		var l nsList
		var plain []int64
		for range rng.IntN(5000) {
			if len(plain) > 0 && rng.IntN(4) == 0 {
				i, v := rng.IntN(len(plain)), value()
				l.set(i, v)
				plain[i] = v
			} else {
				v := value()
				l.add(v)
				plain = append(plain, v)
			}
		}
		if l.len() != len(plain) {
			t.Fatalf("len %d, want %d", l.len(), len(plain))
		}
		for i, v := range plain {
			if got := l.at(i); got != v {
				t.Fatalf("value %d is %d, want %d", i, got, v)
			}
		}
		if got := l.copyTo(&b); !slices.Equal(got, plain) {
			t.Fatalf("copy differs from the values")
		}
		fits := !slices.ContainsFunc(plain, func(v int64) bool { _, ok := asUS(v); return !ok })
		if !l.wide && !fits {
			t.Fatalf("packed although a value does not fit")
		}
		if l.wide {
			wide++
		} else if len(plain) > 0 {
			packed++
		}
		l.free()
	}
	b.Free()
	if wide == 0 || packed == 0 {
		t.Errorf("%d lists wide, %d packed: want both kinds tried", wide, packed)
	}
}

// FuzzNSList: any sequence of adds and sets reads back as a plain list
// of nanoseconds holds it, value by value and as a copy, and the list is
// packed in 4 bytes only while every value fits.
func FuzzNSList(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 128})
	f.Add(binary.LittleEndian.AppendUint64([]byte{2}, uint64(math.MaxInt32+1)*1000))
	// Two packed values, then the second set to one that does not fit.
	seed := binary.LittleEndian.AppendUint64([]byte{2}, 5<<24)
	seed = binary.LittleEndian.AppendUint64(append(seed, 2), 7<<24)
	f.Add(binary.LittleEndian.AppendUint64(append(seed, 1), 1001))
	f.Fuzz(func(t *testing.T, b []byte) {
		var l nsList
		defer l.free()
		var plain []int64
		for ; len(b) >= 9; b = b[9:] {
			op, v := b[0], int64(binary.LittleEndian.Uint64(b[1:]))
			if op&2 != 0 { // mostly whole microseconds, of either sign
				v = v >> 24 * 1000
			}
			if op&1 != 0 && len(plain) > 0 {
				i := int(uint(v) % uint(len(plain)))
				l.set(i, v)
				plain[i] = v
			} else {
				l.add(v)
				plain = append(plain, v)
			}
		}
		var c slab.Vec[int64]
		defer c.Free()
		if got := l.copyTo(&c); !slices.Equal(got, plain) || l.len() != len(plain) {
			t.Fatalf("reads back %v, want %v", got, plain)
		}
		for i, v := range plain {
			if l.at(i) != v {
				t.Fatalf("value %d is %d, want %d", i, l.at(i), v)
			}
		}
		if !l.wide && slices.ContainsFunc(plain, func(v int64) bool { _, ok := asUS(v); return !ok }) {
			t.Fatal("packed although a value does not fit")
		}
	})
}

// TestThinnedEvenSample: lists thinned to at most limit values hold the
// series' values at every stride-th place from its first, side by side,
// over the whole series (the last kept within a stride of its end), and
// at least half the limit once the series reached it.
func TestThinnedEvenSample(t *testing.T) {
	for _, limit := range []int{2, 8, 16, 100} {
		for n := range 2000 {
			var th thinned
			var a, b nsList
			for i := range n {
				if th.take() {
					a.add(int64(i) * 1000)
					b.add(-int64(i)*1000 - 7) // nanoseconds: the wide form
					th.fill(limit, &a, &b)
				}
			}
			stride := max(th.stride, 1)
			want := (n + stride - 1) / stride
			if a.len() != want || b.len() != want || a.len() >= limit {
				t.Fatalf("limit %d, %d values: kept %d and %d, want %d (stride %d) below the limit", limit, n, a.len(), b.len(), want, stride)
			}
			for k := range want {
				if a.at(k) != int64(k*stride)*1000 || b.at(k) != -int64(k*stride)*1000-7 {
					t.Fatalf("limit %d, %d values: kept %d is %d and %d, want place %d", limit, n, k, a.at(k), b.at(k), k*stride)
				}
			}
			if n >= limit && 2*a.len() < limit {
				t.Fatalf("limit %d, %d values: only %d kept", limit, n, a.len())
			}
			a.free()
			b.free()
		}
	}
}

// TestCleanRTTSpansTransfer: the RTT samples kept outside loss episodes
// (whose median above the least is queue_delay_ms) are an even sample of
// a long transfer's, not mostly its first ones: an RTT that climbs from
// 100 to 1,100 ms over 60,000 samples keeps a median near 600 ms (the
// first 16,384 and one in 64 after them had it at about 400).
func TestCleanRTTSpansTransfer(t *testing.T) {
	var d dirAcc
	d.init()
	const n = 60000
	for i := range n {
		d.lastTime = int64(i) * 1e6
		d.addRTT(100e6 + int64(i)*1e9/n)
	}
	if d.cleanRTT.len() > maxCleanRTT || d.cleanRTT.len() != d.cleanPeak.len() {
		t.Fatalf("%d samples and %d peaks kept (at most %d)", d.cleanRTT.len(), d.cleanPeak.len(), maxCleanRTT)
	}
	var b slab.Vec[int64]
	defer b.Free()
	med, _ := median(d.cleanRTT.copyTo(&b))
	if math.Abs(float64(med)-600e6) > 5e6 {
		t.Errorf("median of the samples kept %.1f ms, want 600 ± 5", float64(med)/1e6)
	}
	d.cleanRTT.free()
	d.cleanPeak.free()
	d.rtt.free()
}
