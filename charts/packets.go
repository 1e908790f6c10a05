package charts

import (
	"sort"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// PacketRow is one row of `tcpviz packets`: one TCP segment of a capture
// with its analysis.
type PacketRow struct {
	File   string
	Stream int
	Start  int64     // the capture's first packet's time (time_rel_s counts from it)
	Rec    packetRec // what the row writes of its segment's analyze.Record
	// Proved are the frames of earlier retransmissions this packet proved
	// spurious (analyze.PacketInfo.Proved): PacketHold marks their rows.
	// Valid while PacketHold.Add runs, not kept.
	Proved []int64
}

type packetCol = Column[PacketRow]

// packetFlag is a boolean column of one of Wireshark's analysis flags.
func packetFlag(name string, f analyze.Flag) packetCol {
	return packetCol{name, Bool | NotNull, "", "tcp.analysis." + name + " (as tshark sets it)", func(r *PacketRow) Value { return BoolV(r.Rec.Info.Flags&f != 0) }}
}

// pathWords name the path analysis's verdicts on retransmissions and
// late originals ("" for others).
var pathWords = [...]string{
	analyze.PathRetransmitted: "loss_repair",
	analyze.PathSpurious:      "spurious",
	analyze.PathReordered:     "reordered",
	analyze.PathLostUpstream:  "lost_upstream_repair",
}

// pathWord names v, "" for none.
func pathWord(v analyze.PathVerdict) string {
	if int(v) < len(pathWords) {
		return pathWords[v]
	}
	return ""
}

// PacketsColumns are the columns of `tcpviz packets`, in order.
var PacketsColumns = Schema[PacketRow]{
	{"file", String | NotNull, "", "the capture, as named on the command line", func(r *PacketRow) Value { return StrV(r.File) }},
	{"frame", Int | NotNull, "", "the packet's number in the capture (frame.number)", func(r *PacketRow) Value { return IntV(r.Rec.Frame) }},
	{"time_epoch", Float | NotNull, "s", "seconds since 1970 (frame.time_epoch), with nine decimals", func(r *PacketRow) Value { return SecondsV(r.Rec.Time) }},
	{"time_rel_s", Float | NotNull, "s", "seconds since the capture's first TCP packet (frame.time_relative when it is TCP)", func(r *PacketRow) Value { return SecondsV(r.Rec.Time - r.Start) }},
	{"stream", Int | NotNull, "", "Wireshark's tcp.stream", func(r *PacketRow) Value { return IntV(int64(r.Stream)) }},
	{"direction", String | NotNull, "", "c2s (from the SYN sender) or s2c", func(r *PacketRow) Value { return StrV(r.Rec.Dir.String()) }},
	{"seq_rel", Int | NotNull, "", "tcp.seq: the sequence number relative to the direction's ISN, modulo 2^32 as tshark shows it", func(r *PacketRow) Value { return IntV(int64(uint32(r.Rec.Seq))) }},
	{"ack_rel", Int, "", "tcp.ack: relative to the other direction's ISN, modulo 2^32; empty without the ACK flag", func(r *PacketRow) Value { return IntV(int64(uint32(r.Rec.Ack))).Or(r.Rec.HasAck) }},
	{"len", Int | NotNull, "B", "tcp.len: payload bytes", func(r *PacketRow) Value { return IntV(int64(r.Rec.Len)) }},
	{"flags", String | NotNull, "", "the TCP flags set, joined by | (SYN|ACK)", func(r *PacketRow) Value { return StrV(r.Rec.Flags.String()) }},
	{"window", Int, "B", "tcp.window_size: the advertised window, scaled when the handshake agreed on a scale", func(r *PacketRow) Value {
		return IntV(r.Rec.Info.Window).Or(r.Rec.Info.Window >= 0)
	}},
	packetFlag("retransmission", analyze.Retransmission),
	packetFlag("fast_retransmission", analyze.FastRetransmission),
	packetFlag("spurious_retransmission", analyze.SpuriousRetrans),
	packetFlag("out_of_order", analyze.OutOfOrder),
	packetFlag("lost_segment", analyze.LostSegment),
	packetFlag("duplicate_ack", analyze.DupAck),
	{"duplicate_ack_num", Int, "", "tcp.analysis.duplicate_ack_num: which duplicate of its ACK this is; empty when not one", func(r *PacketRow) Value {
		return IntV(int64(r.Rec.Info.DupAckNum)).Or(r.Rec.Info.DupAckNum > 0)
	}},
	packetFlag("zero_window", analyze.ZeroWindow),
	packetFlag("zero_window_probe", analyze.ZeroWindowProbe),
	packetFlag("window_full", analyze.WindowFull),
	packetFlag("keep_alive", analyze.KeepAlive),
	packetFlag("window_update", analyze.WindowUpdate),
	packetFlag("ack_lost_segment", analyze.AckUnseen),
	{"bytes_in_flight", Int, "B", "tcp.analysis.bytes_in_flight; empty where tshark sets none", func(r *PacketRow) Value {
		return IntV(r.Rec.Info.BytesInFlight).Or(r.Rec.Info.BytesInFlight >= 0)
	}},
	{"ack_rtt_ms", Float, "ms", "tcp.analysis.ack_rtt: the round trip this ACK measured; empty when it acknowledges no segment exactly", func(r *PacketRow) Value {
		return FloatV(float64(r.Rec.Info.AckRTT)/1e6, 6).Or(r.Rec.Info.AckRTT != -1) // negative where time ran backwards, as tshark's
	}},
	{"path_verdict", String, "", "what the path did to a resent or late data segment: loss_repair (a resend of bytes seen here, needed as far as is known), lost_upstream_repair (a resend filling a hole here: lost before the capture point), spurious (a resend proven unneeded: its bytes had arrived, or a later D-SACK, timestamp echo or late original proved it), reordered (a late original, not resent); empty for other segments. A resend's row waits for its proof, in capture order, up to 10 s of capture time or 65,536 rows", func(r *PacketRow) Value {
		w := pathWord(r.Rec.Info.Path)
		return StrV(w).Or(w != "")
	}},
}

// packetRec is what a row keeps of its segment's analyze.Record: the
// fields its columns write, so that the rows, copied from the analysis to
// the writer's core, are small (a third of a Record's size: packets to
// CSV of the bench capture 8% faster, in two thirds of the memory).
type packetRec struct {
	Frame, Time, Seq, Ack int64
	Len                   int
	Dir                   reassembly.Direction
	Flags                 reassembly.Flags
	HasAck                bool
	Info                  packetInfo
}

// packetInfo is what a row keeps of analyze.PacketInfo.
type packetInfo struct {
	Flags                         analyze.Flag
	Path                          analyze.PathVerdict
	DupAckNum                     int
	Window, BytesInFlight, AckRTT int64
}

// setRec keeps of rec what the row writes.
func (r *PacketRow) setRec(rec *analyze.Record) {
	r.Rec = packetRec{Frame: rec.Frame, Time: rec.Time, Seq: rec.Seq, Ack: rec.Ack, Len: rec.Len, Dir: rec.Dir, Flags: rec.Flags, HasAck: rec.HasAck,
		Info: packetInfo{Flags: rec.Info.Flags, Path: rec.Info.Path, DupAckNum: rec.Info.DupAckNum, Window: rec.Info.Window, BytesInFlight: rec.Info.BytesInFlight, AckRTT: rec.Info.AckRTT}}
}

// flagNames are the TCP flag sets' texts (SYN|ACK), made once.
var flagNames = func() (t [1 << 9]string) {
	for f := range t {
		t[f] = reassembly.Flags(f).String()
	}
	return t
}()

// packetFlags are the analysis flags' columns, in order, from the 12th
// column on; duplicate_ack_num sits after the sixth.
var packetFlags = [...]analyze.Flag{analyze.Retransmission, analyze.FastRetransmission, analyze.SpuriousRetrans,
	analyze.OutOfOrder, analyze.LostSegment, analyze.DupAck,
	analyze.ZeroWindow, analyze.ZeroWindowProbe, analyze.WindowFull, analyze.KeepAlive, analyze.WindowUpdate, analyze.AckUnseen}

// packetCells writes the row of r, every column of PacketsColumns in
// their order, as the Schema's cells are (a test keeps the two equal)
// but without a Value per cell: the packets table's fast path to CSV and
// Parquet.
func packetCells(c Cells, r *PacketRow) error {
	rec := &r.Rec
	c.String(0, r.File)
	c.Int(1, rec.Frame)
	c.Seconds(2, rec.Time)
	c.Seconds(3, rec.Time-r.Start)
	c.Int(4, int64(r.Stream))
	c.String(5, rec.Dir.String())
	c.Int(6, int64(uint32(rec.Seq)))
	if rec.HasAck {
		c.Int(7, int64(uint32(rec.Ack)))
	} else {
		c.Empty(7)
	}
	c.Int(8, int64(rec.Len))
	if rec.Flags < reassembly.Flags(len(flagNames)) {
		c.String(9, flagNames[rec.Flags])
	} else {
		c.String(9, rec.Flags.String())
	}
	if rec.Info.Window >= 0 {
		c.Int(10, rec.Info.Window)
	} else {
		c.Empty(10)
	}
	// The flags' columns: six, duplicate_ack_num, six.
	var bits uint32
	for k, f := range packetFlags {
		if rec.Info.Flags == 0 {
			break // most packets: no flag
		}
		if rec.Info.Flags&f != 0 {
			bits |= 1 << k
		}
	}
	c.Bools(11, bits&0x3f, 6)
	if rec.Info.DupAckNum > 0 {
		c.Int(17, int64(rec.Info.DupAckNum))
	} else {
		c.Empty(17)
	}
	c.Bools(18, bits>>6, len(packetFlags)-6)
	i := 18 + len(packetFlags) - 6
	if rec.Info.BytesInFlight >= 0 {
		c.Int(i, rec.Info.BytesInFlight)
	} else {
		c.Empty(i)
	}
	if rec.Info.AckRTT != -1 {
		c.Float(i+1, float64(rec.Info.AckRTT)/1e6, 6)
	} else {
		c.Empty(i + 1)
	}
	if w := pathWord(rec.Info.Path); w != "" {
		c.String(i+2, w)
	} else {
		c.Empty(i + 2)
	}
	return c.EndRow()
}

// PacketHold passes packet rows on in capture order, holding a resend's
// row (loss_repair, lost_upstream_repair), and so every row after it,
// until a later packet proves it spurious or it has waited HoldTime of
// capture time or HoldRows rows: a D-SACK, an Eifel timestamp echo or a
// late original comes about a round trip after the resend, and a row's
// verdict is then the one the summary counts. Memory stays bounded by
// HoldRows rows.
type PacketHold struct {
	emit func(*PacketRow)
	rows []PacketRow // from head on, in capture order
	head int
}

// The bounds of a row's wait: 10 s covers proofs a standing queue delayed
// beyond 4 s (sq_100ms_10m_reno); the rows bound keeps memory bounded
// whatever the rate.
const (
	HoldTime = int64(10e9)
	HoldRows = 1 << 16
)

// newPacketHold returns a hold that passes rows on to emit.
func newPacketHold(emit func(*PacketRow)) *PacketHold { return &PacketHold{emit: emit} }

// waits says whether r's verdict may still change.
func waits(r *PacketRow) bool {
	return r.Rec.Info.Path == analyze.PathRetransmitted || r.Rec.Info.Path == analyze.PathLostUpstream
}

// Add takes the next row: it marks the rows it proves spurious, and
// passes on those that need not wait any more.
func (h *PacketHold) Add(r *PacketRow) {
	for _, f := range r.Proved {
		h.prove(f)
	}
	if h.head == len(h.rows) && !waits(r) {
		h.emit(r) // nothing waits: straight through
		return
	}
	h.rows = append(h.rows, *r)
	h.rows[len(h.rows)-1].Proved = nil
	h.release(r.Rec.Time, false)
}

// prove marks the held resend of frame f spurious.
func (h *PacketHold) prove(f int64) {
	q := h.rows[h.head:]
	i := sort.Search(len(q), func(i int) bool { return q[i].Rec.Frame >= f })
	for ; i < len(q) && q[i].Rec.Frame == f; i++ {
		if waits(&q[i]) {
			q[i].Rec.Info.Path = analyze.PathSpurious
		}
	}
}

// release passes on the rows at the head that need not wait: all of them
// when flush is set.
func (h *PacketHold) release(now int64, flush bool) {
	for h.head < len(h.rows) {
		r := &h.rows[h.head]
		if !flush && waits(r) && now-r.Rec.Time < HoldTime && len(h.rows)-h.head <= HoldRows {
			break
		}
		h.emit(r)
		h.head++
	}
	switch {
	case h.head == len(h.rows):
		h.rows, h.head = h.rows[:0], 0
	case h.head > HoldRows:
		n := copy(h.rows, h.rows[h.head:])
		h.rows, h.head = h.rows[:n], 0
	}
}

// Flush passes on every row held.
func (h *PacketHold) Flush() { h.release(0, true) }
