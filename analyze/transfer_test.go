package analyze

import (
	"os"
	"path/filepath"
	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"testing"

	"tcpviz/reassembly"
)

// flights builds records of a sender that sends the given number of
// 1000-byte segments per round trip of rtt, each flight acknowledged a
// round trip later; lossAt marks one segment of that round as a
// retransmission (-1: none).
func flights(rtt int64, perRound []int, lossAt int) []Record {
	var recs []Record
	seq := int64(1)
	recs = append(recs, Record{Time: 0, Dir: reassembly.C2S, Flags: reassembly.SYN})
	for round, n := range perRound {
		t0 := int64(round+1) * rtt
		inflight := int64(0)
		for i := 0; i < n; i++ {
			inflight += 1000
			r := Record{Time: t0 + int64(i)*1000, Dir: reassembly.C2S, Seq: seq, Len: 1000, HasAck: true, Info: PacketInfo{BytesInFlight: inflight, AckRTT: -1}}
			if round == lossAt && i == n/2 {
				r.Info.Flags |= Retransmission
			}
			recs = append(recs, r)
			seq += 1000
		}
		recs = append(recs, Record{Time: t0 + rtt - 1000, Dir: reassembly.S2C, HasAck: true, Ack: seq, Info: PacketInfo{AckRTT: rtt}})
	}
	return recs
}

// slowStartOf drives the slow-start state machine over records, as the
// statistics do over segments.
func slowStartOf(recs []Record, d reassembly.Direction) SlowStart {
	ss := newSlowStart(recs[0].Time)
	for i := range recs {
		r := &recs[i]
		if r.Dir == d.Reverse() && r.HasAck && r.Window >= 0 && r.Flags&(reassembly.SYN|reassembly.FIN|reassembly.RST) == 0 {
			ss.rwnd = r.Window
		}
		if r.Dir == d {
			ss.data(r.Time, r.Seq, int64(r.Len), r.Info, r.TSEcr, r.HasTS)
		} else if r.HasAck {
			ss.ack(r.Time, r.Ack, r.Info, r.TSVal, r.HasTS)
		}
	}
	return ss.finish()
}

func TestSlowStartRounds(t *testing.T) {
	const rtt = 100e6
	tests := []struct {
		name       string
		perRound   []int
		lossAt     int
		wantReason string
		wantRounds int
		wantFlight int64
	}{
		{"window limit after four doublings", []int{10, 20, 40, 80, 80, 80}, -1, "growth stopped", 4, 80000},
		{"loss in the third round", []int{10, 20, 40, 80}, 2, "loss", 3, 20000},
		{"still growing at the end", []int{10, 20, 40}, -1, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := slowStartOf(flights(rtt, tt.perRound, tt.lossAt), reassembly.C2S)
			if ss.Reason != tt.wantReason || ss.Rounds != tt.wantRounds || ss.Flight != tt.wantFlight {
				t.Errorf("got %+v; want reason %q after %d rounds, flight %d", ss, tt.wantReason, tt.wantRounds, tt.wantFlight)
			}
		})
	}
}

func TestSummarizeDelivered(t *testing.T) {
	recs := flights(400e6, []int{10, 20, 40, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80}, -1)
	conn := &reassembly.Conn{FirstTime: recs[0].Time}
	tr := Summarize(&Loaded{Conn: conn, Dir: reassembly.C2S, Records: recs}, TransferOptions{At: []int64{1e9, 5e9, 10e9}})
	// Acks arrive at (round+2)*400ms - 1µs: by 1 s, rounds 0 (at 0.8 s)
	// done: 10 segments.
	if tr.Delivered[0] != 10000 {
		t.Errorf("delivered at 1 s: %d, want 10000", tr.Delivered[0])
	}
	if !tr.HasTimeToMB || tr.TimeToMB <= 5e9 || tr.Total != 1110000 {
		t.Errorf("time to 1 MiB %d (found %v), total %d", tr.TimeToMB, tr.HasTimeToMB, tr.Total)
	}
	if tr.Delivered[0] > tr.Delivered[1] || tr.Delivered[1] > tr.Delivered[2] {
		t.Errorf("delivered not monotonic: %v", tr.Delivered)
	}
}

// TestSlowStartOnGEOCapture reads the bundled GEO capture (600 ms RTT,
// 85 KB receive window, no proxy): slow start must end when the flight
// reaches the receive window, a few round trips in, and the summary and
// the comparisons (Summarize) must say the same.
func TestSlowStartOnGEOCapture(t *testing.T) {
	l := loadMain(t, filepath.Join("..", "testdata", "geo_short.pcap"))
	ss := Summarize(l, TransferOptions{}).SlowStart
	// Flights of 10, 20, 40 and 74 segments (74 × 1448 bytes fill the
	// window iperf3 asked for with -w 85K), then 74 again.
	if !ss.Found || ss.Reason != SlowStartRwnd || ss.Flight < 100000 || ss.Flight > 115000 || ss.Rounds != 4 {
		t.Errorf("slow start %+v: want it to end after 4 rounds at the receive window, about 107 KB in flight", ss)
	}
	if st := mainStats(t, filepath.Join("..", "testdata", "geo_short.pcap")); st.SlowStart != ss {
		t.Errorf("summary's slow start %+v, comparison's %+v", st.SlowStart, ss)
	}
	// The state machine over the records finds what it found over the
	// segments (numbering differs: absolute there, relative here).
	if rs := slowStartOf(l.Records, l.Dir); rs != ss {
		t.Errorf("from records %+v, from segments %+v", rs, ss)
	}
}

// loadMain loads the connection with the most payload of a capture.
func loadMain(t *testing.T, path string) *Loaded {
	t.Helper()
	l, err := Load(capturetest.Opener(t, path), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestStreamingLimits checks the summary's window-limited and zero-window
// times: the GEO transfer without a proxy spends most of its time held by
// the 85 KB window; behind the proxy, the proxy's window stays closed most
// of the time.
func TestStreamingLimits(t *testing.T) {
	st := mainStats(t, filepath.Join("..", "testdata", "geo_short.pcap"))
	if st.SlowStart.Rounds != 4 {
		t.Errorf("slow start %+v", st.SlowStart)
	}
	if st.RwndLimitedNs < 3e9 || st.RwndLimitedNs > st.Duration {
		t.Errorf("receiver-window limited %d ns of %d", st.RwndLimitedNs, st.Duration)
	}
	pep := filepath.Join(golden.SharedCaptures(), "lab", "geo_pep_85k.pcap")
	if _, err := os.Stat(pep); err != nil {
		t.Skip(err)
	}
	st = mainStats(t, pep)
	if st.RwndLimitedNs < 20e9 {
		t.Errorf("behind the proxy: window limited %d ns, want most of the 32 s", st.RwndLimitedNs)
	}
}

// TestHandshakeLag: the time from the capture to a direction's sender and
// back, from the handshake's legs: the whole round trip for the data of
// the side across the path, none beside the sender, the near leg at a
// capture in the middle, none without the whole handshake.
func TestHandshakeLag(t *testing.T) {
	const ms = int64(1e6)
	at := func(syn, synAck, ack int64) handshake {
		var h handshake
		h.add(reassembly.C2S, true, false, syn, 0, 0, false)
		if synAck > 0 {
			h.add(reassembly.S2C, true, true, synAck, 0, 0, false)
		}
		if ack > 0 {
			h.add(reassembly.C2S, false, true, ack, 0, 0, false)
		}
		return h
	}
	for _, c := range []struct {
		name          string
		h             handshake
		client, serve int64 // lag of the client's data, of the server's
	}{
		{"beside the client", at(1*ms, 101*ms, 101*ms+50e3), 0, 100 * ms},
		{"beside the server", at(1*ms, 1*ms+40e3, 101*ms), 100*ms - 40e3, 0},
		{"in the middle", at(1*ms, 61*ms, 101*ms), 40 * ms, 60 * ms},
		{"a fifth of the way from the client", at(1*ms, 79*ms, 101*ms), 22 * ms, 78 * ms}, // the middle to Vantage too
		{"closer to the client", at(1*ms, 82*ms, 101*ms), 0, 81 * ms},
		{"no SYN/ACK", at(1*ms, 0, 101*ms), 0, 0},
		{"no ACK", at(1*ms, 61*ms, 0), 0, 0},
	} {
		if got := c.h.lag(reassembly.C2S); got != c.client {
			t.Errorf("%s: the client's data lag %d, want %d", c.name, got, c.client)
		}
		if got := c.h.lag(reassembly.S2C); got != c.serve {
			t.Errorf("%s: the server's data lag %d, want %d", c.name, got, c.serve)
		}
	}
	// A SYN sent again starts over.
	h := at(1*ms, 61*ms, 101*ms)
	h.add(reassembly.C2S, true, false, 200*ms, 0, 0, false)
	if h.lag(reassembly.C2S) != 0 {
		t.Error("a new SYN kept the old handshake's lag")
	}
	// Beside the server, its SYN/ACK sent again a second later: the
	// server's leg is to the first; the client's from the one its ACK
	// echoes (the second: the first ACK lost; the first: a handshake
	// longer than the server's timer), else (no timestamps) the first.
	resent := func(echo uint32, hasTS bool) handshake {
		var h handshake
		h.add(reassembly.C2S, true, false, 1*ms, 500, 0, hasTS)
		h.add(reassembly.S2C, true, true, 1*ms+40e3, 7000, 500, hasTS)
		h.add(reassembly.S2C, true, true, 1001*ms+40e3, 8000, 500, hasTS)
		h.add(reassembly.C2S, false, true, 1101*ms, 600, echo, hasTS)
		return h
	}
	for _, c := range []struct {
		name   string
		h      handshake
		client int64
	}{
		{"the second answered", resent(8000, true), 100*ms - 40e3},
		{"the first answered", resent(7000, true), 1100*ms - 40e3},
		{"no timestamps", resent(0, false), 1100*ms - 40e3},
	} {
		if c.h.lag(reassembly.S2C) != 0 || c.h.lag(reassembly.C2S) != c.client || c.h.rtt() != c.client+40e3 {
			t.Errorf("SYN/ACK sent again beside the server, %s: server's lag %d, client's %d (want %d), round trip %d",
				c.name, c.h.lag(reassembly.S2C), c.h.lag(reassembly.C2S), c.client, c.h.rtt())
		}
	}
	// Beside the client, its ACK lost after the capture: the handshake
	// seen whole stands.
	h = at(1*ms, 101*ms, 101*ms+50e3)
	h.add(reassembly.S2C, true, true, 1101*ms, 0, 0, false)
	h.add(reassembly.C2S, false, true, 1101*ms+50e3, 0, 0, false)
	if h.lag(reassembly.C2S) != 0 || h.lag(reassembly.S2C) != 100*ms {
		t.Errorf("SYN/ACK sent again beside the client: client's lag %d, server's %d", h.lag(reassembly.C2S), h.lag(reassembly.S2C))
	}
}

// TestSlowStartEndsAtCaptureEnd: away from the sender a round that was
// waiting for its end to pass the capture when the capture ended is
// judged with what it sent: a transfer that ends in slow start's last
// round reads as at the sender.
func TestSlowStartEndsAtCaptureEnd(t *testing.T) {
	ss := newSlowStart(0)
	ss.lag = 99e6
	seq := int64(1)
	for k, n := range []int{10, 20, 5} {
		t0 := int64(k+1) * 100e6
		for i := range int64(n) {
			ss.data(t0+i*1000, seq, 1000, PacketInfo{BytesInFlight: 1000}, 0, false)
			seq += 1000
			ss.ack(t0+i*1000+500, seq, PacketInfo{}, 0, false)
		}
	}
	if ss.result.Found {
		t.Fatalf("slow start found before the capture ended: %+v", ss.result)
	}
	if r := ss.finish(); !r.Found || r.Rounds != 2 || r.Flight != 20000 || r.Reason != SlowStartStopped {
		t.Errorf("at the end %+v, want growth stopped after 2 rounds, 20000 arrived in the last", r)
	}
}

// TestSlowStartAtReceiver: at a receiver-side capture a round trip ends
// where the data the receiver's ACK released arrives, so slow start reads
// as at the sender: the same rounds, flight and reason, ending within
// milliseconds of it (each from its SYN; behind a standing queue, up to
// the queue's delay later), and the transfer's first
// data byte (compare's time 0) one one-way delay after the sender's
// (before, the ACK leaving at once ended every round after a segment or
// two: one round of 4–6 KB, and a time 0 up to a second late).
func TestSlowStartAtReceiver(t *testing.T) {
	for _, name := range []string{"ap_100ms_10m_a1m_reno", "rw_80ms_12m_w36", "ak_100ms_10m_b05_w64", "sq_50ms_5m", "sq_40ms_2m"} {
		load := func(side string) *Loaded {
			l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "labelled", name+"."+side+".pcap.gz")), LoadOptions{Stream: -1, Dir: -1})
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		tx, rx := load("tx"), load("rx")
		a, b := tx.Stats[tx.Dir].SlowStart, rx.Stats[rx.Dir].SlowStart
		if !a.Found || a.Rounds < 2 {
			t.Fatalf("%s: the sender's slow start %+v, want two rounds or more", name, a)
		}
		// Each from its own first packet, the SYN, which passed the
		// receiver's capture one one-way delay after the sender's.
		// Behind a standing queue (the sender's reason the round trip's
		// rise, HyStart's, which a receiver does not see) the round that
		// did not grow passes the receiver the queue's delay later.
		sameEnd, sameReason := abs64(b.End-a.End) <= 5e6, b.Reason == a.Reason
		if a.Reason == SlowStartDelay {
			rtt := int64(tx.Stats[tx.Dir].HandshakeRTTMs * 1e6)
			sameEnd, sameReason = b.End >= a.End-5e6 && b.End <= a.End+4*rtt, b.Reason == SlowStartStopped
		}
		if b.Rounds != a.Rounds || b.Flight != a.Flight || !sameReason || !sameEnd {
			t.Errorf("%s: slow start at the receiver %+v, at the sender %+v", name, b, a)
		}
		// (Give or take a packet's time at the slower links: 6 ms at 2 Mbit/s.)
		owd := int64(rx.Stats[rx.Dir].HandshakeRTTMs * 1e6 / 2)
		if d := AlignFirstData.origin(rx, rx.transferAcc()) - AlignFirstData.origin(tx, tx.transferAcc()); abs64(d-owd) > owd/5+10e6 {
			t.Errorf("%s: the receiver's first data byte %.1f ms after the sender's, want about %.1f (one way)", name, float64(d)/1e6, float64(owd)/1e6)
		}
	}
}

// TestSlowStartGreetingLoss: a loss signal before the transfer's first
// round (iperf3's cookie resent, a duplicate ACK of the handshake's ACK
// overtaken by it) does not end slow start; one in a round does.
func TestSlowStartGreetingLoss(t *testing.T) {
	ss := newSlowStart(0)
	ss.data(1e6, 1, 37, PacketInfo{BytesInFlight: 37}, 0, false)
	ss.ack(2e6, 1, PacketInfo{Flags: DupAck}, 0, false)
	ss.data(3e6, 1, 37, PacketInfo{Flags: Retransmission, BytesInFlight: 37}, 0, false)
	if ss.result.Found {
		t.Fatalf("the greeting's loss ended slow start: %+v", ss.result)
	}
	ss.ack(100e6, 38, PacketInfo{}, 0, false)
	for i := range int64(10) {
		ss.data(200e6+i, 38+i*1000, 1000, PacketInfo{BytesInFlight: (i + 1) * 1000}, 0, false)
	}
	ss.ack(201e6, 38, PacketInfo{Flags: DupAck}, 0, false)
	if r := ss.result; !r.Found || r.Reason != SlowStartLoss || r.Rounds != 1 || r.Flight != 10000 {
		t.Errorf("a loss in the first round: %+v, want slow start ended by it after 1 round, 10000 in flight", r)
	}
}

// TestSlowStartAtReceiverCaptureEnd: a receiver-side capture that ends
// while slow start's last round was still passing it gives the slow start
// the whole capture gives (the statistics judge the round left open).
func TestSlowStartAtReceiverCaptureEnd(t *testing.T) {
	path := filepath.Join("..", "testdata", "labelled", "ap_100ms_10m_a1m_reno.rx.pcap.gz")
	whole, err := Load(capturetest.Opener(t, path), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := whole.Stats[whole.Dir].SlowStart
	if !want.Found || want.Rounds < 2 {
		t.Fatalf("the whole capture's slow start %+v: want two rounds or more", want)
	}
	// Cut 50 ms into the round that did not grow, before its end (a round
	// trip of 100 ms after its first ACK) passed the capture.
	frames, link, snaplen := capturetest.Frames(t, path)
	until := whole.Conn.FirstTime + want.End + 50e6
	n := 0
	for n < len(frames) && frames[n].CI.Timestamp.UnixNano() <= until {
		n++
	}
	cut := filepath.Join(t.TempDir(), "cut.pcap")
	capturetest.WriteFrames(t, cut, frames[:n], link, snaplen)
	part, err := Load(capturetest.Opener(t, cut), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := part.Stats[part.Dir].SlowStart; got != want {
		t.Errorf("cut in its last round: %+v, the whole capture %+v", got, want)
	}
}
