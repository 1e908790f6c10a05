package analyze

import (
	"encoding/binary"
	"testing"

	"tcpviz/reassembly"
)

// flightSegments builds one connection from a fuzz input: a handshake,
// then n data segments of mss bytes from the client (n above 4096: more
// in flight than Wireshark's and tcptrace's usual lists hold), perturbed
// by ops (4 bytes each: a position, a kind — swap with the next, move
// later by arg places, send twice, drop — and arg), with sequence numbers
// from iss (near 2^32 they wrap mid-transfer). With lag > 0 the server
// acknowledges, cumulatively, each segment once lag more have been sent
// after it (lag ≥ 4097: that many in flight), with a SACK block for the
// segment just received now and then; with lag = 0 the capture is
// one-way.
func flightSegments(n, mss int, iss uint32, lag int, ops []byte) []reassembly.Segment {
	order := make([]int, 0, n+len(ops)/4)
	for i := range n {
		order = append(order, i)
	}
	for o := 0; o+4 <= len(ops) && o < 4*256; o += 4 {
		p := int(binary.BigEndian.Uint16(ops[o:])) % len(order)
		arg := int(ops[o+3])
		switch ops[o+2] % 4 {
		case 0: // swap with the next
			if p+1 < len(order) {
				order[p], order[p+1] = order[p+1], order[p]
			}
		case 1: // move later
			q := min(len(order)-1, p+1+arg)
			v := order[p]
			copy(order[p:q], order[p+1:q+1])
			order[q] = v
		case 2: // send twice (a retransmission arg places later)
			q := min(len(order), p+1+arg)
			order = append(order[:q], append([]int{order[p]}, order[q:]...)...)
		case 3: // lost before the capture
			order = append(order[:p], order[p+1:]...)
		}
	}
	cli, srv := fuzzCli, fuzzSrv
	now := int64(1e18)
	var out []reassembly.Segment
	add := func(fromSrv bool, flags reassembly.Flags, seq, ack uint32, payload int) *reassembly.Segment {
		src, dst := cli, srv
		if fromSrv {
			src, dst = srv, cli
		}
		now += 1000 // 1 µs apart
		out = append(out, reassembly.Segment{
			Frame: int64(len(out) + 1), Time: now, Src: src.Addr(), Dst: dst.Addr(), SrcPort: src.Port(), DstPort: dst.Port(),
			IPVersion: 4, TTL: 64, IPID: uint16(len(out)), Flags: flags, Seq: seq, Ack: ack, PayloadLen: payload, Window: 65535,
		})
		s := &out[len(out)-1]
		s.Opt.WScale = -1
		return s
	}
	const irs = 77
	add(false, reassembly.SYN, iss, 0, 0).Opt.WScale = 7
	add(true, reassembly.SYN|reassembly.ACK, irs, iss+1, 0).Opt.WScale = 7
	add(false, reassembly.ACK, iss+1, irs+1, 0)
	seqOf := func(i int) uint32 { return iss + 1 + uint32(i*mss) }
	highest := -1 // the highest segment acknowledged cumulatively
	got := make([]bool, n)
	for k, i := range order {
		add(false, reassembly.ACK|reassembly.PSH, seqOf(i), irs+1, mss)
		got[i] = true
		if lag == 0 || k < lag {
			continue
		}
		for highest+1 < n && got[highest+1] {
			highest++
		}
		s := add(true, reassembly.ACK, irs+1, seqOf(highest+1), 0)
		if i > highest+1 && k%3 == 0 {
			s.Opt.NSACK = 1
			s.Opt.SACK[0] = reassembly.SACKBlock{Left: seqOf(i), Right: seqOf(i + 1)}
		}
	}
	add(false, reassembly.FIN|reassembly.ACK, seqOf(n), irs+1, 0)
	return out
}

// FuzzLargeFlight: connections with more than 4096 segments in flight,
// reordering, retransmissions and losses, and sequence numbers near 2^32,
// through the tracker, the analysis (fast paths against Wireshark's
// loops) and the statistics: no panic, no impossible value. The seeds are
// the cases that once crashed the tcptrace RTT (a segment out of place
// once 4096 are in flight, one-way and two-way, across 2^32).
func FuzzLargeFlight(f *testing.F) {
	swapAt := func(p int) []byte { return []byte{byte(p >> 8), byte(p), 0, 0} }
	f.Add(uint16(4200), uint16(1448), uint32(1000), uint16(0), swapAt(4150))
	f.Add(uint16(4300), uint16(1448), uint32(1000), uint16(4200), swapAt(4200))
	f.Add(uint16(9000), uint16(1448), uint32(1<<32-3000*1448), uint16(4500), swapAt(2000))
	f.Add(uint16(9000), uint16(1448), uint32(1<<32-3000*1448), uint16(0), swapAt(8000))
	f.Add(uint16(5000), uint16(536), uint32(1<<32-100), uint16(4097), []byte{0, 10, 2, 40, 0x13, 0x88, 3, 0, 0x10, 0, 1, 200})
	f.Fuzz(func(t *testing.T, n16, mss16 uint16, iss uint32, lag16 uint16, ops []byte) {
		n := 4097 + int(n16)%8000
		mss := 1 + int(mss16)%1460
		lag := int(lag16) % (n + 1)
		if lag > 0 {
			lag = max(lag, 4097)
		}
		trk := reassembly.NewTracker()
		a, slow := newAnalyzer(), newAnalyzer()
		slow.loopsOnly = true
		retired := retire(trk)
		data := 0
		for _, s := range flightSegments(n, mss, iss, lag, ops) {
			c := trk.Track(&s)
			info := a.segment(c, &s)
			if want := slow.segment(c, &s); !sameInfo(info, want) {
				t.Fatalf("frame %d: fast path %+v, loops %+v", s.Frame, info, want)
			}
			if info.BytesInFlight < -1 || info.AckRTT < -1 || info.DupAckNum < 0 {
				t.Fatalf("frame %d: analysis %+v", s.Frame, info)
			}
			if s.PayloadLen > 0 {
				data++
			}
		}
		trk.Flush()
		for _, c := range retired.byStream() {
			for _, st := range a.stats(c) {
				checkStats(t, &st)
				if st.KarnRTTSamples > int64(data)+1 {
					t.Fatalf("%d tcptrace samples for %d data segments", st.KarnRTTSamples, data)
				}
			}
		}
	})
}
