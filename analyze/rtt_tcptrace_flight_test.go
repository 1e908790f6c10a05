package analyze

import (
	"fmt"
	"math"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// TestKarnLargeFlight: more segments in flight than a quadrant's list
// held before (4096), with one segment captured out of place, in one
// quadrant and across 2^32, one-way and acknowledged. No panic, and
// every segment acknowledged exactly at its end, never retransmitted
// and with no later transmission before it gives tcptrace's sample:
// all but the two swapped (the first of them is sent after the second,
// which then has an intervening transmission; the first's ACK comes
// with the other's), the segment straddling 2^32 included.
func TestKarnLargeFlight(t *testing.T) {
	const mss = 1448
	for _, tc := range []struct {
		n, swap int
		iss     uint32
	}{
		{4200, 100, 1000},
		{4300, 4200, 1000},
		{4200, 4150, 1000},
		{5000, -1, 1000},
		{9000, 2000, 1<<32 - 3000*mss}, // the flight crosses 2^32
		{70000, 30000, 1000},           // more than maxKarnFlight: the oldest forgotten
	} {
		for _, acks := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d swap=%d iss=%d acks=%v", tc.n, tc.swap, tc.iss, acks), func(t *testing.T) {
				r, err := reassembly.NewReader(gencap.Flight(tc.n, mss, tc.swap, acks, tc.iss))
				if err != nil {
					t.Fatal(err)
				}
				_, a, conns := analyzeReader(r)
				if len(conns) != 1 {
					t.Fatalf("%d connections", len(conns))
				}
				st := a.stats(conns[0])[0]
				want := int64(1) // the SYN, acknowledged by the SYN/ACK 100 ms later
				if acks {
					want += int64(tc.n) // one per segment
					if tc.swap >= 0 {
						want -= 1 // the one sent second is acknowledged with the other
					}
					if tc.n > maxKarnFlight {
						want -= int64(tc.n - maxKarnFlight) // forgotten before their ACK
					}
				}
				// The segment straddling 2^32 gives its sample too: tcptrace
				// 6.6.7 counts 9000 for n=9000 swap=2000 across 2^32 (and
				// 4200 for n=4200 swap=100), as here.
				if st.KarnRTTSamples != want {
					t.Errorf("%d tcptrace samples, want %d", st.KarnRTTSamples, want)
				}
				// Each ACK comes max(5 ms, n+1000 µs) after its segment.
				rtt := float64(max(5000, tc.n+1000)) / 1e3
				if acks && (math.Abs(st.KarnRTTMinMs-rtt) > 0.002 || st.KarnRTTMaxMs != 100) {
					t.Errorf("tcptrace RTT %.3f to %.3f ms, want %.3f (and the handshake's 100)", st.KarnRTTMinMs, st.KarnRTTMaxMs, rtt)
				}
			})
		}
	}
}
