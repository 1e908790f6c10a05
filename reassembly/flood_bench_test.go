package reassembly

import (
	"fmt"
	"runtime"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/internal/slab"
)

// floodLiveBytes reads n SYNs at rate per second of capture time, all from
// distinct addresses, and returns the heap held per live connection once
// every SYN has been tracked (before the end-of-capture flush), with how
// many connections were live then.
func floodLiveBytes(t testing.TB, n, rate int) (perConn float64, live int) {
	r, err := NewReader(gencap.SynFlood(n, rate))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	mapped := slab.Mapped()
	for sc.Packets() < int64(n) && sc.Scan() {
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live = sc.Tracker().Len()
	// The heap, and the slabs outside it.
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc) + slab.Mapped() - mapped
	perConn = float64(held) / float64(max(live, 1))
	runtime.KeepAlive(sc)
	return perConn, live
}

// BenchmarkSynFlood reads floods of one-SYN connections at an attack rate
// (100,000 per second of capture time: nothing is idle long enough to be
// retired) and reports packets/s and the heap held per live connection.
func BenchmarkSynFlood(b *testing.B) {
	for _, n := range []int{300000, 1000000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var perConn float64
			for i := 0; i < b.N; i++ {
				perConn, _ = floodLiveBytes(b, n, 100000)
			}
			b.ReportMetric(perConn, "bytes/conn")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "packets/s")
		})
	}
}

// TestSynFloodBytesPerConnection holds a one-SYN connection to a small
// cost: the tracker's lone record (96 bytes without pointers) and its
// slots in the lone table (8 bytes each, at most 3/4 used; both outside
// the heap): about 112 bytes (148 with a Go map of the hashes, 429 for a
// Conn each before).
func TestSynFloodBytesPerConnection(t *testing.T) {
	n, limit := 300000, 125.0
	if raceEnabled { // fewer, in a table that has just grown: a looser bound
		n, limit = 50000, 150
	}
	perConn, live := floodLiveBytes(t, n, 100000)
	t.Logf("%d SYNs at 100,000/s: %d live connections, %.0f bytes each", n, live, perConn)
	if live != n {
		t.Errorf("%d live connections, want all %d (none idle long enough)", live, n)
	}
	if perConn > limit {
		t.Errorf("%.0f bytes per one-SYN connection, want at most %.0f", perConn, limit)
	}
}
