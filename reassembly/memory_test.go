package reassembly

import (
	"runtime"
	"testing"

	"tcpviz/internal/gencap"
)

// TestSynFloodBoundedMemory reads 300,000 SYNs from distinct addresses:
// the connection table must stay bounded (connections are retired while
// reading), every connection must still be reported once, and the heap
// must not grow with the number of packets.
func TestSynFloodBoundedMemory(t *testing.T) {
	const n = 300000
	r, err := NewReader(gencap.SynFlood(n, 1000))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	retired, maxLive := 0, 0
	var peakHeap uint64
	var ms runtime.MemStats
	sc.Tracker().OnRetire = func(*Conn) { retired++ }
	for i := 0; sc.Scan(); i++ {
		if l := sc.Tracker().Len(); l > maxLive {
			maxLive = l
		}
		if i%50000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapAlloc)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if retired != n {
		t.Errorf("%d connections retired, want every one of %d", retired, n)
	}
	// Live connections: at most the pressure threshold, plus what arrives
	// between two sweeps and within the idle time.
	if limit := pressureConns + expireEvery + 1 + 1000*int(pressureIdle/1e9); maxLive > limit {
		t.Errorf("up to %d live connections, want at most %d", maxLive, limit)
	}
	t.Logf("300k SYNs: at most %d live connections, peak heap %.1f MB", maxLive, float64(peakHeap)/1e6)
	if peakHeap > 150e6 {
		t.Errorf("peak heap %.1f MB", float64(peakHeap)/1e6)
	}
}
