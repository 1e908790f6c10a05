package charts

import (
	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// FlowRow is one row of `tcpviz flows`: a flow of any transport.
type FlowRow struct {
	File string
	Flow *analyze.FlowResult
}

func flowInt(f func(r *analyze.FlowResult) int64) func(*FlowRow) Value {
	return func(r *FlowRow) Value { return IntV(f(r.Flow)) }
}

// appInt is an application column: null when the flow was not recognised.
func appInt(f func(a *analyze.AppStats) int64) func(*FlowRow) Value {
	return func(r *FlowRow) Value {
		if r.Flow.App == nil {
			return IntV(0).Or(false)
		}
		return IntV(f(r.Flow.App))
	}
}

// hasPorts reports whether the flow's protocol has ports.
func hasPorts(r *FlowRow) bool { return r.Flow.Proto == 6 || r.Flow.Proto == 17 }

// FlowsColumns are the columns of `tcpviz flows`, in order.
var FlowsColumns = Schema[FlowRow]{
	{"file", String, "", "the capture, as named on the command line (- for standard input)", func(r *FlowRow) Value { return StrV(r.File) }},
	{"flow", Int, "", "the flow's number within its protocol: tcp.stream for TCP, udp.stream for UDP (Wireshark's numbers), in order of first packet for other IP protocols", flowInt(func(f *analyze.FlowResult) int64 { return int64(f.Flow) })},
	{"proto", String, "", "transport: tcp, udp, icmp, icmpv6, ... (ip-proto-N for others)", func(r *FlowRow) Value { return StrV(reassembly.ProtoName(r.Flow.Proto)) }},
	{"src_addr", String, "", "address of the side that sent the flow's first packet", func(r *FlowRow) Value { return StrV(r.Flow.Src.Addr().String()) }},
	{"src_port", Int, "", "its port (empty for protocols without ports)", func(r *FlowRow) Value { return IntV(int64(r.Flow.Src.Port())).Or(hasPorts(r)) }},
	{"dst_addr", String, "", "address of the other side", func(r *FlowRow) Value { return StrV(r.Flow.Dst.Addr().String()) }},
	{"dst_port", Int, "", "its port (empty for protocols without ports)", func(r *FlowRow) Value { return IntV(int64(r.Flow.Dst.Port())).Or(hasPorts(r)) }},
	{"first_time", Time, "", "time of the flow's first packet, RFC 3339 UTC with nanoseconds", func(r *FlowRow) Value { return TimeV(r.Flow.FirstTime) }},
	{"duration_s", Float, "s", "from the first to the last packet of the flow", func(r *FlowRow) Value { return SecondsV(r.Flow.Duration) }},
	{"packets", Int, "packets", "packets both ways (a datagram reassembled from IP fragments counts once)", flowInt(func(f *analyze.FlowResult) int64 { return f.Packets[0] + f.Packets[1] })},
	{"bytes", Int, "B", "transport payload both ways: tcp.len, udp.length − 8, or the IP payload for other protocols", flowInt(func(f *analyze.FlowResult) int64 { return f.Bytes[0] + f.Bytes[1] })},
	{"throughput_bps", Float, "bit/s", "bytes × 8 / duration_s (empty for a flow of one instant)", func(r *FlowRow) Value {
		b := r.Flow.Bytes[0] + r.Flow.Bytes[1]
		return FloatV(float64(b)*8/(float64(r.Flow.Duration)/1e9), 0).Or(r.Flow.Duration > 0)
	}},
	{"app", String, "", "the application recognised from its own headers (iperf3 for iperf3 UDP tests), empty if none", func(r *FlowRow) Value {
		if r.Flow.App == nil {
			return StrV("").Or(false)
		}
		return StrV(r.Flow.App.Name)
	}},
	{"app_packets", Int, "packets", "datagrams the application sent by its sequence numbers (the highest seen; iperf3's Total Datagrams)", appInt(func(a *analyze.AppStats) int64 { return a.Packets })},
	{"app_lost_packets", Int, "packets", "iperf3's lost datagrams: gaps in the sequence numbers, less the datagrams that arrived late to fill them", appInt(func(a *analyze.AppStats) int64 { return a.Lost })},
	{"app_out_of_order_packets", Int, "packets", "datagrams whose sequence number was not above all earlier ones (iperf3's out-of-order count)", appInt(func(a *analyze.AppStats) int64 { return a.OutOfOrder })},
	{"app_jitter_ms", Float, "ms", "RFC 3550 interarrival jitter from the sender's timestamps and the capture's arrival times, as iperf3 computes it (a receiver-side capture matches iperf3's report)", func(r *FlowRow) Value {
		if r.Flow.App == nil {
			return FloatV(0, 3).Or(false)
		}
		return FloatV(r.Flow.App.JitterMs, 3)
	}},
	{"src_packets", Int, "packets", "packets sent by src", flowInt(func(f *analyze.FlowResult) int64 { return f.Packets[0] })},
	{"dst_packets", Int, "packets", "packets sent by dst", flowInt(func(f *analyze.FlowResult) int64 { return f.Packets[1] })},
	{"src_bytes", Int, "B", "payload bytes sent by src", flowInt(func(f *analyze.FlowResult) int64 { return f.Bytes[0] })},
	{"dst_bytes", Int, "B", "payload bytes sent by dst", flowInt(func(f *analyze.FlowResult) int64 { return f.Bytes[1] })},
	{"reassembled_packets", Int, "packets", "datagrams reassembled from IP fragments", flowInt(func(f *analyze.FlowResult) int64 { return f.Fragmented })},
	{"app_sender", String, "", "which side sent the application's data: src, or dst (iperf3 --reverse)", func(r *FlowRow) Value {
		switch {
		case r.Flow.App == nil:
			return StrV("").Or(false)
		case r.Flow.App.FromDst:
			return StrV("dst")
		}
		return StrV("src")
	}},
	{"app_received_packets", Int, "packets", "datagrams that carried the application's header", appInt(func(a *analyze.AppStats) int64 { return a.Received })},
}
