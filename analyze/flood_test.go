package analyze

import (
	"runtime"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/internal/slab"
	"tcpviz/reassembly"
)

// TestSYNFloodAnalysisMemory: analysing a SYN flood holds, per live
// connection, the tracker's lone record (its key, its SYN's fields and its
// hash's table slots), about 112 bytes, and nothing in the analyzer (the
// tracker hands the SYN back to replay) — not a copy of the SYN (174
// bytes with one), a Conn, a Segment or analysis state (about 700 bytes
// before, 3.4 KB before that). 1,000,000 live connections in 200 MB is about 200 bytes
// each. Measured on the heap, at the flood's end, while all are live.
func TestSYNFloodAnalysisMemory(t *testing.T) {
	n, limit := 300000, 125.0
	if raceEnabled { // fewer, in tables that have just grown: a looser bound
		n, limit = 50000, 150
	}
	r, err := reassembly.NewReader(gencap.SynFlood(n, 100000))
	if err != nil {
		t.Fatal(err)
	}
	sc := reassembly.NewScanner(r)
	a := newAnalyzer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	mapped := slab.Mapped()
	for i := 0; i < n && sc.Scan(); i++ {
		a.segment(sc.Conn(), sc.Segment())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := sc.Tracker().Len()
	// The heap, and the slabs outside it.
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)+slab.Mapped()-mapped) / float64(max(live, 1))
	t.Logf("%d live connections, %.0f bytes each (tracker and analysis)", live, per)
	if live < n*9/10 {
		t.Fatalf("only %d of %d connections live", live, n)
	}
	if per > limit {
		t.Errorf("%.0f bytes per one-SYN connection, want at most %.0f", per, limit)
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(sc)
}
