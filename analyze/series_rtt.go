package analyze

import (
	"cmp"
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

// rttSample is one measurement: the segment measured and the ACK that
// measured it.
type rttSample struct {
	frame, time int64 // the measured segment
	seq         int64
	ackFrame    int64
	rtt         int64 // ns
	repair      bool  // an ack_rtt sample Karn's rule leaves out
}

// rttGraph builds the round-trip time graph of the data sent in direction
// o.Dir: one point per sample, at the measured segment's send time (or
// sequence number), in milliseconds. Columns: rtt_ms, seq, ack_frame.
func rttGraph(recs []Record, o SeriesOptions, ro GraphParams) *Graph {
	return feed(newRTT(o, ro), recs)
}

// rttBuilder builds RTT's graph record by record.
type rttBuilder struct {
	f   *frame
	ro  GraphParams
	set seriesSet
	// Ack and Karn sampling: the sequence numbers of the segments of o.Dir
	// that may still be measured, in runs of one number (frames
	// ascending): copies of one segment resent a million times are one
	// run, and runs an ACK has passed leave.
	runs    []seqRun
	acked   int64 // the highest ACK of the other direction
	hasAck  bool
	runFrom int // runs before it have left
	// Timestamp sampling: the first segment sent with each TSval.
	first map[uint32]*tsSent
	// Ack sampling: the samples Karn's rule leaves out (the segment was
	// resent, or another went between: the ACK may time a repair), and
	// the largest of those it keeps, for the graph's note.
	repairs         int
	repairMax, kept int64
}

// seqRun is consecutive segments of one direction with one sequence
// number: frames first to last (no segment of that direction with
// another number between them), ending at end.
type seqRun struct {
	first, last, seq, end int64
}

// seqOf returns the sequence number of the segment of frame, 0 if it is
// not one of the runs'.
func (b *rttBuilder) seqOf(frame int64) int64 {
	runs := b.runs[b.runFrom:]
	i, _ := slices.BinarySearchFunc(runs, frame, func(r seqRun, f int64) int { return cmp.Compare(r.first, f) })
	if i < len(runs) && runs[i].first == frame {
		return runs[i].seq
	}
	if i > 0 && frame <= runs[i-1].last {
		return runs[i-1].seq
	}
	return 0
}

// tsSent is the first segment sent with a TSval.
type tsSent struct {
	time, frame, seq int64
	used             bool
}

func newRTT(o SeriesOptions, ro GraphParams) graphBuilder {
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
	if s.rtt < 0 || !b.f.inTime(s.time) || !o.Seq.contains(seq) || !finite(ms) {
		return
	}
	name := SeriesRTT
	if s.repair {
		name = SeriesRTTRepair
	}
	b.set.add(name, Dots, Point{Frame: s.frame, Time: s.time, V: [3]float64{ms, float64(seq), float64(s.ackFrame)}})
}

func (b *rttBuilder) graph() *Graph {
	b.f.g.Series = b.set.list(SeriesRTT, SeriesRTTRepair)
	return b.f.g
}

// analysisSample is a sample the analysis took, placed at the measured
// segment's transmission: Wireshark's ack_rtt (timed from the segment's
// first transmission) or, with karn, tcptrace's sample (Karn's rule, see
// karnDir: exactly those the summary's karn_rtt_* columns describe).
func (b *rttBuilder) analysisSample(r *Record, karn bool) (rttSample, bool) {
	if r.Dir == b.f.o.Dir {
		if r.Len > 0 || r.Flags&(reassembly.SYN|reassembly.FIN) != 0 {
			end := r.Seq + int64(r.Len) + int64(btoi(r.Flags&(reassembly.SYN|reassembly.FIN) != 0))
			if n := len(b.runs); n > b.runFrom && b.runs[n-1].seq == r.Seq {
				b.runs[n-1].last, b.runs[n-1].end = r.Frame, max(b.runs[n-1].end, end)
			} else {
				b.runs = append(b.runs, seqRun{first: r.Frame, last: r.Frame, seq: r.Seq, end: end})
			}
		}
		return rttSample{}, false
	}
	defer b.passed(r)
	rtt, frame, sent := r.Info.AckRTT, r.Info.AckedFrame, r.Time-r.Info.AckRTT
	if karn {
		rtt, frame, sent = r.Info.KarnRTT, r.Info.KarnFrame, r.Info.KarnSent
	}
	if rtt < 0 || frame <= 0 {
		return rttSample{}, false
	}
	// An ack_rtt sample Karn's rule leaves out (the segment was resent,
	// or another went between) may time a loss repair: from the first
	// transmission to the ACK after the repair.
	return rttSample{frame: frame, time: sent, seq: b.seqOf(frame), ackFrame: r.Frame, rtt: rtt, repair: !karn && r.Info.KarnRTT < 0}, true
}

// passed lets the runs an ACK has passed go, from the first: a segment
// is measured (Wireshark's ack_rtt, tcptrace's sample) by the ACK that
// first covers its end, not by a later one.
func (b *rttBuilder) passed(r *Record) {
	if !r.HasAck || r.Flags&reassembly.SYN != 0 {
		return
	}
	if b.hasAck && r.Ack <= b.acked {
		return
	}
	b.acked, b.hasAck = r.Ack, true
	for b.runFrom < len(b.runs) && b.runs[b.runFrom].end <= b.acked {
		b.runFrom++
	}
	if b.runFrom > 1024 && b.runFrom > len(b.runs)/2 {
		b.runs = b.runs[:copy(b.runs, b.runs[b.runFrom:])]
		b.runFrom = 0
	}
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
