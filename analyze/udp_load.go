package analyze

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"tcpviz/reassembly"
)

// noUDPFlowError is returned by loadUDP when the capture holds no UDP
// flow, or not the one asked for.
type noUDPFlowError struct{ Flow, Flows int }

func (e *noUDPFlowError) Error() string {
	if e.Flow < 0 {
		return "no UDP flow in the capture"
	}
	return fmt.Sprintf("no UDP flow %d", e.Flow)
}

// noUDPMatchError is pickUDP's when the filter matches none of the
// capture's Flows UDP flows.
type noUDPMatchError struct{ Flows int }

func (e *noUDPMatchError) Error() string { return "the filter matches no UDP flow" }

// pickUDP is the UDP flow loadUDP reads, found in a first pass: the
// busiest (flow -1: the most payload, the first flow of equals) of the
// flows sel matches (all without it), or flow if sel matches it. A flow
// the capture lacks is flow, for loadUDP to say so.
func pickUDP(open func() (*reassembly.Reader, error), flow int, sel reassembly.Filter) (int, error) {
	r, err := open()
	if err != nil {
		return -1, err
	}
	best, most, seen, found, flows := -1, int64(-1), false, false, 0
	_, err = Run(r, RunOptions{Keep: -1, OnFlow: func(fr *FlowResult) {
		if fr.Proto != reassembly.ProtoUDP {
			return
		}
		flows++
		seen = seen || fr.Flow == flow
		if v := fr.View(); sel != nil && !sel.Match(&v) {
			return
		}
		found = found || fr.Flow == flow
		if b := fr.Bytes[0] + fr.Bytes[1]; b > most || b == most && fr.Flow < best {
			best, most = fr.Flow, b
		}
	}})
	switch {
	case found || flow >= 0 && !seen && err == nil:
		return flow, nil
	case flow < 0 && best >= 0:
		return best, nil
	case err != nil:
		return -1, err
	case sel == nil:
		return -1, &noUDPFlowError{Flow: -1}
	case flow >= 0:
		return -1, fmt.Errorf("UDP flow %d is not among the flows the filter matches", flow)
	}
	return -1, &noUDPMatchError{Flows: flows}
}

// loadUDP reads UDP flow flow of a capture (tshark's udp.stream; -1: the
// one that carried the most payload, of those sel matches when set) as a
// connection-like Loaded, so that
// comparisons overlay UDP and TCP runs: each datagram of the direction
// that carried the most payload is a data record (sequence = the bytes
// before it), followed at the same instant by an acknowledgement of it,
// so that "delivered" is what reached the capture point (at the
// receiver: what arrived). Statistics hold the bytes, packets and
// throughput; a UDP flow has no RTT, retransmissions or windows.
func loadUDP(open func() (*reassembly.Reader, error), flow int, sel reassembly.Filter) (*Loaded, error) {
	if flow < 0 || sel != nil {
		var err error
		if flow, err = pickUDP(open, flow, sel); err != nil {
			return nil, err
		}
	}
	type dgram struct {
		frame, time  int64
		dir          reassembly.Direction
		n            int
		seq32, seq64 uint64 // iperf3's sequence number, read both ways
		has32, has64 bool
	}
	var dgrams []dgram
	var fres *FlowResult
	r, err := open()
	if err != nil {
		return nil, err
	}
	res, err := Run(r, RunOptions{Keep: -1,
		OnFlow: func(f *FlowResult) {
			if f.Proto == reassembly.ProtoUDP && f.Flow == flow {
				fres = f
			}
		},
		OnDatagram: func(d *reassembly.Datagram, f *reassembly.Flow) {
			if f.Proto == reassembly.ProtoUDP && f.Index == flow {
				dir := reassembly.C2S
				if netip.AddrPortFrom(d.Src, d.SrcPort) != f.Src {
					dir = reassembly.S2C
				}
				g := dgram{frame: d.Frame, time: d.Time, dir: dir, n: d.Length}
				if p := d.Payload; len(p) >= iperfHeader {
					g.seq32, g.has32 = uint64(binary.BigEndian.Uint32(p[8:])), true
					if len(p) >= iperfHeader+4 {
						g.seq64, g.has64 = binary.BigEndian.Uint64(p[8:]), true
					}
				}
				dgrams = append(dgrams, g)
			}
		}})
	if fres == nil {
		if err != nil {
			return nil, err
		}
		return nil, &noUDPFlowError{Flow: flow, Flows: res.Flows}
	}
	d := reassembly.MainDirection(fres.Bytes)
	c := &reassembly.Conn{Stream: flow, Client: fres.Src, Server: fres.Dst,
		FirstTime: fres.FirstTime, LastTime: fres.FirstTime + fres.Duration}
	l := &Loaded{Conn: c, Dir: d, Warnings: res.Warnings, UDP: true}
	var seq int64
	for _, g := range dgrams {
		if g.dir != d || g.n == 0 {
			continue
		}
		l.Records = append(l.Records,
			Record{Frame: g.frame, Time: g.time, Dir: d, Seq: seq, Len: g.n, Window: -1,
				Info: PacketInfo{BytesInFlight: -1, AckRTT: -1, KarnRTT: -1, Window: -1}},
			Record{Frame: g.frame, Time: g.time, Dir: d.Reverse(), Ack: seq + int64(g.n), HasAck: true, Window: -1,
				Info: PacketInfo{BytesInFlight: -1, AckRTT: -1, KarnRTT: -1, Window: -1}})
		seq += int64(g.n)
	}
	if app := fres.App; app != nil && app.Name == "iperf3" && (app.FromDst == (d == reassembly.S2C)) {
		// iperf3's own loss count over time (iperf_udp_recv), from the
		// sequence numbers read as it recognised them (32 or 64 bits).
		var sq iperfSeq
		for _, g := range dgrams {
			if g.dir != d || !g.has32 || app.Counters64 && !g.has64 {
				continue
			}
			seq := g.seq32
			if app.Counters64 {
				seq = g.seq64
			}
			sq.add(seq)
			l.AppLoss = append(l.AppLoss, Point{Frame: g.frame, Time: g.time, V: [3]float64{float64(sq.lost)}})
		}
	}
	for dd := range l.Stats {
		st := &l.Stats[dd]
		st.Stream, st.Dir, st.FirstTime, st.Duration = flow, reassembly.Direction(dd), fres.FirstTime, fres.Duration
		st.Src, st.Dst = fres.Src, fres.Dst
		if dd == int(reassembly.S2C) {
			st.Src, st.Dst = fres.Dst, fres.Src
		}
		st.Packets, st.DataPackets = fres.Packets[dd], fres.Packets[dd]
		st.DataBytes, st.UniqueBytes = fres.Bytes[dd], fres.Bytes[dd]
		st.MaxRwnd, st.MinRwnd, st.WScale = -1, -1, -1
		if fres.Duration > 0 {
			st.HasThroughput, st.ThroughputBps = true, float64(fres.Bytes[dd])*8/(float64(fres.Duration)/1e9)
		}
		st.Path.PeerMaxRwnd = -1
	}
	return l, err
}
