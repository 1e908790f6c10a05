package pcapngcraft

import (
	"encoding/binary"
	"sort"

	"tcpviz/internal/gencap"
)

// Packet is one packet of a crafted transfer: when it was captured, which
// way it went, and its IPv4 packet (headers; the payload only when the
// transfer carries it, else IPLen counts it).
type Packet struct {
	Time  int64 // nanoseconds since the epoch
	C2S   bool  // client to server
	IP    []byte
	IPLen int // the IP packet's length on the wire (its total length)
	Kind  string
}

// Transfer describes a short TCP transfer captured at the client: the
// handshake, Segments data segments of MSS bytes from the client with an
// ACK from the server for every second one (and for the last), then FIN,
// FIN-ACK and the last ACK.
type Transfer struct {
	Start    int64 // time of the SYN, ns since the epoch
	RTT, Gap int64 // round trip, and time between data segments (ns)
	Segments int
	MSS      int
	Payload  bool // capture the payload bytes (else headers only)
	Client   [4]byte
	Server   [4]byte
	CPort    uint16
	SPort    uint16
	ISN      [2]uint32 // client's, server's
	// WindowUpdates lists the server ACKs (1-based, in order) after
	// which the server sends a window update: the same ACK, a larger
	// window.
	WindowUpdates []int
}

// jitter makes times fall off round numbers, differently for each
// packet (under 100 µs, less than any two packets are apart), so a wrong
// resolution cannot hide behind even values.
func jitter(i int) int64 { return int64((i+1)*7919*13) % 100003 }

// Packets returns the transfer's packets in capture (time) order.
func (t Transfer) Packets() []Packet {
	type event struct {
		at       int64
		c2s      bool
		flags    byte
		seq, ack uint32
		win      uint16
		payload  int
		syn      bool
		kind     string
	}
	var ev []event
	cs, ss := t.ISN[0], t.ISN[1]
	at := t.Start
	ev = append(ev, event{at, true, 0x02, cs, 0, 64240, 0, true, "syn"},
		event{at + t.RTT, false, 0x12, ss, cs + 1, 65160, 0, true, "syn-ack"})
	at += t.RTT + t.Gap/4
	ev = append(ev, event{at, true, 0x10, cs + 1, ss + 1, 502, 0, false, "ack"})
	updates := map[int]bool{}
	for _, k := range t.WindowUpdates {
		updates[k] = true
	}
	seq, acks, last := cs+1, 0, int64(0)
	for i := 0; i < t.Segments; i++ {
		at += t.Gap
		ev = append(ev, event{at, true, 0x18, seq, ss + 1, 502, t.MSS, false, "data"})
		seq += uint32(t.MSS)
		if i%2 == 1 || i == t.Segments-1 {
			acks++
			last = at + t.RTT
			ev = append(ev, event{last, false, 0x10, ss + 1, seq, 1000, 0, false, "ack"})
			if updates[acks] {
				ev = append(ev, event{last + t.Gap/3, false, 0x10, ss + 1, seq, 1400, 0, false, "window-update"})
			}
		}
	}
	at = last + t.Gap
	ev = append(ev, event{at, true, 0x11, seq, ss + 1, 502, 0, false, "fin"},
		event{at + t.RTT, false, 0x11, ss + 1, seq + 1, 1400, 0, false, "fin-ack"},
		event{at + t.RTT + t.Gap/4, true, 0x10, seq + 1, ss + 2, 502, 0, false, "ack"})
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].at < ev[j].at })
	out := make([]Packet, len(ev))
	for i, e := range ev {
		ip := tcpIP(t, e.c2s, e.flags, e.seq, e.ack, e.win, e.payload, e.syn)
		out[i] = Packet{Time: e.at + jitter(i), C2S: e.c2s, IPLen: len(ip) + e.payload, Kind: e.kind}
		if t.Payload {
			for k := 0; k < e.payload; k++ {
				ip = append(ip, byte('a'+(int(e.seq)+k)%26))
			}
		}
		out[i].IP = ip
	}
	return out
}

// tcpIP builds an IPv4 + TCP header (the SYNs with MSS, SACK permitted
// and window scale options).
func tcpIP(t Transfer, c2s bool, flags byte, seq, ack uint32, win uint16, payload int, syn bool) []byte {
	be := binary.BigEndian
	var opts []byte
	if syn {
		opts = []byte{2, 4, 0, 0, 4, 2, 1, 3, 3, 7}
		be.PutUint16(opts[2:], uint16(t.MSS))
		for len(opts)%4 != 0 {
			opts = append(opts, 1) // NOP
		}
	}
	hl := 20 + len(opts)
	ip := make([]byte, 20+hl)
	ip[0], ip[8], ip[9] = 0x45, 64, 6
	be.PutUint16(ip[2:], uint16(20+hl+payload))
	be.PutUint16(ip[4:], uint16(seq^ack)&0x7fff)
	be.PutUint16(ip[6:], 0x4000)
	src, dst, sp, dp := t.Client, t.Server, t.CPort, t.SPort
	if !c2s {
		src, dst, sp, dp = dst, src, dp, sp
	}
	copy(ip[12:], src[:])
	copy(ip[16:], dst[:])
	be.PutUint16(ip[10:], gencap.IPChecksum(ip[:20]))
	tcp := ip[20:]
	be.PutUint16(tcp[0:], sp)
	be.PutUint16(tcp[2:], dp)
	be.PutUint32(tcp[4:], seq)
	be.PutUint32(tcp[8:], ack)
	tcp[12], tcp[13] = byte(hl/4)<<4, flags
	be.PutUint16(tcp[14:], win)
	copy(tcp[20:], opts)
	return ip
}

// Link types (LINKTYPE_*) the crafted captures use.
const (
	LinkEthernet = 1
	LinkRaw      = 101
	LinkSLL      = 113
)

// Frame puts an IP packet in a link-layer header: it returns the frame
// and its length on the wire.
func Frame(link uint16, p Packet) ([]byte, uint32) {
	var h []byte
	switch link {
	case LinkEthernet:
		h = []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 8, 0}
		if !p.C2S {
			h = []byte{2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0}
		}
	case LinkSLL:
		h = []byte{0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 8, 0}
		if !p.C2S {
			h[1], h[11] = 0, 2 // to us, from the other side
		}
	case LinkRaw:
	default:
		panic("pcapngcraft: unknown link type")
	}
	return append(h, p.IP...), uint32(len(h) + p.IPLen)
}
