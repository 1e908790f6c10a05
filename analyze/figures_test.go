package analyze

import (
	"math"
	"testing"

	"tcpviz/reassembly"
)

// withGreeting puts a 37-byte greeting (iperf3's cookie), acknowledged
// at once, before flights that start at 2 s.
func withGreeting() []Record {
	recs := flights(400e6, []int{10, 20, 40}, -1)
	for i := range recs[1:] {
		recs[i+1].Time += 2e9 - 400e6
		recs[i+1].Seq += 37
		if recs[i+1].Dir == reassembly.S2C {
			recs[i+1].Ack += 37
		}
	}
	greet := []Record{
		{Time: 100e6, Frame: 2, Dir: reassembly.C2S, Seq: 1, Len: 37, HasAck: true, Info: PacketInfo{AckRTT: -1}},
		{Time: 101e6, Frame: 3, Dir: reassembly.S2C, HasAck: true, Ack: 38, Info: PacketInfo{AckRTT: 1e6, AckedFrame: 2}},
	}
	return append(append(recs[:1:1], greet...), recs[1:]...)
}

func TestFirstDataSkipsGreeting(t *testing.T) {
	recs := withGreeting()
	if at, ok := firstDataTime(recs, reassembly.C2S); !ok || at != 2e9 {
		t.Errorf("first data at %d (%v), want 2e9: the greeting skipped", at, ok)
	}
	// Without a round of 4000 bytes, the first data segment.
	if at, ok := firstDataTime(recs[:3], reassembly.C2S); !ok || at != 100e6 {
		t.Errorf("greeting only: first data at %d (%v), want 100e6", at, ok)
	}
	if _, ok := firstDataTime(recs[:1], reassembly.C2S); ok {
		t.Errorf("no data: found first data")
	}
}

func TestSummarizeAligned(t *testing.T) {
	recs := withGreeting()
	l := &Loaded{Conn: &reassembly.Conn{FirstTime: 0}, Dir: reassembly.C2S, Records: recs}
	o := TransferOptions{At: []int64{1e9}, ToBytes: []int64{30000}}
	syn := Summarize(l, o)
	first := Summarize(l, TransferOptions{Align: AlignFirstData, At: o.At, ToBytes: o.ToBytes})
	// From the SYN, 1 s holds only the greeting; from the first data byte
	// the first two flights (acknowledged 0.4 and 0.8 s after it) too.
	if syn.Delivered[0] != 37 || first.Delivered[0] != 30037 {
		t.Errorf("delivered at 1 s: %d from the SYN (want 37), %d from the first data byte (want 30037)", syn.Delivered[0], first.Delivered[0])
	}
	if first.Origin != 2e9 || !first.HasTimeTo[0] || first.TimeTo[0] != 800e6-1000 {
		t.Errorf("origin %d, time to 30000 B %d (%v)", first.Origin, first.TimeTo[0], first.HasTimeTo[0])
	}
}

func TestCompareAlignAndKinds(t *testing.T) {
	recs := withGreeting()
	l := &Loaded{Conn: &reassembly.Conn{FirstTime: 0}, Dir: reassembly.C2S, Records: recs}
	for _, k := range compareKinds() {
		if k == string(CompareLoss) {
			continue // iperf3 UDP flows only (TestCompareLossOfIperf3 in cmd)
		}
		g := compareGraph(CompareKind(k), []CompareInput{{Label: "a", L: l}}, CompareOptions{Align: AlignFirstData})
		if len(g.Series) != 1 || g.Series[0].Name != "a" {
			t.Errorf("%s: series %v", k, g.Series)
			continue
		}
		if k == string(CompareSeq) {
			// Segments: the first of the transfer at time 0.
			if p := g.Series[0].Points; p[0].Time != -19e8 || p[1].Time != 0 {
				t.Errorf("%s: first points at %d, %d; want the greeting at -1.9 s, the transfer at 0", k, p[0].Time, p[1].Time)
			}
		}
	}
	g := compareGraph(CompareSeq, []CompareInput{{Label: "a", L: l}}, CompareOptions{Align: AlignFirstData, Time: Range{Min: 0, HasMin: true, Max: 5e8, HasMax: true}})
	for _, p := range g.Series[0].Points {
		if p.Time < 0 || p.Time > 5e8 {
			t.Fatalf("point at %d outside --from 0 --to 0.5", p.Time)
		}
	}
}

// TestThroughputBinsBounded: bins far narrower than the gaps between
// packets (1 ns over a 3 s transfer: 3·10^9 bins) give a point per bin
// holding data and one per run of empty bins, not one per bin, and the
// step curve still integrates to every byte sent.
func TestThroughputBinsBounded(t *testing.T) {
	recs := flights(400e6, []int{10, 20, 40, 40, 40, 40, 40, 40}, -1)
	o := SeriesOptions{Conn: &reassembly.Conn{FirstTime: 0}, Dir: reassembly.C2S}
	data := 0
	for _, r := range recs {
		if r.Dir == reassembly.C2S && r.Len > 0 {
			data++
		}
	}
	for _, w := range []int64{1, 1000, 1e6} {
		g := throughputGraph(recs, o, GraphParams{Window: w, Bins: true})
		s := g.lookup(SeriesThroughput)
		if s == nil || len(s.Points) > 2*data+1 {
			t.Fatalf("window %d ns: %d points for %d data segments", w, len(s.Points), data)
		}
		var bytes float64
		for i, p := range s.Points[:len(s.Points)-1] {
			next := s.Points[i+1].Time
			bytes += p.V[0] * float64(next-p.Time) / 1e9 / 8
			if p.V[0] != 0 && next-p.Time != w {
				t.Fatalf("window %d ns: a bin with data %d ns wide", w, next-p.Time)
			}
		}
		if math.Abs(bytes-270000) > 1e-6*270000 {
			t.Errorf("window %d ns: the steps hold %v bytes, want all 270000 sent", w, bytes)
		}
	}
}

func TestThroughputWindows(t *testing.T) {
	recs := flights(400e6, []int{10, 20, 40, 40, 40, 40, 40, 40}, -1)
	for i := range recs {
		if recs[i].Dir == reassembly.S2C {
			recs[i].Info.AckedFrame = 1
		}
	}
	o := SeriesOptions{Conn: &reassembly.Conn{FirstTime: 0}, Dir: reassembly.C2S}
	// 1 s is shorter than four 400 ms round trips: a warning.
	if g := throughputGraph(recs, o, GraphParams{}); len(g.Warnings) != 1 || g.Warnings[0].Kind != WarnShortWindow {
		t.Errorf("1 s window: warnings %+v", g.Warnings)
	}
	if g := throughputGraph(recs, o, GraphParams{Window: 2e9}); len(g.Warnings) != 0 {
		t.Errorf("2 s window: warnings %+v", g.Warnings)
	}
	// Four RTTs, as bins: steps 1.6 s apart from the first packet, the
	// last one closing the last bin.
	g := throughputGraph(recs, o, GraphParams{RTTs: 4, Bins: true})
	if len(g.Warnings) != 0 {
		t.Errorf("4rtt: warnings %+v", g.Warnings)
	}
	s := g.lookup(SeriesThroughput)
	if s == nil || s.Kind != Steps || len(s.Points) < 3 {
		t.Fatalf("bins: %+v", s)
	}
	var bytes float64
	for i, p := range s.Points {
		if p.Time != int64(i)*1600e6 && i < len(s.Points)-1 {
			t.Errorf("bin %d at %d, want %d", i, p.Time, int64(i)*1600e6)
		}
		if i < len(s.Points)-1 {
			bytes += p.V[0] * 1.6 / 8
		}
	}
	if bytes != 270000 {
		t.Errorf("bins hold %v bytes, want all 270000 sent", bytes)
	}
	// No RTT samples to scale by: one second, said.
	for i := range recs {
		recs[i].Info.AckedFrame = 0
	}
	if g := throughputGraph(recs, o, GraphParams{RTTs: 1}); len(g.Warnings) != 1 || g.Warnings[0].Kind != WarnNoRTTWindow {
		t.Errorf("no samples: warnings %+v", g.Warnings)
	}
}

func TestRSTWindowSkipped(t *testing.T) {
	recs := flights(100e6, []int{10, 10}, -1)
	for i := range recs {
		recs[i].Window = 65535
	}
	recs = append(recs, Record{Time: 1e9, Dir: reassembly.S2C, HasAck: true, Ack: 20001, Window: 4e6, Flags: reassembly.RST})
	o := SeriesOptions{Conn: &reassembly.Conn{FirstTime: 0}, Dir: reassembly.C2S}
	for _, g := range []*Graph{tcptraceGraph(recs, o), windowGraph(recs, o), cwndGraph(recs, o)} {
		for _, s := range g.Series {
			for _, p := range s.Points {
				if p.V[0] > 1e6 {
					t.Errorf("%s: %s point %v: the reset's window drawn", g.Kind, s.Name, p.V)
				}
			}
		}
	}
}
