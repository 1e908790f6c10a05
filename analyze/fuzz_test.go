package analyze

import (
	"encoding/binary"
	"math"
	"net/netip"
	"path/filepath"
	"reflect"
	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"testing"

	"tcpviz/reassembly"
)

// The fuzz input is a sequence of 16-byte segment descriptions:
//
//	0     direction (bit 0), SACK block present (bit 1), window scale option (bit 2)
//	1     TCP flags (FIN SYN RST PSH ACK URG ECE CWR)
//	2-5   sequence number (raw)
//	6-9   acknowledgement number (raw)
//	10-11 payload length
//	12-13 window
//	14-15 time since the previous segment, in 100 µs
const fuzzSegLen = 16

func encodeSegment(s *reassembly.Segment, dt int64) []byte {
	b := make([]byte, fuzzSegLen)
	b[0] = byte(s.Dir)
	if s.Opt.NSACK > 0 {
		b[0] |= 2
	}
	if s.Opt.WScale >= 0 {
		b[0] |= 4
	}
	b[1] = byte(s.Flags)
	binary.BigEndian.PutUint32(b[2:], s.Seq)
	binary.BigEndian.PutUint32(b[6:], s.Ack)
	binary.BigEndian.PutUint16(b[10:], uint16(min(s.PayloadLen, math.MaxUint16)))
	binary.BigEndian.PutUint16(b[12:], s.Window)
	binary.BigEndian.PutUint16(b[14:], uint16(min(dt/100e3, math.MaxUint16)))
	return b
}

var (
	fuzzCli = netip.MustParseAddrPort("192.0.2.1:40000")
	fuzzSrv = netip.MustParseAddrPort("192.0.2.2:80")
)

// decodeSegments turns fuzz bytes into segments, as the decoder would
// produce them.
func decodeSegments(data []byte) []reassembly.Segment {
	var out []reassembly.Segment
	now := int64(1e18)
	for i := 0; i+fuzzSegLen <= len(data) && i < 4096*fuzzSegLen; i += fuzzSegLen {
		b := data[i : i+fuzzSegLen]
		src, dst := fuzzCli, fuzzSrv
		if b[0]&1 == 1 {
			src, dst = dst, src
		}
		now += int64(binary.BigEndian.Uint16(b[14:])) * 100e3
		s := reassembly.Segment{
			Frame: int64(len(out) + 1), Time: now, Src: src.Addr(), Dst: dst.Addr(),
			SrcPort: src.Port(), DstPort: dst.Port(), IPVersion: 4, TTL: 64, IPID: uint16(len(out)),
			Flags: reassembly.Flags(b[1]), Seq: binary.BigEndian.Uint32(b[2:]), Ack: binary.BigEndian.Uint32(b[6:]),
			PayloadLen: int(binary.BigEndian.Uint16(b[10:])), Window: binary.BigEndian.Uint16(b[12:]),
		}
		s.Captured = 0
		s.Opt.WScale = -1
		if b[0]&4 != 0 {
			s.Opt.WScale = int8(b[13] % 16)
		}
		if b[0]&2 != 0 {
			s.Opt.NSACK = 1
			s.Opt.SACK[0] = reassembly.SACKBlock{Left: s.Ack + uint32(b[10])*100, Right: s.Ack + uint32(b[10])*100 + uint32(b[11])*10}
		}
		out = append(out, s)
	}
	return out
}

// FuzzAnalysis runs random segment sequences through the tracker, the
// analysis, the statistics and every series builder, and checks the
// invariants: unwrapped numbers keep their raw low 32 bits and never jump
// by more than 2^31 between consecutive segments of a direction, no series
// holds NaN or Inf, no count is negative.
func FuzzAnalysis(f *testing.F) {
	for _, name := range []string{"geo_short.pcap", "lossy_sll2.pcap", "v6_short.pcapng"} {
		f.Add(seedFromCapture(f, filepath.Join("..", "testdata", name), 300))
	}
	// A retransmission storm over an unsorted list (see flow.bifOK).
	storm, err := reassembly.NewReader(gencap.Retransmissions(200, 30, 1000, 25000))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seedFromReader(storm, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		trk := reassembly.NewTracker()
		a := newAnalyzer()
		slow := newAnalyzer() // Wireshark's loops only: the fast paths must agree
		slow.loopsOnly = true
		var recs []Record
		retired := retire(trk)
		last := map[[2]int]uint64{}
		for _, s := range decodeSegments(data) {
			c := trk.Track(&s)
			if uint32(s.SeqAbs) != s.Seq || s.Flags&reassembly.ACK != 0 && uint32(s.AckAbs) != s.Ack {
				t.Fatalf("frame %d: unwrapped numbers lost their raw value", s.Frame)
			}
			k := [2]int{c.Stream, int(s.Dir)}
			if prev, ok := last[k]; ok {
				// Raw numbers exactly 2^31 apart are the one case RFC 1982
				// leaves undefined: either way the jump is 2^31.
				if d := int64(s.SeqAbs - prev); d > 1<<31 || d < -(1<<31) {
					t.Fatalf("frame %d: sequence jumped by %d", s.Frame, d)
				}
			}
			last[k] = s.SeqAbs
			info := a.segment(c, &s)
			if want := slow.segment(c, &s); !sameInfo(info, want) {
				t.Fatalf("frame %d: fast path %+v, loops %+v", s.Frame, info, want)
			}
			if info.BytesInFlight < -1 || info.AckRTT < -1 || info.DupAckNum < 0 {
				t.Fatalf("frame %d: analysis %+v", s.Frame, info)
			}
			if c.Stream == 0 {
				recs = append(recs, newRecord(&s, info))
			}
		}
		trk.Flush()
		conns := retired.byStream()
		for _, c := range conns {
			for _, st := range a.stats(c) {
				checkStats(t, &st)
			}
		}
		if len(conns) == 0 {
			return
		}
		for d := reassembly.C2S; d <= reassembly.S2C; d++ {
			o := SeriesOptions{Conn: conns[0], Dir: d}
			l := &Loaded{Conn: conns[0], Dir: d, Records: recs, Stats: a.stats(conns[0])}
			var graphs []*Graph
			for _, g := range Graphs("") { // a report's graphs
				graphs = append(graphs, g.Draw(recs, o, GraphParams{}))
			}
			graphs = append(graphs, rttGraph(recs, o, GraphParams{Sampling: SampleTimestamps}), throughputGraph(recs, o, GraphParams{Segments: 5}),
				rttGraph(recs, o, GraphParams{Sampling: SampleKarn}), rttGraph(recs, o, GraphParams{Sampling: SampleTimestamps, BySeq: true}))
			for _, k := range compareKinds() {
				for _, a := range []Align{AlignSYN, AlignFirstData} {
					graphs = append(graphs, compareGraph(CompareKind(k), []CompareInput{{Label: "x", L: l}}, CompareOptions{Align: a}))
				}
			}
			for _, g := range graphs {
				for _, s := range g.Series {
					if s.Kind == Spans { // bands: pairs, each from its start to its end, one after another
						if len(s.Points)%2 != 0 {
							t.Fatalf("%s graph, bands %s: %d points", g.Kind, s.Name, len(s.Points))
						}
						for i := 0; i+1 < len(s.Points); i += 2 {
							if s.Points[i+1].Time < s.Points[i].Time || i > 0 && s.Points[i].Time < s.Points[i-1].Time {
								t.Fatalf("%s graph, bands %s: band %d from %d to %d after one to %d", g.Kind, s.Name, i/2,
									s.Points[i].Time, s.Points[i+1].Time, s.Points[max(i-1, 0)].Time)
							}
						}
					}
					for _, p := range s.Points {
						for _, v := range p.V {
							if math.IsNaN(v) || math.IsInf(v, 0) {
								t.Fatalf("%s graph, series %s: value %v", g.Kind, s.Name, v)
							}
						}
					}
				}
			}
			tr := Summarize(l, TransferOptions{Align: AlignFirstData})
			if tr.Total < 0 || tr.SlowStart.Flight < 0 {
				t.Fatalf("transfer %+v", tr)
			}
		}
	})
}

// checkStats fails on negative counts and on NaN or Inf in any field.
func checkStats(t *testing.T, st *DirStats) {
	t.Helper()
	v := reflect.ValueOf(*st)
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.Int64, reflect.Int:
			if f.Int() < 0 && name != "MaxRwnd" && name != "MinRwnd" && name != "WScale" && name != "Duration" && name != "FirstTime" || f.Int() < -1 && (name == "MaxRwnd" || name == "MinRwnd" || name == "WScale") {
				t.Fatalf("%s = %d", name, f.Int())
			}
		case reflect.Float64:
			if math.IsNaN(f.Float()) || math.IsInf(f.Float(), 0) || f.Float() < 0 {
				t.Fatalf("%s = %v", name, f.Float())
			}
		}
	}
}

// seedFromCapture encodes the first n segments of a real capture.
func seedFromCapture(f *testing.F, path string, n int) []byte {
	return seedFromReader(capturetest.Reader(f, path), n)
}

// seedFromReader encodes the first n segments of a capture.
func seedFromReader(r *reassembly.Reader, n int) []byte {
	sc := reassembly.NewScanner(r)
	var out []byte
	var prev int64
	for i := 0; i < n && sc.Scan(); i++ {
		s := sc.Segment()
		if prev == 0 {
			prev = s.Time
		}
		out = append(out, encodeSegment(s, s.Time-prev)...)
		prev = s.Time
	}
	return out
}
