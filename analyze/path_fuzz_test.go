package analyze

import (
	"os"
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// The path fuzz input is a sequence of 20-byte records: the 16 bytes of
// FuzzAnalysis's segments (see encodeSegment), then
//
//	16    timestamps (bit 0), capture duplicate (bit 1), IPv6: no IP ID
//	      (bit 2), first SACK block below the ACK: a D-SACK (bit 3),
//	      Forget the connection first (bit 4)
//	17    IPv4 ID step from the direction's previous one (int8)
//	18-19 TSval step (int8), TSecr: the peer's last TSval minus this (uint8)
const pathFuzzLen = 20

func encodePathSegment(s *reassembly.Segment, dt int64, prevID, prevTS uint16, peerTS uint32) []byte {
	b := append(encodeSegment(s, dt), 0, 0, 0, 0)
	if s.Opt.HasTimestamp {
		b[16] |= 1
	}
	if s.IPVersion == 6 {
		b[16] |= 4
	}
	b[17] = byte(int8(s.IPID - prevID))
	b[18] = byte(int8(uint16(s.Opt.TSVal) - prevTS))
	b[19] = byte(peerTS - s.Opt.TSEcr)
	return b
}

func decodePathSegments(data []byte) []reassembly.Segment {
	var base []byte
	for i := 0; i+pathFuzzLen <= len(data); i += pathFuzzLen {
		base = append(base, data[i:i+fuzzSegLen]...)
	}
	segs := decodeSegments(base)
	var id, ts [2]uint32
	for i := range segs {
		s, x := &segs[i], data[i*pathFuzzLen+fuzzSegLen:]
		d := 0
		if s.SrcPort == fuzzSrv.Port() {
			d = 1
		}
		id[d] += uint32(int8(x[1]))
		s.IPID = uint16(id[d])
		if x[0]&4 != 0 {
			s.IPVersion, s.IPID = 6, 0
		}
		if x[0]&1 != 0 {
			ts[d] += uint32(int8(x[2]))
			s.Opt.HasTimestamp, s.Opt.TSVal, s.Opt.TSEcr = true, ts[d], ts[d^1]-uint32(x[3])
		}
		if x[0]&8 != 0 && s.Opt.NSACK > 0 {
			blk := &s.Opt.SACK[0]
			blk.Left, blk.Right = s.Ack-uint32(x[3])*10-blk.Right+blk.Left, s.Ack-uint32(x[3])*10
		}
	}
	return segs
}

// FuzzPath runs random segment sequences through the tracker and the path
// analysis: no panic, each frame proved spurious an earlier resend's and
// proved once, openFillers right after every segment, no negative count, the proven-spurious and the
// lost-after-the-capture never more than the retransmissions, and timer
// plus fast retransmissions exactly the retransmissions.
func FuzzPath(f *testing.F) {
	truth := filepath.Join(golden.SharedCaptures(), "truth")
	for _, name := range []string{
		filepath.Join("..", "testdata", "geo_short.pcap"),
		filepath.Join("..", "testdata", "v6_short.pcapng"),
		filepath.Join(truth, "gt_jitter_reorder.rx.pcap"),
		filepath.Join(truth, "gt_vsat_reno_loss.tx.pcap"),
	} {
		if seed := pathSeed(f, name, 400); seed != nil {
			f.Add(seed)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trk := reassembly.NewTracker()
		p := newPathAnalyzer()
		retired := retire(trk)
		segs := decodePathSegments(data)
		verdict := map[int64]PathVerdict{} // by frame
		proved := map[int64]bool{}
		for i := range segs {
			s := &segs[i]
			dup := data[i*pathFuzzLen+fuzzSegLen]&2 != 0
			c := trk.Track(s)
			if dup {
				s.Duplicate = true
			}
			if data[i*pathFuzzLen+fuzzSegLen]&16 != 0 {
				p.forget(c)
			}
			verdict[s.Frame] = p.add(c, s)
			// Each frame proved spurious is an earlier resend's, proved once.
			for _, f := range p.proved {
				if v := verdict[f]; f >= s.Frame || proved[f] || v != PathRetransmitted && v != PathSpurious && v != PathLostUpstream {
					t.Fatalf("segment %d (frame %d) proved frame %d (verdict %d, proved before %v)", i, s.Frame, f, v, proved[f])
				}
				proved[f] = true
			}
			if pc := p.conns[c]; pc != nil {
				for d, f := range pc.dir {
					if f != nil && f.openFillers != openFillers(f.rtx) {
						t.Fatalf("segment %d, dir %d: openFillers %d, %d in the records", i, d, f.openFillers, openFillers(f.rtx))
					}
				}
			}
		}
		trk.Flush()
		for _, c := range retired.all {
			for d, st := range p.stats(c) {
				checkPathStats(t, d, &st)
			}
			p.forget(c)
		}
		if len(p.conns) != 0 {
			t.Fatalf("%d connections left after Forget", len(p.conns))
		}
	})
}

// openFillers counts the hole fillers of rtx not proven spurious, as
// pathDir.openFillers should.
func openFillers(rtx []rtxRec) int {
	n := 0
	for _, r := range rtx {
		if r.kind == kindFiller && r.proof == proofNone {
			n++
		}
	}
	return n
}

func checkPathStats(t *testing.T, d int, st *PathStats) {
	t.Helper()
	counts := []int64{st.Retransmitted, st.SpuriousRetransmitted, st.SpuriousDSACK, st.SpuriousEifel,
		st.SpuriousSeenOriginal, st.LostDownstream, st.LostDownstreamLow, st.LostUpstream, st.Reordered,
		st.DSACKBlocks, st.RTORetransmissions, st.FastRetransmissions, st.PeerDupAcks, st.LossEvents, st.LossEventsSpurious}
	for i, v := range counts {
		if v < 0 {
			t.Fatalf("dir %d: count %d negative: %+v", d, i, st)
		}
	}
	switch {
	case st.PeerMaxRwnd < -1 || st.RTTToSender < -1 || st.RTTToReceiver < -1:
		t.Fatalf("dir %d: %+v", d, st)
	case st.SpuriousRetransmitted > st.Retransmitted, st.LostDownstream > st.Retransmitted,
		st.LostDownstreamLow > st.LostDownstream, st.FirstEventLostLow > st.LostDownstreamLow, st.SpuriousDSACK > st.DSACKBlocks,
		st.RTORetransmissions+st.FastRetransmissions != st.Retransmitted,
		st.LossEventsSpurious > st.LossEvents, st.LossEvents > st.Retransmitted:
		t.Fatalf("dir %d: inconsistent %+v", d, st)
	case !st.HasData && st.Retransmitted != 0:
		t.Fatalf("dir %d: counts without data %+v", d, st)
	}
	switch st.Vantage {
	case VantageSender, VantageReceiver, VantageMiddle, VantageUnknown:
	default:
		t.Fatalf("dir %d: vantage %q", d, st.Vantage)
	}
}

// pathSeed encodes the first n segments of a capture; nil if it is absent.
func pathSeed(f *testing.F, path string, n int) []byte {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	sc := reassembly.NewScanner(capturetest.Reader(f, path))
	var out []byte
	var prev int64
	var prevID, prevTS [2]uint16
	var lastTS [2]uint32
	for i := 0; i < n && sc.Scan(); i++ {
		s := sc.Segment()
		if prev == 0 {
			prev = s.Time
		}
		out = append(out, encodePathSegment(s, s.Time-prev, prevID[s.Dir], prevTS[s.Dir], lastTS[s.Dir^1])...)
		prev, prevID[s.Dir], prevTS[s.Dir], lastTS[s.Dir] = s.Time, s.IPID, uint16(s.Opt.TSVal), s.Opt.TSVal
	}
	return out
}
