package analyze

import (
	"tcpviz/internal/slab"
	"tcpviz/reassembly"
)

// heldSYNs are the first SYNs the Analyzer holds back (see Add), by
// stream: each as a heldSYN of 56 bytes without pointers, where a Segment
// takes 216 and a map entry more. A SYN flood leaves little else here.
type heldSYNs struct {
	at   []uint32 // by stream: 1 + the SYN's index in syns; 0: none
	syns slab.Slab[heldSYN]
}

// heldSYN is what a held SYN says that its connection does not: the
// segment is made again from it and the connection (segment).
type heldSYN struct {
	frame, time  int64
	iface        int32
	wireLen      int32
	seq, ack     uint32
	tsval, tsecr uint32
	flags        reassembly.Flags
	window, ipid uint16
	mss          uint16
	ipVersion    uint8
	ttl          uint8
	wscale       int8
	sackOK, ts   bool
}

func heldOf(s *reassembly.Segment) heldSYN {
	return heldSYN{frame: s.Frame, time: s.Time, iface: s.Interface, wireLen: int32(s.WireLen),
		seq: s.Seq, ack: s.Ack, tsval: s.Opt.TSVal, tsecr: s.Opt.TSEcr, flags: s.Flags,
		window: s.Window, ipid: s.IPID, mss: s.Opt.MSS, ipVersion: s.IPVersion, ttl: s.TTL,
		wscale: s.Opt.WScale, sackOK: s.Opt.SACKPermitted, ts: s.Opt.HasTimestamp}
}

// segment is the SYN of h, sent by c's client as c's first packet.
func (h *heldSYN) segment(c *reassembly.Conn) reassembly.Segment {
	return reassembly.Segment{Frame: h.frame, Time: h.time, Interface: h.iface,
		Src: c.Client.Addr(), Dst: c.Server.Addr(), SrcPort: c.Client.Port(), DstPort: c.Server.Port(),
		IPVersion: h.ipVersion, TTL: h.ttl, IPID: h.ipid, Seq: h.seq, Ack: h.ack, Flags: h.flags,
		Window: h.window, WireLen: int(h.wireLen),
		Opt: reassembly.Options{MSS: h.mss, WScale: h.wscale, SACKPermitted: h.sackOK, HasTimestamp: h.ts,
			TSVal: h.tsval, TSEcr: h.tsecr},
		Stream: c.Stream, SeqAbs: 1<<32 | uint64(h.seq), ConnFirstTime: h.time,
		Dir: reassembly.C2S, ClientSYNSeen: true}
}

// hold keeps s, a SYN of c to hold back, and reports whether it could:
// only a SYN that segment makes again exactly (a connection's first
// packet, from its client; the others are analysed at once).
func (h *heldSYNs) hold(c *reassembly.Conn, s *reassembly.Segment) bool {
	v := heldOf(s)
	if v.segment(c) != *s {
		return false
	}
	for len(h.at) <= c.Stream {
		h.at = append(h.at, 0)
	}
	h.at[c.Stream] = 1 + h.syns.Add(v)
	return true
}

// has reports whether a SYN of stream is held.
func (h *heldSYNs) has(stream int) bool { return stream < len(h.at) && h.at[stream] != 0 }

// get returns the SYN held for c, if any.
func (h *heldSYNs) get(c *reassembly.Conn) (reassembly.Segment, bool) {
	if !h.has(c.Stream) {
		return reassembly.Segment{}, false
	}
	return h.syns.At(h.at[c.Stream] - 1).segment(c), true
}

// drop forgets the SYN held for stream, if any.
func (h *heldSYNs) drop(stream int) {
	if h.has(stream) {
		h.syns.Free(h.at[stream] - 1)
		h.at[stream] = 0
	}
}
