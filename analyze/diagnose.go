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

// diagnose reads what limited the data sent in st's direction, in one
// line ("" when nothing can be said): rcv is the other direction, whose
// side receives the data and advertises the window.
func diagnose(st, rcv *DirStats) string {
	if st.DataPackets < 10 {
		return ""
	}
	var parts []string
	mss := int64(st.MSS)
	if mss == 0 {
		mss = 1460
	}
	if rcv.ZeroWindows > 0 {
		parts = append(parts, fmt.Sprintf("receiver stalled: window closed %d times", rcv.ZeroWindows))
	}
	if pct := 100 * float64(st.RetransPackets) / float64(st.DataPackets); pct >= 1 {
		parts = append(parts, fmt.Sprintf("loss: %.1f%% of data packets retransmitted", pct))
	}
	rtt := st.RTTMinMs
	if st.RTTSamples == 0 && st.HasHandshakeRTT {
		rtt = st.HandshakeRTTMs
	}
	bdp := int64(st.BottleneckBps / 8 * rtt / 1e3)
	window := rcv.MaxRwnd
	switch {
	case window > 0 && st.MaxBytesInFlight >= window-2*mss && (bdp == 0 || bdp > window+window/5):
		p := fmt.Sprintf("receiver-window limited: %s window", kb(window))
		if bdp > 0 {
			// The ACKs of a window-limited flow show at most the link's
			// rate (a pacing sender spaces them wider), so the product is a
			// lower bound.
			p += fmt.Sprintf(" vs at least %s bandwidth-delay product (%s × %.0f ms)", kb(bdp), BitRate(st.BottleneckBps), rtt)
		}
		parts = append(parts, p)
	case len(parts) == 0 && window > 0 && st.MaxBytesInFlight > 0 && st.MaxBytesInFlight < window/2 &&
		(bdp == 0 || st.MaxBytesInFlight < bdp/2):
		parts = append(parts, fmt.Sprintf("sender limited (application or send buffer): at most %s in flight, window %s", kb(st.MaxBytesInFlight), kb(window)))
	case len(parts) == 0 && st.BottleneckBps > 0 && st.HasThroughput && st.ThroughputBps >= 0.5*st.BottleneckBps:
		parts = append(parts, fmt.Sprintf("network limited: bottleneck about %s", BitRate(st.BottleneckBps)))
	}
	return strings.Join(parts, "; ")
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
