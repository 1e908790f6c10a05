package analyze

import (
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// pathSim builds a connection segment by segment, through the real
// connection tracker (which unwraps the numbers), for the path analyser.
type pathSim struct {
	t        *testing.T
	trk      *reassembly.Tracker
	p        *pathAnalyzer
	now      int64 // ns
	conn     *reassembly.Conn
	isn      [2]uint32
	ipid     [2]uint16
	ts       bool
	tsval    [2]uint32
	ipv6     bool
	sack     bool
	cli, srv netip.AddrPort
	verdict  PathVerdict // of the last segment
	proved   []int64     // the frames the last segment proved spurious
	frame    int64       // the last segment's
}

const ms = int64(1e6)

func newPathSim(t *testing.T, isnC, isnS uint32) *pathSim {
	return &pathSim{
		t: t, trk: reassembly.NewTracker(), p: newPathAnalyzer(), now: 1e18,
		isn: [2]uint32{isnC, isnS}, ipid: [2]uint16{100, 5000}, sack: true,
		cli: netip.MustParseAddrPort("10.0.0.1:40000"), srv: netip.MustParseAddrPort("10.0.0.2:5201"),
	}
}

// segOpt modifies a segment before it is tracked.
type segOpt func(*reassembly.Segment)

func withSACK(blocks ...uint32) segOpt { // relative numbers, pairs
	return func(s *reassembly.Segment) {
		for i := 0; i+1 < len(blocks) && s.Opt.NSACK < 4; i += 2 {
			s.Opt.SACK[s.Opt.NSACK] = reassembly.SACKBlock{Left: blocks[i], Right: blocks[i+1]}
			s.Opt.NSACK++
		}
	}
}
func withIPID(id uint16) segOpt   { return func(s *reassembly.Segment) { s.IPID = id } }
func withTSval(v uint32) segOpt   { return func(s *reassembly.Segment) { s.Opt.TSVal = v } }
func withTSecr(v uint32) segOpt   { return func(s *reassembly.Segment) { s.Opt.TSEcr = v } }
func withWindow(w uint16) segOpt  { return func(s *reassembly.Segment) { s.Window = w } }
func asDuplicate() segOpt         { return func(s *reassembly.Segment) { s.Duplicate = true } }
func (ps *pathSim) at(t int64)    { ps.now = 1e18 + t }
func (ps *pathSim) after(d int64) { ps.now += d }

// seg sends a segment in direction d at the current time. seq and ack are
// relative (1 = first byte after the SYN); SACK blocks given to withSACK
// are relative to the data's ISN too.
func (ps *pathSim) seg(d reassembly.Direction, flags reassembly.Flags, seq, ack uint32, n int, opts ...segOpt) {
	s := reassembly.Segment{Time: ps.now, PayloadLen: n, Flags: flags, Window: 1000, IPVersion: 4, TTL: 64}
	src, dst := ps.cli, ps.srv
	if d == reassembly.S2C {
		src, dst = dst, src
	}
	if ps.ipv6 {
		s.IPVersion = 6
		src = netip.AddrPortFrom(netip.MustParseAddr("fd00::1"), src.Port())
		dst = netip.AddrPortFrom(netip.MustParseAddr("fd00::2"), dst.Port())
		if d == reassembly.S2C {
			src, dst = netip.AddrPortFrom(netip.MustParseAddr("fd00::2"), src.Port()), netip.AddrPortFrom(netip.MustParseAddr("fd00::1"), dst.Port())
		}
	}
	s.Src, s.SrcPort, s.Dst, s.DstPort = src.Addr(), src.Port(), dst.Addr(), dst.Port()
	s.Seq = ps.isn[d] + seq
	if flags&reassembly.ACK != 0 {
		s.Ack = ps.isn[d^1] + ack
	}
	s.Opt.WScale = -1
	if flags&reassembly.SYN != 0 {
		s.Seq = ps.isn[d]
		s.Opt.SACKPermitted = ps.sack
		s.Opt.WScale = 7
	}
	if !ps.ipv6 {
		ps.ipid[d]++
		s.IPID = ps.ipid[d]
	}
	if ps.ts {
		ps.tsval[d] = uint32(ps.now/ms) & 0xffffff
		s.Opt.HasTimestamp, s.Opt.TSVal = true, ps.tsval[d]
		s.Opt.TSEcr = ps.tsval[d^1]
	}
	for _, o := range opts {
		o(&s)
	}
	for i := 0; i < int(s.Opt.NSACK); i++ { // SACK blocks: relative to absolute
		s.Opt.SACK[i].Left += ps.isn[d^1]
		s.Opt.SACK[i].Right += ps.isn[d^1]
	}
	dup := s.Duplicate
	c := ps.trk.Track(&s)
	if dup {
		s.Duplicate = true
	}
	ps.conn = c
	ps.frame++
	s.Frame = ps.frame
	ps.verdict = ps.p.add(c, &s)
	ps.proved = append(ps.proved[:0], ps.p.proved...)
}

// handshake opens the connection; toServer and toClient are the round
// trips from the capture point to each end.
func (ps *pathSim) handshake(toServer, toClient int64) {
	ps.seg(reassembly.C2S, reassembly.SYN, 0, 0, 0)
	ps.after(toServer)
	ps.seg(reassembly.S2C, reassembly.SYN|reassembly.ACK, 0, 1, 0)
	ps.after(toClient)
	ps.seg(reassembly.C2S, reassembly.ACK, 1, 1, 0)
}

func (ps *pathSim) data(seq uint32, n int, opts ...segOpt) {
	ps.seg(reassembly.C2S, reassembly.ACK|reassembly.PSH, seq, 1, n, opts...)
}

func (ps *pathSim) ack(ack uint32, opts ...segOpt) {
	ps.seg(reassembly.S2C, reassembly.ACK, 1, ack, 0, opts...)
}

func (ps *pathSim) stats() PathStats {
	return ps.p.stats(ps.conn)[reassembly.C2S]
}

// want compares selected fields.
type pathWant struct {
	vantage                                                 Vantage
	rtx, spurious, lostDown, lostDownLow, lostUp, reordered int64
	dsack, rto, fast                                        int64
	spurDSACK, spurEifel, spurSeen                          int64
}

func (ps *pathSim) check(w pathWant) {
	ps.t.Helper()
	st := ps.stats()
	got := pathWant{st.Vantage, st.Retransmitted, st.SpuriousRetransmitted, st.LostDownstream, st.LostDownstreamLow,
		st.LostUpstream, st.Reordered, st.DSACKBlocks, st.RTORetransmissions, st.FastRetransmissions,
		st.SpuriousDSACK, st.SpuriousEifel, st.SpuriousSeenOriginal}
	if got != w {
		ps.t.Errorf("got  %+v\nwant %+v", got, w)
	}
	if !st.HasData {
		ps.t.Error("HasData false")
	}
}

const segLen = 1000

// Sender-side capture: the server is 100 ms away, the client 50 µs.
func senderSim(t *testing.T, isnC uint32) *pathSim {
	ps := newPathSim(t, isnC, 7000)
	ps.handshake(100*ms, ms/20)
	return ps
}

func TestPathDSACKBelowCumAck(t *testing.T) {
	// RFC 2883 section 4.1.3 / RFC 3708: the receiver had the segment, the
	// retransmission timer fired anyway; the D-SACK below the cumulative
	// ACK proves the retransmission spurious.
	ps := senderSim(t, 1000)
	ps.data(1, segLen)
	ps.data(1001, segLen)
	ps.after(100 * ms)
	ps.ack(2001)
	ps.after(300 * ms) // no ACK for 300 ms: RTO
	ps.data(1, segLen)
	ps.after(100 * ms)
	ps.ack(2001, withSACK(1, 1001))
	ps.check(pathWant{vantage: VantageSender, rtx: 1, spurious: 1, dsack: 1, rto: 1, spurDSACK: 1})
}

func TestPathDSACKInsideSACK(t *testing.T) {
	// RFC 2883 section 4.2: the first block inside the second reports a
	// duplicate above the cumulative ACK.
	ps := senderSim(t, 1000)
	for i := uint32(0); i < 4; i++ {
		ps.data(1+i*segLen, segLen) // the second is lost after the capture
	}
	ps.after(100 * ms)
	ps.ack(1001)
	ps.after(ms)
	ps.ack(1001, withSACK(2001, 3001))
	ps.after(ms)
	ps.ack(1001, withSACK(2001, 4001))
	ps.after(ms / 10)
	ps.data(1001, segLen) // fast retransmission, needed
	ps.data(2001, segLen) // not needed: the receiver holds it
	ps.after(100 * ms)
	ps.ack(1001, withSACK(2001, 3001, 2001, 4001)) // the duplicate of the third; the repair still on its way
	ps.after(ms)
	ps.ack(4001)
	ps.check(pathWant{vantage: VantageSender, rtx: 2, spurious: 1, lostDown: 1, lostDownLow: 1, dsack: 1, fast: 2, spurDSACK: 1})
}

func TestPathEifel(t *testing.T) {
	for _, tc := range []struct {
		name     string
		echo     func(ps *pathSim, orig, rtx uint32) uint32
		spurious bool
	}{
		// RFC 3522: the ACK after the retransmission echoes the original's
		// timestamp: the original got there, the retransmission was spurious.
		{"echoes original", func(_ *pathSim, orig, _ uint32) uint32 { return orig }, true},
		// It echoes the retransmission's: the original was lost.
		{"echoes retransmission", func(_ *pathSim, _, rtx uint32) uint32 { return rtx }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := newPathSim(t, 1000, 7000)
			ps.ts, ps.sack = true, false
			ps.handshake(100*ms, ms/20)
			ps.data(1, segLen)
			orig := ps.tsval[0]
			ps.after(400 * ms) // a spurious timeout (a delay spike)
			ps.data(1, segLen)
			rtx := ps.tsval[0]
			ps.after(50 * ms)
			ps.ack(1001, withTSecr(tc.echo(ps, orig, rtx)))
			w := pathWant{vantage: VantageSender, rtx: 1, rto: 1, lostDown: 1, lostDownLow: 1}
			if tc.spurious {
				w.spurious, w.spurEifel, w.lostDown, w.lostDownLow = 1, 1, 0, 0
			}
			ps.check(w)
		})
	}
}

// Receiver-side capture: the client is 100 ms away, the server 50 µs.
func receiverSim(t *testing.T, isnC uint32) *pathSim {
	ps := newPathSim(t, isnC, 7000)
	ps.handshake(ms/20, 100*ms)
	return ps
}

func TestPathReceiverHoleFiller(t *testing.T) {
	t.Run("late original (lower IP ID)", func(t *testing.T) {
		ps := receiverSim(t, 1000)
		ps.data(1, segLen, withIPID(10))
		ps.data(2001, segLen, withIPID(12)) // hole [1001, 2001)
		ps.after(ms)
		ps.data(1001, segLen, withIPID(11))
		ps.check(pathWant{vantage: VantageReceiver, reordered: 1})
	})
	t.Run("retransmission (higher IP ID)", func(t *testing.T) {
		ps := receiverSim(t, 1000)
		ps.data(1, segLen, withIPID(10))
		ps.data(2001, segLen, withIPID(12))
		ps.ack(1001, withSACK(2001, 3001))
		ps.after(100 * ms)
		ps.data(1001, segLen, withIPID(13))
		ps.check(pathWant{vantage: VantageReceiver, rtx: 1, lostUp: 1, fast: 1})
	})
	t.Run("IPv6: newer timestamp is a retransmission", func(t *testing.T) {
		ps := newPathSim(t, 1000, 7000)
		ps.ipv6, ps.ts = true, true
		ps.handshake(ms/20, 100*ms)
		ps.data(1, segLen)
		ps.after(ms)
		ps.data(2001, segLen)
		ps.ack(1001, withSACK(2001, 3001))
		ps.after(100 * ms)
		ps.data(1001, segLen)
		ps.check(pathWant{vantage: VantageReceiver, rtx: 1, lostUp: 1, fast: 1})
	})
	t.Run("IPv6: older timestamp is a late original", func(t *testing.T) {
		ps := newPathSim(t, 1000, 7000)
		ps.ipv6, ps.ts = true, true
		ps.handshake(ms/20, 100*ms)
		ps.data(1, segLen)
		ps.after(2 * ms)
		ps.data(2001, segLen)
		ps.after(ms)
		ps.data(1001, segLen, withTSval(ps.tsval[0]-1))
		ps.check(pathWant{vantage: VantageReceiver, reordered: 1})
	})
	t.Run("IPv6 without timestamps: the minimum RTT decides", func(t *testing.T) {
		for _, tc := range []struct {
			wait    int64
			retrans bool
		}{{5 * ms, false}, {150 * ms, true}} {
			ps := newPathSim(t, 1000, 7000)
			ps.ipv6 = true
			ps.handshake(ms/20, 100*ms)
			ps.data(1, segLen)
			ps.data(2001, segLen)
			ps.after(tc.wait)
			ps.data(1001, segLen)
			w := pathWant{vantage: VantageReceiver, reordered: 1}
			if tc.retrans {
				w = pathWant{vantage: VantageReceiver, rtx: 1, lostUp: 1, rto: 1}
			}
			ps.check(w)
		}
	})
}

func TestPathReorderedAfterRepair(t *testing.T) {
	// The repair overtook the late original: at the receiver the repair
	// filled the hole, then the original (lower IP ID) came. The
	// retransmission was spurious (both arrived), the original reordered,
	// and nothing was lost.
	ps := receiverSim(t, 1000)
	ps.data(1, segLen, withIPID(10))
	ps.data(2001, segLen, withIPID(12))
	ps.ack(1001, withSACK(2001, 3001))
	ps.after(100 * ms)
	ps.data(1001, segLen, withIPID(30))
	ps.ack(3001)
	ps.after(ms)
	ps.data(1001, segLen, withIPID(11))
	ps.check(pathWant{vantage: VantageReceiver, rtx: 1, spurious: 1, reordered: 1, fast: 1, spurSeen: 1})

	// A resend of bytes already seen at the receiver arrived twice.
	ps = receiverSim(t, 1000)
	ps.data(1, segLen)
	ps.ack(1001)
	ps.after(300 * ms)
	ps.data(1, segLen)
	ps.check(pathWant{vantage: VantageReceiver, rtx: 1, spurious: 1, rto: 1, spurSeen: 1})
}

func TestPathNoSACKGoBackN(t *testing.T) {
	// Without SACK, after a timeout Linux resends from the cumulative ACK
	// on: the second resend repeats a segment the receiver holds, and
	// nothing proves it. The loss lies between LostDownstreamLow (the
	// resends of the receiver's next expected byte) and LostDownstream.
	ps := newPathSim(t, 1000, 7000)
	ps.sack = false
	ps.handshake(100*ms, ms/20)
	for i := uint32(0); i < 4; i++ {
		ps.data(1+i*segLen, segLen) // the second is lost
	}
	ps.after(100 * ms)
	ps.ack(1001)
	ps.ack(1001)
	ps.ack(1001)
	ps.after(400 * ms) // no fast retransmit (say, too few dup ACKs): RTO
	ps.data(1001, segLen)
	ps.data(2001, segLen)
	ps.after(100 * ms)
	ps.ack(4001)
	st := ps.stats()
	ps.check(pathWant{vantage: VantageSender, rtx: 2, lostDown: 2, lostDownLow: 1, rto: 2})
	if st.PeerDupAcks != 2 {
		t.Errorf("peer dup ACKs %d, want 2", st.PeerDupAcks)
	}
	if st.PeerMaxRwnd != 1000<<7 {
		t.Errorf("peer max rwnd %d, want %d", st.PeerMaxRwnd, 1000<<7)
	}
	// The drops proven in the first loss event (FirstEventLostLow) are its
	// resends of the next expected byte: not the go-back-N resend, nor a
	// later event's.
	for i := uint32(4); i < 8; i++ {
		ps.data(1+i*segLen, segLen) // the fifth is lost
	}
	ps.after(100 * ms)
	ps.ack(4001)
	ps.ack(4001)
	ps.ack(4001)
	ps.data(4001, segLen) // fast retransmit: a second loss event
	ps.after(100 * ms)
	ps.ack(8001)
	st = ps.stats()
	if st.LossEvents != 2 || st.LostDownstream != 3 || st.LostDownstreamLow != 2 || st.FirstEventLostLow != 1 {
		t.Errorf("loss events %d, lost downstream %d (at least %d), of the first event %d; want 2, 3 (at least 2), 1",
			st.LossEvents, st.LostDownstream, st.LostDownstreamLow, st.FirstEventLostLow)
	}
}

func TestPathSequenceWrap(t *testing.T) {
	// The data crosses 2^32; a D-SACK block across the wrap still proves
	// the retransmission spurious, and no hole opens.
	ps := senderSim(t, 0xffffffff-1500)
	ps.data(1, segLen)
	ps.data(1001, segLen) // crosses the wrap
	ps.data(2001, segLen)
	ps.after(100 * ms)
	ps.ack(3001)
	ps.after(300 * ms)
	ps.data(1001, segLen)
	ps.after(100 * ms)
	ps.ack(3001, withSACK(1001, 2001))
	ps.check(pathWant{vantage: VantageSender, rtx: 1, spurious: 1, dsack: 1, rto: 1, spurDSACK: 1})

	// Receiver side across the wrap: a hole and its repair.
	ps = receiverSim(t, 0xffffffff-1500)
	ps.data(1, segLen, withIPID(10))
	ps.data(2001, segLen, withIPID(12))
	ps.ack(1001, withSACK(2001, 3001))
	ps.after(100 * ms)
	ps.data(1001, segLen, withIPID(13))
	ps.check(pathWant{vantage: VantageReceiver, rtx: 1, lostUp: 1, fast: 1})
}

func TestPathCaptureDuplicates(t *testing.T) {
	// The same packet captured twice (-i any, several interfaces) is not a
	// retransmission, not reordering, not a duplicate ACK.
	ps := senderSim(t, 1000)
	ps.data(1, segLen)
	ps.data(1, segLen, asDuplicate())
	ps.data(1001, segLen)
	ps.data(1001, segLen, asDuplicate())
	ps.after(100 * ms)
	ps.ack(2001)
	ps.ack(2001, asDuplicate())
	ps.check(pathWant{vantage: VantageSender})
	if st := ps.stats(); st.PeerDupAcks != 0 {
		t.Errorf("peer dup ACKs %d, want 0", st.PeerDupAcks)
	}
}

func TestPathVantage(t *testing.T) {
	for _, tc := range []struct {
		toServer, toClient int64
		c2s, s2c           Vantage
	}{
		{100 * ms, ms / 20, VantageSender, VantageReceiver},
		{ms / 20, 100 * ms, VantageReceiver, VantageSender},
		{40 * ms, 60 * ms, VantageMiddle, VantageMiddle},
		// A split-connection proxy next to the client: both within a
		// millisecond; the client's own stack answers faster.
		{60e3, 14e3, VantageSender, VantageReceiver},
	} {
		ps := newPathSim(t, 1000, 7000)
		ps.handshake(tc.toServer, tc.toClient)
		st := ps.p.stats(ps.conn)
		if st[0].Vantage != tc.c2s || st[1].Vantage != tc.s2c {
			t.Errorf("to server %d, to client %d: vantage %s/%s, want %s/%s", tc.toServer, tc.toClient, st[0].Vantage, st[1].Vantage, tc.c2s, tc.s2c)
		}
		if st[0].HasData || st[1].HasData {
			t.Error("HasData without data")
		}
	}
	// No handshake, no timestamps: unknown.
	ps := newPathSim(t, 1000, 7000)
	ps.data(1, segLen)
	ps.ack(1001)
	if st := ps.p.stats(ps.conn); st[0].Vantage != VantageUnknown {
		t.Errorf("vantage %s, want unknown", st[0].Vantage)
	}
	// No handshake, timestamps: the echoes place the capture.
	ps = newPathSim(t, 1000, 7000)
	ps.ts = true
	for i := uint32(0); i < 5; i++ {
		ps.data(1+i*segLen, segLen)
		ps.after(100 * ms)
		ps.ack(1001 + i*segLen)
		ps.after(ms / 10)
	}
	if st := ps.p.stats(ps.conn); st[0].Vantage != VantageSender || st[1].Vantage != VantageReceiver {
		t.Errorf("timestamps: vantage %s/%s, want sender/receiver", st[0].Vantage, st[1].Vantage)
	}
}

func TestPathSYNOnlyCostsNothing(t *testing.T) {
	ps := newPathSim(t, 1000, 7000)
	for i := 0; i < 100; i++ {
		ps.cli = netip.AddrPortFrom(ps.cli.Addr(), uint16(1000+i))
		ps.seg(reassembly.C2S, reassembly.SYN, 0, 0, 0)
	}
	if n := len(ps.p.conns); n != 0 {
		t.Errorf("%d connections hold state after SYNs only", n)
	}
	ps.p.forget(ps.conn)
}

// BenchmarkPath replays ground-truth captures through Path: at the
// sender (the common case), and at the receiver of a jittered link, where
// holes open and close on most segments (the worst case).
func BenchmarkPath(b *testing.B) {
	for _, side := range []string{"tx", "rx"} {
		b.Run(side, func(b *testing.B) {
			path := filepath.Join(golden.SharedCaptures(), "truth", "gt_jitter_reorder."+side+".pcap")
			if _, err := os.Stat(path); err != nil {
				b.Skip("no ground-truth captures")
			}
			sc := reassembly.NewScanner(capturetest.Reader(b, path))
			type rec struct {
				c *reassembly.Conn
				s reassembly.Segment
			}
			var recs []rec
			for sc.Scan() {
				recs = append(recs, rec{sc.Conn(), *sc.Segment()})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				p := newPathAnalyzer()
				for i := range recs {
					p.add(recs[i].c, &recs[i].s)
				}
			}
			b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "packets/s")
		})
	}
}

// TestPathVerdict: the verdict Add returns for each data segment, at both
// ends of the path.
func TestPathVerdict(t *testing.T) {
	type step struct {
		do   func(ps *pathSim)
		want PathVerdict
		// mark notes this step's frame; proves wants the last marked
		// one proved spurious by this step (none proved otherwise).
		mark, proves bool
	}
	const marks, proves = true, true
	data := func(seq uint32, id uint16) func(*pathSim) {
		return func(ps *pathSim) { ps.data(seq, segLen, withIPID(id)) }
	}
	wait := func(d int64) func(*pathSim) { return func(ps *pathSim) { ps.after(d) } }
	for _, tc := range []struct {
		name  string
		sim   func(*testing.T, uint32) *pathSim
		steps []step
	}{
		{"sender: a resend is a retransmission", senderSim, []step{
			{data(1, 10), PathNew, false, false}, {data(1001, 11), PathNew, false, false},
			{func(ps *pathSim) { ps.ack(1) }, PathNone, false, false},
			{wait(5 * ms), PathNone, false, false}, // sooner than an RTT: Wireshark's out-of-order
			{data(1, 12), PathRetransmitted, false, false},
		}},
		{"receiver: a late original is reordered", receiverSim, []step{
			{data(1, 10), PathNew, false, false}, {data(2001, 12), PathNew, false, false},
			{wait(ms), PathNone, false, false},
			{data(1001, 11), PathReordered, false, false},
		}},
		{"receiver: a repair is a retransmission", receiverSim, []step{
			{data(1, 10), PathNew, false, false}, {data(2001, 12), PathNew, false, false},
			{wait(100 * ms), PathNone, false, false},
			{data(1001, 13), PathLostUpstream, marks, false},
			{data(1001, 11), PathReordered, false, proves}, // its late original: proves the repair spurious
		}},
		{"sender: a D-SACK proves a resend spurious", senderSim, []step{
			{data(1, 10), PathNew, false, false}, {data(1001, 11), PathNew, false, false},
			{func(ps *pathSim) { ps.ack(1) }, PathNone, false, false},
			{wait(300 * ms), PathNone, false, false},
			{data(1, 12), PathRetransmitted, marks, false},
			{func(ps *pathSim) { ps.ack(2001) }, PathNone, false, false},
			{func(ps *pathSim) { ps.ack(2001, withSACK(1, 1001)) }, PathNone, false, proves},
		}},
		{"receiver: a resend of bytes received is spurious", receiverSim, []step{
			{data(1, 10), PathNew, false, false}, {data(1001, 11), PathNew, false, false},
			{wait(300 * ms), PathNone, false, false},
			{data(1, 12), PathSpurious, false, false},
		}},
		{"a capture duplicate has no verdict", senderSim, []step{
			{data(1, 10), PathNew, false, false},
			{func(ps *pathSim) { ps.data(1, segLen, withIPID(10), asDuplicate()) }, PathNone, false, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := tc.sim(t, 1000)
			var marked int64
			for i, st := range tc.steps {
				ps.verdict, ps.proved = PathNone, nil
				st.do(ps)
				if ps.verdict != st.want {
					t.Errorf("step %d: verdict %d, want %d", i, ps.verdict, st.want)
				}
				if st.mark {
					marked = ps.frame
				}
				if want := []int64{marked}; st.proves && !slices.Equal(ps.proved, want) || !st.proves && len(ps.proved) > 0 {
					t.Errorf("step %d: proved frames %v, want %v", i, ps.proved, st.proves)
				}
			}
		})
	}
}

// TestPathLossEventsTrackersRule: at a sender-side capture loss_events
// counts the tracker's drop events (dropEvents): a tail-loss probe (the
// last segment sent again, no duplicate ACK or SACK since the last new
// ACK) and a resend of acknowledged bytes start none; a fast retransmit
// does.
func TestPathLossEventsTrackersRule(t *testing.T) {
	ps := senderSim(t, 1000)
	for i := uint32(0); i < 4; i++ {
		ps.data(1+i*segLen, segLen)
	}
	ps.after(100 * ms)
	ps.ack(2001)
	ps.after(250 * ms)
	ps.data(3001, segLen) // the tail-loss probe: the last segment again, 2001 on unacknowledged
	ps.after(100 * ms)
	ps.ack(4001)
	ps.after(ms)
	ps.data(3001, segLen) // a resend of acknowledged bytes
	if st := ps.stats(); st.LossEvents != 0 || st.Retransmitted != 2 {
		t.Fatalf("a tail-loss probe and a resend of acknowledged bytes: %d loss events of %d resends, want 0 of 2", st.LossEvents, st.Retransmitted)
	}
	for i := uint32(0); i < 4; i++ {
		ps.data(4001+i*segLen, segLen) // the first lost after the capture
	}
	ps.after(100 * ms)
	ps.ack(4001, withSACK(5001, 6001))
	ps.ack(4001, withSACK(5001, 7001))
	ps.ack(4001, withSACK(5001, 8001))
	ps.data(4001, segLen) // the fast retransmit
	if st := ps.stats(); st.LossEvents != 1 {
		t.Fatalf("after a fast retransmit: %d loss events, want 1", st.LossEvents)
	}
}
