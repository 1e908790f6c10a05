package analyze

import (
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestRTTSampleSequence: each ack_rtt or Karn sample of the RTT graph
// carries the sequence number of the segment it measured (the frame it
// names), however the builder finds it, on every capture's busiest
// connection, both directions.
func TestRTTSampleSequence(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.pcap*"))
	for _, p := range []string{"truth/*.pcap", "lab/*.pcap"} {
		m, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), p))
		paths = append(paths, m...)
	}
	samples := 0
	for _, path := range paths {
		l, err := Load(capturetest.Opener(t, path), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		seqOf := map[int64]int64{}
		for _, r := range l.Records {
			seqOf[r.Frame] = r.Seq
		}
		for _, d := range []reassembly.Direction{reassembly.C2S, reassembly.S2C} {
			for _, sm := range []RTTSampling{SampleAck, SampleKarn} {
				g := rttGraph(l.Records, SeriesOptions{Conn: l.Conn, Dir: d}, GraphParams{Sampling: sm})
				for _, s := range g.Series {
					for _, p := range s.Points {
						if want, ok := seqOf[p.Frame]; !ok || float64(want) != p.V[1] {
							t.Fatalf("%s %s %s: the sample of frame %d has sequence number %v, the segment %d (found %v)",
								filepath.Base(path), d, sm, p.Frame, p.V[1], want, ok)
						}
						samples++
					}
				}
			}
		}
	}
	if samples < 1000 {
		t.Fatalf("only %d samples checked", samples)
	}
}

// TestRTTBuilderForgetsAcked: the RTT builder keeps, of the measured
// direction's segments, those not yet acknowledged, and the copies of
// one segment resent 100,000 times as one: it does not grow with a storm.
func TestRTTBuilderForgetsAcked(t *testing.T) {
	res, err := Run(must(reassembly.NewReader(gencap.Retransmissions(100000, 10, 1000, 25000))), RunOptions{Keep: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, sm := range []RTTSampling{SampleAck, SampleKarn} {
		b := newRTT(SeriesOptions{Conn: res.Kept, Dir: reassembly.C2S}, GraphParams{Sampling: sm}).(*rttBuilder)
		most := 0
		for i := range res.Records {
			b.add(&res.Records[i])
			most = max(most, len(b.runs)-b.runFrom)
		}
		if most > 32 || len(b.runs) > 2048 {
			t.Errorf("%s: %d segments kept at most (%d in the slice), over %d records", sm, most, len(b.runs), len(res.Records))
		}
	}
}

func must(r *reassembly.Reader, err error) *reassembly.Reader {
	if err != nil {
		panic(err)
	}
	return r
}

// TestRTTSeqOfRuns: copies of one segment make one run, and each of
// their frames is found in it; a frame no segment of the direction had
// is not.
func TestRTTSeqOfRuns(t *testing.T) {
	b := newRTT(SeriesOptions{Dir: reassembly.C2S}, GraphParams{}).(*rttBuilder)
	for i, seq := range []int64{1, 101, 101, 101, 101, 201} {
		b.add(&Record{Frame: int64(2*i + 1), Dir: reassembly.C2S, Seq: seq, Len: 100})
		b.add(&Record{Frame: int64(2*i + 2), Dir: reassembly.S2C, Seq: 1, Ack: 1, HasAck: true})
	}
	if len(b.runs) != 3 {
		t.Fatalf("%d runs, want 3: %+v", len(b.runs), b.runs)
	}
	for frame, want := range map[int64]int64{1: 1, 3: 101, 5: 101, 7: 101, 9: 101, 11: 201, 13: 0, 0: 0} {
		if got := b.seqOf(frame); got != want {
			t.Errorf("frame %d: sequence number %d, want %d", frame, got, want)
		}
	}
	b.add(&Record{Frame: 20, Dir: reassembly.S2C, Seq: 1, Ack: 201, HasAck: true})
	if live := len(b.runs) - b.runFrom; live != 1 || b.seqOf(11) != 201 || b.seqOf(3) != 0 {
		t.Errorf("after the ACK of 201: %d runs live, frame 11 at %d, frame 3 at %d", live, b.seqOf(11), b.seqOf(3))
	}
}
