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

func TestFindSlowStart(t *testing.T) {
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
			ss := FindSlowStart(flights(rtt, tt.perRound, tt.lossAt), reassembly.C2S)
			if ss.Reason != tt.wantReason || ss.Rounds != tt.wantRounds || ss.Flight != tt.wantFlight {
				t.Errorf("got %+v; want reason %q after %d rounds, flight %d", ss, tt.wantReason, tt.wantRounds, tt.wantFlight)
			}
		})
	}
}

func TestSummarizeDelivered(t *testing.T) {
	recs := flights(400e6, []int{10, 20, 40, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80}, -1)
	tr := Summarize(recs, reassembly.C2S)
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
// reaches the receive window, a few round trips in.
func TestSlowStartOnGEOCapture(t *testing.T) {
	recs, d := loadMainConnection(t, filepath.Join("..", "testdata", "geo_short.pcap"))
	ss := FindSlowStart(recs, d)
	// Flights of 10, 20, 40 and 74 segments (74 × 1448 bytes fill the
	// window iperf3 asked for with -w 85K), then 74 again.
	if !ss.Found || ss.Reason != "growth stopped" || ss.Flight < 100000 || ss.Flight > 115000 || ss.Rounds != 4 {
		t.Errorf("slow start %+v: want it to end after 4 rounds with about 107 KB in flight", ss)
	}
	t.Logf("slow start: %+v", ss)
}

// loadMainConnection analyses a capture and returns the records of the
// connection with the most payload, and its main direction.
func loadMainConnection(t *testing.T, path string) ([]Record, reassembly.Direction) {
	t.Helper()
	sc := capturetest.Scanner(t, path)
	a := New()
	byStream := map[int][]Record{}
	bytes := map[int][2]int64{}
	for sc.Scan() {
		s, c := sc.Segment(), sc.Conn()
		info := a.Add(c, s)
		byStream[c.Stream] = append(byStream[c.Stream], NewRecord(c, s, info))
		b := bytes[c.Stream]
		b[s.Dir] += int64(s.PayloadLen)
		bytes[c.Stream] = b
	}
	best, bestBytes := 0, int64(-1)
	for s, b := range bytes {
		if b[0]+b[1] > bestBytes || b[0]+b[1] == bestBytes && s < best {
			best, bestBytes = s, b[0]+b[1]
		}
	}
	d := reassembly.C2S
	if bytes[best][1] > bytes[best][0] {
		d = reassembly.S2C
	}
	return byStream[best], d
}

// TestStreamingLimits checks the summary's slow-start, window-limited and
// zero-window times: the GEO transfer without a proxy leaves slow start as
// the records-based estimate says and then spends most of its time held by
// the 85 KB window; behind the proxy, the proxy's window stays closed most
// of the time.
func TestStreamingLimits(t *testing.T) {
	st := mainStats(t, filepath.Join("..", "testdata", "geo_short.pcap"))
	recs, d := loadMainConnection(t, filepath.Join("..", "testdata", "geo_short.pcap"))
	want := FindSlowStart(recs, d)
	if st.SlowStart != want || want.Rounds != 4 {
		t.Errorf("streaming slow start %+v, from records %+v", st.SlowStart, want)
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
