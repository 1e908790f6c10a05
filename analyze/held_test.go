package analyze

import (
	"strings"
	"testing"
)

// probeRun feeds a sender's data segments of 1000 bytes, one every 10 ms:
// a flight of 20 segments for a second, then dipMs of a flight of four,
// then 20 again for a second; resendAt (ms, 0: none) resends a segment
// then, and rwnd is the receiver's window throughout. It gives the dips
// counted.
func probeRun(dipMs, resendAt float64, rwnd int64) int {
	var p probeRTT
	ms := 0.0
	feed := func(until float64, flight int64) {
		for ; ms < until; ms += 10 {
			p.data(int64(ms*1e6), 1000, flight, rwnd, resendAt > 0 && ms == resendAt, 80e6)
		}
	}
	feed(1000, 20000)
	feed(1000+dipMs, 4000)
	feed(2000+dipMs, 20000)
	return p.dips
}

// TestProbeRTTDip: BBR's ProbeRTT, the flight at four segments for 200 ms
// and a round trip with nothing lost and the window back at once,
// counts; held longer, after a resend, or under a receiver's window
// too small for the flight it came back to, it does not (a proxy's
// closed window held the lossless Reno and CUBIC runs 0.46 s to 5.6 s).
func TestProbeRTTDip(t *testing.T) {
	for _, c := range []struct {
		name     string
		dipMs    float64
		resendAt float64
		rwnd     int64
		want     int
	}{
		{"ProbeRTT", 230, 0, 1 << 20, 1},
		{"too short", 100, 0, 1 << 20, 0},
		{"held 600 ms", 600, 0, 1 << 20, 0},
		{"a resend just before", 230, 800, 1 << 20, 0},
		{"the receiver's window small", 230, 0, 8000, 0},
	} {
		if got := probeRun(c.dipMs, c.resendAt, c.rwnd); got != c.want {
			t.Errorf("%s: %d dips, want %d", c.name, got, c.want)
		}
	}
}

// TestProbeRTTNamesBBR: a sender-side transfer with no loss episode is
// BBR where it showed a ProbeRTT dip, unknown otherwise.
func TestProbeRTTNamesBBR(t *testing.T) {
	st := DirStats{DataPackets: 1000, Path: PathStats{HasData: true, Vantage: VantageSender}}
	if cc, _ := congestionControl(&st); cc != "unknown" {
		t.Errorf("no loss, no dip: %q, want unknown", cc)
	}
	st.ProbeRTTDips = 1
	if cc, why := congestionControl(&st); cc != "bbr" || !strings.Contains(why, "ProbeRTT") {
		t.Errorf("no loss, one dip: %q (%s), want bbr by its ProbeRTT", cc, why)
	}
}

// TestAppIdleWaits: a wait with nothing outstanding (the next segment is
// the whole flight) longer than a round trip counts as the application's
// idle wait; one with data still out, or shorter than the round trip,
// does not.
func TestAppIdleWaits(t *testing.T) {
	var h senderHeld
	rtt := int64(100e6)
	// data at 0, all acknowledged at 100 ms; next data at 400 ms, alone in flight
	h.data(0, 1000, 1000, 1<<20, false, false, false, false, 0, rtt)
	h.data(400e6, 1000, 1000, 1<<20, false, false, false, true, 100e6, rtt)
	// acknowledged at 500 ms; next at 550 ms (less than a round trip)
	h.data(550e6, 1000, 1000, 1<<20, false, false, false, true, 500e6, rtt)
	// acknowledged at 650 ms; next at 900 ms with 5000 bytes still out
	h.data(900e6, 1000, 6000, 1<<20, false, false, false, true, 650e6, rtt)
	if h.idles != 1 {
		t.Errorf("idle waits %d, want 1", h.idles)
	}
}

// TestAppFoundByIdleWaits: three idle waits name the application beside
// random loss though the waits were 9% of the transfer
// (ap_100ms_10m_a2500k_l05); two do not.
func TestAppFoundByIdleWaits(t *testing.T) {
	st := DirStats{DataPackets: 1000, DataBytes: 1448000, MSS: 1448, RTTSamples: 100, RTTMinMs: 100, RTTMedianMs: 104, HasThroughput: true,
		Path:             PathStats{HasData: true, Vantage: VantageSender, Retransmitted: 11, LostDownstream: 11},
		MaxBytesInFlight: 131072, ThroughputBps: 2.4e6, RankedLossEpisodes: 6, QueueLossEpisodes: 1, RTTAtLossMs: 102,
		LimitShares: []LimitShare{{FindBottleneck, 0.91}, {FindApplication, 0.09}}, AppIdleWaits: 3}
	rcv := DirStats{MaxRwnd: 4 << 20}
	if got := kinds(diagnose(&st, &rcv, 4.2e6)); got != FindRandomLoss+";"+FindApplication {
		t.Errorf("3 idle waits: findings %q, want random_loss;application", got)
	}
	st.AppIdleWaits = 2
	if got := kinds(diagnose(&st, &rcv, 4.2e6)); got != FindRandomLoss {
		t.Errorf("2 idle waits: findings %q, want random_loss", got)
	}
}
