package charts

import (
	"strconv"

	"tcpviz/analyze"
)

// PacketRow is one row of `tcpviz packets`: one TCP segment of a capture
// with its analysis.
type PacketRow struct {
	File   string
	Stream int
	Start  int64 // the capture's first packet's time (time_rel_s counts from it)
	Rec    *analyze.Record
}

type packetCol = Column[PacketRow]

// packetFlag is a boolean column of one of Wireshark's analysis flags.
func packetFlag(name string, f analyze.Flag) packetCol {
	return packetCol{name, Bool, "", "tcp.analysis." + name + " (as tshark sets it)", func(r *PacketRow) Value { return BoolV(r.Rec.Info.Flags.Has(f)) }}
}

// pathWords name the path analysis's verdicts.
var pathWords = map[analyze.PathVerdict]string{
	analyze.PathNew:           "new",
	analyze.PathRetransmitted: "retransmitted",
	analyze.PathSpurious:      "spurious",
	analyze.PathReordered:     "reordered",
}

// PacketsColumns are the columns of `tcpviz packets`, in order.
var PacketsColumns = Schema[PacketRow]{
	{"file", String, "", "the capture, as named on the command line", func(r *PacketRow) Value { return StrV(r.File) }},
	{"frame", Int, "", "the packet's number in the capture (frame.number)", func(r *PacketRow) Value { return IntV(r.Rec.Frame) }},
	{"time_epoch", Float, "s", "seconds since 1970 (frame.time_epoch), with nine decimals", func(r *PacketRow) Value { return SecondsV(r.Rec.Time) }},
	{"time_rel_s", Float, "s", "seconds since the capture's first TCP packet (frame.time_relative when it is TCP)", func(r *PacketRow) Value { return SecondsV(r.Rec.Time - r.Start) }},
	{"stream", Int, "", "Wireshark's tcp.stream", func(r *PacketRow) Value { return IntV(int64(r.Stream)) }},
	{"direction", String, "", "c2s (from the SYN sender) or s2c", func(r *PacketRow) Value { return StrV(r.Rec.Dir.String()) }},
	{"seq_rel", Int, "", "tcp.seq: the sequence number relative to the direction's ISN, modulo 2^32 as tshark shows it", func(r *PacketRow) Value { return IntV(int64(uint32(r.Rec.Seq))) }},
	{"ack_rel", Int, "", "tcp.ack: relative to the other direction's ISN, modulo 2^32; empty without the ACK flag", func(r *PacketRow) Value { return IntV(int64(uint32(r.Rec.Ack))).Or(r.Rec.HasAck) }},
	{"len", Int, "B", "tcp.len: payload bytes", func(r *PacketRow) Value { return IntV(int64(r.Rec.Len)) }},
	{"flags", String, "", "the TCP flags set, joined by | (SYN|ACK)", func(r *PacketRow) Value { return StrV(r.Rec.Flags.String()) }},
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
	{"path_verdict", String, "", "what the path analysis made of a data segment as it was captured: new, retransmitted, spurious (its bytes had already arrived: at a receiver-side capture) or reordered (late, not resent); empty for others. A retransmission proven unneeded later (D-SACK) stays retransmitted here; summary counts it", func(r *PacketRow) Value {
		w, ok := pathWords[r.Rec.Info.Path]
		return StrV(w).Or(ok)
	}},
}

// PacketsCSV writes rows of every column of PacketsColumns, in their
// order, as Schema.WriteCSV writes them (a test keeps the two equal) but
// without a Value per cell: the file's text and each set of TCP flags'
// are made once. The packets table's CSV, a million rows a second.
func PacketsCSV(cw *CSVWriter) func(*PacketRow) error {
	var file string
	var fileTxt []byte
	flagTxt := map[uint16][]byte{}
	flagBits := [...]analyze.Flag{analyze.Retransmission, analyze.FastRetransmission, analyze.SpuriousRetrans, analyze.OutOfOrder,
		analyze.LostSegment, analyze.DupAck}
	flagBits2 := [...]analyze.Flag{analyze.ZeroWindow, analyze.ZeroWindowProbe, analyze.WindowFull, analyze.KeepAlive,
		analyze.WindowUpdate, analyze.AckUnseen}
	boolean := func(b bool) {
		cw.buf = append(cw.buf, ',')
		switch {
		case cw.Times == TimeSpreadsheet && b:
			cw.buf = append(cw.buf, '1')
		case cw.Times == TimeSpreadsheet:
			cw.buf = append(cw.buf, '0')
		case b:
			cw.buf = append(cw.buf, "true"...)
		default:
			cw.buf = append(cw.buf, "false"...)
		}
	}
	return func(r *PacketRow) error {
		rec := r.Rec
		if fileTxt == nil || r.File != file {
			file, fileTxt = r.File, appendCSVField(nil, r.File)
		}
		b := append(cw.buf, fileTxt...)
		b = strconv.AppendInt(append(b, ','), rec.Frame, 10)
		b = AppendSeconds(append(b, ','), rec.Time)
		b = AppendSeconds(append(b, ','), rec.Time-r.Start)
		b = strconv.AppendInt(append(b, ','), int64(r.Stream), 10)
		b = append(append(b, ','), rec.Dir.String()...)
		b = strconv.AppendUint(append(b, ','), uint64(uint32(rec.Seq)), 10)
		b = append(b, ',')
		if rec.HasAck {
			b = strconv.AppendUint(b, uint64(uint32(rec.Ack)), 10)
		}
		b = strconv.AppendInt(append(b, ','), int64(rec.Len), 10)
		ft, ok := flagTxt[uint16(rec.Flags)]
		if !ok {
			ft = appendCSVField(nil, rec.Flags.String())
			flagTxt[uint16(rec.Flags)] = ft
		}
		b = append(append(b, ','), ft...)
		b = append(b, ',')
		if rec.Info.Window >= 0 {
			b = strconv.AppendInt(b, rec.Info.Window, 10)
		}
		cw.buf = b
		for _, f := range flagBits {
			boolean(rec.Info.Flags.Has(f))
		}
		cw.buf = append(cw.buf, ',')
		if rec.Info.DupAckNum > 0 {
			cw.buf = strconv.AppendInt(cw.buf, int64(rec.Info.DupAckNum), 10)
		}
		for _, f := range flagBits2 {
			boolean(rec.Info.Flags.Has(f))
		}
		cw.buf = append(cw.buf, ',')
		if rec.Info.BytesInFlight >= 0 {
			cw.buf = strconv.AppendInt(cw.buf, rec.Info.BytesInFlight, 10)
		}
		cw.buf = append(cw.buf, ',')
		if rec.Info.AckRTT != -1 {
			cw.buf = strconv.AppendFloat(cw.buf, float64(rec.Info.AckRTT)/1e6, 'f', 6, 64)
		}
		cw.buf = append(cw.buf, ',')
		if w, ok := pathWords[rec.Info.Path]; ok {
			cw.buf = append(cw.buf, w...)
		}
		return cw.endRow()
	}
}
