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
	// SampleKarn takes the same ACKs, but only for segments never
	// retransmitted (Karn's rule: no ambiguous samples).
	SampleKarn RTTSampling = "karn"
	// SampleTimestamps uses TCP timestamps: an ACK echoing TSecr=X measures
	// from the first segment sent with TSval=X. It keeps measuring through
	// loss recovery.
	SampleTimestamps RTTSampling = "timestamps"
)

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
		samples = karnSamples(recs, o.Dir)
	case SampleTimestamps:
		samples = timestampSamples(recs, o.Dir)
	default:
		samples = ackSamples(recs, o.Dir)
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

// ackSamples are the analysis's ack_rtt values, placed at the acknowledged
// segment's first transmission.
func ackSamples(recs []Record, d reassembly.Direction) []rttSample {
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
		if r.Info.AckRTT < 0 || r.Info.AckedFrame <= 0 {
			continue
		}
		out = append(out, rttSample{frame: r.Info.AckedFrame, time: r.Time - r.Info.AckRTT,
			seq: seqOf[r.Info.AckedFrame], ackFrame: r.Frame, rtt: r.Info.AckRTT})
	}
	return out
}

// outstanding is a segment sent and not yet acknowledged.
type outstanding struct {
	seq, end    int64
	time, frame int64
	retrans     bool // this range was sent more than once
}

// karnSamples time, for each ACK that exactly covers the end of a
// segment, that segment from its transmission, unless any of its bytes
// were sent more than once.
func karnSamples(recs []Record, d reassembly.Direction) []rttSample {
	var q []outstanding // first transmissions, in sequence order
	head := 0
	var maxEnd int64
	started := false
	var out []rttSample
	for i := range recs {
		r := &recs[i]
		if r.Dir == d {
			end := r.Seq + int64(r.Len)
			if r.Flags&(reassembly.SYN|reassembly.FIN) != 0 {
				end++
			}
			if end == r.Seq {
				continue
			}
			retrans := started && r.Seq < maxEnd || r.Info.Flags&Retransmission != 0
			if retrans {
				for k := head; k < len(q); k++ {
					if q[k].seq < end && r.Seq < q[k].end {
						q[k].retrans = true
					}
				}
			}
			if !started || end > maxEnd {
				s := r.Seq
				if started && s < maxEnd {
					s = maxEnd
				}
				q = append(q, outstanding{seq: s, end: end, time: r.Time, frame: r.Frame, retrans: retrans})
				maxEnd, started = end, true
			}
			continue
		}
		if !r.HasAck {
			continue
		}
		for head < len(q) && q[head].end <= r.Ack {
			s := &q[head]
			if s.end == r.Ack && !s.retrans {
				out = append(out, rttSample{frame: s.frame, time: s.time, seq: s.seq, ackFrame: r.Frame, rtt: r.Time - s.time})
			}
			head++
		}
		if head > 1024 && head*2 > len(q) {
			q = append(q[:0], q[head:]...)
			head = 0
		}
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
