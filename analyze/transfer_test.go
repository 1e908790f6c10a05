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
			ss.data(r.Time, r.Seq, int64(r.Len), r.Info)
		} else if r.HasAck {
			ss.ack(r.Time, r.Ack, r.Info)
		}
	}
	return ss.result
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
