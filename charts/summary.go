package charts

import (
	"strconv"

	"tcpviz/analyze"
)

// SummaryColumns are the columns of `tcpviz summary`, in order: PRODUCT.md's
// list, then extras.
var SummaryColumns = []Column{
	{"file", String}, {"stream", Number}, {"direction", String},
	{"src_addr", String}, {"src_port", Number},
	{"dst_addr", String}, {"dst_port", Number},
	{"first_time", String}, {"duration_s", Number},
	{"packets", Number}, {"data_packets", Number}, {"data_bytes", Number}, {"unique_bytes", Number},
	{"retrans_packets", Number}, {"retrans_bytes", Number},
	{"fast_retrans_packets", Number}, {"spurious_retrans_packets", Number},
	{"out_of_order_packets", Number}, {"lost_segments", Number}, {"dup_acks", Number},
	{"zero_windows", Number}, {"window_full", Number},
	{"mss", Number}, {"wscale", Number}, {"sack_permitted", Bool}, {"timestamps", Bool},
	{"max_rwnd_bytes", Number},
	{"rtt_samples", Number}, {"rtt_min_ms", Number}, {"rtt_median_ms", Number},
	{"rtt_mean_ms", Number}, {"rtt_max_ms", Number},
	{"handshake_rtt_ms", Number}, {"throughput_bps", Number},
	{"state", String}, {"diagnosis", String},
	// Extras.
	{"rtt_stdev_ms", Number},
	{"initial_window_bytes", Number}, {"initial_window_packets", Number},
	{"max_bytes_in_flight", Number},
	{"min_rwnd_bytes", Number}, {"avg_rwnd_bytes", Number},
	{"keep_alives", Number}, {"zero_window_probes", Number}, {"window_updates", Number},
	{"triple_dup_acks", Number}, {"ack_unseen", Number}, {"capture_duplicates", Number},
	{"idle_max_ms", Number},
	{"syn_packets", Number}, {"fin_packets", Number}, {"rst_packets", Number}, {"pure_acks", Number},
	{"bottleneck_bps", Number},
	// tcptrace-style RTT (Karn's rule), as tcptrace -l prints it.
	{"karn_rtt_samples", Number}, {"karn_rtt_min_ms", Number}, {"karn_rtt_avg_ms", Number},
	{"karn_rtt_max_ms", Number}, {"karn_rtt_stdev_ms", Number},
	{"slow_start_end_s", Number}, {"slow_start_rounds", Number}, {"slow_start_flight_bytes", Number},
	{"rwnd_limited_s", Number}, {"zero_window_s", Number},
}

// SummaryRow is one row of the summary table for one direction of a
// connection of file. Empty cells are "not measurable".
func SummaryRow(file string, st *analyze.DirStats) []string {
	ss := st.SlowStart
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	ms := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	opt := func(ok bool, s string) string {
		if ok {
			return s
		}
		return ""
	}
	rtt := st.RTTSamples > 0
	karn := st.KarnRTTSamples > 0
	hs := st.HandshakeSeen
	row := []string{
		file, strconv.Itoa(st.Stream), st.Dir.String(),
		st.Src.Addr().String(), strconv.Itoa(int(st.Src.Port())),
		st.Dst.Addr().String(), strconv.Itoa(int(st.Dst.Port())),
		FormatTime(st.FirstTime), FormatSeconds(st.Duration),
		i(st.Packets), i(st.DataPackets), i(st.DataBytes), i(st.UniqueBytes),
		i(st.RetransPackets), i(st.RetransBytes),
		i(st.FastRetrans), i(st.SpuriousRetrans),
		i(st.OutOfOrder), i(st.LostSegments), i(st.DupAcks),
		i(st.ZeroWindows), i(st.WindowFull),
		opt(st.MSS > 0, strconv.Itoa(st.MSS)),
		opt(hs && st.WScale >= 0, strconv.Itoa(st.WScale)),
		opt(hs, strconv.FormatBool(st.SACKPermitted)),
		opt(hs, strconv.FormatBool(st.Timestamps)),
		opt(st.MaxRwnd >= 0, i(st.MaxRwnd)),
		i(st.RTTSamples),
		opt(rtt, ms(st.RTTMinMs)), opt(rtt, ms(st.RTTMedianMs)),
		opt(rtt, ms(st.RTTMeanMs)), opt(rtt, ms(st.RTTMaxMs)),
		opt(st.HasHandshakeRTT, ms(st.HandshakeRTTMs)),
		opt(st.HasThroughput, strconv.FormatFloat(st.ThroughputBps, 'f', 0, 64)),
		st.State, st.Diagnosis,
		opt(st.RTTSamples > 1, ms(st.RTTStd)),
		i(st.InitialWindowBytes), i(st.InitialWindowPkts),
		opt(st.MaxBytesInFlight > 0, i(st.MaxBytesInFlight)),
		opt(st.MinRwnd >= 0, i(st.MinRwnd)),
		opt(st.MaxRwnd >= 0, strconv.FormatFloat(st.AvgRwnd, 'f', 0, 64)),
		i(st.KeepAlives), i(st.ZeroWindowProbes), i(st.WindowUpdates),
		i(st.TripleDupAcks), i(st.AckUnseen), i(st.CaptureDuplicates),
		opt(st.Packets > 1, ms(st.IdleMaxMs)),
		i(st.SYNs), i(st.FINs), i(st.RSTs), i(st.PureAcks),
		opt(st.BottleneckBps > 0, strconv.FormatFloat(st.BottleneckBps, 'f', 0, 64)),
		i(st.KarnRTTSamples),
		opt(karn, ms(st.KarnRTTMinMs)), opt(karn, ms(st.KarnRTTAvgMs)),
		opt(karn, ms(st.KarnRTTMaxMs)), opt(st.KarnRTTSamples > 2, ms(st.KarnRTTStdevMs)),
		opt(ss.Found, FormatSeconds(ss.End)), opt(ss.Found, strconv.Itoa(ss.Rounds)), opt(ss.Found, i(ss.Flight)),
		opt(st.DataPackets > 0, FormatSeconds(st.RwndLimitedNs)), FormatSeconds(st.ZeroWindowNs),
	}
	return row
}
