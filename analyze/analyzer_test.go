package analyze

import (
	"net/netip"
	"testing"

	"tcpviz/reassembly"
)

// conv builds a synthetic connection segment by segment: a client and a
// server, a clock in ms, and the tracker and analyzer the scanner would
// use. Sequence numbers are relative to each side's ISN.
type conv struct {
	t          *testing.T
	trk        *reassembly.Tracker
	a          *analyzer
	isn        [2]uint32
	frame      int64
	now        int64 // ns
	info       []PacketInfo
	lastWindow [2]uint16
}

var (
	cliAddr = netip.MustParseAddrPort("10.0.0.1:40000")
	srvAddr = netip.MustParseAddrPort("10.0.0.2:5201")
)

func newConv(t *testing.T, cISN, sISN uint32) *conv {
	return &conv{t: t, trk: reassembly.NewTracker(), a: newAnalyzer(), isn: [2]uint32{cISN, sISN}, now: 1e15}
}

const (
	c2s = reassembly.C2S
	s2c = reassembly.S2C
)

// seg describes one segment: direction, relative seq and ack, payload
// length, flags (ACK is added unless it is a pure SYN), window, options.
type seg struct {
	dir      reassembly.Direction
	seq, ack uint32
	n        int
	flags    reassembly.Flags
	win      uint16
	ws       int8 // window scale option; 0 means none (use wsSet for 0)
	wsSet    bool
	sack     [][2]uint32 // relative to the other side's ISN
	dtMs     float64     // time since the previous segment
}

// send feeds s to the tracker and analyzer and returns the analysis.
func (cv *conv) send(s seg) PacketInfo {
	cv.t.Helper()
	cv.frame++
	cv.now += int64(s.dtMs * 1e6)
	src, dst := cliAddr, srvAddr
	if s.dir == s2c {
		src, dst = dst, src
	}
	f := s.flags
	if f&reassembly.SYN == 0 || s.dir == s2c {
		f |= reassembly.ACK
	}
	rs := reassembly.Segment{
		Frame: cv.frame, Time: cv.now, Src: src.Addr(), Dst: dst.Addr(),
		SrcPort: src.Port(), DstPort: dst.Port(), IPVersion: 4, TTL: 64, IPID: uint16(cv.frame),
		Seq: cv.isn[s.dir] + s.seq, Ack: cv.isn[s.dir^1] + s.ack, Flags: f,
		Window: s.win, PayloadLen: s.n, Captured: s.n,
	}
	rs.Opt.WScale = -1
	if s.ws != 0 || s.wsSet {
		rs.Opt.WScale = s.ws
	}
	for _, b := range s.sack {
		rs.Opt.SACK[rs.Opt.NSACK] = reassembly.SACKBlock{Left: cv.isn[s.dir^1] + b[0], Right: cv.isn[s.dir^1] + b[1]}
		rs.Opt.NSACK++
	}
	c := cv.trk.Track(&rs)
	info := cv.a.segment(c, &rs)
	cv.info = append(cv.info, info)
	cv.lastWindow[s.dir] = s.win
	return info
}

// handshake sends SYN, SYN/ACK, ACK with window scale ws on both sides
// (ws < 0: none) and an RTT of rttMs.
func (cv *conv) handshake(wsC, wsS int8, rttMs float64) {
	cv.send(seg{dir: c2s, flags: reassembly.SYN, win: 65535, ws: wsC, wsSet: wsC >= 0})
	cv.send(seg{dir: s2c, ack: 1, flags: reassembly.SYN, win: 65535, ws: wsS, wsSet: wsS >= 0, dtMs: rttMs / 2})
	cv.send(seg{dir: c2s, seq: 1, ack: 1, win: 1000, dtMs: rttMs / 2})
}

const (
	W   = 1000 // a normal raw window
	mss = 1000
)

func expect(t *testing.T, name string, got PacketInfo, want Flag) {
	t.Helper()
	if got.Flags != want {
		t.Errorf("%s: flags %b, want %b", name, got.Flags, want)
	}
}

func TestRules(t *testing.T) {
	t.Run("retransmission", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		expect(t, "first", cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1}), 0)
		expect(t, "second", cv.send(seg{dir: c2s, seq: 1001, ack: 1, n: mss, win: W, dtMs: 1}), 0)
		expect(t, "resent after 200 ms", cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 200}), Retransmission)
	})
	t.Run("fast retransmission and dup ACK numbering", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		for i := 0; i < 4; i++ {
			cv.send(seg{dir: c2s, seq: uint32(1 + i*mss), ack: 1, n: mss, win: W, dtMs: 0.1})
		}
		first := cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: 8 * W, dtMs: 10}) // frame 8
		expect(t, "ack", first, 0)
		for i := 1; i <= 3; i++ {
			d := cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: 8 * W, dtMs: 0.1})
			expect(t, "dup", d, DupAck)
			if d.DupAckNum != i || d.DupAckOf != 8 {
				t.Errorf("dup ack %d: num %d of frame %d", i, d.DupAckNum, d.DupAckOf)
			}
		}
		expect(t, "fast retransmission", cv.send(seg{dir: c2s, seq: 1001, ack: 1, n: mss, win: W, dtMs: 1}), Retransmission|FastRetransmission)
	})
	t.Run("spurious", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1})
		cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: W, dtMs: 10})
		expect(t, "resent though acked", cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 300}), Retransmission|SpuriousRetrans)
	})
	t.Run("lost segment then out-of-order", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1})
		expect(t, "gap", cv.send(seg{dir: c2s, seq: 2001, ack: 1, n: mss, win: W, dtMs: 1}), LostSegment)
		expect(t, "late", cv.send(seg{dir: c2s, seq: 1001, ack: 1, n: mss, win: W, dtMs: 1}), OutOfOrder)
		expect(t, "late after the handshake RTT", cv.send(seg{dir: c2s, seq: 1001, ack: 1, n: mss, win: W, dtMs: 50}), Retransmission)
	})
	t.Run("zero window, probe, probe ack", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1})
		expect(t, "zero window", cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: 0, dtMs: 10}), ZeroWindow)
		expect(t, "probe", cv.send(seg{dir: c2s, seq: 1001, ack: 1, n: 1, win: W, dtMs: 200}), ZeroWindowProbe)
		expect(t, "probe ack", cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: 0, dtMs: 10}), ZeroWindowProbeAck|ZeroWindow)
		expect(t, "window update", cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: W, dtMs: 10}), WindowUpdate)
	})
	t.Run("keep-alive", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: 10, win: W, dtMs: 1})
		cv.send(seg{dir: s2c, seq: 1, ack: 11, win: W, dtMs: 10})
		expect(t, "keep-alive", cv.send(seg{dir: c2s, seq: 10, ack: 1, n: 0, win: W, dtMs: 60000}), KeepAlive)
		expect(t, "keep-alive ack", cv.send(seg{dir: s2c, seq: 1, ack: 11, win: W, dtMs: 10}), KeepAliveAck)
	})
	t.Run("window full", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(2, 2, 10) // the server's window 1000<<2 = 4000
		cv.send(seg{dir: s2c, seq: 1, ack: 1, win: W, dtMs: 1})
		for i := 0; i < 3; i++ {
			expect(t, "inside", cv.send(seg{dir: c2s, seq: uint32(1 + i*mss), ack: 1, n: mss, win: W, dtMs: 0.1}), 0)
		}
		expect(t, "reaching the window's edge", cv.send(seg{dir: c2s, seq: 3001, ack: 1, n: mss, win: W, dtMs: 0.1}), WindowFull)
	})
	t.Run("ACK of unseen segment", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1})
		expect(t, "acks 2000 bytes", cv.send(seg{dir: s2c, seq: 1, ack: 2001, win: W, dtMs: 10}), AckUnseen)
	})
	t.Run("Karn ambiguity: ack_rtt from the first transmission", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1}) // frame 4
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 300})
		ack := cv.send(seg{dir: s2c, seq: 1, ack: 1001, win: W, dtMs: 10})
		if ack.AckedFrame != 4 || ack.AckRTT != 310e6 {
			t.Errorf("acked frame %d rtt %d, want frame 4, 310 ms", ack.AckedFrame, ack.AckRTT)
		}
		st := cv.a.stats(cv.trk.Track(&reassembly.Segment{Src: cliAddr.Addr(), Dst: srvAddr.Addr(), SrcPort: cliAddr.Port(), DstPort: srvAddr.Port(), Seq: 2001 + 1000, Ack: 5001, Flags: reassembly.ACK}))
		if st[c2s].RTTSamples != 2 || st[c2s].RTTMaxMs != 310 || st[c2s].HandshakeRTTMs != 10 {
			t.Errorf("c2s rtt samples %d max %v handshake %v", st[c2s].RTTSamples, st[c2s].RTTMaxMs, st[c2s].HandshakeRTTMs)
		}
		if st[c2s].UniqueBytes != 1000 || st[c2s].DataBytes != 2000 || st[c2s].RetransPackets != 1 {
			t.Errorf("unique %d data %d retrans %d", st[c2s].UniqueBytes, st[c2s].DataBytes, st[c2s].RetransPackets)
		}
	})
	t.Run("bytes in flight minus SACKed bytes", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		for i := 0; i < 3; i++ {
			cv.send(seg{dir: c2s, seq: uint32(1 + i*mss), ack: 1, n: mss, win: W, dtMs: 0.1})
		}
		cv.send(seg{dir: s2c, seq: 1, ack: 1, win: W, sack: [][2]uint32{{2001, 3001}}, dtMs: 10})
		got := cv.send(seg{dir: c2s, seq: 3001, ack: 1, n: mss, win: W, dtMs: 0.1})
		if got.BytesInFlight != 3000 {
			t.Errorf("bytes in flight %d, want 4000 sent - 1000 SACKed", got.BytesInFlight)
		}
	})
	t.Run("window scale on one side only", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(7, -1, 10)
		got := cv.send(seg{dir: c2s, seq: 1, ack: 1, win: 100, dtMs: 1})
		if got.Window != 100 || got.ScaleFactor != -2 {
			t.Errorf("window %d factor %d, want 100 unscaled (-2)", got.Window, got.ScaleFactor)
		}
		cv = newConv(t, 1000, 5000)
		cv.handshake(7, 3, 10)
		if got := cv.send(seg{dir: c2s, seq: 1, ack: 1, win: 100, dtMs: 1}); got.Window != 12800 || got.ScaleFactor != 128 {
			t.Errorf("window %d factor %d, want 12800 (128)", got.Window, got.ScaleFactor)
		}
	})
	t.Run("no handshake: scale unknown", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		got := cv.send(seg{dir: c2s, seq: 100, ack: 100, n: 10, win: 100})
		if got.Window != 100 || got.ScaleFactor != -1 {
			t.Errorf("window %d factor %d, want 100 (-1)", got.Window, got.ScaleFactor)
		}
	})
	t.Run("sequence wrap at 2^32", func(t *testing.T) {
		cv := newConv(t, 0xffffffff-1500, 5000)
		cv.handshake(-1, -1, 10)
		for i := 0; i < 4; i++ { // crosses 2^32 at the second segment
			expect(t, "in order across the wrap", cv.send(seg{dir: c2s, seq: uint32(1 + i*mss), ack: 1, n: mss, win: W, dtMs: 0.1}), 0)
		}
		ack := cv.send(seg{dir: s2c, seq: 1, ack: 3001, win: 8 * W, dtMs: 10})
		if ack.Flags != 0 || ack.AckedFrame != 6 {
			t.Errorf("ack across the wrap: flags %b acked frame %d, want frame 6", ack.Flags, ack.AckedFrame)
		}
		expect(t, "retransmission across the wrap", cv.send(seg{dir: c2s, seq: 3001, ack: 1, n: mss, win: W, dtMs: 300}), Retransmission)
	})
	t.Run("capture duplicate is not a retransmission", func(t *testing.T) {
		cv := newConv(t, 1000, 5000)
		cv.handshake(-1, -1, 10)
		p := cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 1})
		// The same packet again (same IP ID): emulate with the tracker.
		cv.frame++
		rs := reassembly.Segment{Frame: cv.frame, Time: cv.now + 1000, Src: cliAddr.Addr(), Dst: srvAddr.Addr(),
			SrcPort: cliAddr.Port(), DstPort: srvAddr.Port(), IPVersion: 4, TTL: 63, IPID: uint16(cv.frame - 1),
			Seq: 1001, Ack: 5001, Flags: reassembly.ACK, Window: W, PayloadLen: mss, Captured: mss}
		rs.Opt.WScale = -1
		c := cv.trk.Track(&rs)
		if !rs.Duplicate {
			t.Fatal("tracker did not see a duplicate")
		}
		expect(t, "duplicate", cv.a.segment(c, &rs), CaptureDuplicate)
		_ = p
		st := cv.a.stats(c)
		if st[c2s].RetransPackets != 0 || st[c2s].CaptureDuplicates != 1 || st[c2s].Packets != 4 {
			t.Errorf("retrans %d duplicates %d packets %d", st[c2s].RetransPackets, st[c2s].CaptureDuplicates, st[c2s].Packets)
		}
	})
}
