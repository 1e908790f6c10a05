package analyze

import (
	"fmt"
	"math"
	"strings"
)

// rateHist is a log-scale histogram of delivery-rate samples (bit/s), from
// 1 kbit/s up, buckets 10% apart: bounded memory whatever the number of
// samples.
type rateHist struct {
	n       int64
	buckets [rateBuckets]uint32
}

const (
	rateBuckets = 200
	rateMin     = 1e3
	rateStep    = 1.1
)

func (h *rateHist) add(bps float64) {
	if !(bps >= rateMin) || math.IsInf(bps, 0) {
		return
	}
	i := int(math.Log(bps/rateMin) / math.Log(rateStep))
	if i >= rateBuckets {
		i = rateBuckets - 1
	}
	h.buckets[i]++
	h.n++
}

// quantile returns the rate below which a fraction q of the samples lie
// (the bucket's geometric middle), 0 without samples.
func (h *rateHist) quantile(q float64) float64 {
	if h == nil || h.n == 0 {
		return 0
	}
	want := int64(math.Ceil(q * float64(h.n)))
	var seen int64
	for i, c := range h.buckets {
		seen += int64(c)
		if seen >= max(want, 1) {
			return rateMin * math.Pow(rateStep, float64(i)+0.5)
		}
	}
	return 0
}

// minRateSamples is how many ACK-dispersion samples a bottleneck estimate
// needs.
const minRateSamples = 20

// ackDispersion records, for data sent in this direction, the rate at
// which an ACK that advances the cumulative acknowledgement follows the
// previous one: within a flight, ACKs leave the receiver spaced by the
// bottleneck link, so the median of these rates estimates its rate (the
// packet-pair idea). Gaps longer than a quarter of the smallest RTT seen
// so far are pauses between flights, not dispersion.
func (d *dirAcc) ackDispersion(ack uint64, t int64) {
	if !d.ackSeen {
		d.ackSeen, d.lastAck, d.lastAckTime = true, ack, t
		return
	}
	if ack <= d.lastAck {
		return
	}
	adv, gap := int64(ack-d.lastAck), t-d.lastAckTime
	d.lastAck, d.lastAckTime = ack, t
	// At least one small segment, at most a burst of large ones.
	if gap <= 0 || adv < 536 || adv > 64<<10 {
		return
	}
	if d.rttMin > 0 && gap > d.rttMin/4 {
		return
	}
	if d.rates == nil {
		d.rates = new(rateHist)
	}
	d.rates.add(float64(adv) * 8 / (float64(gap) / 1e9))
}

// bottleneck is the estimated bottleneck rate in bit/s, 0 when there were
// too few samples to say.
func (d *dirAcc) bottleneck() float64 {
	if d.rates == nil || d.rates.n < minRateSamples {
		return 0
	}
	return d.rates.quantile(0.5)
}

// Finding is one thing that limited a direction, with the numbers that
// show it.
type Finding struct {
	Kind     string             // one of the Find* kinds
	Evidence map[string]float64 // the numbers behind Text, by name
	Text     string             // said for people, with the numbers
}

// Findings are a direction's findings, most telling first.
type Findings []Finding

// String says the findings in one line.
func (fs Findings) String() string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Text
	}
	return strings.Join(parts, "; ")
}

// Kinds of findings.
const (
	FindNearbyPeer       = "nearby peer"          // ACKs from next to the capture: a split-connection proxy or a LAN
	FindReceiverStalled  = "receiver stalled"     // the receiver closed its window
	FindReordering       = "reordering"           // retransmissions proven spurious, in fast recovery
	FindSpuriousTimeouts = "spurious timeouts"    // retransmissions proven spurious, on timers
	FindCongestionLoss   = "congestion loss"      // losses after the RTT grew: a full queue
	FindOvershoot        = "slow start overshoot" // a burst of drops ended slow start
	FindRandomLoss       = "random loss"          // losses without a queue before them
	FindLoss             = "loss"                 // losses, cause not told (not at the sender, or no RTT)
	FindRwndLimited      = "receiver-window limited"
	FindSenderLimited    = "sender limited"
	FindNetworkLimited   = "network limited"
)

// diagnose reads what limited the data sent in st's direction: rcv is the
// other direction, whose side receives the data and advertises the
// window; bottleneck is the ACK-dispersion estimate before any refusal.
// The rules, in order:
//   - a receiver answering within a millisecond of a sender-side capture
//     is a nearby peer (a split-connection proxy, a LAN): what it does to
//     its window is reported, and nothing is said of the path beyond it;
//   - a closed receive window is a stalled receiver;
//   - retransmissions most of which were proven spurious (D-SACK,
//     timestamps, both copies seen) are spurious timeouts when most were
//     sent on timers (a delay spike, a stalled peer), reordering
//     otherwise, with the congestion-window reductions they cost;
//   - otherwise lost segments (down- and upstream of the capture) are
//     congestion loss when more than half of the loss episodes began with
//     the RTT near its peak (the largest sample of the last round trip at
//     least 80% of the way from the direction's minimum to its 95th
//     percentile, samples of loss episodes left out: a tail drop comes
//     only with the queue full) and that RTT was, on average, above
//     queueRank of the ordinary moments' (the same largest sample, at
//     every sample outside loss episodes: with delay jitter every round
//     trip's largest sample is near the peak), random loss otherwise (a
//     random drop comes at any queue); episodes proven spurious (D-SACK,
//     Eifel) are reorderings and not counted; the cause is not told at a
//     receiver-side capture or without RTT samples; a slow start ended by a loss
//     episode that resent at least overshootMin segments, and
//     overshootRatio times the later episodes' mean, overshot the path
//     (a burst of tail drops), whatever the later losses were;
//   - the flight reaching the receiver's window, below the
//     bandwidth-delay product, is receiver-window limited; a flight far
//     below both is sender limited; a throughput near the bottleneck
//     estimate is network limited.
//
// overshootMin and overshootRatio: a first loss episode this large, and
// this many times the later ones, is a slow-start overshoot (on the
// truth captures: 28–80 segments vs 1–5 a later episode; random loss:
// at most 9, and 4 times the later ones at most).
const (
	overshootMin   = 16
	overshootRatio = 4
)

func diagnose(st, rcv *DirStats, bottleneck float64) Findings {
	if st.DataPackets < 10 {
		return nil
	}
	var fs Findings
	add := func(kind, text string, ev map[string]float64) {
		fs = append(fs, Finding{Kind: kind, Text: text, Evidence: ev})
	}
	p := &st.Path
	if p.NearbyPeer {
		ms := float64(p.RTTToReceiver) / 1e6
		if rcv.ZeroWindows > 0 {
			add(FindNearbyPeer, fmt.Sprintf("a nearby peer closes its window: a split-connection proxy or a slow reader (closed %d times; it answers in %.2f ms; no bottleneck estimate from its ACKs)", rcv.ZeroWindows, ms),
				map[string]float64{"zero_windows": float64(rcv.ZeroWindows), "peer_rtt_ms": ms})
		} else {
			add(FindNearbyPeer, fmt.Sprintf("ACKs come from a nearby peer (it answers in %.2f ms): a split-connection proxy or a LAN; no bottleneck estimate from its ACKs", ms),
				map[string]float64{"peer_rtt_ms": ms})
		}
	} else if rcv.ZeroWindows > 0 {
		add(FindReceiverStalled, fmt.Sprintf("receiver stalled: window closed %d times", rcv.ZeroWindows), map[string]float64{"zero_windows": float64(rcv.ZeroWindows)})
	}
	lost := p.LostDownstream + p.LostUpstream
	switch {
	case p.HasData && p.SpuriousRetransmitted > 0 && 2*p.SpuriousRetransmitted >= p.Retransmitted && 2*p.RTORetransmissions > p.Retransmitted:
		k := p.LossEventsSpurious
		add(FindSpuriousTimeouts, fmt.Sprintf("spurious timeouts: %d of %d retransmissions proven unneeded, %d sent on timers (a delay spike or a peer that stalls), cwnd reduced %d times", p.SpuriousRetransmitted, p.Retransmitted, p.RTORetransmissions, k),
			map[string]float64{"spurious": float64(p.SpuriousRetransmitted), "rto": float64(p.RTORetransmissions), "cwnd_reductions": float64(k), "retransmitted": float64(p.Retransmitted)})
	case p.HasData && p.SpuriousRetransmitted > 0 && 2*p.SpuriousRetransmitted >= p.Retransmitted:
		k := p.LossEventsSpurious
		add(FindReordering, fmt.Sprintf("reordering: %d spurious retransmissions, cwnd reduced %d times", p.SpuriousRetransmitted, k),
			map[string]float64{"spurious": float64(p.SpuriousRetransmitted), "cwnd_reductions": float64(k), "retransmitted": float64(p.Retransmitted)})
	case p.HasData && lost > 0:
		pct := 100 * float64(lost) / float64(st.DataPackets)
		ev := map[string]float64{"lost": float64(lost), "lost_pct": pct, "episodes": float64(st.RankedLossEpisodes), "queue_episodes": float64(st.QueueLossEpisodes)}
		n := st.RankedLossEpisodes
		told := p.Vantage != VantageReceiver && n > 0 && st.RTTMinMs > 0
		near := 2*st.QueueLossEpisodes > n
		switch {
		case told && near && st.RTTAtLossRank >= queueRank:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%); %d of %d loss episodes began with the RTT near its peak (%.0f ms vs %.0f ms minimum, above %.0f%% of other moments): a full queue",
				lost, pct, st.QueueLossEpisodes, n, st.RTTAtLossMs, st.RTTMinMs, 100*st.RTTAtLossRank), ev)
		case told && near:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%); %d of %d loss episodes began with the RTT near its peak, but no higher than at other moments (above %.0f%% of them on average): not a full queue",
				lost, pct, st.QueueLossEpisodes, n, 100*st.RTTAtLossRank), ev)
		case told:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%); %d of %d loss episodes began with the RTT below its peak (%.0f ms vs %.0f ms minimum): not a full queue",
				lost, pct, n-st.QueueLossEpisodes, n, st.RTTAtLossMs, st.RTTMinMs), ev)
		default:
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%: %d after the capture point, %d before it)", lost, pct, p.LostDownstream, p.LostUpstream), ev)
		}
		if first, n := st.FirstEpisodeResent, st.LossEpisodes; st.SlowStart.Reason == SlowStartLoss && first >= overshootMin &&
			(n == 1 || first*(n-1) >= overshootRatio*(st.EpisodeResent-first)) {
			mean := float64(st.EpisodeResent-first) / float64(max(n-1, 1))
			add(FindOvershoot, fmt.Sprintf("slow start overshot the path: %d segments resent in the loss episode that ended it (later episodes: %.1f on average): the queue overflowed as slow start ended, whatever the later losses were",
				first, mean), map[string]float64{"first_episode_resent": float64(first), "later_episode_mean": mean})
		}
	case !p.HasData && st.RetransPackets > 0:
		if pct := 100 * float64(st.RetransPackets) / float64(st.DataPackets); pct >= 1 {
			add(FindLoss, fmt.Sprintf("loss: %.1f%% of data packets retransmitted", pct), map[string]float64{"retrans_pct": pct})
		}
	}
	if p.NearbyPeer {
		return fs
	}
	mss := int64(st.MSS)
	if mss == 0 {
		mss = 1460
	}
	rtt := st.RTTMinMs
	if st.RTTSamples == 0 && st.HasHandshakeRTT {
		rtt = st.HandshakeRTTMs
	}
	bdp := int64(bottleneck / 8 * rtt / 1e3)
	window := rcv.MaxRwnd
	quiet := len(fs) == 0
	switch {
	case window > 0 && st.MaxBytesInFlight >= window-2*mss && (bdp == 0 || bdp > window+window/5):
		text := fmt.Sprintf("receiver-window limited: %s window", kb(window))
		ev := map[string]float64{"window_bytes": float64(window)}
		if bdp > 0 {
			// The ACKs of a window-limited flow show at most the link's
			// rate (a pacing sender spaces them wider), so the product is a
			// lower bound.
			text += fmt.Sprintf(" vs at least %s bandwidth-delay product (%s × %.0f ms)", kb(bdp), BitRate(bottleneck), rtt)
			ev["bdp_bytes"] = float64(bdp)
		}
		add(FindRwndLimited, text, ev)
	case quiet && window > 0 && st.MaxBytesInFlight > 0 && st.MaxBytesInFlight < window/2 &&
		(bdp == 0 || st.MaxBytesInFlight < bdp/2):
		add(FindSenderLimited, fmt.Sprintf("sender limited (application or send buffer): at most %s in flight, window %s", kb(st.MaxBytesInFlight), kb(window)),
			map[string]float64{"max_in_flight_bytes": float64(st.MaxBytesInFlight), "window_bytes": float64(window)})
	case quiet && bottleneck > 0 && st.HasThroughput && st.ThroughputBps >= 0.5*bottleneck:
		add(FindNetworkLimited, fmt.Sprintf("network limited: bottleneck about %s", BitRate(bottleneck)), map[string]float64{"bottleneck_bps": bottleneck})
	}
	return fs
}

// bottleneckRefused tells whether the ACK-dispersion estimate is not the
// path's rate, and why: ACKs from a nearby peer time the proxy, not the
// path; a sender held by the receiver's window (most of the time) or by
// the application sends flights too thin for ACK spacing to show the
// link.
func bottleneckRefused(st, rcv *DirStats) (string, bool) {
	switch {
	case st.Path.NearbyPeer:
		return "ACKs from a nearby peer", true
	case st.Duration > 0 && 2*st.RwndLimitedNs > st.Duration:
		return "the sender was held by the receiver's window", true
	}
	for _, f := range st.Findings {
		if f.Kind == FindSenderLimited || f.Kind == FindRwndLimited {
			return "the sender was " + f.Kind, true
		}
	}
	return "", false
}

// BitRate formats bit/s for people: "2.1 Mbit/s", "850 kbit/s". It is
// the one bit-rate format of tcpviz's text (diagnoses, reports, tables).
func BitRate(bps float64) string {
	switch {
	case bps >= 1e9:
		return fmt.Sprintf("%.1f Gbit/s", bps/1e9)
	case bps >= 1e6:
		return fmt.Sprintf("%.1f Mbit/s", bps/1e6)
	default:
		return fmt.Sprintf("%.0f kbit/s", bps/1e3)
	}
}
