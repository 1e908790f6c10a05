package analyze

import "tcpviz/reassembly"

// Flag is one of Wireshark's tcp.analysis.* per-packet flags.
type Flag uint32

// Per-packet analysis flags, named after Wireshark's fields.
const (
	Retransmission     Flag = 1 << iota // tcp.analysis.retransmission (also set for fast and spurious)
	FastRetransmission                  // tcp.analysis.fast_retransmission
	SpuriousRetrans                     // tcp.analysis.spurious_retransmission
	OutOfOrder                          // tcp.analysis.out_of_order
	LostSegment                         // tcp.analysis.lost_segment (previous segment not captured)
	DupAck                              // tcp.analysis.duplicate_ack
	ZeroWindow                          // tcp.analysis.zero_window
	ZeroWindowProbe                     // tcp.analysis.zero_window_probe
	ZeroWindowProbeAck                  // tcp.analysis.zero_window_probe_ack
	WindowFull                          // tcp.analysis.window_full
	KeepAlive                           // tcp.analysis.keep_alive
	KeepAliveAck                        // tcp.analysis.keep_alive_ack
	WindowUpdate                        // tcp.analysis.window_update
	AckUnseen                           // tcp.analysis.ack_lost_segment (ACKed segment that wasn't captured)
	ReusedPorts                         // tcp.analysis.reused_ports
	CaptureDuplicate                    // the same packet captured twice (tcpviz's own; not a Wireshark flag)
)

// PacketInfo is the analysis of one segment.
type PacketInfo struct {
	Flags Flag
	// DupAckNum is Wireshark's tcp.analysis.duplicate_ack_num (0 if not a
	// duplicate ACK) and DupAckOf the frame of the original ACK.
	DupAckNum int
	DupAckOf  int64
	// BytesInFlight is tcp.analysis.bytes_in_flight, -1 when not set.
	BytesInFlight int64
	// AckRTT is tcp.analysis.ack_rtt in nanoseconds, -1 when this segment
	// acknowledges no segment exactly; AckedFrame is the frame it acks.
	AckRTT     int64
	AckedFrame int64
	// KarnRTT is the tcptrace-style sample (Karn's rule, see karnDir) this
	// ACK gave for the other direction's data, in ns, -1 when none: the
	// very samples the summary's karn_rtt_* columns describe. KarnFrame
	// and KarnSent are the measured segment's frame and send time.
	KarnRTT, KarnFrame, KarnSent int64
	// Window is the advertised receive window in bytes, as Wireshark's
	// tcp.window_size: scaled when the handshake agreed on a scale, the
	// header's value unscaled when the scale is unknown or none was agreed
	// (ScaleFactor says which), never scaled on a SYN.
	Window int64
	// ScaleFactor is tcp.window_size_scalefactor: the multiplier applied
	// to the header's window (1<<shift), -1 when the scale is unknown (no
	// handshake seen), -2 when the handshake said no scaling, 0 for a SYN
	// (never scaled).
	ScaleFactor int32
	// Path is the path analysis's verdict on a data segment (see Path):
	// what the path did, beside Wireshark's Flags, which it never changes.
	// PathNone when the path was analysed elsewhere (a summary run's
	// analyzer, see Run).
	Path PathVerdict
	// Proved are the frames of earlier retransmissions this segment proved
	// spurious (its D-SACK, its timestamp echo, a late original: see
	// Path), in the order proven: valid until the next segment is
	// analysed (Run's OnSegment: during the call). None when the path was
	// analysed elsewhere; a kept Record (Loaded.Records, KeepTo) has none.
	Proved []int64
}

// Record is a segment with its analysis: what the graphs of one connection
// are drawn from. Seq and Ack are relative to the ISN of their direction.
type Record struct {
	Frame  int64
	Time   int64 // ns since the epoch
	Dir    reassembly.Direction
	Seq    int64 // relative sequence number (SeqAbs - base)
	Ack    int64 // relative acknowledgement number (of the other direction)
	Len    int   // payload length on the wire
	Flags  reassembly.Flags
	HasAck bool
	Window int64 // scaled receive window advertised by the sender of this segment
	NSACK  int
	SACK   [4][2]int64 // relative SACK blocks [left, right)
	TSVal  uint32
	TSEcr  uint32
	HasTS  bool
	// SACKCut: the segment's SACK option ran past the bytes captured, its
	// blocks not all known (reassembly.Options.SACKCut); SACKPart: bytes
	// of the block after the whole ones (reassembly.Options.SACKPart),
	// in SACK[NSACK] where 4 or more: its left edge, and its right's
	// leading bytes with the rest zero.
	SACKCut  bool
	SACKPart uint8
	// SACKOK: a SYN's SACK-permitted option (RFC 2018).
	SACKOK bool
	IPID   uint16 // IPv4 identification (0 for IPv6)
	Info   PacketInfo
}

// newRecord makes the Record of segment s, numbered as its connection
// was when s was tracked.
func newRecord(s *reassembly.Segment, info PacketInfo) Record {
	r := Record{
		Frame: s.Frame, Time: s.Time, Dir: s.Dir,
		Seq:    s.RelSeq(s.Dir, s.SeqAbs),
		Len:    s.PayloadLen,
		Flags:  s.Flags,
		HasAck: s.Flags&reassembly.ACK != 0,
		Window: info.Window,
		TSVal:  s.Opt.TSVal, TSEcr: s.Opt.TSEcr, HasTS: s.Opt.HasTimestamp, IPID: s.IPID,
		SACKOK: s.Flags&reassembly.SYN != 0 && s.Opt.SACKPermitted,
		Info:   info,
	}
	r.Info.Proved = nil // the segment's news, not the record's
	if r.HasAck {
		r.Ack = s.RelSeq(s.Dir.Reverse(), s.AckAbs)
		r.SACKCut = s.Opt.SACKCut
		for i := 0; i < int(s.Opt.NSACK); i++ {
			b := s.Opt.SACK[i]
			// SACK edges are unwrapped next to the ACK they come with.
			r.SACK[r.NSACK] = [2]int64{s.RelSeq(s.Dir.Reverse(), s.NearAck(b.Left)), s.RelSeq(s.Dir.Reverse(), s.NearAck(b.Right))}
			r.NSACK++
		}
		if n := s.Opt.SACKPart; r.SACKCut && n >= 4 && r.NSACK < len(r.SACK) {
			b := s.Opt.SACK[r.NSACK]
			r.SACKPart = n
			r.SACK[r.NSACK] = [2]int64{s.RelSeq(s.Dir.Reverse(), s.NearAck(b.Left)), s.RelSeq(s.Dir.Reverse(), s.NearAck(b.Right))}
		}
	}
	return r
}
