package charts

import (
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"

	"tcpviz/analyze"
)

// SummaryRow is one row of `tcpviz summary`: one direction of one
// connection of a capture.
type SummaryRow struct {
	File  string
	Stats *analyze.DirStats
}

type summaryCol = Column[SummaryRow]

// count is an integer column that is always measurable.
func count(name, unit, doc string, f func(*analyze.DirStats) int64) summaryCol {
	return summaryCol{name, Int, unit, doc, func(r *SummaryRow) Value { return IntV(f(r.Stats)) }}
}

// ms is a column of milliseconds (six decimals), null when ok is false.
func ms(name, doc string, f func(*analyze.DirStats) (float64, bool)) summaryCol {
	return summaryCol{name, Float, "ms", doc, func(r *SummaryRow) Value {
		v, ok := f(r.Stats)
		return FloatV(v, 6).Or(ok)
	}}
}

// SummaryColumns are the columns of `tcpviz summary`, in order: the
// contract's list (the README's), then the path and extra columns.
var SummaryColumns = Schema[SummaryRow]{
	{"file", String, "", "the capture, as named on the command line (- for standard input)", func(r *SummaryRow) Value { return StrV(r.File) }},
	count("stream", "", "Wireshark's tcp.stream number", func(s *analyze.DirStats) int64 { return int64(s.Stream) }),
	{"direction", String, "", "c2s (sent by the client, the SYN sender; without a handshake the side with the higher port) or s2c", func(r *SummaryRow) Value { return StrV(r.Stats.Dir.String()) }},
	{"src_addr", String, "", "address of this direction's sender", func(r *SummaryRow) Value { return AddrV(r.Stats.Src.Addr()) }},
	count("src_port", "", "port of this direction's sender", func(s *analyze.DirStats) int64 { return int64(s.Src.Port()) }),
	{"dst_addr", String, "", "address of this direction's receiver", func(r *SummaryRow) Value { return AddrV(r.Stats.Dst.Addr()) }},
	count("dst_port", "", "port of this direction's receiver", func(s *analyze.DirStats) int64 { return int64(s.Dst.Port()) }),
	{"first_time", Time, "", "time of the connection's first packet, RFC 3339 UTC with nanoseconds", func(r *SummaryRow) Value { return TimeV(r.Stats.FirstTime) }},
	{"duration_s", Float, "s", "from the connection's first to its last packet", func(r *SummaryRow) Value { return SecondsV(r.Stats.Duration) }},
	count("packets", "packets", "packets sent in this direction (capture duplicates included, as tshark counts)", func(s *analyze.DirStats) int64 { return s.Packets }),
	count("data_packets", "packets", "packets carrying payload (tcp.len > 0)", func(s *analyze.DirStats) int64 { return s.DataPackets }),
	count("data_bytes", "B", "payload bytes sent (sum of tcp.len, retransmissions included)", func(s *analyze.DirStats) int64 { return s.DataBytes }),
	count("unique_bytes", "B", "bytes of sequence space carrying payload, each counted once (tcptrace's unique bytes sent)", func(s *analyze.DirStats) int64 { return s.UniqueBytes }),
	count("retrans_packets", "packets", "packets Wireshark flags tcp.analysis.retransmission (fast and spurious included)", func(s *analyze.DirStats) int64 { return s.RetransPackets }),
	count("retrans_bytes", "B", "payload bytes of those packets", func(s *analyze.DirStats) int64 { return s.RetransBytes }),
	count("fast_retrans_packets", "packets", "packets Wireshark flags tcp.analysis.fast_retransmission", func(s *analyze.DirStats) int64 { return s.FastRetrans }),
	count("spurious_retrans_packets", "packets", "packets Wireshark flags tcp.analysis.spurious_retransmission", func(s *analyze.DirStats) int64 { return s.SpuriousRetrans }),
	count("out_of_order_packets", "packets", "packets Wireshark flags tcp.analysis.out_of_order", func(s *analyze.DirStats) int64 { return s.OutOfOrder }),
	count("lost_segments", "packets", "packets Wireshark flags tcp.analysis.lost_segment (a previous segment was not captured)", func(s *analyze.DirStats) int64 { return s.LostSegments }),
	count("dup_acks", "packets", "duplicate ACKs this side sent (tcp.analysis.duplicate_ack)", func(s *analyze.DirStats) int64 { return s.DupAcks }),
	count("zero_windows", "packets", "zero-window advertisements this side sent (tcp.analysis.zero_window)", func(s *analyze.DirStats) int64 { return s.ZeroWindows }),
	count("window_full", "packets", "packets Wireshark flags tcp.analysis.window_full", func(s *analyze.DirStats) int64 { return s.WindowFull }),
	{"mss", Int, "B", "maximum segment size this side announced in its SYN", func(r *SummaryRow) Value { return IntV(int64(r.Stats.MSS)).Or(r.Stats.MSS > 0) }},
	{"wscale", Int, "", "window scale shift this side offered in its SYN", func(r *SummaryRow) Value {
		return IntV(int64(r.Stats.WScale)).Or(r.Stats.HandshakeSeen && r.Stats.WScale >= 0)
	}},
	{"sack_permitted", Bool, "", "this side's SYN allowed SACK", func(r *SummaryRow) Value { return BoolV(r.Stats.SACKPermitted).Or(r.Stats.HandshakeSeen) }},
	{"timestamps", Bool, "", "this side's SYN offered TCP timestamps", func(r *SummaryRow) Value { return BoolV(r.Stats.Timestamps).Or(r.Stats.HandshakeSeen) }},
	{"max_rwnd_bytes", Int, "B", "largest receive window this side advertised (scaled, as Wireshark's tcp.window_size)", func(r *SummaryRow) Value { return IntV(r.Stats.MaxRwnd).Or(r.Stats.MaxRwnd >= 0) }},
	count("rtt_samples", "", "round-trip samples of this direction's data (Wireshark's tcp.analysis.ack_rtt on the other side's ACKs)", func(s *analyze.DirStats) int64 { return s.RTTSamples }),
	ms("rtt_min_ms", "smallest ack_rtt sample", func(s *analyze.DirStats) (float64, bool) { return s.RTTMinMs, s.RTTSamples > 0 }),
	ms("rtt_median_ms", "median ack_rtt sample", func(s *analyze.DirStats) (float64, bool) { return s.RTTMedianMs, s.RTTSamples > 0 }),
	ms("rtt_mean_ms", "mean ack_rtt sample", func(s *analyze.DirStats) (float64, bool) { return s.RTTMeanMs, s.RTTSamples > 0 }),
	ms("rtt_max_ms", "largest ack_rtt sample", func(s *analyze.DirStats) (float64, bool) { return s.RTTMaxMs, s.RTTSamples > 0 }),
	ms("handshake_rtt_ms", "the connection's handshake round trip (tcp.analysis.initial_rtt)", func(s *analyze.DirStats) (float64, bool) { return s.HandshakeRTTMs, s.HasHandshakeRTT }),
	{"throughput_bps", Float, "bit/s", "8 × unique_bytes / duration_s (tcptrace's throughput, in bits)", func(r *SummaryRow) Value {
		return FloatV(r.Stats.ThroughputBps, 0).Or(r.Stats.HasThroughput)
	}},
	{"state", String, "", "how far the connection got: syn_sent, syn_recv, established, midstream, fin_one_way, closed or reset", func(r *SummaryRow) Value { return StrV(r.Stats.State) }},
	{"diagnosis", String, "", "what limited this direction, with the numbers that show it", func(r *SummaryRow) Value { return StrV(r.Stats.Diagnosis).Or(r.Stats.Diagnosis != "") }},
	// The path: what the network did, from wherever the capture was taken.
	{"vantage", String, "", "where the capture sits on this direction's path: sender, receiver, middle or unknown", func(r *SummaryRow) Value { return StrV(string(r.Stats.Path.Vantage)) }},
	pathCount("retransmitted_packets", "data segments that resent bytes already sent, for any reason (a hole filler at a receiver-side capture counts)", func(p *analyze.PathStats) int64 { return p.Retransmitted }),
	pathCount("spurious_retransmitted_packets", "retransmissions proven unnecessary: by D-SACK (RFC 2883/3708), TCP timestamps (Eifel, RFC 3522), or both copies seen", func(p *analyze.PathStats) int64 { return p.SpuriousRetransmitted }),
	pathCount("lost_downstream_packets", "segments lost after the capture point: seen here, then needed again (without SACK, at most; see lost_downstream_min_packets)", func(p *analyze.PathStats) int64 { return p.LostDownstream }),
	pathCount("lost_upstream_packets", "segments lost before the capture point: a hole here, filled by a retransmission or still open at the end", func(p *analyze.PathStats) int64 { return p.LostUpstream }),
	pathCount("reordered_packets", "segments that arrived below the highest sequence seen and were not retransmissions (RFC 4737)", func(p *analyze.PathStats) int64 { return p.Reordered }),
	pathCount("dsack_blocks", "D-SACK blocks the receiver sent about this direction's data", func(p *analyze.PathStats) int64 { return p.DSACKBlocks }),
	pathCount("rto_retransmissions", "retransmissions after a timeout (tail-loss probes included)", func(p *analyze.PathStats) int64 { return p.RTORetransmissions }),
	pathCount("fast_retransmissions_path", "retransmissions in duplicate-ACK/SACK recovery", func(p *analyze.PathStats) int64 { return p.FastRetransmissions }),
	pathCount("peer_dup_acks", "duplicate ACKs the receiver sent about this direction's data (capture duplicates excluded)", func(p *analyze.PathStats) int64 { return p.PeerDupAcks }),
	{"peer_max_rwnd_bytes", Int, "B", "largest receive window the receiver advertised to this direction's sender", func(r *SummaryRow) Value {
		return IntV(r.Stats.Path.PeerMaxRwnd).Or(r.Stats.Path.HasData && r.Stats.Path.PeerMaxRwnd >= 0)
	}},
	// Extras.
	ms("rtt_stdev_ms", "standard deviation of the ack_rtt samples", func(s *analyze.DirStats) (float64, bool) { return s.RTTStd, s.RTTSamples > 1 }),
	count("initial_window_bytes", "B", "payload sent before the other side acknowledged any of it", func(s *analyze.DirStats) int64 { return s.InitialWindowBytes }),
	count("initial_window_packets", "packets", "packets of that payload", func(s *analyze.DirStats) int64 { return s.InitialWindowPkts }),
	{"max_bytes_in_flight", Int, "B", "most bytes in flight (tcp.analysis.bytes_in_flight)", func(r *SummaryRow) Value {
		return IntV(r.Stats.MaxBytesInFlight).Or(r.Stats.MaxBytesInFlight > 0)
	}},
	{"min_rwnd_bytes", Int, "B", "smallest receive window this side advertised", func(r *SummaryRow) Value { return IntV(r.Stats.MinRwnd).Or(r.Stats.MinRwnd >= 0) }},
	{"avg_rwnd_bytes", Float, "B", "mean receive window over this side's ACKs", func(r *SummaryRow) Value { return FloatV(r.Stats.AvgRwnd, 0).Or(r.Stats.MaxRwnd >= 0) }},
	count("keep_alives", "packets", "tcp.analysis.keep_alive", func(s *analyze.DirStats) int64 { return s.KeepAlives }),
	count("zero_window_probes", "packets", "tcp.analysis.zero_window_probe", func(s *analyze.DirStats) int64 { return s.ZeroWindowProbes }),
	count("window_updates", "packets", "tcp.analysis.window_update", func(s *analyze.DirStats) int64 { return s.WindowUpdates }),
	count("triple_dup_acks", "packets", "duplicate ACKs numbered 3 (what triggers a fast retransmit)", func(s *analyze.DirStats) int64 { return s.TripleDupAcks }),
	count("ack_unseen", "packets", "ACKs of a segment that was not captured (tcp.analysis.ack_lost_segment)", func(s *analyze.DirStats) int64 { return s.AckUnseen }),
	count("capture_duplicates", "packets", "packets captured twice (not counted as retransmissions)", func(s *analyze.DirStats) int64 { return s.CaptureDuplicates }),
	ms("idle_max_ms", "longest gap between two packets of this direction", func(s *analyze.DirStats) (float64, bool) { return s.IdleMaxMs, s.Packets > 1 }),
	count("syn_packets", "packets", "packets with SYN", func(s *analyze.DirStats) int64 { return s.SYNs }),
	count("fin_packets", "packets", "packets with FIN", func(s *analyze.DirStats) int64 { return s.FINs }),
	count("rst_packets", "packets", "packets with RST", func(s *analyze.DirStats) int64 { return s.RSTs }),
	count("pure_acks", "packets", "packets with ACK and nothing else (no payload, SYN, FIN or RST)", func(s *analyze.DirStats) int64 { return s.PureAcks }),
	{"bottleneck_bps", Float, "bit/s", "the path's rate estimated from the spacing of the receiver's ACKs within a flight", func(r *SummaryRow) Value {
		return FloatV(r.Stats.BottleneckBps, 0).Or(r.Stats.BottleneckBps > 0)
	}},
	count("karn_rtt_samples", "", "tcptrace's RTT samples (Karn's rule), as tcptrace -l prints them", func(s *analyze.DirStats) int64 { return s.KarnRTTSamples }),
	ms("karn_rtt_min_ms", "tcptrace's RTT min", func(s *analyze.DirStats) (float64, bool) { return s.KarnRTTMinMs, s.KarnRTTSamples > 0 }),
	ms("karn_rtt_avg_ms", "tcptrace's RTT avg", func(s *analyze.DirStats) (float64, bool) { return s.KarnRTTAvgMs, s.KarnRTTSamples > 0 }),
	ms("karn_rtt_max_ms", "tcptrace's RTT max", func(s *analyze.DirStats) (float64, bool) { return s.KarnRTTMaxMs, s.KarnRTTSamples > 0 }),
	ms("karn_rtt_stdev_ms", "tcptrace's RTT stdev", func(s *analyze.DirStats) (float64, bool) { return s.KarnRTTStdevMs, s.KarnRTTSamples > 2 }),
	{"slow_start_end_s", Float, "s", "when the sender left slow start, from the connection's first packet (by the ACK clock; away from the sender a round ends where the data the receiver's ACK released passes the capture)", func(r *SummaryRow) Value {
		return SecondsV(r.Stats.SlowStart.End).Or(r.Stats.SlowStart.Found)
	}},
	{"slow_start_rounds", Int, "", "round trips spent in slow start", func(r *SummaryRow) Value {
		return IntV(int64(r.Stats.SlowStart.Rounds)).Or(r.Stats.SlowStart.Found)
	}},
	{"slow_start_flight_bytes", Int, "B", "bytes in flight in the last round that still grew: an estimate of the congestion window reached (away from the sender, the bytes that passed the capture in that round)", func(r *SummaryRow) Value {
		return IntV(r.Stats.SlowStart.Flight).Or(r.Stats.SlowStart.Found)
	}},
	{"rwnd_limited_s", Float, "s", "time the receiver's window had no room for another segment; 0 where more than a tenth of the data went out past the window as read (its scale unknown: no SYN, or one whose options the snapshot length cut)", func(r *SummaryRow) Value {
		return SecondsV(r.Stats.RwndLimitedNs).Or(r.Stats.DataPackets > 0)
	}},
	{"zero_window_s", Float, "s", "time the windows this side advertised stayed closed", func(r *SummaryRow) Value { return SecondsV(r.Stats.ZeroWindowNs) }},
	pathCount("lost_downstream_min_packets", "resends of the receiver's next expected byte only: the fewest segments lost after the capture point; without SACK (go-back-N resends delivered data) the truth lies between this and lost_downstream_packets, with SACK lost_downstream_packets is the count", func(p *analyze.PathStats) int64 { return p.LostDownstreamLow }),
	pathCount("spurious_dsack_packets", "spurious retransmissions proven by a D-SACK block", func(p *analyze.PathStats) int64 { return p.SpuriousDSACK }),
	pathCount("spurious_eifel_packets", "spurious retransmissions proven by the timestamp echo only", func(p *analyze.PathStats) int64 { return p.SpuriousEifel }),
	pathCount("loss_events", "recovery episodes, each a congestion-window reduction: a retransmission outside one starts one, which lasts until all sent before it is acknowledged (at a sender-side capture, as the sender state tracks them, not a tail-loss probe, a zero-window probe or a resend of acknowledged bytes); no re-entry, so a receiver's capture of the transfer counts alike: at a sender loss_episodes_fast + loss_episodes_rto count the sender's entries into recovery and loss, with recovery entered again as one ends and timeouts inside one (on 54 kernel runs the two differ on 20, and the kernel's count is the episodes' on 19)", func(p *analyze.PathStats) int64 { return p.LossEvents }),
	pathCount("loss_events_spurious", "recovery episodes whose retransmissions were all proven spurious", func(p *analyze.PathStats) int64 { return p.LossEventsSpurious }),
	{"slow_start_end_reason", String, "", "why slow start ended: receive window, delay, loss or growth stopped", func(r *SummaryRow) Value {
		return StrV(r.Stats.SlowStart.Reason).Or(r.Stats.SlowStart.Found)
	}},
	{"nearby_peer", Bool, "", "the receiver answers within a millisecond on a long path: a split-connection proxy (or the receiver itself) next to the capture", func(r *SummaryRow) Value {
		return BoolV(r.Stats.Path.NearbyPeer).Or(r.Stats.Path.HasData)
	}},
	// The sender's state.
	episodeCount("loss_episodes_fast", "loss episodes begun by a fast retransmit (duplicate ACKs or SACK blocks came, or the resend followed at once an ACK that moved the cumulative ACK and so restarted the timer): the kernel's recovery; also one Linux enters with nothing resent (RACK deeming a hole lost that then closes late) and undoes at once; empty at a capture the path analysis places at the receiver or in the middle, where the sender's episodes are not seen (loss_events counts the drops there)", func(s *analyze.DirStats) int64 { return s.LossEpisodesFast }),
	episodeCount("loss_episodes_rto", "loss episodes begun by a retransmission timeout (no signal since the last new ACK; at a sender-side capture without SACK also a resend neither at once after an ACK nor sooner than a timeout after the cumulative ACK moved, whatever the duplicate ACKs, and the timer firing again in the loss state): the kernel's loss state; empty at a capture the path analysis places at the receiver or in the middle, where the sender's episodes are not seen (loss_events counts the drops there)", func(s *analyze.DirStats) int64 { return s.LossEpisodesRTO }),
	episodeCount("tail_loss_probes", "the last segment sent again with earlier ones unacknowledged and no duplicate ACK (RFC 8985): no episode; empty at a capture the path analysis places at the receiver or in the middle, where the sender's episodes are not seen (loss_events counts the drops there)", func(s *analyze.DirStats) int64 { return s.TailLossProbes }),
	{"beta_median", Float, "", "median reduction factor of the fast-retransmit episodes: the window the sender settled at once recovery ended (the flight after its first burst of sends; where that left it at 0.6 of the window before or less, the most in flight while the sender went on filling it, within a round trip) over the window at the loss (the flight when the first duplicate ACK or SACK came) (Reno 0.5, CUBIC 0.7, BBR about 1; for recovery entered again as it ended, the factor of each of its two cuts); empty at a capture not at the sender", func(r *SummaryRow) Value {
		return FloatV(r.Stats.BetaMedian, 3).Or(r.Stats.HasBeta && r.Stats.Path.Vantage == analyze.VantageSender)
	}},
	{"congestion_control", String, "", "the sender's congestion control as the capture shows it: reno, cubic, bbr or unknown (nothing tells: no loss, a few reductions that match neither Reno's half nor CUBIC's 0.7, too few that disagree, cuts with no majority whose median is between 0.55 and 0.65, near neither — six or more whose majority fair coin tosses give more than 30% of the time have none —, or not a sender-side capture); read from the window after each loss episode (five or more that match neither, most of them, at a median of 0.75 of the window or above, are BBR's), and where no reduction was measured from BBR's ProbeRTT (the flight at four segments for about 200 ms every 10 s) or CUBIC's HyStart (slow start ended without a loss when the RTT grew, the sender not held by its application, and the flight grew on to 1.5 times that of slow start's end); where that leaves it unknown or names Reno or CUBIC from fewer than two measured reductions, a loss episode begun with the flight at the receiver's window that left the window where it was, at the third cut of the window or later, is BBR's (Linux's Reno keeps it at the first at most, CUBIC at the second); where it is still unknown, a drain after slow start is BBR's (the flight down to half its peak or less within a few round trips with nothing lost, the sender still sending and not held by its application)", func(r *SummaryRow) Value {
		return StrV(r.Stats.CongestionControl).Or(r.Stats.DataPackets > 0)
	}},
	{"congestion_control_reason", String, "", "what congestion_control was read from", func(r *SummaryRow) Value {
		return StrV(r.Stats.CongestionControlReason).Or(r.Stats.DataPackets > 0)
	}},
	// The diagnosis, for machines.
	{"findings", String, "", "the diagnosis's kinds, most important first, separated by ';': " + strings.Join(analyze.FindingKinds, ", "), func(r *SummaryRow) Value {
		return StrV(r.Stats.FindingKinds).Or(r.Stats.DataPackets >= 10)
	}},
	{"limit_shares", String, "", "share of the data phase each limit held the sender, largest first: receive_window, receiver_stall, application (measured at a sender-side capture; all the rest when the findings say application because nothing was lost, the window never filled and the rate stayed under 30% of the bottleneck), bottleneck (the rest: congestion window and path), e.g. receive_window=0.62;bottleneck=0.38; empty where the direction sent fewer than 10 data packets (no diagnosis)", func(r *SummaryRow) Value {
		return StrV(limitShares(r.Stats.LimitShares)).Or(len(r.Stats.LimitShares) > 0)
	}},
	{"app_limited_s", Float, "s", "time the sender had room to send and sent nothing (an ACK made room, the next data came later than a sender with data waiting sends it); sender-side captures", func(r *SummaryRow) Value {
		return SecondsV(r.Stats.AppLimitedNs).Or(r.Stats.DataPackets > 0 && r.Stats.Path.Vantage == analyze.VantageSender)
	}},
	ms("queue_delay_ms", "median RTT outside loss episodes above the smallest: the delay a standing queue adds", func(s *analyze.DirStats) (float64, bool) { return s.QueueDelayMs, s.HasQueueDelay }),
	{"ipid_missing_packets", Int, "packets", "this side's packets that never reached the capture point, by the gaps in their IPv4 IDs (a per-connection counter, as Linux's); null when the IDs are not one", func(r *SummaryRow) Value {
		return IntV(r.Stats.IPIDMissing).Or(r.Stats.HasIPIDMissing)
	}},
	pathCount("spurious_timing_packets", "spurious retransmissions proven by their ACK alone: it came sooner than half the smallest round trip after the resend, so it answered an earlier copy (no D-SACK or timestamp needed)", func(p *analyze.PathStats) int64 { return p.SpuriousTiming }),
	senderCount("reordered_holes", "packets", "segments of the holes the receiver reported in this direction's data (every gap below the data its SACK blocks reported, or without SACK the first hole its duplicate ACKs reported) that it then acknowledged with no resend: data that came late, not lost", func(s *analyze.DirStats) int64 { return s.ReorderedHoles }),
	episodeCount("loss_episodes_undone", "of loss_episodes_fast and loss_episodes_rto, those proven spurious (the first ACK to cover the first resend echoes an older timestamp: Eifel; or a D-SACK covers it; or nothing was resent and the hole closed late), which Linux undoes: no reduction; empty at a capture the path analysis places at the receiver or in the middle, where the sender's episodes are not seen (loss_events counts the drops there)", func(s *analyze.DirStats) int64 { return s.LossEpisodesUndone }),
}

// episodeCount is a count of the sender's loss episodes or probes
// (lossEpisodes), empty where the capture is known not to be at the
// sender: read from what arrived at a receiver, recovery entered again at
// once and the timer's silences are not the sender's (the receiver sides
// of 61 kernel runs matched the kernel's recovery and loss entries by kind
// on 21, where loss_events, the drop events, matched their total on 37).
// Where the vantage is unknown the counts stand, as at a sender.
func episodeCount(name, doc string, f func(*analyze.DirStats) int64) summaryCol {
	return summaryCol{name, Int, "", doc, func(r *SummaryRow) Value {
		v := r.Stats.Path.Vantage
		return IntV(f(r.Stats)).Or(r.Stats.DataPackets > 0 && v != analyze.VantageReceiver && v != analyze.VantageMiddle)
	}}
}

// senderCount is a count of the sender's state, null for a direction
// that sent no data.
func senderCount(name, unit, doc string, f func(*analyze.DirStats) int64) summaryCol {
	return summaryCol{name, Int, unit, doc, func(r *SummaryRow) Value { return IntV(f(r.Stats)).Or(r.Stats.DataPackets > 0) }}
}

// limitShares is the limit_shares cell: shares as
// "receive_window=0.62;bottleneck=0.38" (two decimals, shares below 0.005
// left out).
func limitShares(ls []analyze.LimitShare) string {
	var b strings.Builder
	for _, l := range ls {
		if l.Share < 0.005 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, "%s=%.2f", l.Kind, l.Share)
	}
	return b.String()
}

// newSummaryMemo returns a RowMemo for SummaryColumns: from the tenth
// (packets) on, the columns read nothing of a row but its DirStats, and
// nothing of those but what the key keeps (not the stream, endpoints,
// first time or duration). The rows of one-SYN connections are then
// written by copying (TestSummaryMemo).
func newSummaryMemo() *RowMemo[SummaryRow, analyze.DirStats] {
	return &RowMemo[SummaryRow, analyze.DirStats]{Tail: summaryTail, Key: func(r *SummaryRow, k *analyze.DirStats) {
		*k = *r.Stats
		k.Stream, k.Src, k.Dst, k.FirstTime, k.Duration = 0, netip.AddrPort{}, netip.AddrPort{}, 0, 0
	}}
}

// summaryTail is the first column of SummaryColumns a RowMemo copies.
const summaryTail = 9

// pathCount is a path column: a count, measurable where the direction
// carried data.
func pathCount(name, doc string, f func(*analyze.PathStats) int64) summaryCol {
	return summaryCol{name, Int, "packets", doc, func(r *SummaryRow) Value {
		return IntV(f(&r.Stats.Path)).Or(r.Stats.Path.HasData)
	}}
}

// SummaryReadable are the summary's columns a reader sees first, where
// all 80-odd are too many (the terminal table, the report's table).
var SummaryReadable = []string{"file", "stream", "direction", "src_addr", "src_port", "dst_addr", "dst_port", "duration_s",
	"data_bytes", "throughput_bps", "retrans_packets", "rtt_median_ms", "vantage", "findings"}

type compareCol = Column[analyze.CompareRow]

// CompareColumns are the columns of compare's table with the default
// instants and amounts (--at 1s,5s,10s --to-bytes 1MiB).
var CompareColumns = compareColumns(analyze.TransferOptions{})

// CompareTransfer is o with what it leaves unset given the instants and
// amounts compare's table takes by default: bytes delivered at 1, 5 and
// 10 s, the time to the first MiB (copies: the defaults cannot be
// changed).
func CompareTransfer(o analyze.TransferOptions) analyze.TransferOptions {
	if o.At == nil {
		o.At = []int64{1e9, 5e9, 10e9}
	}
	if o.ToBytes == nil {
		o.ToBytes = []int64{analyze.OneMB}
	}
	return o
}

// compareColumns are the columns of compare's table: bytes delivered at
// each instant of o.At (ns after time 0) and the time to deliver each
// amount of o.ToBytes, the defaults for those unset (CompareTransfer),
// as analyze.Summarize takes them.
func compareColumns(o analyze.TransferOptions) Schema[analyze.CompareRow] {
	o = CompareTransfer(o)
	at, toBytes := o.At, o.ToBytes
	s := Schema[analyze.CompareRow]{
		{"input", String, "", "the input as named (CAPTURE or CAPTURE#STREAM)", func(r *analyze.CompareRow) Value { return StrV(r.Input) }},
		{"stream", Int, "", "Wireshark's tcp.stream number of the compared connection", func(r *analyze.CompareRow) Value { return IntV(int64(r.Stream)) }},
		{"direction", String, "", "the compared direction: c2s or s2c", func(r *analyze.CompareRow) Value { return StrV(r.Dir.String()) }},
		{"src", String, "", "sender of the compared data (address:port)", func(r *analyze.CompareRow) Value { return StrV(r.Src.String()) }},
		{"dst", String, "", "its receiver", func(r *analyze.CompareRow) Value { return StrV(r.Dst.String()) }},
	}
	for i, a := range at {
		s = append(s, compareCol{Name: deliveredColumn(a), Kind: Int, Unit: "B",
			Doc:  "payload the receiver had acknowledged " + durationName(a) + " after time 0 (--align: the first data byte, or the SYN)",
			Cell: func(r *analyze.CompareRow) Value { return IntV(r.Transfer.Delivered[i]) }})
	}
	for i, n := range toBytes {
		s = append(s, compareCol{Name: timeToColumn(n), Kind: Float, Unit: "s",
			Doc: "when the receiver had acknowledged the first " + sizeName(n) + " of this transfer, from time 0 (not the time a transfer of that size takes: a sweep of sizes groups runs by a parameter)",
			Cell: func(r *analyze.CompareRow) Value {
				return FloatV(float64(r.Transfer.TimeTo[i])/1e9, 3).Or(r.Transfer.HasTimeTo[i])
			}})
	}
	return append(s, Schema[analyze.CompareRow]{
		shared("throughput_bps", "mean_throughput_bps", "the summary's throughput_bps"),
		{"throughput_ratio", Float, "", "mean throughput over the first input's", func(r *analyze.CompareRow) Value { return FloatV(r.ThroughputRatio, 2).Or(r.HasRatio) }},
		shared("rtt_median_ms", "", "the summary's rtt_median_ms"),
		shared("retrans_packets", "", "the summary's retrans_packets"),
		shared("slow_start_end_s", "", "the summary's slow_start_end_s, from time 0 (--align)"),
		shared("slow_start_rounds", "", "the summary's slow_start_rounds"),
		shared("slow_start_flight_bytes", "", "the summary's slow_start_flight_bytes"),
		shared("slow_start_end_reason", "", "the summary's slow_start_end_reason"),
		{"label", String, "", "the input's --label (its settings, for a sweep), else the input as named", func(r *analyze.CompareRow) Value { return StrV(r.Label) }},
		shared("nearby_peer", "", "the summary's nearby_peer: delivered then means acknowledged by the proxy, not by the far end"),
	}...)
}

// shared is summary's column name in compare's table (named as, when
// given): the same kind, unit, precision and null rule, one definition,
// on the compared direction's statistics — with compare's slow start,
// measured from its time 0 (--align), and its proxy verdict.
func shared(name, as, doc string) compareCol {
	var sc summaryCol
	for _, c := range SummaryColumns {
		if c.Name == name {
			sc = c
		}
	}
	if sc.Cell == nil {
		panic("charts: no summary column " + name) // a programming error, caught by any test
	}
	if as == "" {
		as = name
	}
	return compareCol{Name: as, Kind: sc.Kind, Unit: sc.Unit, Doc: doc, Cell: func(r *analyze.CompareRow) Value {
		st := *r.Stats
		st.SlowStart = r.Transfer.SlowStart
		st.Path.NearbyPeer = r.NearbyPeer
		return sc.Cell(&SummaryRow{Stats: &st})
	}}
}

// durationName names an instant in a column name: 1s, 500ms, 250us, 7ns.
func durationName(ns int64) string {
	for _, u := range []struct {
		f int64
		s string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}} {
		if ns%u.f == 0 {
			return strconv.FormatInt(ns/u.f, 10) + u.s
		}
	}
	return strconv.FormatInt(ns, 10) + "ns"
}

// deliveredColumn is the name of compare's column of the bytes
// delivered ns after time 0: delivered_1s_bytes.
func deliveredColumn(ns int64) string { return "delivered_" + durationName(ns) + "_bytes" }

// timeToColumn is the name of compare's column of the time to the first
// n bytes within the transfer: time_to_1MiB_within_s.
func timeToColumn(n int64) string { return "time_to_" + sizeName(n) + "_within_s" }

// sizeName names an amount of bytes in a column name: 1MiB, 500KB, 1GB, 1234B.
func sizeName(n int64) string {
	for _, u := range []struct {
		f int64
		s string
	}{{1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "KB"}} {
		if n > 0 && n%u.f == 0 {
			return strconv.FormatInt(n/u.f, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// TransferDefaults are the instants and amounts compare's table takes
// when none are asked for (CompareTransfer), as the column names write
// them: "1s,5s,10s" and "1MiB".
func TransferDefaults() (at, toBytes string) {
	o := CompareTransfer(analyze.TransferOptions{})
	var ats, tos []string
	for _, ns := range o.At {
		ats = append(ats, durationName(ns))
	}
	for _, n := range o.ToBytes {
		tos = append(tos, sizeName(n))
	}
	return strings.Join(ats, ","), strings.Join(tos, ",")
}

// WriteCompare writes compare's table of rows in format f: the shared
// columns, then bytes delivered at each instant and the time to each
// amount o asked for (analyze.Compare's table).
func WriteCompare(w io.Writer, f TableFormat, rows []analyze.CompareRow, o analyze.TransferOptions) error {
	cols := compareColumns(o)
	t := NewTable(cols)
	for i := range rows {
		AddRow(t, cols, &rows[i])
	}
	return t.Write(w, f)
}

// CompareWarnings are what compare's rows say of their inputs: a proxy
// next to the capture that acknowledges the data.
func CompareWarnings(rows []analyze.CompareRow) []string {
	var out []string
	for _, r := range rows {
		if r.NearbyPeer {
			out = append(out, EscapeName(r.Input)+": the receiver answers within a millisecond: a proxy next to the capture acknowledges the data, so delivered means acknowledged by the proxy, not by the far end")
		}
	}
	return out
}
