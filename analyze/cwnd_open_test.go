package analyze

import "testing"

// TestOpenWindowFollowsLinux: outside recovery the window a sender does
// not fill is Linux's, not the flight: slow start grows it while half was
// used, an idle RTO restarts it from the initial window, an RTO of not
// filling it lowers it halfway to what was used, and three bursts in a row
// short of it with data waiting end slow start at what was sent.
func TestOpenWindowFollowsLinux(t *testing.T) {
	const seg, rtt = 1000, 100e6
	rto := rtoOf(rtt)
	// The initial window, six segments of it out, acknowledged: slow
	// start adds them (10 < 2 × 6).
	o := openWindow{w: initialWindow * seg}
	o.send(0, 0, seg, rto)
	o.burst(0, 6*seg, 6*seg, 6*seg, 6*seg, 0, seg, rtt, rto, true)
	if w := o.ack(6 * seg); w != 16*seg {
		t.Fatalf("after the ACK %d, want 16 segments (10 + 6: tcp_slow_start)", w)
	}
	// Four out: 16 ≥ 2 × 6 no more (max_packets_out is still 6 in this
	// window of data): no growth.
	o.burst(1e6, 4*seg, 4*seg, 4*seg, 10*seg, 6*seg, seg, rtt, rto, true)
	if w := o.ack(4 * seg); w != 16*seg {
		t.Fatalf("an ACK while less than half was used grew the window to %d", w)
	}
	// Idle for 3.5 RTOs with nothing outstanding: halved three times,
	// not below the initial window.
	o.send(1e6+rto*7/2, 0, seg, rto)
	if o.w != initialWindow*seg {
		t.Fatalf("after idling %d, want the initial window (16 halved, at least 10)", o.w)
	}

	// A window of 40 segments in slow start; the sender, with data
	// waiting (not held), sends 20 each burst: after three bursts slow
	// start is over at what it sent.
	o = openWindow{w: 40 * seg, maxOut: 30 * seg, usageSeq: 1 << 40}
	for i := range int64(3) {
		if i == 2 && o.ssOver {
			t.Fatal("slow start ended after two short bursts")
		}
		o.burst(i*1e6, 20*seg, 20*seg, 30*seg, 1<<30, 0, seg, rtt, rto, false)
	}
	if !o.ssOver || o.w != 20*seg {
		t.Fatalf("after three short bursts: window %d, over %v; want 20 segments, over", o.w, o.ssOver)
	}

	// Out of slow start, 40 segments, 15 used for an RTO: halfway, 27.5.
	o = openWindow{w: 40 * seg, ssthresh: 40 * seg, ssOver: true, maxOut: 40 * seg, usageSeq: 1 << 40}
	o.burst(0, 15*seg, 15*seg, 15*seg, 1<<30, 0, seg, rtt, rto, true)
	o.burst(rto, 15*seg, 15*seg, 15*seg, 1<<30, 0, seg, rtt, rto, true)
	if o.w != 27500 {
		t.Fatalf("after an RTO of 15 used of 40: %d, want 27500 (tcp_cwnd_application_limited)", o.w)
	}
	if o.ssthresh != 40*seg {
		t.Fatalf("ssthresh %d, want kept at 40 segments (tcp_current_ssthresh)", o.ssthresh)
	}
}
