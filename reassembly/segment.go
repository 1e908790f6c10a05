package reassembly

import (
	"net/netip"
	"strings"
)

// Flags are the TCP header flags, as in the header's low 9 bits.
type Flags uint16

// TCP flags.
const (
	FIN Flags = 1 << iota
	SYN
	RST
	PSH
	ACK
	URG
	ECE
	CWR
	NS
)

// Has reports whether all of f2 are set in f.
func (f Flags) Has(f2 Flags) bool { return f&f2 == f2 }

func (f Flags) String() string {
	names := [...]string{"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "NS"}
	var parts []string
	for i, n := range names {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// SACKBlock is one selective-acknowledgement block, [Left, Right).
type SACKBlock struct{ Left, Right uint32 }

// Options are the TCP options tcpviz uses.
type Options struct {
	MSS           uint16 // 0: absent
	WScale        int8   // -1: absent
	SACKPermitted bool
	HasTimestamp  bool
	// SACKCut: a SACK option ran past the bytes captured (the snapshot
	// length cut it: IPv6 with timestamps at 96 bytes keeps 6 bytes of
	// its first block's 8), so the blocks it carried are not all known:
	// the whole ones before the cut are read (NSACK), and SACKPart bytes
	// of the next (0–7), in SACK[NSACK] where NSACK < 4: its Left where
	// SACKPart is 4 or more, then the leading bytes of its Right, the
	// rest zero.
	SACKCut      bool
	SACKPart     uint8
	TSVal, TSEcr uint32
	NSACK        uint8
	SACK         [4]SACKBlock
}

// Direction of a segment within its connection.
type Direction uint8

// Directions: client to server (the SYN sender's side) and back.
const (
	C2S Direction = 0
	S2C Direction = 1
)

func (d Direction) String() string {
	if d == S2C {
		return "s2c"
	}
	return "c2s"
}

// Reverse returns the other direction.
func (d Direction) Reverse() Direction { return d ^ 1 }

// MainDirection is the direction that carried more of bytes (payload
// by direction): a connection's main one, c2s when equal.
func MainDirection(bytes [2]int64) Direction {
	if bytes[S2C] > bytes[C2S] {
		return S2C
	}
	return C2S
}

// Segment is one TCP packet as decoded from a capture, plus what the
// connection tracker adds (stream, direction, unwrapped numbers). It is a
// plain value: copying it is cheap and it holds no references into the
// capture buffer.
type Segment struct {
	Frame     int64 // 1-based packet number in the capture file
	Time      int64 // nanoseconds since the Unix epoch
	Interface int32 // pcapng interface index

	Src, Dst         netip.Addr
	SrcPort, DstPort uint16
	IPVersion        uint8
	TTL              uint8  // IPv4 TTL or IPv6 hop limit
	IPID             uint16 // IPv4 identification (0 for IPv6)

	Seq, Ack   uint32 // raw header values
	Flags      Flags
	Window     uint16 // raw, unscaled
	PayloadLen int    // TCP payload bytes on the wire, from the IP length
	Captured   int    // TCP payload bytes present in the capture
	WireLen    int    // bytes of the whole frame on the wire
	Opt        Options

	// Set by the Tracker.
	Stream int // Wireshark's tcp.stream
	// SeqAbs and AckAbs are the unwrapped 64-bit sequence and ACK numbers.
	// Their low 32 bits equal Seq and Ack; the first sequence number seen
	// in a direction is placed at 1<<32 + Seq so that numbers slightly
	// before it stay positive.
	SeqAbs, AckAbs uint64
	// ConnFirstTime and ClientSYNSeen are the connection's FirstTime and
	// Dir[C2S].SYN as they were once this segment was tracked: a tracker
	// running ahead of the analysis (Scanner.PipelineTracker) may have
	// changed the connection since.
	ConnFirstTime int64
	// Base holds each direction's Base (see Conn.RelSeq) as it was once
	// this segment was tracked, by Direction: what relative numbers of
	// this segment count from.
	Base          [2]uint64
	Dir           Direction // C2S or S2C
	ClientSYNSeen bool
	// Duplicate is set when this packet is the same packet captured again
	// (another interface, or -i any on a forwarding host).
	Duplicate bool
	// Lone is set on a connection's first packet, a SYN alone, that the
	// tracker keeps in a compact record (a SYN flood's connections): the
	// analysis may wait, for the tracker hands the SYN again, exactly as
	// it was, with the connection's second packet (First) or with its
	// retired Conn (Conn.LoneSYN).
	Lone bool
	// Note is the caller's: what a hook of PipelineTrackerAhead found of
	// the segment, for Scan's side to read. (Here, in the bools'
	// padding: a larger Segment is copied slower.)
	Note uint8
	// InICMP is set by the decoder on a TCP header quoted in an ICMP or
	// ICMPv6 error (PMTUD's "fragmentation needed", traceroute's "time
	// exceeded"): a packet of its connection, as Wireshark counts it, that
	// no analysis reads. Src, Dst, the ports, Seq, Ack, Flags and Window
	// are the quoted ones; PayloadLen is 0. (In the bools' padding too.)
	InICMP bool
	// NoTime is set when the capture gave the packet no timestamp
	// (Packet.NoTime): Time is a neighbour's.
	NoTime bool
	// First is set on the second packet of a connection whose first was
	// Lone: that SYN, exactly as Track returned it.
	First *Segment
}

// RelSeq returns an unwrapped sequence number of direction d relative to
// that direction's base as it was when the segment was tracked: what
// Conn.RelSeq returned then.
func (s *Segment) RelSeq(d Direction, abs uint64) int64 {
	return int64(abs - s.Base[d])
}

// NearAck unwraps v, a number of the sequence space the ACK number
// counts in (a SACK edge), next to the ACK number (AckAbs).
func (s *Segment) NearAck(v uint32) uint64 { return s.AckAbs + uint64(int64(int32(v-s.Ack))) }

// SACK returns SACK block i (RFC 2018) unwrapped next to the ACK number
// (AckAbs), false when it is empty or inverted.
func (s *Segment) SACK(i int) (lo, hi uint64, ok bool) {
	if i >= int(s.Opt.NSACK) || i >= len(s.Opt.SACK) {
		return 0, 0, false
	}
	b := s.Opt.SACK[i]
	lo, hi = s.NearAck(b.Left), s.NearAck(b.Right)
	if hi <= lo || lo > 1<<62 {
		return 0, 0, false
	}
	return lo, hi, true
}

// DSACK returns the segment's D-SACK block (RFC 2883), which reports
// bytes received twice: its first SACK block, when it lies below the
// cumulative ACK or inside the second block (IsDSACK).
func (s *Segment) DSACK() (lo, hi uint64, ok bool) {
	lo, hi, ok = s.SACK(0)
	if !ok {
		return 0, 0, false
	}
	lo2, hi2, second := s.SACK(1)
	if !IsDSACK(lo, hi, s.AckAbs, second, lo2, hi2) {
		return 0, 0, false
	}
	return lo, hi, true
}

// IsDSACK reports whether a first SACK block [lo, hi) that came with an
// ACK of ack is a D-SACK (RFC 2883): below the ACK, or inside the second
// block [lo2, hi2) when there is one. Numbers are unwrapped, in any one
// numbering (absolute or relative).
func IsDSACK[T int64 | uint64](lo, hi, ack T, second bool, lo2, hi2 T) bool {
	if hi <= lo {
		return false
	}
	return hi <= ack || second && hi2 > lo2 && lo >= lo2 && hi <= hi2
}

// SeqEnd is the unwrapped sequence number after this segment, counting SYN
// and FIN as one byte each.
func (s *Segment) SeqEnd() uint64 {
	end := s.SeqAbs + uint64(s.PayloadLen)
	if s.Flags&(SYN|FIN) != 0 {
		end++
	}
	return end
}

// SrcAddrPort returns the sender's address and port.
func (s *Segment) SrcAddrPort() netip.AddrPort { return netip.AddrPortFrom(s.Src, s.SrcPort) }

// DstAddrPort returns the receiver's address and port.
func (s *Segment) DstAddrPort() netip.AddrPort { return netip.AddrPortFrom(s.Dst, s.DstPort) }
