package analyze

import (
	"fmt"

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
func RTT(recs []Record, o SeriesOptions, ro RTTOptions) *Graph {
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
	var samples []rttSample
	switch ro.Sampling {
	case SampleKarn:
		samples = analysisSamples(recs, o.Dir, true)
	case SampleTimestamps:
		samples = timestampSamples(recs, o.Dir)
	default:
		samples = analysisSamples(recs, o.Dir, false)
	}
	var set seriesSet
	for _, s := range samples {
		seq := f.seq(o.Dir, s.seq)
		ms := float64(s.rtt) / 1e6
		if s.rtt < 0 || !f.inTime(s.time) || !o.Seq.Contains(seq) || !finite(ms) {
			continue
		}
		set.add(SeriesRTT, Dots, Point{Frame: s.frame, Time: s.time, V: [3]float64{ms, float64(seq), float64(s.ackFrame)}})
	}
	g.Series = set.list(SeriesRTT)
	return g
}

// analysisSamples are samples the analysis took, each placed at the
// measured segment's transmission: Wireshark's ack_rtt (timed from the
// segment's first transmission) or, with karn, tcptrace's samples (Karn's
// rule, see karnDir: exactly those the summary's karn_rtt_* columns
// describe).
func analysisSamples(recs []Record, d reassembly.Direction, karn bool) []rttSample {
	seqOf := map[int64]int64{}
	var out []rttSample
	for i := range recs {
		r := &recs[i]
		if r.Dir == d {
			if r.Len > 0 || r.Flags&(reassembly.SYN|reassembly.FIN) != 0 {
				seqOf[r.Frame] = r.Seq
			}
			continue
		}
		rtt, frame, sent := r.Info.AckRTT, r.Info.AckedFrame, r.Time-r.Info.AckRTT
		if karn {
			rtt, frame, sent = r.Info.KarnRTT, r.Info.KarnFrame, r.Info.KarnSent
		}
		if rtt < 0 || frame <= 0 {
			continue
		}
		out = append(out, rttSample{frame: frame, time: sent, seq: seqOf[frame], ackFrame: r.Frame, rtt: rtt})
	}
	return out
}

// timestampSamples time, for each TSval the sender used, the first ACK
// echoing it from the first segment that carried it.
func timestampSamples(recs []Record, d reassembly.Direction) []rttSample {
	type sent struct {
		time, frame, seq int64
		used             bool
	}
	first := map[uint32]*sent{}
	var out []rttSample
	for i := range recs {
		r := &recs[i]
		if !r.HasTS {
			continue
		}
		if r.Dir == d {
			if r.Len == 0 && r.Flags&(reassembly.SYN|reassembly.FIN) == 0 {
				continue
			}
			if _, ok := first[r.TSVal]; !ok {
				first[r.TSVal] = &sent{time: r.Time, frame: r.Frame, seq: r.Seq}
			}
			continue
		}
		if !r.HasAck || r.TSEcr == 0 {
			continue
		}
		s := first[r.TSEcr]
		if s == nil || s.used {
			continue
		}
		s.used = true
		out = append(out, rttSample{frame: s.frame, time: s.time, seq: s.seq, ackFrame: r.Frame, rtt: r.Time - s.time})
	}
	return out
}
