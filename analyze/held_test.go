package analyze

import (
	"cmp"
	"math"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
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

// arrivalIdlesOf runs a transfer seen at its receiver through the
// tracker and the statistics: a handshake of a 100 ms round trip, then
// bursts of ten 1000-byte segments every 400 ms, each acknowledged at
// once; burst skip loses its segment at (resent first thing at the next
// burst), burst jump starts with its IPv4 ID 5 past the last seen, and
// the ACK of burst closed advertises a zero window (reopened by a window
// update 390 ms later, 10 ms before the next burst, where reopen); each
// ACK leaves ackDelay after its burst's last segment (the bursts stay
// 400 ms apart). It returns the client's data direction.
func arrivalIdlesOf(t *testing.T, skip, at, jump, closed int, reopen bool, ackDelay int64) DirStats {
	t.Helper()
	trk := reassembly.NewTracker()
	a := newAnalyzer()
	retired := retire(trk)
	cli, srv := netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:5201")
	now, id := int64(1e18), uint16(100)
	win := uint16(65535)
	send := func(d reassembly.Direction, flags reassembly.Flags, seq, ack uint32, n int) {
		s := reassembly.Segment{Time: now, PayloadLen: n, Flags: flags, Window: win, IPVersion: 4, TTL: 64, Seq: 1000 + seq, Ack: 9000 + ack}
		s.Src, s.SrcPort, s.Dst, s.DstPort = cli.Addr(), cli.Port(), srv.Addr(), srv.Port()
		if d == reassembly.S2C {
			s.Src, s.SrcPort, s.Dst, s.DstPort = srv.Addr(), srv.Port(), cli.Addr(), cli.Port()
			s.Seq, s.Ack = 9000+seq, 1000+ack
			s.IPID = 7
		} else {
			id++
			s.IPID = id
		}
		s.Opt.WScale = -1
		a.segment(trk.Track(&s), &s)
	}
	send(reassembly.C2S, reassembly.SYN, 0, 0, 0)
	now += 100e6
	send(reassembly.S2C, reassembly.SYN|reassembly.ACK, 0, 1, 0)
	now += 100e6
	send(reassembly.C2S, reassembly.ACK, 1, 1, 0)
	next, lost := uint32(1), uint32(0)
	for b := 0; b < 5; b++ {
		if b == jump {
			id += 5
		}
		if lost != 0 {
			send(reassembly.C2S, reassembly.ACK, lost, 1, 1000)
			lost = 0
		}
		for i := 0; i < 10; i++ {
			now += 1e6
			if b == skip && i == at {
				lost, id = next, id+1
			} else {
				send(reassembly.C2S, reassembly.ACK, next, 1, 1000)
			}
			next += 1000
		}
		now += ackDelay
		if b == closed {
			win = 0
		}
		send(reassembly.S2C, reassembly.ACK, 1, next, 0)
		win = 65535
		if b == closed && reopen {
			now += 390e6
			send(reassembly.S2C, reassembly.ACK, 1, next, 0)
			now += 10e6
			continue
		}
		now += 400e6 - (ackDelay - 1e6)
	}
	trk.Flush()
	conns := retired.byStream()
	if len(conns) != 1 {
		t.Fatalf("%d connections, want 1", len(conns))
	}
	return a.stats(conns[0])[0]
}

// TestArrivalIdles: at a receiver, a wait longer than the round trip
// with everything sent arrived, the next data in order and next in the
// sender's IPv4 IDs, is the sender's own (DirStats.arrivalIdles); one
// after a lost segment (a hole, or a tail whose ID was taken), after
// IDs the capture never saw, or one the receiver's window was closed for
// most of (the data went on into it, or just after it opened), is not.
func TestArrivalIdles(t *testing.T) {
	for _, c := range []struct {
		name                   string
		skip, at, jump, closed int
		want                   int
	}{
		{"every wait", -1, 0, -1, -1, 4},
		{"a tail lost before the third wait", 2, 9, -1, -1, 3},
		{"a hole before the third wait", 2, 4, -1, -1, 3},
		{"IDs skipped before the second wait", -1, 0, 1, -1, 3},
		{"the window closed before the second wait", -1, 0, -1, 0, 3},
	} {
		st := arrivalIdlesOf(t, c.skip, c.at, c.jump, c.closed, false, 1e6)
		if c.closed >= 0 {
			// Reopened before the data went on: the wait was the
			// window's still.
			if re := arrivalIdlesOf(t, c.skip, c.at, c.jump, c.closed, true, 1e6); re.arrivalIdles != c.want {
				t.Errorf("%s, reopened before the data: %d idle waits, want %d", c.name, re.arrivalIdles, c.want)
			}
		}
		if st.arrivalIdles != c.want {
			t.Errorf("%s: %d idle waits, want %d", c.name, st.arrivalIdles, c.want)
		}
		if c.want == 4 && (st.arrivalIdleNs < 4*380e6 || st.arrivalNs < st.arrivalIdleNs) {
			t.Errorf("%s: waits of %d ns in %d ns", c.name, st.arrivalIdleNs, st.arrivalNs)
		}
	}
	// The receiver's ACK delayed: the sender waited from the ACK on, not
	// from the last segment. Released about 50 ms before the next burst,
	// or 1.16 times the 200 ms handshake before it (an ACK-clocked
	// sender's wait, and the queue's), the waits are not the sender's
	// own; released 300 ms before it, they are.
	for _, c := range []struct {
		ackDelay int64
		want     int
	}{{350e6, 0}, {170e6, 0}, {100e6, 4}} {
		if st := arrivalIdlesOf(t, -1, 0, -1, -1, false, c.ackDelay); st.arrivalIdles != c.want {
			t.Errorf("ACKs %d ms after their bursts: %d idle waits, want %d", c.ackDelay/1e6, st.arrivalIdles, c.want)
		}
	}
}

// TestAppFoundAtReceiver: at a receiver, three waits of the sender with
// everything arrived, 20% of the transfer, name the application beside
// the loss (ap_120ms_8m_a2m_l04); two, or waits of 10%, do not.
func TestAppFoundAtReceiver(t *testing.T) {
	st := DirStats{DataPackets: 1000, DataBytes: 1448000, MSS: 1448, HasThroughput: true, HandshakeRTTMs: 120, HasHandshakeRTT: true,
		Path:          PathStats{HasData: true, Vantage: VantageReceiver, LostUpstream: 6},
		ThroughputBps: 1.9e6, LossEpisodes: 6, arrivalIdles: 3, arrivalIdleNs: 2e9, arrivalNs: 10e9}
	rcv := DirStats{MaxRwnd: 4 << 20}
	base := kinds(diagnose(&st, &rcv, 8e6))
	if !strings.Contains(base, FindApplication) {
		t.Errorf("3 waits, 20%%: findings %q, want the application", base)
	}
	for _, c := range []struct {
		name     string
		idles    int
		idleNs   int64
		wantsApp bool
	}{{"2 waits", 2, 2e9, false}, {"waits of 10%", 3, 1e9, false}} {
		st.arrivalIdles, st.arrivalIdleNs = c.idles, c.idleNs
		if got := kinds(diagnose(&st, &rcv, 8e6)); strings.Contains(got, FindApplication) != c.wantsApp {
			t.Errorf("%s: findings %q", c.name, got)
		}
	}
}

// TestRegularIntervalsBesideAppAtReceiver: loss intervals as regular as a
// full queue's name congestion loss at a receiver, unless the sender's
// waits name its application there (its own bursts pace the drops:
// ap_110ms_9m_a2500k_l04, 7 random drops, 3 intervals at 0.18).
func TestRegularIntervalsBesideAppAtReceiver(t *testing.T) {
	st := DirStats{DataPackets: 1000, DataBytes: 1448000, MSS: 1448, HasThroughput: true, HandshakeRTTMs: 110, HasHandshakeRTT: true,
		Path:          PathStats{HasData: true, Vantage: VantageReceiver, LostUpstream: 7},
		ThroughputBps: 2.2e6, LossEpisodes: 4, HasEpisodeIntervalCV: true, EpisodeIntervals: 3, EpisodeIntervalCV: 0.05,
		arrivalIdles: 0, arrivalIdleNs: 0, arrivalNs: 8e9}
	rcv := DirStats{MaxRwnd: 4 << 20}
	if got := kinds(diagnose(&st, &rcv, 9e6)); !strings.Contains(got, FindCongestionLoss) {
		t.Fatalf("regular intervals, no waits: findings %q, want congestion loss", got)
	}
	st.arrivalIdles, st.arrivalIdleNs = 5, 2e9
	if got := kinds(diagnose(&st, &rcv, 9e6)); strings.Contains(got, FindCongestionLoss) || !strings.Contains(got, FindApplication) {
		t.Errorf("regular intervals beside the sender's waits: findings %q, want the application and no full queue", got)
	}
}

// TestUnansweredACKs: an ACK-clocked sender with data waiting answers
// each ACK that makes room with new data; one whose application gives
// its data in bursts lets most pass. ACKs in loss recovery, that moved
// nothing, that came while the receiver's window was full, or after the
// last data segment (none can be answered) are not counted.
func TestUnansweredACKs(t *testing.T) {
	const ms = int64(1e6)
	var clocked, bursty, held senderHeld
	for i := int64(0); i < 100; i++ {
		now := i * ms
		clocked.data(now, 1448, 20*1448, 1<<20, false, false, false, true, now, 10*ms)
		clocked.ack(now, 0, -1, -1, true, false)
		if i%10 == 0 { // a burst every tenth ACK
			bursty.data(now, 1448, 20*1448, 1<<20, false, false, false, true, now, 10*ms)
		}
		bursty.ack(now, 0, -1, -1, true, false)
		bursty.ack(now, 0, -1, -1, false, false) // a duplicate: moved nothing
		bursty.ack(now, 0, -1, -1, true, true)   // in recovery
		if i%10 == 0 {                           // the flight at the receiver's window: ACKs wait for room
			held.data(now, 1448, 20*1448, 20*1448, false, false, false, true, now, 10*ms)
		}
		held.ack(now, 0, -1, -1, true, false)
	}
	for _, h := range []*senderHeld{&clocked, &bursty, &held} {
		h.data(100*ms, 1448, 20*1448, 1<<20, false, false, false, true, 100*ms, 10*ms)
	}
	bursty.ack(101*ms, 0, -1, -1, true, false) // after the last data: not counted
	bursty.ack(101*ms, 0, -1, -1, true, false)
	if share, n := clocked.unansweredShare(); share != 0 || n != 100 {
		t.Errorf("an ACK-clocked sender: %.2f of %d ACKs unanswered, want 0 of 100", share, n)
	}
	if share, n := bursty.unansweredShare(); share < 0.85 || n != 100 {
		t.Errorf("a bursty application: %.2f of %d ACKs unanswered, want 0.9 of 100", share, n)
	}
	if share, n := held.unansweredShare(); n != 0 {
		t.Errorf("a sender at the receiver's window: %.2f of %d ACKs counted, want none", share, n)
	}
}

// TestWindowThenApplication: a sender whose data filled the receiver's
// window and that then let everything it had sent be acknowledged, the
// window open from the first ACK that left room, was held by the window
// until that ACK and by its application after it
// (mx_220ms_1m_w20_a500k); one that still had data out when it sent
// again was held by the window throughout (kx_reno_rwnd: Linux waited
// 28 ms with room for five segments), and so was one whose ACKs left no
// room under the window, or that sent less than a segment once all was
// acknowledged (Nagle's: kn_rwnd_limited's last 608 bytes).
func TestWindowThenApplication(t *testing.T) {
	const ms, seg, win = int64(1e6), int64(1448), 16 * int64(1448)
	type send struct {
		closed         bool  // the receiver closed its window as the ACKs came
		flight, n, at  int64 // the next segment's flight, size (0: a full one) and time (0: 500 ms)
		resend         bool  // it is a resend
		firstDup, inEp bool  // the first ACK moved nothing, or came in loss recovery
	}
	run := func(c send) (heldKind, int64, int64) {
		var h senderHeld
		for i := int64(0); i < 16; i++ { // a burst up to the window
			h.data(100*ms+i, seg, (i+1)*seg, win, false, false, false, true, 90*ms, 200*ms)
		}
		rwnd := win
		if c.closed {
			rwnd = 0
		}
		at := cmp.Or(c.at, 500*ms)
		for i := int64(1); i <= 16 && 300*ms+5*ms*i < at; i++ { // the ACKs, a segment each, 5 ms apart
			h.ack(300*ms+5*ms*i, 1000+i, (16-i)*seg, rwnd, !(i == 1 && c.firstDup), i == 1 && c.inEp)
		}
		return h.data(at, cmp.Or(c.n, seg), c.flight, win, false, false, c.resend, true, 380*ms, 200*ms)
	}
	for _, tt := range []struct {
		what           string
		c              send
		kind           heldKind
		from, rwndFrom int64
	}{
		{"drained, then sent", send{flight: seg}, heldApp, 305 * ms, 100*ms + 15},
		{"the first ACK a duplicate", send{flight: seg, firstDup: true}, heldApp, 310 * ms, 100*ms + 15},
		{"the first ACK in recovery", send{flight: seg, inEp: true}, heldApp, 310 * ms, 100*ms + 15},
		{"data still out", send{flight: 10 * seg}, heldRwnd, 100*ms + 15, 0},
		{"a segment still out", send{flight: 2 * seg}, heldRwnd, 100*ms + 15, 0},
		{"drained, then 608 bytes (Nagle's)", send{flight: 608, n: 608}, heldRwnd, 100*ms + 15, 0},
		{"no room under the window", send{flight: seg, closed: true}, heldRwnd, 100*ms + 15, 0},
		{"sent 15 ms after the first ACK with room", send{flight: seg, at: 320 * ms}, heldRwnd, 100*ms + 15, 0},
		{"drained, then a resend", send{flight: seg, resend: true}, heldRwnd, 100*ms + 15, 0},
	} {
		if kind, from, rwndFrom := run(tt.c); kind != tt.kind || from != tt.from || rwndFrom != tt.rwndFrom {
			t.Errorf("%s: %v from %d, the window from %d; want %v from %d, the window from %d", tt.what, kind, from, rwndFrom, tt.kind, tt.from, tt.rwndFrom)
		}
	}
}

// TestWindowThenApplicationCapture: on mx_220ms_1m_w20_a500k's sender
// (iperf3 at 500 kbit/s writing 38 KB bursts into a 23 KB window) the
// summary splits the waits between the window (until the first ACK that
// left room) and the application (after it), a quarter of the transfer
// the application's, and the cwnd graph draws the same split: its
// held-by-app bands add up to app_limited_s, and its held-by-rwnd bands
// cover the window's time.
func TestWindowThenApplicationCapture(t *testing.T) {
	file := filepath.Join("..", "testdata", "mx_220ms_1m_w20_a500k.tx.pcap.gz")
	st := mainStats(t, file)
	T := float64(st.DataPhaseNs)
	// Measured: the application 0.254, the window 0.521, of which each
	// split wait's part up to the first ACK with room (about 24 ms a
	// burst) is 0.025.
	if app, rw := float64(st.AppLimitedNs)/T, float64(st.RwndLimitedNs)/T; app < 0.24 || app > 0.27 || rw < 0.51 || rw > 0.53 {
		t.Errorf("application %.3f, window %.3f of the transfer; want 0.254 and 0.521", app, rw)
	}
	l, err := Load(capturetest.Opener(t, file), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := lookupGraph(GraphCwnd)
	g := spec.Draw(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir}, GraphParams{})
	span := func(name string) (total int64, n int) {
		if s := g.lookup(name); s != nil {
			for i := 0; i+1 < len(s.Points); i += 2 {
				total += s.Points[i+1].Time - s.Points[i].Time
				n++
			}
		}
		return total, n
	}
	app, apps := span(SeriesAppHeld)
	rw, rws := span(SeriesRwndHeld)
	// Every band's ends are packets of the capture, at their times (the
	// application's from the ACK that made room).
	at := map[int64]int64{}
	for _, r := range l.Records {
		at[r.Frame] = r.Time
	}
	for _, name := range []string{SeriesAppHeld, SeriesRwndHeld} {
		if s := g.lookup(name); s != nil {
			for _, p := range s.Points {
				if tm, ok := at[p.Frame]; !ok || tm != p.Time {
					t.Errorf("%s: a band's end at frame %d, %d ns; that frame is at %d ns", name, p.Frame, p.Time, tm)
					break
				}
			}
		}
	}
	if apps < 8 || math.Abs(float64(app-st.AppLimitedNs)) > 0.01*float64(st.AppLimitedNs) {
		t.Errorf("held-by-app bands: %d of them, %d ns; want one a burst, the summary's %d ns", apps, app, st.AppLimitedNs)
	}
	if rws < 8 || rw < st.RwndLimitedNs*9/10 {
		t.Errorf("held-by-rwnd bands: %d of them, %d ns; want one a burst, at least the summary's %d ns", rws, rw, st.RwndLimitedNs)
	}
}

// drainRun feeds startupDrain a startup to 100 segments of 1000 bytes
// (rtt 100 ms, a send every ms) and then the flight falls to low
// segments for lowMs, sent every gapMs; lossAt (ms, 0 none) brings a
// loss signal, rwnd is the receiver's window.
func drainRun(low, lowMs, gapMs, lossAt float64, rwnd int64) bool {
	var d startupDrain
	rtt := int64(100e6)
	t := int64(0)
	for f := int64(10); f <= 100; f++ {
		t += 1e6
		d.data(t, 1000, f*1000, rwnd, rtt, false)
	}
	for ms := gapMs; ms <= lowMs; ms += gapMs {
		now := t + int64(ms*1e6)
		d.data(now, 1000, int64(low*1000), rwnd, rtt, lossAt > 0 && ms >= lossAt)
	}
	return d.found
}

// TestStartupDrain: the flight down to 40% of its peak for a round trip
// with nothing lost, the sender sending every 5 ms, is BBR's drain; not
// at 60%, not for a tenth of the RTT, not with sends 60 ms apart (an
// application's pauses), not after a loss signal, not from a peak under
// drainPeak segments; against a receiver's window below the peak the
// fall counts from that window.
func TestStartupDrain(t *testing.T) {
	for _, c := range []struct {
		name                      string
		low, lowMs, gapMs, lossAt float64
		rwnd                      int64
		want                      bool
	}{
		{"drain", 40, 100, 5, 0, 1 << 20, true},
		{"to 60%", 60, 100, 5, 0, 1 << 20, false},
		{"10 ms", 40, 10, 5, 0, 1 << 20, false},
		{"sends 60 ms apart", 40, 300, 60, 0, 1 << 20, false},
		{"a loss signal first", 40, 100, 5, 5, 1 << 20, false},
		{"to 55% of a window of 70", 38, 100, 5, 0, 70000, false},
		{"to 40% of a window of 70", 28, 100, 5, 0, 70000, true},
	} {
		if got := drainRun(c.low, c.lowMs, c.gapMs, c.lossAt, c.rwnd); got != c.want {
			t.Errorf("%s: drain %v, want %v", c.name, got, c.want)
		}
	}
	var late startupDrain // the fall half a second after the flight was last near its peak
	for i := int64(1); i <= 700; i++ {
		f := int64(100000)
		switch {
		case i > 600:
			f = 40000
		case i > 100:
			f = 80000
		}
		late.data(i*1e6, 1000, f, 1<<20, 100e6, false)
	}
	if late.found {
		t.Errorf("a fall 500 ms (5 RTTs) after the flight was near its peak counted as a drain")
	}
	var d startupDrain // a peak under drainPeak segments
	for i := int64(1); i <= 200; i++ {
		f := int64(19000)
		if i > 100 {
			f = 5000
		}
		d.data(i*1e6, 1000, f, 1<<20, 100e6, false)
	}
	if d.found {
		t.Errorf("a fall from 19 segments counted as a drain")
	}
}

// TestDrainNamesBBR: a drain after slow start names BBR where nothing
// else tells, unless the application held the sender (5% of the
// transfer, or most ACKs that made room let pass), behind a nearby
// peer, or over too few ACKs.
func TestDrainNamesBBR(t *testing.T) {
	for _, c := range []struct {
		name       string
		appNs      int64
		unanswered float64
		acks       int
		nearby     bool
		want       string
	}{
		{"drain", 0, 0.12, 4000, false, "bbr"},
		{"the application 10%", 1e9, 0.12, 4000, false, "unknown"},
		{"ACKs let pass", 0, 0.73, 2618, false, "unknown"},
		{"few ACKs", 0, 0.12, 50, false, "unknown"},
		{"a nearby peer", 0, 0.12, 4000, true, "unknown"},
	} {
		st := DirStats{DataPackets: 1000, Duration: 10e9, AppLimitedNs: c.appNs, startupDrained: true, unanswered: c.unanswered, answerACKs: c.acks,
			Path: PathStats{HasData: true, Vantage: VantageSender, NearbyPeer: c.nearby}}
		if cc, why := congestionControl(&st); cc != c.want {
			t.Errorf("%s: %q (%s), want %s", c.name, cc, why, c.want)
		}
	}
}
