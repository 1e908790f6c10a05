package analyze

import (
	"math"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// conn is a connection for series tests: client 10.0.0.1:40512, server
// 10.0.0.2:5201, first packet at t0.
const t0 = int64(1_700_000_000_000_000_000)

func testConn() *reassembly.Conn {
	c := &reassembly.Conn{Stream: 3, FirstTime: t0,
		Client: netip.MustParseAddrPort("10.0.0.1:40512"), Server: netip.MustParseAddrPort("10.0.0.2:5201")}
	c.Dir[reassembly.C2S].Base = 1<<32 | 1000
	c.Dir[reassembly.S2C].Base = 1<<32 | 5000
	return c
}

// builder makes records of a bulk transfer from the client.
type builder struct {
	recs  []Record
	frame int64
}

func (b *builder) add(r Record) *Record {
	b.frame++
	r.Frame = b.frame
	r.Time = t0 + r.Time
	if r.Info.AckRTT == 0 {
		r.Info.AckRTT = -1
	}
	if r.Info.KarnRTT == 0 {
		r.Info.KarnRTT = -1
	}
	if r.Info.BytesInFlight == 0 {
		r.Info.BytesInFlight = -1
	}
	b.recs = append(b.recs, r)
	return &b.recs[len(b.recs)-1]
}

// data adds a client segment at ms milliseconds.
func (b *builder) data(ms float64, seq int64, n int, f Flag) *Record {
	return b.add(Record{Time: int64(ms * 1e6), Dir: reassembly.C2S, Seq: seq, Len: n,
		Flags: reassembly.ACK | reassembly.PSH, HasAck: true, Ack: 1, Window: 65535, Info: PacketInfo{Flags: f}})
}

// ack adds a server ACK at ms milliseconds.
func (b *builder) ack(ms float64, ack, win int64, f Flag) *Record {
	return b.add(Record{Time: int64(ms * 1e6), Dir: reassembly.S2C, Seq: 1, Ack: ack,
		Flags: reassembly.ACK, HasAck: true, Window: win, Info: PacketInfo{Flags: f}})
}

func names(g *Graph) map[string]int {
	m := map[string]int{}
	for _, s := range g.Series {
		m[s.Name] = len(s.Points)
	}
	return m
}

func TestTCPTraceSeries(t *testing.T) {
	var b builder
	b.add(Record{Dir: reassembly.C2S, Flags: reassembly.SYN})
	b.add(Record{Time: 100e6, Dir: reassembly.S2C, Flags: reassembly.SYN | reassembly.ACK, HasAck: true, Ack: 1, Window: 1000})
	b.data(200, 1, 1000, 0)
	b.data(201, 1001, 1000, 0)
	b.data(202, 3001, 1000, LostSegment)
	r := b.ack(300, 1001, 10000, 0)
	r.NSACK, r.SACK[0] = 1, [2]int64{3001, 4001}
	b.ack(301, 1001, 10000, DupAck)
	b.data(302, 2001, 1000, Retransmission)
	b.data(303, 1501, 500, OutOfOrder)
	b.ack(400, 4001, 0, ZeroWindow)
	b.add(Record{Time: 500e6, Dir: reassembly.S2C, Flags: reassembly.RST})

	o := SeriesOptions{Conn: testConn(), Dir: reassembly.C2S}
	g := tcptraceGraph(b.recs, o)
	want := map[string]int{SeriesData: 3, SeriesRetrans: 1, SeriesOutOfOrder: 1, SeriesLost: 1,
		SeriesAck: 4, SeriesRecvWindow: 4, SeriesSACK: 1, SeriesDupAck: 1, SeriesZeroWindow: 1, SeriesSYN: 2}
	got := names(g)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("series %s: %d points, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if got[SeriesRST] != 0 {
		t.Errorf("RST without ACK flag has no ACK value and should not be marked: %v", got)
	}
	d := g.lookup(SeriesData).Points[2]
	if d.Frame != 5 || d.V[0] != 3001 || d.V[1] != 4001 {
		t.Errorf("third data point = %+v, want frame 5, seq 3001..4001", d)
	}
	if x := g.seconds(d.Time); g.XCol >= 0 || math.Abs(x-0.202) > 1e-12 {
		t.Errorf("x is column %d, time %v s; want the time, 0.202 s", g.XCol, x)
	}
	if w := g.lookup(SeriesRecvWindow).Points[1]; w.V[0] != 1001+10000 {
		t.Errorf("window line = %v, want ack + window", w.V[0])
	}
	// Zoom: time and sequence windows, absolute numbers.
	o.Time = Range{Min: 201e6, Max: 302e6, HasMin: true, HasMax: true}
	o.Seq = Range{Min: 2000, Max: 3500, HasMin: true, HasMax: true}
	g = tcptraceGraph(b.recs, o)
	got = names(g)
	if got[SeriesData] != 2 || got[SeriesRetrans] != 1 || got[SeriesAck] != 0 || got[SeriesSACK] != 1 {
		t.Errorf("zoomed series = %v", got)
	}
	if !g.Zoom.HasXMin || g.Zoom.XMin != 0.201 || g.Zoom.YMax != 3500 {
		t.Errorf("zoom = %+v", g.Zoom)
	}
	o = SeriesOptions{Conn: testConn(), Dir: reassembly.C2S, AbsoluteSeq: true, AbsoluteTime: true}
	g = tcptraceGraph(b.recs, o)
	if p := g.lookup(SeriesData).Points[0]; p.V[0] != 1001 {
		t.Errorf("absolute seq = %v, want 1001 (ISN 1000 + 1)", p.V[0])
	}
	if g.TimeOrigin != 0 {
		t.Errorf("absolute time origin = %d", g.TimeOrigin)
	}
}

func TestStevens(t *testing.T) {
	var b builder
	b.data(0, 1, 100, 0)
	b.data(1, 101, 100, 0)
	b.data(2, 1, 100, Retransmission)
	b.ack(3, 201, 100, 0)
	g := stevensGraph(b.recs, SeriesOptions{Conn: testConn()})
	if got := names(g); got[SeriesData] != 2 || got[SeriesRetrans] != 1 || len(got) != 2 {
		t.Errorf("series = %v", got)
	}
}

func TestThroughput(t *testing.T) {
	var b builder
	// 1000 bytes every 10 ms for 2 s: 800 kbit/s; ACKs 100 ms later.
	for i := 0; i < 200; i++ {
		b.data(float64(i*10), int64(1+i*1000), 1000, 0)
		b.ack(float64(i*10+100), int64(1+(i+1)*1000), 65535, 0)
	}
	g := throughputGraph(b.recs, SeriesOptions{Conn: testConn()}, GraphParams{})
	tp, gp := g.lookup(SeriesThroughput), g.lookup(SeriesGoodput)
	if tp == nil || gp == nil {
		t.Fatalf("series = %v", names(g))
	}
	if v := tp.Points[150].V[0]; v != 800e3 {
		t.Errorf("throughput after 1.5 s = %v, want 800000", v)
	}
	if v := gp.Points[150].V[0]; v != 800e3 {
		t.Errorf("goodput = %v, want 800000", v)
	}
	if v := tp.Points[9].V[0]; v != 80e3 {
		t.Errorf("throughput at 90 ms over a 1 s window = %v, want 80000", v)
	}
	g = throughputGraph(b.recs, SeriesOptions{Conn: testConn()}, GraphParams{Segments: 5})
	if v := g.lookup(SeriesThroughput).Points[50].V[0]; v != 800e3 {
		t.Errorf("5-segment throughput = %v, want 800000", v)
	}
	for _, s := range g.Series {
		for _, p := range s.Points {
			if !finite(p.V[:]...) {
				t.Fatalf("%s: non-finite value %v", s.Name, p.V)
			}
		}
	}
}

func TestRTTSampling(t *testing.T) {
	var b builder
	s1 := b.data(0, 1, 100, 0)
	s1.HasTS, s1.TSVal = true, 10
	s2 := b.data(1, 101, 100, 0)
	s2.HasTS, s2.TSVal = true, 11
	s3 := b.data(2, 201, 100, 0)
	s3.HasTS, s3.TSVal = true, 12
	a1 := b.ack(50, 101, 1000, 0)
	a1.HasTS, a1.TSEcr = true, 10
	a1.Info.AckRTT, a1.Info.AckedFrame = 50e6, 1
	a1.Info.KarnRTT, a1.Info.KarnFrame, a1.Info.KarnSent = 50e6, 1, t0
	// Segment 2 is lost and retransmitted at 300 ms.
	r := b.data(300, 101, 100, Retransmission)
	r.HasTS, r.TSVal = true, 40
	a2 := b.ack(352, 301, 1000, 0)
	a2.HasTS, a2.TSEcr = true, 40
	a2.Info.AckRTT, a2.Info.AckedFrame = 350e6, 3

	o := SeriesOptions{Conn: testConn()}
	samples := func(s RTTSampling, bySeq bool) []Point {
		g := rttGraph(b.recs, o, GraphParams{Sampling: s, BySeq: bySeq})
		if sr := g.lookup(SeriesRTT); sr != nil {
			return sr.Points
		}
		return nil
	}
	// ack_rtt measures segment 3 across segment 2's repair: a sample of
	// its own series, which Karn's rule leaves out.
	ack := samples(SampleAck, false)
	repair := rttGraph(b.recs, o, GraphParams{Sampling: SampleAck}).lookup(SeriesRTTRepair)
	if len(ack) != 1 || ack[0].V[0] != 50 || repair == nil || len(repair.Points) != 1 {
		t.Fatalf("ack samples = %+v, across the repair %+v", ack, repair)
	}
	if p := repair.Points[0]; p.V[0] != 350 || p.Frame != 3 || p.Time != t0+2e6 || p.V[2] != 6 {
		t.Errorf("the sample across the repair: %+v", p)
	}
	// The Karn series plots the analysis's tcptrace samples (here only
	// segment 1's: the analysis saw segment 2 retransmitted before the ACK
	// covering segment 3, an intervening transmission), and nothing else.
	karn := samples(SampleKarn, false)
	if len(karn) != 1 || karn[0].V[0] != 50 || karn[0].Frame != 1 || karn[0].Time != t0 || karn[0].V[2] != 4 {
		t.Errorf("karn samples = %+v", karn)
	}
	ts := samples(SampleTimestamps, true)
	if len(ts) != 2 || ts[1].V[0] != 52 || ts[1].V[1] != 101 || ts[1].Frame != 5 {
		t.Errorf("timestamp samples = %+v", ts)
	}
	g := rttGraph(b.recs, o, GraphParams{Sampling: SampleTimestamps, BySeq: true})
	if x := g.Series[0].Points[1].V[1]; g.XCol != 1 || x != 101 {
		t.Errorf("by seq: x is column %d, V[1] = %v; want column 1, 101", g.XCol, x)
	}
}

func TestWindowSeries(t *testing.T) {
	var b builder
	r := b.data(0, 1, 100, 0)
	r.Info.BytesInFlight = 100
	b.data(1, 101, 100, 0) // no bytes in flight from the analysis: no point
	b.ack(50, 101, 3000, 0)
	b.ack(51, 201, -1, 0) // unknown window: no point
	g := windowGraph(b.recs, SeriesOptions{Conn: testConn()})
	if got := names(g); got[SeriesInFlight] != 1 || got[SeriesAdvertised] != 1 || got[SeriesInFlightUnSACKed] != 0 {
		t.Errorf("series = %v, want no bytes not SACKed without SACK", got)
	}
}

// TestWindowNotSACKed: while the receiver holds data SACKed above its
// cumulative ACK, the window graph also draws the bytes sent and not
// acknowledged less those SACKed, at each segment sent: a resend of the
// hole counts the whole flight, not Wireshark's flight to its own end.
// Before any SACK, and once the cumulative ACK has passed the SACKed
// bytes, the two are one and only Wireshark's is drawn.
func TestWindowNotSACKed(t *testing.T) {
	var b builder
	for i := range int64(10) {
		b.data(float64(i), 1+i*1000, 1000, 0).Info.BytesInFlight = (i + 1) * 1000
	}
	a := b.ack(100, 1001, 65535, 0) // [1001, 2001) lost, [2001, 6001) SACKed
	a.NSACK, a.SACK[0] = 1, [2]int64{2001, 6001}
	b.data(101, 1001, 1000, Retransmission).Info.BytesInFlight = 1000
	b.data(102, 10001, 1000, 0).Info.BytesInFlight = 10000
	b.ack(200, 10001, 65535, 0) // the hole repaired: all but the last
	b.data(201, 11001, 1000, 0).Info.BytesInFlight = 2000
	g := windowGraph(b.recs, SeriesOptions{Conn: testConn()})
	var got []float64
	for _, s := range g.Series {
		if s.Name == SeriesInFlightUnSACKed {
			for _, p := range s.Points {
				got = append(got, p.V[0])
			}
		}
	}
	want := []float64{5000, 6000}
	if !slices.Equal(got, want) {
		t.Errorf("bytes in flight not SACKed %v, want %v", got, want)
	}
	// A time window from the resend on draws the same values there: the
	// scoreboard read the ACKs before it.
	g = windowGraph(b.recs, SeriesOptions{Conn: testConn(), Time: Range{Min: 101e6, HasMin: true}})
	got = got[:0]
	for _, s := range g.Series {
		if s.Name == SeriesInFlightUnSACKed {
			for _, p := range s.Points {
				got = append(got, p.V[0])
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("from the resend on: bytes in flight not SACKed %v, want %v", got, want)
	}
}

// TestCwndSeries: slow start doubling per round, a fast retransmit after
// duplicate ACKs (ssthresh half the flight), then a timeout.
func TestCwndSeries(t *testing.T) {
	var b builder
	seq := int64(1)
	ms := 0.0
	send := func(n int) {
		for i := 0; i < n; i++ {
			r := b.data(ms, seq, 1000, 0)
			r.Info.BytesInFlight = int64(i+1) * 1000
			seq += 1000
			ms += 0.1
		}
	}
	for _, n := range []int{2, 4, 8} { // three rounds of 100 ms
		send(n)
		ms += 100
		b.ack(ms, seq, 1<<20, 0)
	}
	// The window is 16000 now (slow start: each ACK adds what it
	// acknowledged), which the fourth round fills.
	send(16)
	ms += 100
	b.ack(ms, seq-16000, 1<<20, DupAck) // the round's first segment lost
	b.ack(ms+0.5, seq-16000, 1<<20, DupAck)
	b.ack(ms+1, seq-16000, 1<<20, DupAck)              // the third: without SACK, fast retransmit
	r := b.data(ms+2, seq-16000, 1000, Retransmission) // fast retransmit
	r.Info.BytesInFlight = 8000
	recovered := seq // everything sent before the loss
	ms += 10
	for i := range 3 { // new data during recovery
		r = b.data(ms, seq, 1000, 0)
		r.Info.BytesInFlight = 8000
		seq += 1000
		ms += float64(i) * 0.1
	}
	ms += 100
	b.ack(ms, recovered, 1<<20, 0) // recovery ends: 3000 still in flight
	r = b.data(ms+1, seq, 1000, 0) // the first segment after it: the window settled at
	r.Info.BytesInFlight = 4000
	seq += 1000
	ms += 400
	r = b.data(ms, recovered, 1000, Retransmission) // a timeout: the first unacknowledged again, no signal since the last new ACK
	r.Info.BytesInFlight = 4000
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	cw := g.lookup(SeriesCwnd)
	if cw == nil || len(cw.Points) < 4 || cw.Points[0].V[0] != 2000 || cw.Points[1].V[0] != 4000 || cw.Points[2].V[0] != 8000 {
		t.Fatalf("cwnd estimate %+v", cw)
	}
	// The first loss's ssthresh is Reno's half of the window at the loss
	// (8000 of 16000); the timeout's, with nothing after it, half its
	// flight.
	ss := g.lookup(SeriesSsthresh)
	if ss == nil || len(ss.Points) != 2 || ss.Points[0].V[0] != 8000 || ss.Points[1].V[0] != 2000 {
		t.Errorf("ssthresh %+v: want 8000 at the first loss, 2000 at the timeout", ss)
	}
	if f, to := g.lookup(SeriesFastLoss), g.lookup(SeriesRTOLoss); f == nil || to == nil || len(f.Points) != 1 || len(to.Points) != 1 {
		t.Errorf("loss marks: fast %+v, timeout %+v", f, to)
	}
	// The largest estimate is the fourth round's window, 16000.
	if !g.Zoom.HasYMax || g.Zoom.YMax != 24000 {
		t.Errorf("y zoom %+v: want the 1 MB window cut at 1.5 × 16000", g.Zoom)
	}
}

// TestCwndNoEpisodeForProbes: a tail-loss probe (the last segment sent
// again, earlier ones still unacknowledged, no duplicate ACK) and a
// resend of bytes already acknowledged start no loss episode: the
// kernel does not reduce its window for them (kn_pep_cubic_loss: three
// such resends were drawn as timeouts).
func TestCwndNoEpisodeForProbes(t *testing.T) {
	var b builder
	seq, ms := int64(1), 0.0
	for range 5 {
		r := b.data(ms, seq, 1000, 0)
		r.Info.BytesInFlight = seq + 999
		seq += 1000
		ms += 0.1
	}
	b.ack(ms+50, 2001, 1<<20, 0)
	b.data(ms+80, seq-1000, 1000, Retransmission) // the probe: the last segment again
	b.ack(ms+100, seq, 1<<20, 0)
	b.data(ms+110, seq-2000, 1000, Retransmission|SpuriousRetrans) // already acknowledged
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if f, to := g.lookup(SeriesFastLoss), g.lookup(SeriesRTOLoss); f != nil || to != nil {
		t.Errorf("loss marks: fast %+v, timeout %+v; want none", f, to)
	}
	// The same resend of the last segment with the one before it lost
	// (three duplicate ACKs came: no SACK) is a fast retransmit.
	b = builder{}
	seq, ms = 1, 0
	for range 5 {
		b.data(ms, seq, 1000, 0)
		seq += 1000
		ms += 0.1
	}
	b.ack(ms+50, 2001, 1<<20, 0)
	b.ack(ms+51, 2001, 1<<20, DupAck)
	b.ack(ms+51.2, 2001, 1<<20, DupAck)
	b.ack(ms+51.4, 2001, 1<<20, DupAck)
	b.data(ms+52, 2001, 1000, Retransmission)
	if f := cwndGraph(b.recs, SeriesOptions{Conn: testConn()}).lookup(SeriesFastLoss); f == nil || len(f.Points) != 1 {
		t.Errorf("fast retransmit marks %+v, want one", f)
	}
}

// TestGraphSeriesInRegistry: every series a graph draws is among the
// names its registry entry says it may draw (which --hide accepts), BBR's
// view of the cwnd graph included (pipe and bdp-estimate at
// gt_bbr_loss2's sender had been refused by --hide).
func TestGraphSeriesInRegistry(t *testing.T) {
	for _, capture := range []string{"truth-extra/gt_bbr_loss2.tx.pcap", "lossy_sll2.pcap", "geo_short.pcap"} {
		ld, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", capture)), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range Graphs("") {
			g := spec.Draw(ld.Records, SeriesOptions{Conn: ld.Conn, Dir: ld.Dir}, GraphParams{})
			for _, s := range g.Series {
				if len(s.Points) > 0 && !slices.Contains(spec.Series, s.Name) {
					t.Errorf("%s: the %s graph draws %s, not among its registry's series %v", capture, spec.Kind, s.Name, spec.Series)
				}
			}
		}
	}
}

// TestBBRViewDrawsDeliveryRate: a BBR sender's cwnd graph draws each
// round's delivery rate times the least RTT beside the BDP estimate (its
// largest of ten), near it once the bandwidth is found; a CUBIC sender's
// draws the delivery rate, not the BDP (BBR's model).
func TestBBRViewDrawsDeliveryRate(t *testing.T) {
	draw := func(capture string) *Graph {
		ld, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", capture)), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := lookupGraph(GraphCwnd)
		return spec.Draw(ld.Records, SeriesOptions{Conn: ld.Conn, Dir: ld.Dir}, GraphParams{})
	}
	g := draw("truth-extra/gt_bbr_loss2.tx.pcap")
	d, bdp := g.lookup(SeriesDelivery), g.lookup(SeriesBDP)
	if d == nil || bdp == nil || len(d.Points) < 10 {
		t.Fatalf("BBR sender: delivery rate %v, BDP %v: want both drawn", d != nil, bdp != nil)
	}
	var top, most float64
	for _, p := range d.Points {
		top = max(top, p.V[0])
	}
	for _, p := range bdp.Points {
		most = max(most, p.V[0])
	}
	if top > most*1.001 || top < most*0.5 {
		t.Errorf("the largest round's delivery rate × least RTT %.0f, the largest BDP estimate %.0f: want the BDP the largest, the rounds near it", top, most)
	}
	if g := draw("lossy_sll2.pcap"); g.lookup(SeriesDelivery) == nil || g.lookup(SeriesBDP) != nil {
		t.Error("a CUBIC sender's cwnd graph: want the delivery rate drawn, not BBR's BDP")
	}
}

// TestGraphsOfCommand: the registry's entries of a command are its
// styles, the default first; every graph with none named, in report
// order; compare's own entry; nothing for a command that draws no graph.
func TestGraphsOfCommand(t *testing.T) {
	kinds := func(gs []GraphSpec) string {
		var out []string
		for _, g := range gs {
			out = append(out, string(g.Kind))
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ command, want string }{
		{"seq", "seq,stevens"}, {"rtt", "rtt"}, {"compare", "compare"}, {"streams", ""},
		{"", "seq,stevens,tput,rtt,window,cwnd"},
	} {
		if got := kinds(Graphs(c.command)); got != c.want {
			t.Errorf("Graphs(%q) = %s, want %s", c.command, got, c.want)
		}
	}
	if gs := Graphs("seq"); gs[0].Style != "tcptrace" || gs[1].Style != "stevens" || len(gs[0].Params) == 0 {
		t.Errorf("seq's styles %q, %q, params %v: want tcptrace (with the --style parameter), then stevens", gs[0].Style, gs[1].Style, gs[0].Params)
	}
}
