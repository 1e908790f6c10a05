package analyze

import (
	"math"
	"testing"

	"tcpviz/reassembly"
)

// karnStats returns the tcptrace-style RTT of direction d of the first
// connection of cv.
func karnStats(cv *conv, d reassembly.Direction) DirStats {
	var st DirStats
	cv.a.conns[0].stats[d].karn.fill(&st)
	return st
}

func expectKarn(t *testing.T, st DirStats, n int64, minMs, avgMs, maxMs float64) {
	t.Helper()
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if st.KarnRTTSamples != n || !near(st.KarnRTTMinMs, minMs) || !near(st.KarnRTTAvgMs, avgMs) || !near(st.KarnRTTMaxMs, maxMs) {
		t.Fatalf("tcptrace-style RTT: %d samples min %v avg %v max %v ms, want %d %v %v %v",
			st.KarnRTTSamples, st.KarnRTTMinMs, st.KarnRTTAvgMs, st.KarnRTTMaxMs, n, minMs, avgMs, maxMs)
	}
}

// TestKarnRetransmittedSegmentGivesNoSample: the ACK of a retransmitted
// segment gives no sample (Wireshark's ack_rtt times it from the first
// transmission), the next clean segment does, and a segment covered by a
// larger ACK gives none.
func TestKarnRetransmittedSegmentGivesNoSample(t *testing.T) {
	cv := newConv(t, 1000, 5000)
	cv.handshake(-1, -1, 10)                                       // the SYN/ACK acks the SYN: 5 ms
	cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W})         // A
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss, win: W, dtMs: 40}) // acks A: 40 ms
	expectKarn(t, karnStats(cv, c2s), 2, 5, 22.5, 40)              // the SYN and A

	cv.send(seg{dir: c2s, seq: 1 + mss, ack: 1, n: mss, win: W, dtMs: 10})   // B
	cv.send(seg{dir: c2s, seq: 1 + mss, ack: 1, n: mss, win: W, dtMs: 200})  // B again
	info := cv.send(seg{dir: s2c, seq: 1, ack: 1 + 2*mss, win: W, dtMs: 30}) // acks B
	if info.AckRTT != 230e6 {
		t.Fatalf("Wireshark ack_rtt of B = %d ns, want 230 ms from the first transmission", info.AckRTT)
	}
	expectKarn(t, karnStats(cv, c2s), 2, 5, 22.5, 40) // Karn: no sample from B

	cv.send(seg{dir: c2s, seq: 1 + 2*mss, ack: 1, n: mss, win: W, dtMs: 5}) // C
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + 3*mss, win: W, dtMs: 20})        // acks C: 20 ms
	expectKarn(t, karnStats(cv, c2s), 3, 5, 65.0/3, 40)

	cv.send(seg{dir: c2s, seq: 1 + 3*mss, ack: 1, n: mss, win: W, dtMs: 5}) // D
	cv.send(seg{dir: c2s, seq: 1 + 4*mss, ack: 1, n: mss, win: W})          // E
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + 5*mss, win: W, dtMs: 15})        // acks D (cumulatively) and E: 15 ms
	expectKarn(t, karnStats(cv, c2s), 4, 5, 80.0/4, 40)
}

// TestKarnInterveningRetransmission: a segment sent before a retransmitted
// earlier one gives no sample either (tcptrace's "intervening
// transmissions"), though it was sent once.
func TestKarnInterveningRetransmission(t *testing.T) {
	cv := newConv(t, 1000, 5000)
	cv.handshake(-1, -1, 10)
	cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W})                // A
	cv.send(seg{dir: c2s, seq: 1 + mss, ack: 1, n: mss, win: W, dtMs: 1}) // B
	cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 100})     // A again
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss, win: W, dtMs: 10})        // acks A: ambiguous
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + 2*mss, win: W, dtMs: 1})       // acks B: A was sent after B
	expectKarn(t, karnStats(cv, c2s), 1, 5, 5, 5)                         // the SYN's only
}

// TestKarnZeroWindowProbe: a segment sent while the receiver's window is
// zero is a probe, not recorded; sent again once the window reopens, it is
// new data and its ACK gives a sample.
func TestKarnZeroWindowProbe(t *testing.T) {
	cv := newConv(t, 1000, 5000)
	cv.handshake(-1, -1, 10)
	cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W})
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss, win: 0, dtMs: 10}) // acks it (10 ms), window 0
	cv.send(seg{dir: c2s, seq: 1 + mss, ack: 1, n: 1, win: W, dtMs: 100})
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss, win: 0, dtMs: 10}) // probe not accepted
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss, win: W, dtMs: 50}) // window update
	cv.send(seg{dir: c2s, seq: 1 + mss, ack: 1, n: mss, win: W, dtMs: 1})
	cv.send(seg{dir: s2c, seq: 1, ack: 1 + 2*mss, win: W, dtMs: 7}) // 7 ms, not timed from the probe
	expectKarn(t, karnStats(cv, c2s), 3, 5, 22.0/3, 10)
}

// TestKarnBounded: a quadrant never holds more than maxKarnSegs segments,
// even with holes never filled.
func TestKarnBounded(t *testing.T) {
	var k karnDir
	for i := range 3 * maxKarnSegs {
		k.add(uint32(10+2*i), 1, int64(i), int64(i)+1) // one byte every other byte
		k.ackIn(uint32(10+2*i+1), int64(i)+5)
	}
	if n := len(k.quads[0].segs); n > maxKarnSegs {
		t.Fatalf("%d segments kept", n)
	}
	if k.n != 3*maxKarnSegs || k.minUs != 5e-3 || k.maxUs != 5e-3 {
		t.Fatalf("%d samples, min %v max %v µs", k.n, k.minUs, k.maxUs)
	}
}
