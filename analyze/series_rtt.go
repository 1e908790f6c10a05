package analyze

import (
	"fmt"
	"slices"

	"tcpviz/reassembly"
)

// RTTSampling chooses which round-trip time samples are taken.
type RTTSampling string

// RTT sampling rules.
const (
	// SampleAck takes Wireshark's tcp.analysis.ack_rtt, as the analysis
	// computed it: an ACK exactly covering a segment's end, timed from its
	// first transmission.
	SampleAck RTTSampling = "ack"
	// SampleKarn takes tcptrace's samples (Karn's rule: no sample from a
	// retransmitted segment, nor across an intervening transmission), the
	// ones the summary's karn_rtt_* columns describe.
	SampleKarn RTTSampling = "karn"
	// SampleTimestamps uses TCP timestamps: an ACK echoing TSecr=X measures
	// from the first segment sent with TSval=X. It keeps measuring through
	// loss recovery.
	SampleTimestamps RTTSampling = "timestamps"
)

// rttSamplingNames say where each sampling's samples come from.
var rttSamplingNames = map[RTTSampling]string{
	SampleAck:        "ack_rtt",
	SampleKarn:       "Karn's rule, as tcptrace",
	SampleTimestamps: "TCP timestamps",
}

// ParseRTTSampling checks a sampling name.
func ParseRTTSampling(s string) (RTTSampling, error) {
	switch r := RTTSampling(s); r {
	case SampleAck, SampleKarn, SampleTimestamps:
		return r, nil
	}
	return "", fmt.Errorf("unknown RTT sampling %q (want ack, karn or timestamps)", s)
}

// RTTOptions choose the samples of the RTT graph and its x axis.
type RTTOptions struct {
	Sampling RTTSampling // "" is SampleAck
	BySeq    bool        // x is the sequence number of the measured segment
}

// rttSample is one measurement: the segment measured and the ACK that
// measured it.
type rttSample struct {
	frame, time int64 // the measured segment
	seq         int64
	ackFrame    int64
	rtt         int64 // ns
}

// RTT builds the round-trip time graph of the data sent in direction
// o.Dir: one point per sample, at the measured segment's send time (or
// sequence number), in milliseconds. Columns: rtt_ms, seq, ack_frame.
func RTT(recs []Record, o SeriesOptions, ro RTTOptions) *Graph { return feed(newRTT(o, ro), recs) }

// rttBuilder builds RTT's graph record by record.
type rttBuilder struct {
	f   *frame
	ro  RTTOptions
	set seriesSet
	// Ack and Karn sampling: the sequence number of each segment of
	// o.Dir that can be measured, by frame (frames ascending).
	frames, seqs []int64
	// Timestamp sampling: the first segment sent with each TSval.
	first map[uint32]*tsSent
}

// tsSent is the first segment sent with a TSval.
type tsSent struct {
	time, frame, seq int64
	used             bool
}

func newRTT(o SeriesOptions, ro RTTOptions) graphBuilder {
	f := newFrame(GraphRTT, o)
	g := f.g
	if ro.Sampling == "" {
		ro.Sampling = SampleAck
	}
	g.Y = Axis{Label: "round-trip time, " + string(ro.Sampling) + " samples", Unit: "ms"}
	g.Columns = []string{"rtt_ms", seqColumn, "ack_frame"}
	if ro.BySeq {
		g.XCol = 1
		g.X = Axis{Label: seqAxisLabel, Unit: "B"}
		if o.AbsoluteSeq {
			g.X.Label = seqAxisLabelAbs
		}
		// x is the sequence number: the time window still filters the
		// samples, the sequence window zooms the x axis.
		g.Zoom.XMin, g.Zoom.HasXMin = float64(o.Seq.Min), o.Seq.HasMin
		g.Zoom.XMax, g.Zoom.HasXMax = float64(o.Seq.Max), o.Seq.HasMax
	}
	return &rttBuilder{f: f, ro: ro, first: map[uint32]*tsSent{}}
}

func (b *rttBuilder) add(r *Record) {
	var s rttSample
	var ok bool
	if b.ro.Sampling == SampleTimestamps {
		s, ok = b.timestampSample(r)
	} else {
		s, ok = b.analysisSample(r, b.ro.Sampling == SampleKarn)
	}
	if !ok {
		return
	}
	o := &b.f.o
	seq := b.f.seq(o.Dir, s.seq)
	ms := float64(s.rtt) / 1e6
	if s.rtt < 0 || !b.f.inTime(s.time) || !o.Seq.Contains(seq) || !finite(ms) {
		return
	}
	b.set.add(SeriesRTT, Dots, Point{Frame: s.frame, Time: s.time, V: [3]float64{ms, float64(seq), float64(s.ackFrame)}})
}

func (b *rttBuilder) graph() *Graph {
	b.f.g.Series = b.set.list(SeriesRTT)
	return b.f.g
}

// analysisSample is a sample the analysis took, placed at the measured
// segment's transmission: Wireshark's ack_rtt (timed from the segment's
// first transmission) or, with karn, tcptrace's sample (Karn's rule, see
// karnDir: exactly those the summary's karn_rtt_* columns describe).
func (b *rttBuilder) analysisSample(r *Record, karn bool) (rttSample, bool) {
	if r.Dir == b.f.o.Dir {
		if r.Len > 0 || r.Flags&(reassembly.SYN|reassembly.FIN) != 0 {
			b.frames, b.seqs = append(b.frames, r.Frame), append(b.seqs, r.Seq)
		}
		return rttSample{}, false
	}
	rtt, frame, sent := r.Info.AckRTT, r.Info.AckedFrame, r.Time-r.Info.AckRTT
	if karn {
		rtt, frame, sent = r.Info.KarnRTT, r.Info.KarnFrame, r.Info.KarnSent
	}
	if rtt < 0 || frame <= 0 {
		return rttSample{}, false
	}
	var seq int64
	if i, ok := slices.BinarySearch(b.frames, frame); ok {
		seq = b.seqs[i]
	}
	return rttSample{frame: frame, time: sent, seq: seq, ackFrame: r.Frame, rtt: rtt}, true
}

// timestampSample times, for each TSval the sender used, the first ACK
// echoing it from the first segment that carried it.
func (b *rttBuilder) timestampSample(r *Record) (rttSample, bool) {
	if !r.HasTS {
		return rttSample{}, false
	}
	if r.Dir == b.f.o.Dir {
		if r.Len == 0 && r.Flags&(reassembly.SYN|reassembly.FIN) == 0 {
			return rttSample{}, false
		}
		if _, ok := b.first[r.TSVal]; !ok {
			b.first[r.TSVal] = &tsSent{time: r.Time, frame: r.Frame, seq: r.Seq}
		}
		return rttSample{}, false
	}
	if !r.HasAck || r.TSEcr == 0 {
		return rttSample{}, false
	}
	s := b.first[r.TSEcr]
	if s == nil || s.used {
		return rttSample{}, false
	}
	s.used = true
	return rttSample{frame: s.frame, time: s.time, seq: s.seq, ackFrame: r.Frame, rtt: r.Time - s.time}, true
}
