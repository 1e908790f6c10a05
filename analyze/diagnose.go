package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"tcpviz/internal/words"
)

// rateHist is a log-scale histogram of delivery-rate samples (bit/s), from
// 1 kbit/s up, buckets 10% apart: bounded memory whatever the number of
// samples.
type rateHist struct {
	n       int64
	buckets [rateBuckets]uint32
	sums    [rateBuckets]float64 // of the samples in each bucket: its mean is the answer
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
	h.sums[i] += bps
	h.n++
}

// quantile returns the rate below which a fraction q of the samples lie
// (the mean of the samples in its bucket), 0 without samples.
func (h *rateHist) quantile(q float64) float64 {
	if h == nil || h.n == 0 {
		return 0
	}
	want := int64(math.Ceil(q * float64(h.n)))
	var seen int64
	for i, c := range h.buckets {
		seen += int64(c)
		if seen >= max(want, 1) {
			return h.sums[i] / float64(c)
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

// Finding is one thing that limited a direction, or one thing the path
// did to it, with the numbers that show it.
type Finding struct {
	Kind     string             // one of the Find* kinds
	Evidence map[string]float64 // the numbers behind Text, by name
	Text     string             // said for people, with the numbers
}

// sentence says the findings in one line: DirStats.Diagnosis.
func sentence(fs []Finding) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Text
	}
	return strings.Join(parts, "; ")
}

// kinds lists the findings' kinds, most important first, separated by
// ";": the findings column. A slow-start overshoot is loss at a full
// queue: it brings congestion_loss with it, after the losses' own cause.
func kinds(fs []Finding) string {
	if len(fs) == 0 {
		return ""
	}
	parts := make([]string, 0, len(fs)+1)
	for _, f := range fs {
		if !slices.Contains(parts, f.Kind) {
			parts = append(parts, f.Kind)
		}
		if f.Kind == FindOvershoot && !slices.Contains(parts, FindCongestionLoss) {
			parts = append(parts, FindCongestionLoss)
		}
	}
	return strings.Join(parts, ";")
}

// Kinds of findings: the closed vocabulary of the findings column.
const (
	FindReceiveWindow    = "receive_window"       // the receiver's window held the sender
	FindBottleneck       = "bottleneck"           // the sender filled the path: network limited
	FindStandingQueue    = "standing_queue"       // a queue that never drained doubled the RTT
	FindApplication      = "application"          // the sender had nothing to send: sender limited
	FindNearbyPeer       = "nearby_peer"          // ACKs from next to the capture: a split-connection proxy or a LAN
	FindReceiverStall    = "receiver_stall"       // the receiver closed its window
	FindOvershoot        = "slow_start_overshoot" // a burst of drops ended slow start
	FindRandomLoss       = "random_loss"          // losses without a queue before them
	FindCongestionLoss   = "congestion_loss"      // losses after the RTT grew, or at regular intervals: a full queue
	FindLoss             = "loss_unknown_cause"   // losses, cause not told (not at the sender, no RTT, too few)
	FindReordering       = "reordering"           // data that came late, not lost
	FindSpuriousTimeouts = "spurious_timeouts"    // retransmissions proven spurious, on timers
	FindACKPathLoss      = "ack_path_loss"        // the receiver's ACKs lost on the way back
)

// FindingKinds is the vocabulary, in the order the column documents it.
var FindingKinds = []string{FindReceiveWindow, FindBottleneck, FindStandingQueue, FindApplication, FindNearbyPeer,
	FindReceiverStall, FindOvershoot, FindRandomLoss, FindCongestionLoss, FindLoss, FindReordering,
	FindSpuriousTimeouts, FindACKPathLoss}

// LimitShare is the share of a direction's data phase one limit held its
// sender.
type LimitShare struct {
	Kind  string // FindReceiveWindow, FindReceiverStall, FindApplication or FindBottleneck
	Share float64
}

// limitShares splits the direction's data phase between what held its
// sender: a closed window (receiver_stall), a full one (receive_window),
// nothing to send (application, measured at a sender-side capture), and
// the rest, the congestion window and the path (bottleneck); largest
// first. A sender-side transfer diagnose finds sender limited, with
// nothing lost, the window never full and far below the bottleneck, has
// the rest counted as application (reassignShare); a receiver-side one
// it finds receiver-window limited has all but a closed window's share
// counted as the receive window's. None where the diagnosis reads nothing
// (fewer than minDiagnosed data packets: an iperf3 control connection's
// few messages read bottleneck=1).
func limitShares(st, rcv *DirStats) []LimitShare {
	T := st.DataPhaseNs
	if T <= 0 || st.DataPackets < minDiagnosed {
		return nil
	}
	zw := min(rcv.ZeroWindowNs, T)
	rw := min(max(st.RwndLimitedNs-zw, 0), T-zw)
	app := min(st.AppLimitedNs, T-zw-rw)
	ls := []LimitShare{
		{FindReceiveWindow, float64(rw) / float64(T)},
		{FindReceiverStall, float64(zw) / float64(T)},
		{FindApplication, float64(app) / float64(T)},
		{FindBottleneck, float64(T-zw-rw-app) / float64(T)},
	}
	slices.SortStableFunc(ls, func(a, b LimitShare) int { return cmp.Compare(b.Share, a.Share) })
	return ls
}

// stalled tells whether the receiver's closed windows held the sender
// for minStallShare of the data phase or more: a window closed for 49 µs
// (mx_200ms_5m_w32_l1, whose receiver's buffer filled once) ranked first
// among the findings, over the random loss and the receive window that
// held the transfer; the limit shares give it 0.00.
func stalled(st, rcv *DirStats) bool {
	return st.DataPhaseNs > 0 && float64(rcv.ZeroWindowNs) >= minStallShare*float64(st.DataPhaseNs)
}

// minStallShare: see stalled.
const minStallShare = 0.01

// reassignShare gives kind to's share the share of kind from, in order
// of size again.
func reassignShare(ls []LimitShare, from, to string) []LimitShare {
	ls = slices.Clone(ls)
	var moved float64
	for i := range ls {
		if ls[i].Kind == from {
			moved, ls[i].Share = ls[i].Share, 0
		}
	}
	if i := slices.IndexFunc(ls, func(l LimitShare) bool { return l.Kind == to }); i >= 0 {
		ls[i].Share += moved
	} else {
		ls = append(ls, LimitShare{to, moved})
	}
	slices.SortStableFunc(ls, func(a, b LimitShare) int { return cmp.Compare(b.Share, a.Share) })
	return ls
}

// moveShare moves up to share of kind from's share to kind to's, in
// order of size again.
func moveShare(ls []LimitShare, from, to string, share float64) []LimitShare {
	i, j := slices.IndexFunc(ls, func(l LimitShare) bool { return l.Kind == from }), slices.IndexFunc(ls, func(l LimitShare) bool { return l.Kind == to })
	if i < 0 || j < 0 {
		return ls
	}
	share = min(share, ls[i].Share)
	ls[i].Share -= share
	ls[j].Share += share
	slices.SortStableFunc(ls, func(a, b LimitShare) int { return cmp.Compare(b.Share, a.Share) })
	return ls
}

func (st *DirStats) share(kind string) float64 {
	for _, l := range st.LimitShares {
		if l.Kind == kind {
			return l.Share
		}
	}
	return 0
}

// diagnose reads what limited the data sent in st's direction, and what
// the path did to it: rcv is the other direction, whose side receives the
// data and advertises the window; bottleneck is the ACK-dispersion
// estimate before any refusal. Several findings may hold; in order:
//   - a receiver answering within a millisecond of a sender-side capture
//     is a nearby peer (a split-connection proxy, a LAN): what it does to
//     its window is reported, and nothing is said of the path beyond it;
//   - a closed receive window is a stalled receiver;
//   - the receiver's packets missing from a sender-side capture (gaps in
//     its IPv4 IDs, at least minACKLoss of them) are ACK-path loss;
//   - retransmissions proven spurious (D-SACK, timestamps, both copies
//     seen) are spurious timeouts when most were sent on timers; data
//     that came late — reported missing and then acknowledged with no
//     resend, reordered at a receiver-side capture, or resent in vain by
//     fast retransmit — is reordering;
//   - lost segments (down- and upstream of the capture, and the sender's
//     IPv4 IDs missing at a receiver-side capture), what reordering and
//     spurious resends do not explain, are congestion loss when more than
//     half of the loss episodes began with the RTT (at a receiver-side
//     capture, the one-way delay) near its peak and above queueRank of the
//     ordinary moments' (see lossRanks; bbrQueueRank for BBR), or, when
//     the RTT does not tell (a queue too small to delay: a median delay
//     below minQueueMs, or too few losses ranked), when the episodes
//     came at regular intervals (regularCV; not at a sender-side
//     capture whose sender the application held: its own bursts pace
//     the drops), or when the episodes after
//     the first resent more each than independent drops would at their
//     own loss rate (laterBursts); random loss otherwise, and whatever the RTT when the
//     intervals are irregular (randomCV) after a slow-start overshoot (at
//     a receiver-side capture, irregularMin of them: fewer do not tell), or
//     over irregularMin of them at a sender-side capture with no data
//     late, or not regular with the windows at the losses not steady
//     there either, or when the receiver's window held the flight below
//     a known bandwidth-delay product (windowHeld: no queue filled); the
//     cause is not told without RTT or delay samples or on fewer than
//     minToldEpisodes episodes, nor by intervals between regularCV and
//     randomCV after an overshoot (nor then by the RTT's or the delay's
//     rank where its median rose less than minQueueMs); a slow start still on at the first
//     loss (slowStartUntilLoss) whose loss episode resent at least
//     overshootMin segments (or more than independent drops would take
//     from its flight: overshootBurst; after a slow start read as ended
//     on the delay, both), and overshootRatio times the later
//     episodes' mean, overshot the path (which brings congestion_loss
//     into the findings column), its resends counted as drops only where the capture
//     proves them (firstEpisodeDrops), and, where data came late, no more
//     than the transfer lost less one for each later episode not proven
//     spurious;
//   - the flight reaching the receiver's window, below the
//     bandwidth-delay product, is receiver-window limited; a sender that
//     waited with room to send for minAppShare of the transfer, or whose
//     flight stayed far below both window and product, is application
//     limited; an RTT whose median outside loss episodes is at least
//     twice its minimum (and minQueueMs more) is a standing queue, where
//     two segments or more were in flight on average (ackHeld); a
//     throughput near the bottleneck estimate is network limited.
//
// overshootMin and overshootRatio: a first loss episode this large, and
// this many times the later ones, is a slow-start overshoot (on the
// truth captures: 28–80 segments vs 1–5 a later episode; random loss:
// at most 9, and 4 times the later ones at most).
const (
	overshootMin = 16
	// overshootIW: a first loss episode that resent fewer segments than an
	// initial window (RFC 6928's ten) is not told an overshoot by its size
	// against independent drops (overshootBurst).
	overshootIW     = 10
	overshootRatio  = 4
	minToldEpisodes = 3
	// regularCV: loss episodes whose intervals (in segments sent) vary
	// less than this were a queue overflowing at the same window (on the
	// labelled runs: 0.09–0.42 for tail drops, 0.49–1.09 for random loss
	// under Reno and CUBIC); BBR keeps no sawtooth, and its losses are
	// told by the RTT, above bbrQueueRank (BBR keeps its queue near full
	// whatever drops: its random losses rank 0.45–0.76).
	regularCV = 0.45
	// randomCV: after a slow start that overshot, later episodes this
	// irregular are random drops whatever the RTT at them (the overshoot's
	// tail drops fill the queue; the labelled runs with later tail drops
	// only: 0.57–0.64; with random ones: 0.71–0.82); so are irregularMin
	// intervals this irregular at a sender (see irregular in diagnose).
	randomCV = 0.7
	// irregularMin: intervals enough for their irregularity (randomCV) to
	// tell random drops without an overshoot before them: twice the
	// fewest that tell a cause (at a sender-side capture of the recorded
	// runs with tail drops only and no data late: at most 0.64 on 6 or
	// more intervals; random drops: 0.56–1.12).
	irregularMin = 2 * minToldEpisodes
	bbrQueueRank = 0.8
	// bbrKeptBeta: a BBR sender whose median β is under it showed cuts
	// (see diagnose's bbr); BBR's "none" is within 15%.
	bbrKeptBeta = 0.85
	// steadyCV: at a sender-side capture, fast-retransmit episodes after
	// the first that began at windows varying less than this were a queue
	// overflowing at the same window each time, whatever the RTT's rank at
	// them: three or more, or two that began with the RTT near its peak
	// (recorded runs, tail drops only: 0.03–0.10; random or mixed drops:
	// 0.17–0.71; a window the receiver held: 0.20; but two random drops
	// came at windows 10% apart once).
	steadyCV = 0.12
	// wildCV: windows at the losses that vary this much, a few of them
	// (minToldEpisodes), were no queue's overflows whatever the RTT at
	// them: a full queue drops at about the same window, and a queue the
	// overshoot left or jitter moved still within a third (recorded runs
	// with tail drops only: at most 0.33 at a sender), while random drops
	// land anywhere on the sawtooth (0.07–0.75; rl_180ms_5m_l05_nosack:
	// 0.67 on three windows, the RTT at the losses ranked 0.72).
	wildCV = 0.5
	// At a receiver-side capture: a window this full of what arrives per
	// round trip held the sender; with the window far from full and
	// nothing lost, gaps in what arrives for this share of the transfer
	// are an application that had no more. With loss they are not told:
	// recovery leaves the same gaps (a timeout's wait, a window cut to a
	// few segments that arrive as one short flight a round trip), and
	// the sender's window, which would tell them apart, is not seen there.
	rxWindowFull = 0.6
	// minWindowFull: a sender whose flight filled the largest window this
	// many times (Wireshark's window_full) was held by it between its loss
	// recoveries. On the labelled sender captures every one whose flight
	// reached the largest window was window-limited (the lab's windows
	// below the bandwidth-delay product), 13 to 1,401 times; those whose
	// flight filled a smaller window than the largest (autotuning's, on
	// the way up) did so up to 44 times.
	minWindowFull = 10
	rxAppShare    = 0.3
	minACKLoss    = 0.01
	// minReorderShare: data come late is reordering, the finding, from
	// this share of the data packets: the vocabulary's bar (issue 23's
	// labelling rule: at least 1% of the data frames reordered on the
	// way). Shallower reordering, a few pairs of segments swapped by a
	// host's queues (0.2–0.9% on lab runs whose link reordered nothing,
	// vs 9.6% and more at a sender, 17% and more at a receiver, where the
	// link reordered 1% or more), still counts as late data for the loss
	// rules (lateData): its resends are not all drops.
	minReorderShare = 0.01
	// minAppShare: a sender-side capture whose sender waited with room
	// to send for this share of the transfer was held by its
	// application (appAtSender). On the 356 labelled sender captures,
	// those without a proxy whose application was not limiting waited at
	// most 0.07 of theirs (cq_30ms_20m_q8k: the waits after its loss
	// episodes), those whose application was limiting 0.12 and more but
	// one (ap_200ms_5m_a1500k_l05, 0.06): with random loss besides, the
	// application's bursts drain at a window the loss keeps small, so
	// its waits are a smaller share than without (ap_90ms_10m_a2m_l05:
	// 0.15; mx_80ms_20m_a3m_l05: 0.12). At a nearby peer (a proxy) the
	// sender also waits for the proxy's ACKs as it drains towards the
	// slow link: up to 0.15 there with no application limit
	// (pp_350ms_5m_l1), so the bar is minAppShareNearby.
	minAppShare = 0.1
	// minIdleWaits: a sender that this many times had nothing outstanding
	// and sent nothing new for more than a round trip was held by its
	// application, whatever the share of its waits (AppIdleWaits).
	minIdleWaits      = 3
	minAppShareNearby = 0.2
	// minArrivalIdleShare: at a receiver-side capture, a sender that at
	// least minIdleWaits times sent nothing for more than a round trip
	// with everything it had sent arrived, and then went on with its next
	// IPv4 ID (DirStats.arrivalIdles), for this share of the data phase,
	// had no more to send, loss or not. On the 511 labelled receiver
	// captures (two sets recorded after the rule included): 76 of the 82
	// whose application was limiting (the others 1 to 5 waits, 1–9%:
	// jitter, or loss that held the window below the application's
	// rate), none other; three waits or more alone came at twelve held
	// by the receive window (3–10%, a window's ACKs waited for), two
	// standing queues (4–5%) and a queue at 50 Mbit/s
	// (cq_40ms_50m_q50k_nots: 5 waits, 12%, host hiccups of 43–384 ms on
	// a 43 ms path).
	minArrivalIdleShare = 0.13
	// fullAtShare, fullAtMin: see fullAtEvery (diagnose). On the
	// labelled receiver captures with timestamps and no data late, those
	// with 10 ranked episodes or more at 95% near the delay's peak all
	// had tail drops (17 of the 226 captures of the bundled set and
	// heldout-1226a-d; six with random drops beside them, which a
	// receiver cannot tell there, so the rule waits for no overshoot,
	// which names the queue and leaves the later drops' cause to the
	// other signs); random drops alone came at most 81% near it on 31
	// (a 39 KB window), 0.89 on nine. With data late, jitter's peaks
	// came before random drops at 96-98%.
	fullAtShare = 0.95
	fullAtMin   = 10
	// unansweredApp: a sender-side Reno or CUBIC sender that let this
	// share of minAnswerACKs or more ACKs that made room pass with no new
	// data (senderHeld.unansweredShare) had none to send. On the labelled
	// sender captures of heldout-1226a/b and testdata/labelled: those
	// whose application was limiting 0.38–0.94 but three held below its
	// rate by loss (0–0.05) and a BBR one; the others at most 0.45 (a
	// 32 KB window on a 600 ms path), 0.39 at 49 Mbit/s, but the client
	// legs to a proxy (0.86–0.95: its ACKs come as it drains) — counting
	// the ACKs after the last data segment, which count no more (the
	// shares only fell: those ACKs are all unanswered);
	// ap_60ms_25m_a15p5m_reno: 0.85 of 4,187, its waits each shorter
	// than appGap (14.8 of 15.5 Mbit/s on a 25 Mbit/s link, read as
	// network limited).
	unansweredApp = 0.6
	minAnswerACKs = 100
	minQueueMs    = 5
	// appRateShare: a sender-side transfer with nothing lost and the
	// receive window never full, at less than this share of the
	// bottleneck estimate, had no more to send.
	appRateShare = 0.3
)

// regularBelow is the coefficient of variation below which n loss
// intervals are regular (a queue overflowing at the same window): below
// regularCV, and below what independent drops give by chance one time in
// twenty (the 5% quantile of the coefficient of variation of n
// exponential intervals: few intervals vary little by chance too).
func regularBelow(n int) float64 {
	// 20,000 draws of n exponential intervals each (population standard
	// deviation over the mean, as lossEpisodes.intervalCV); from 7 on the
	// quantile is above regularCV.
	q05 := [...]float64{3: 0.21, 4: 0.32, 5: 0.39, 6: 0.44}
	if n < len(q05) {
		return min(regularCV, q05[n])
	}
	return regularCV
}

// steadyBelow is the coefficient of variation below which the windows at
// n fast-retransmit losses are steady (a queue overflowing at the same
// window): below steadyCV, and below what random drops give by chance one
// time in twenty. Random drops cap the window too, at a level their rate
// sets, so a few windows at them may vary little: the 5% quantile of the
// coefficient of variation of n windows at loss of an AIMD window growing
// a segment (CUBIC's Reno-friendly 0.53) a round trip, each segment lost
// with probability p (0.5–2%, the smallest quantile of the three), cut to
// β at each loss: 0.5 for Reno, 0.7 for CUBIC. (5,000 draws at each p; a
// sender's window in congestion avoidance, slow start left out; Reno's
// from 5 windows on are above steadyCV.) The
// chance depends on β: where the algorithm is not told, steadyCV alone.
func steadyBelow(n int, cc string) float64 {
	var q05 [8]float64
	switch cc {
	case "cubic":
		q05 = [...]float64{2: 0.010, 3: 0.045, 4: 0.071, 5: 0.092, 6: 0.108, 7: 0.119}
	case "reno":
		q05 = [...]float64{2: 0.017, 3: 0.073, 4: 0.107, 5: steadyCV, 6: steadyCV, 7: steadyCV}
	default:
		return steadyCV
	}
	if n < len(q05) {
		return min(steadyCV, q05[n])
	}
	return steadyCV
}

// overshootBurst tells whether the loss episode that ended slow start
// resent more segments than independent drops could explain: at the
// transfer's own loss rate p (lost of the data packets, the burst itself
// included, so the bound is generous), drops from a flight of F segments
// number about p·F, at most p·F + 3·√(p·F) (a Poisson bound); F is twice
// the flight slow start reached (a sender-side capture's SlowStart.Flight,
// or what arrives per round trip where the flight is not seen: the round
// in which the loss is found has up to doubled it). A full queue in slow
// start drops a burst of the flight's excess instead: on the labelled
// runs with a 20–30 KB queue, 13–14 segments where the bound is 3–7, while
// independent drops stay below their bound. Bursts smaller than an initial
// window (overshootIW) are not told: a few resends say nothing; nor are
// they where data came late (late segments, at least one in 200, as
// reordering is told below): then resends are not all drops, the
// reordered segments fast retransmit resent in vain among them. first is
// the episode's resends (firstEpisodeDrops). It returns the bound too,
// for the text.
func overshootBurst(st *DirStats, first, lost, late int64) (bool, float64) {
	if first < overshootIW || st.DataPackets == 0 || lateData(st, late) {
		return false, 0
	}
	mss := int64(st.MSS)
	if mss == 0 {
		mss = 1460
	}
	flight := float64(st.SlowStart.Flight)
	if st.HasHandshakeRTT && st.DataPhaseNs > 0 {
		flight = max(flight, float64(st.UniqueBytes)/(float64(st.DataPhaseNs)/1e9)*st.HandshakeRTTMs/1e3)
	}
	m := float64(lost) / float64(st.DataPackets) * 2 * flight / float64(mss)
	bound := m + 3*math.Sqrt(m)
	return float64(first) > bound, bound
}

// slowStartUntilLoss tells whether the sender's window was still in slow
// start at the first loss episode, so that a burst there is an overshoot:
// slow start ended by the loss; or the flight stopped at the receiver's
// window, which sets no ssthresh — the window opens (Linux's receive
// buffer autotuning grows it each round trip) and slow start goes on to
// the first loss (RFC 5681 3.1: ssthresh is set on loss only); or, at a
// receiver-side capture, what arrives per round trip stopped growing: a
// bottleneck caps the arrivals as the queue fills, while the sender's
// window still doubles until the queue drops. A sender that left on the
// delay (HyStart, which sets ssthresh) or whose own flight stopped
// growing (the application, pacing) did not overshoot — but for a burst
// in the first loss episode after the delay that no independent drops
// explain (diagnose: ssDelayBurst).
func slowStartUntilLoss(st *DirStats) bool {
	switch st.SlowStart.Reason {
	case SlowStartLoss, SlowStartRwnd:
		return true
	case SlowStartStopped:
		return st.Path.Vantage == VantageReceiver
	}
	return false
}

// segmentAndRTT are the direction's segment size (1460 when not known)
// and the round trip its bandwidth-delay product is taken over (ms): the
// smallest RTT, or the handshake's without samples.
func segmentAndRTT(st *DirStats) (int64, float64) {
	mss := int64(st.MSS)
	if mss == 0 {
		mss = 1460
	}
	rtt := st.RTTMinMs
	if st.RTTSamples == 0 && st.HasHandshakeRTT {
		rtt = st.HandshakeRTTMs
	}
	return mss, rtt
}

// windowHeld tells whether the receiver's window held the sender's flight
// below the bandwidth-delay product: the flight reached the window (within
// two segments) and the product, from the bottleneck estimate and the
// smallest RTT, is unknown (0) or more than 1.2 times the window — or
// more than the window, the flight held there most of the transfer with
// no standing queue. It returns the window and the product too.
func windowHeld(st, rcv *DirStats, bottleneck float64) (held bool, window, bdp int64) {
	mss, rtt := segmentAndRTT(st)
	bdp = int64(bottleneck / 8 * rtt / 1e3)
	window = rcv.MaxRwnd
	if window <= 0 || st.MaxBytesInFlight < window-2*mss || st.WindowMisread {
		return false, window, bdp
	}
	// Between the window and 1.2 times it the estimate alone does not
	// tell (a window-limited flow's ACKs show at most the link's rate); a
	// flight held at the window most of the transfer that built no
	// standing queue (the RTT's median within minQueueMs of its minimum,
	// or a tenth of it on a long path, where a window 20% past the
	// product would queue a fifth of the round trip) went no more than
	// about a tenth past the product (rw_80ms_12m_w36: a 43 KB window, a 5.1 Mbit/s estimate for
	// 51 KB, at the window 92% of the time, the RTT 2.6 ms up;
	// rw_300ms_4m_w40: 49 KB for 56 KB, 87% of the time, 6.3 ms up on
	// 302 ms).
	near := bdp > window && st.share(FindReceiveWindow) >= 0.5 && st.HasQueueDelay && st.QueueDelayMs < max(minQueueMs, st.RTTMinMs/10)
	return bdp == 0 || bdp > window+window/5 || near, window, bdp
}

// windowFilled tells whether a sender-side capture's flight reached the
// receiver's largest window (window) and what was delivered per round
// trip (dataPhaseRate at the median RTT) filled most of it
// (rxWindowFull): receiver-window limited, whatever the bottleneck
// estimate put the product at. A misread window (DirStats.WindowMisread)
// held nothing.
func windowFilled(st *DirStats, window int64) bool {
	mss, _ := segmentAndRTT(st)
	return st.Path.Vantage == VantageSender && window > 0 && st.MaxBytesInFlight >= window-2*mss && st.RTTSamples > 0 &&
		dataPhaseRate(st)/8*st.RTTMedianMs/1e3 >= rxWindowFull*float64(window) && !st.WindowMisread && !queueInWindow(st, window)
}

// queueInWindow tells whether a window the flight filled held a standing
// queue rather than the sender's rate: the RTT's median (outside loss)
// at least twice its minimum and minQueueMs above it, and what the data
// phase's rate carries in the least RTT under half the window. A larger
// window would have lengthened the queue, not sped the transfer
// (ro_16ms_24m_j1_nots: an 888 KB window filled 719 times, 22.9 Mbit/s
// on a 24 Mbit/s link, the RTT's median 312 ms on a 16 ms path: 46 KB a
// least RTT; read as receiver-window limited, its standing queue
// unsaid). Where no bottleneck estimate came (windowHeld's bdp 0), the
// window is still read as holding the sender.
func queueInWindow(st *DirStats, window int64) bool {
	return st.HasQueueDelay && st.RTTMinMs > 0 && st.queueMs() >= st.RTTMinMs && st.queueMs() >= minQueueMs &&
		dataPhaseRate(st)/8*st.RTTMinMs/1e3 < float64(window)/2
}

// rxWindowFilled reads at a receiver-side capture, where the flight is
// not seen, whether the receiver's window (window, its largest) held the
// sender: what arrives per round trip (the handshake's, the path's whole
// round trip there: perRTT, which it returns at any vantage) was most of
// it (rxWindowFull: filled), or what arrived within one round trip, what
// the sender had out, reached it (filledMax: the bottleneck caps that at
// the bandwidth-delay product, so a window above it is never reached).
func rxWindowFilled(st *DirStats, window int64) (perRTT float64, filled, filledMax bool) {
	if st.HasHandshakeRTT {
		perRTT = dataPhaseRate(st) / 8 * st.HandshakeRTTMs / 1e3
	}
	if st.Path.Vantage != VantageReceiver || window <= 0 {
		return perRTT, false, false
	}
	mss, _ := segmentAndRTT(st)
	filled = perRTT >= rxWindowFull*float64(window)
	return perRTT, filled, !filled && st.maxPerRTT >= window-2*mss
}

// dataPhaseRate is what the direction delivered over its data phase,
// bits/s (0 without one).
func dataPhaseRate(st *DirStats) float64 {
	if st.DataPhaseNs <= 0 {
		return 0
	}
	return float64(st.UniqueBytes) * 8 / (float64(st.DataPhaseNs) / 1e9)
}

// laterBursts tells whether the loss episodes after the first resent
// more segments each, on average, than independent drops would take from
// the flight: at the loss rate p of the later episodes (their drops over
// the data packets: a slow start's overshoot, whose burst the first
// episode holds, would raise the bound past any later burst —
// cq_60ms_20m_q60k_nots, 73 of 93 tail drops in the overshoot, 5 a
// later episode against a bound of 6.8, 3.3 without it), from twice
// what arrives per round trip (F, as overshootBurst), about p·F besides
// the drop that began the episode, at most 1 + p·F + 3·√(p·F). A queue
// that overflows drops the flight's excess in a burst; independent
// drops come one or two an episode (on the labelled and kernel runs,
// against the bound at the transfer's whole
// rate and without its 1: random drops at most 0.94 of it, queue drops
// 1.6 to 3.2 times it where the first episode does not dominate; at the
// later episodes' own rate the queue runs an overshoot once hid reach 1.0
// to 1.4 times the bound; with the 1, one resend an episode is never a
// burst however low the loss rate). Not told on fewer than two later
// episodes, nor without SACK, wherever the capture (go-back-N resends
// what had arrived, and a receiver sees those resends arrive again:
// rl_45ms_20m_l15_nosack, 6.8 resends an episode for 35 random drops).
// Where data came late, fast retransmit resent late segments
// too: told only where the receiver sends D-SACK, which reports every
// duplicate it gets (RFC 2883), from the drops (the lost count, the
// spurious resends taken out, less the first episode's resends) over
// the later episodes not proven spurious (on the labelled runs with
// jitter: random drops 1.0–2.0 an episode against bounds of 2.9–4.8;
// queue drops 8.8 against 5.7). It returns the mean, the bound and the
// episodes the mean is over too.
func laterBursts(st, rcv *DirStats, lost, late int64) (bool, float64, float64, int64) {
	eps, p := st.LossEpisodes, &st.Path
	reordered := lateData(st, late)
	if eps < minToldEpisodes || !st.HasHandshakeRTT || st.DataPhaseNs <= 0 || st.DataPackets == 0 ||
		reordered && p.DSACKBlocks == 0 || noSACK(st, rcv) {
		return false, 0, 0, 0
	}
	mss, _ := segmentAndRTT(st)
	perRTT := float64(st.UniqueBytes) / (float64(st.DataPhaseNs) / 1e9) * st.HandshakeRTTMs / 1e3
	// The first episode's resends, at most what was lost less one drop for
	// each later episode (a spurious first episode resends more than was
	// lost).
	m := float64(lost-min(st.FirstEpisodeResent, max(lost-(eps-1), 0))) / float64(st.DataPackets) * 2 * perRTT / float64(mss)
	// Each episode resends its first drop; independent drops add m on
	// average in the rest of the flight.
	bound := 1 + m + 3*math.Sqrt(m)
	resent, later := st.EpisodeResent-st.FirstEpisodeResent, eps-1
	if reordered {
		// Where data came late, resends are not all drops: fast
		// retransmit resent late segments. A receiver that sends D-SACK
		// reports every duplicate it gets (RFC 2883), so the resends it
		// did not report were drops, which the lost count holds (the
		// spurious ones taken out); the episodes proven spurious were
		// reordering's.
		resent = max(lost-min(st.FirstEpisodeResent, lost), 0)
		later -= min(p.LossEventsSpurious, later)
		if later < minToldEpisodes-1 {
			return false, 0, 0, 0
		}
	}
	mean := float64(resent) / float64(later)
	return mean > bound, mean, bound, later
}

// reorderedShare tells whether n data segments that came late are
// reordering, the finding: three or more, and minReorderShare of the data
// segments.
func reorderedShare(st *DirStats, n int64) bool {
	return n >= 3 && float64(n) >= minReorderShare*float64(st.DataPackets)
}

// lateData tells whether data came late (late segments, at least 3 and
// one in 200 of the direction's data packets): reordering, whose resends
// are not drops.
func lateData(st *DirStats, late int64) bool {
	return late >= 3 && 200*late >= st.DataPackets
}

// noSACKSender tells whether st's direction was captured at its sender
// with SACK off (both SYNs seen, one without SACK-permitted): then a
// resend is a proven drop only when it resends the receiver's next
// expected byte; the others may be go-back-N resends of what had arrived.
func noSACKSender(st, rcv *DirStats) bool {
	return noSACK(st, rcv) && st.Path.Vantage == VantageSender
}

// noSACK tells whether st's connection ran with SACK off (both SYNs
// seen, one without SACK-permitted), wherever it was captured: after a
// hole the sender resent what had arrived (go-back-N), and every capture
// point on the way saw those resends.
func noSACK(st, rcv *DirStats) bool {
	return st.HandshakeSeen && rcv.HandshakeSeen && !(st.SACKPermitted && rcv.SACKPermitted)
}

// firstEpisodeDrops is how many drops the first loss episode's resends
// stand for: all of them, but at a sender without SACK only those the
// capture proves, the resends of the next expected byte in the first loss
// event (FirstEventLostLow): after a timeout, go-back-N resends what the
// receiver holds, and a slow start's flight of it would pass for a burst
// of drops.
func firstEpisodeDrops(st, rcv *DirStats) int64 {
	if noSACKSender(st, rcv) {
		return min(st.FirstEpisodeResent, st.Path.FirstEventLostLow)
	}
	return st.FirstEpisodeResent
}

// burstEvidence is what beyondBase read: n segments resent, k of them
// with the trait (sent back to back behind another, or in the sending's
// densest stretches), their share, the share of all segments with it
// (base), and the chance p of k or more at base.
type burstEvidence struct {
	n, k           int64
	share, base, p float64
}

// burstDrops tells whether, at a sender-side capture, the segments resent
// had gone out back to back behind another (burstTail) far more often
// than its segments did (beyondBase). On the labelled senders (147
// captures) it named 32 of 100 with queue drops and none of the 24 with
// random drops alone.
func burstDrops(st *DirStats) (burstEvidence, bool) {
	if st.Path.Vantage != VantageSender || st.burstOriginals == 0 {
		return burstEvidence{}, false
	}
	return beyondBase(st.burstLostFollowers, st.burstLost, float64(st.burstFollowers)/float64(st.burstOriginals))
}

// emptyPathDrops tells whether, at a sender-side capture, the segments
// sent with the path near empty (burstTail.lone: at most one segment out
// before them) were resent far less often than its segments were: a
// queue drops only when full, which two segments in flight cannot fill,
// where drops independent of the sending take them as any. Of the n so
// sent, k were resent, where a share base of all originals was: the
// binomial chance of k or fewer at base is at most emptyMaxP, on
// burstMinLost originals resent or more. Without SACK the share resent
// is an upper bound of the share lost (go-back-N resends what had
// arrived, more of a large flight than of a small one): base is then
// the share surely lost (lost_downstream_min_packets), k still counting
// every resend (and a tail-loss probe of one: burstTail.data).
func emptyPathDrops(st, rcv *DirStats) (burstEvidence, bool) {
	if st.Path.Vantage != VantageSender || st.burstOriginals == 0 || st.burstLost < burstMinLost || st.burstLone == 0 {
		return burstEvidence{}, false
	}
	n, k := st.burstLone, st.burstLostLone
	base := float64(st.burstLost) / float64(st.burstOriginals)
	if noSACKSender(st, rcv) {
		base = min(base, float64(st.Path.LostDownstreamLow)/float64(st.burstOriginals))
	}
	b := burstEvidence{n: n, k: k, share: float64(k) / float64(n), base: base}
	b.p = distuv.Binomial{N: float64(n), P: b.base}.CDF(float64(k)) // k or fewer of n
	return b, b.p <= emptyMaxP
}

// emptyMaxP: emptyPathDrops' bar.
const emptyMaxP = 1e-2

// denseDrops tells whether, at a sender-side capture, the segments resent
// had ended the shortest spans of its sending (burstTail.dense) far more
// often than its segments did: burstDrops' test on the share of them in
// the shortest spans (at most denseShare of all), for queues whose drops
// came where the sender sent densest without its segments going out back
// to back (a train behind a slower link, or paced). Not without SACK:
// go-back-N resends what had arrived, the dense flight a timeout's slow
// start sends (random drops of 2% at kw_reno_nosack_2pct, 15% at
// rl_45ms_20m_l15_nosack: p 1e-16 and below).
func denseDrops(st, rcv *DirStats) (burstEvidence, bool) {
	if st.Path.Vantage != VantageSender || noSACK(st, rcv) || st.denseBase <= 0 {
		return burstEvidence{}, false
	}
	return beyondBase(st.denseShort, st.denseLost, st.denseBase)
}

// runDrops tells whether, at a receiver-side capture where the sender's
// IPv4 IDs count its packets (HasIPIDMissing), the packets missing went
// missing in runs far more often than independent drops would: of the n
// IDs skipped, k right after another skipped one, where drops at the
// loss rate p (the IDs skipped of all) leave a share p of them after
// another (beyondBase). A queue of a few packets drops the back of each
// burst the sender sends into it, several in a row; random loss drops
// each packet alike. On the labelled receiver captures (testdata and
// heldout-1206a-d): it holds at 24 of 85 with queue drops alone, 19 of
// 45 with queue and random drops, none of 25 with random drops alone.
// Only where the IDs skipped can be the data's:
//   - the IDs counted once final (ipidRun.final: none seen in the last
//     ipidLate), so that packets come late, reordered on the way, are
//     not counted missing nor make runs (counted as the steps came,
//     pairs of packets a few places late, 1% of them, read as runs; a
//     packet late refused the test then, as at every jittered path:
//     mx_26ms_2m_q4k_j7, 95 tail drops at a 4 KB queue read as random
//     loss from the one-way delay, which jitter, not the queue, moves);
//   - no segment longer than the receiver's MSS (none seen: none): a
//     receiver's GRO hands the capture merged segments with the first
//     one's ID, and the next ID jumps by the number merged;
//   - no ACK of data the capture did not see: packets the capture
//     dropped skip IDs in runs;
//   - the sequence numbers show at least burstMinLost segments lost, and
//     the IDs skipped are at most idsPerLoss times as many: IDs skipped
//     where no data went missing are other packets' — a counter the
//     host's other connections share (a second connection taking 1-3
//     IDs at a time read as runs, 335 IDs for 49 segments),
//     pcapplusplus__many-protocols' HTTPS downloads (63 and 64 IDs in
//     runs, no segment lost). On the labelled lab runs the IDs skipped
//     were 1.0 to 2.3 times the segments (tail drops repaired in order
//     show in the IDs only).
func runDrops(st, rcv *DirStats) (burstEvidence, bool) {
	bySeq := st.Path.LostDownstream + st.Path.LostUpstream
	if st.Path.Vantage != VantageReceiver || !st.HasIPIDMissing || st.ipidPackets == 0 ||
		st.maxData > int64(rcv.MSS) || rcv.AckUnseen > 0 ||
		bySeq < burstMinLost || st.IPIDMissing > idsPerLoss*bySeq {
		return burstEvidence{}, false
	}
	n := st.IPIDMissing
	return beyondBase(min(st.ipidAfter, n), n, float64(n)/float64(n+st.ipidPackets))
}

// idsPerLoss: at most this many IPv4 IDs skipped a segment the sequence
// numbers show lost (runDrops).
const idsPerLoss = 3

// beyondBase is the test burstDrops and denseDrops make: of n segments
// resent (burstMinLost at least), k had the trait a share base of all
// segments had, and their share is burstMinRise above it with a binomial
// chance of burstMaxP at most at that share (gonum's binomial, as
// clearerThanChance's chance).
func beyondBase(k, n int64, base float64) (burstEvidence, bool) {
	if n < burstMinLost {
		return burstEvidence{}, false
	}
	b := burstEvidence{n: n, k: k, base: base}
	b.share = float64(k) / float64(n)
	if b.share < b.base+burstMinRise {
		return b, false
	}
	b.p = distuv.Binomial{N: float64(n), P: base}.Survival(float64(k) - 1) // k or more of n
	return b, b.p <= burstMaxP
}

// beyondBase's thresholds.
const (
	burstMinLost = 6
	burstMinRise = 0.25
	burstMaxP    = 1e-3
)

// minDiagnosed: a direction with fewer data packets is too short to tell
// what limited it: no findings, no limit shares.
const minDiagnosed = 10

func diagnose(st, rcv *DirStats, bottleneck float64) []Finding {
	if st.DataPackets < minDiagnosed {
		return nil
	}
	var fs []Finding
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
	} else if rcv.ZeroWindows > 0 && stalled(st, rcv) {
		add(FindReceiverStall, fmt.Sprintf("receiver stalled: window closed %d times", rcv.ZeroWindows), map[string]float64{"zero_windows": float64(rcv.ZeroWindows)})
	}
	spurious := p.SpuriousRetransmitted
	lost := p.LostDownstream + p.LostUpstream
	if p.Vantage == VantageReceiver && st.HasIPIDMissing {
		lost = max(lost, st.IPIDMissing)
	}
	late := p.Reordered // seen at a receiver- or mid-path capture
	switch p.Vantage {
	case VantageSender:
		late = st.ReorderedHoles
	case VantageMiddle:
		// Reordering after the capture shows as the sender's does.
		late = max(late, st.ReorderedHoles)
	}
	counted := ""
	if bySeq := p.LostDownstream + p.LostUpstream; lost > bySeq {
		// More of the sender's packets missing from its IPv4 IDs than
		// the sequence numbers show lost (data repaired in order, or
		// packets without data): the count says where it comes from, as
		// the path's columns (lost_*) count only the sequence's.
		counted = fmt.Sprintf(" (gaps in the sender's IPv4 IDs: %d of its packets never reached the capture; the sequence numbers show %d lost)", lost, bySeq)
	} else if noSACKSender(st, rcv) && p.LostDownstreamLow < p.LostDownstream {
		// Without SACK a sender resends after a hole what had arrived
		// (go-back-N): only the resends of the next expected byte are
		// surely losses, the rest an upper bound.
		counted = fmt.Sprintf(" (at least %d: without SACK the resends after a hole are an upper bound)", p.LostDownstreamLow+p.LostUpstream)
	}
	// What the receiver's window did to the flight, read once for the
	// loss cause (a flight it held filled no queue) and for the limit:
	// at a sender the flight against it (windowHeld), at a receiver-side
	// capture, where the flight is not seen, what arrives per round trip
	// (the handshake's, the path's whole round trip there: rxWindowFilled).
	held, window, bdp := windowHeld(st, rcv, bottleneck)
	perRTT, rxFilled, rxFilledMax := rxWindowFilled(st, window)
	// The sender waited with room to send: its application (or send
	// buffer) held it (at a sender-side capture, which sees its waits).
	appShare := st.share(FindApplication)
	// Not BBR's: it paces its sends at the rate it estimates for the
	// path, so its time with room to send is its pacing, not the
	// application's (heldout-1206a's mx_26ms_3m_q16k_l16_bbr, "it had
	// room to send and waited 21%" at 2.8 of 3 Mbit/s); its waits with
	// nothing outstanding (AppIdleWaits) still are.
	byShare := (appShare >= minAppShare && !p.NearbyPeer || appShare >= minAppShareNearby) && st.CongestionControl != "bbr"
	// Or it let most of the ACKs that made room pass with no new data
	// (senderHeld.ack): Reno and CUBIC answer each when they have data
	// waiting; BBR paces whatever the ACKs (not read where the capture
	// names it or shows its ProbeRTT: a lossless BBR flow without one is
	// unknown, and stays a risk), and a nearby peer's ACKs come as the
	// proxy drains.
	byACKs := !p.NearbyPeer && st.CongestionControl != "bbr" && st.ProbeRTTDips == 0 && st.answerACKs >= minAnswerACKs && st.unanswered >= unansweredApp
	// A queue that never drained (the median RTT outside loss the
	// minimum's double or more: standingQueue) is a sender that kept the
	// link busy, not one held by what it had to send: its flight,
	// however it waited with the receiver's window open (its congestion
	// window or send buffer), stood beyond the path's product
	// (mx_394ms_44m: 9 MB out on a 2.2 MB path, 918 ms of queue above a
	// 394 ms round trip, "waited 100% of the transfer" with a 20 MB
	// window). Its waits with nothing outstanding still tell.
	// (Not at a nearby peer, where the RTT is the proxy's.)
	standing, base := standingQueue(st)
	queueStood := standing && !p.NearbyPeer
	appAtSender := p.Vantage == VantageSender && (byShare && !queueStood || st.AppIdleWaits >= minIdleWaits || byACKs && !queueStood)
	// At a receiver-side capture, the sender's waits with everything it
	// had sent arrived (DirStats.arrivalIdles).
	appAtReceiver := p.Vantage == VantageReceiver && st.arrivalIdles >= minIdleWaits && float64(st.arrivalIdleNs) >= minArrivalIdleShare*float64(st.arrivalNs)
	if p.HasData && lost > 0 && (lost >= 3 || spurious == 0) {
		pct := 100 * float64(lost) / float64(st.DataPackets)
		ev := map[string]float64{"lost": float64(lost), "lost_pct": pct, "episodes": float64(st.RankedLossEpisodes), "queue_episodes": float64(st.QueueLossEpisodes)}
		n := st.RankedLossEpisodes
		told := n > 0 && (p.Vantage != VantageReceiver && st.RTTMinMs > 0 || st.DelayRanked)
		near := 2*st.QueueLossEpisodes > n
		// BBR paces and keeps its window on loss: no sawtooth. Not a BBR
		// sender, however named, whose flight fell at its losses as a cut
		// (a median β under bbrKeptBeta): behind a queue of a few packets
		// it falls from its probe to its cruise at each loss, at the same
		// window each time, which the readings of the sawtooth tell
		// (kb_40ms_3m_q6k_bbr; fq_40ms_3m_q6k_bbr and two more such runs
		// of paced-1206, named from their pacing: congestion loss read as
		// random once BBR was named).
		bbr := st.CongestionControl == "bbr" && !(st.HasBeta && st.BetaMedian < bbrKeptBeta)
		regular := st.HasEpisodeIntervalCV && st.EpisodeIntervals >= minToldEpisodes && !bbr
		// BBR keeps its queue near full whatever drops, and an
		// application-held sender's bursts raise the RTT at whatever
		// drops them: the RTT's rank tells a full queue only higher.
		rank := queueRank
		if bbr || appAtSender {
			rank = bbrQueueRank
		}
		what, level := "the RTT", fmt.Sprintf("%.0f ms vs %.0f ms minimum", st.RTTAtLossMs, st.RTTMinMs)
		if st.DelayRanked {
			what, level = "the one-way delay", fmt.Sprintf("%.0f ms above its minimum", st.RTTAtLossMs)
		}
		// A slow start that overshot drops a burst at the queue: the RTT
		// at it says so, and says nothing of the later losses, which
		// their intervals tell when there are enough.
		first, eps, later := firstEpisodeDrops(st, rcv), st.LossEpisodes, st.EpisodeResent-st.FirstEpisodeResent
		if noSACKSender(st, rcv) {
			// Go-back-N's resends of what had arrived are no drops: the
			// later episodes' proven ones are what the first is weighed
			// against, as the first's are (firstEpisodeDrops).
			later = min(later, max(p.LostDownstreamLow-first, 0))
		}
		if lateData(st, late) && eps > 1 {
			// Where data came late the first episode's resends are not
			// all drops (fast retransmit resent reordered segments in
			// vain): it dropped at most what the transfer lost but one
			// for each later episode not proven spurious.
			first = min(first, max(lost-max(eps-1-p.LossEventsSpurious, 0), 0))
		}
		burst, expect := overshootBurst(st, first, lost, late)
		// A slow start read as ended on the delay (HyStart's rule) that
		// lost a burst both overshootMin large and beyond independent
		// drops in its first episode went on growing into the queue all
		// the same: on the labelled captures, every such one was a full
		// queue's (seven runs with a 35–45 KB queue, no timestamps:
		// 34–36 tail drops; random drops there resent 9 at most).
		ssDelayBurst := st.SlowStart.Reason == SlowStartDelay && first >= overshootMin && burst
		overshoot := (slowStartUntilLoss(st) || ssDelayBurst) && (first >= overshootMin || burst) &&
			(eps == 1 || first*(eps-1) >= overshootRatio*later)
		// The windows at the losses, as a sender-side capture sees its
		// flight, or a receiver-side one what had arrived when each
		// resend came (arrivedWindows): how far apart they scatter tells
		// random drops at either (unsteady, scattered, the ceiling below);
		// that they are alike tells a full queue only at a sender (steady),
		// a receiver not seeing which algorithm (BBR's windows are alike
		// whatever drops) or a few alike by chance (mx_480ms_6m_j16_l2_w87:
		// 3 random drops' within 10%).
		win, seesWindows := st.lossWindows, p.Vantage == VantageSender
		if p.Vantage == VantageReceiver {
			win, seesWindows = st.arrivedWindows, true
		}
		// The window at each loss, steady: the flight seen is the sender's,
		// no receive window capped it, and BBR (no sawtooth) aside.
		steady := p.Vantage == VantageSender && st.lossWindows.ok && st.lossWindows.cv < steadyBelow(st.lossWindows.n, st.CongestionControl) && (st.lossWindows.n >= 3 || near) && !bbr &&
			!(rcv.MaxRwnd > 0 && st.MaxBytesInFlight >= rcv.MaxRwnd-2*int64(max(st.MSS, 536)))
		// Regular intervals stand for the RTT where a queue too small to
		// delay hides its overflows from it; a queue that held the delay
		// minQueueMs or more above its minimum (the median, outside loss)
		// shows them, so when that delay ranked the losses (enough of
		// them) and did not put them at its peak (above), their intervals
		// do not overrule it (pp_300ms_5m_l1 at the receiver: random
		// drops, 7 intervals at 0.43, the delay a median 117 ms up and 7
		// of 29 losses near its peak). Not a delay that jitter moved
		// (queueMs): then its rank at the losses is chance's
		// (mx_26ms_2m_q4k_j7 at the receiver: 95 tail drops at a 4 KB
		// queue behind ±7 ms of jitter, ranked at 53% of other moments and
		// read as random).
		delayTells := told && n >= minToldEpisodes && st.HasQueueDelay && st.queueMs() >= minQueueMs
		// A window that grows until a loss fills whatever queue the path
		// has, so the RTT stands near its peak before every loss, whatever
		// dropped it; what tells a full queue then is when the drops come:
		// at the same window each time. Loss episodes a sender started at
		// intervals as irregular as independent drops (randomCV), enough
		// of them (irregularMin) and none the resends of late data, were
		// not a queue's overflows, whatever the RTT at them. (At a
		// receiver-side capture the intervals are between the holes that
		// arrive, which lost ACKs and the sender's recoveries scatter.)
		irregular := regular && st.EpisodeIntervalCV >= randomCV &&
			(overshoot || p.Vantage == VantageSender && st.EpisodeIntervals >= irregularMin && !lateData(st, late))
		// Nor were they where the sender shows both signs of an overflow
		// absent, enough of them to tell (irregularMin): the intervals not
		// regular (regularCV) and the windows at the losses not steady
		// (steadyCV), or a few windows far apart (wildCV), none of it data
		// come late. The RTT near its peak then says only that the window
		// was at its largest.
		// Windows less than a segment apart (their standard deviation) are
		// one window as a capture measures it: the flight at the third
		// duplicate ACK moves by a delayed ACK's two segments, the
		// arrived estimate by the holes between them (cq_28ms_1m_q4k: 74
		// tail drops at a 4 KB queue, windows of 3.6 segments at 0.25
		// apart over 36, read as random drops; mx_40ms_1m_q4k_j1: 0.27
		// on 26, 0.99 segments).
		winSpread := win.cv*win.mean >= float64(max(st.MSS, 536))
		unsteady := regular && seesWindows && winSpread && !lateData(st, late) && st.EpisodeIntervalCV >= regularCV && win.ok &&
			(st.EpisodeIntervals >= irregularMin && win.n >= irregularMin && win.cv >= steadyCV ||
				win.n >= minToldEpisodes && win.cv >= wildCV)
		irregular = irregular || unsteady
		// The windows at the losses scattered beyond a queue's, enough of
		// them to outweigh what the RTT's rank or the intervals say of a
		// full queue (scattered): a queue overflows at about the same
		// window each time, and its tail drops on the labelled sender
		// captures without an overshoot came at most 0.15 apart (0.13 on
		// three windows, 0.15 on 21), while random drops land anywhere on
		// the sawtooth. Three tiers, none with data come late:
		//   - irregularMin windows or more, twice steadyCV apart, whatever
		//     the intervals (ak_100ms_10m_l03_ackloss: 10 random drops,
		//     windows at 0.31 on 6, intervals at 0.42, regular by chance);
		//   - more than minToldEpisodes windows as far apart, with the
		//     intervals as irregular as independent drops' (randomCV) but
		//     fewer than irregularMin (ap_140ms_9m_a2m_l05: windows at
		//     0.31 on 4, intervals at 0.98 on 5, the RTT near its peak at
		//     5 of 6 losses);
		//   - minToldEpisodes windows steadyCV apart at a sender its
		//     application held (appAtSender): each of its bursts raises
		//     the RTT whatever drops it, and a full queue cuts every burst
		//     at the same flight (the labelled ones with tail drops: at
		//     most 0.04 apart), random drops anywhere in it (0.05–0.49;
		//     ap_120ms_10m_a2500k_l04: 0.17 on 3, the RTT near its peak
		//     at 3 of 4).
		// It overrules only a full queue read from the RTT's rank or the
		// intervals (below); every other rule stands.
		apart := 2 * steadyCV
		scattered := regular && !irregular && seesWindows && winSpread && !lateData(st, late) && win.ok &&
			(win.n >= irregularMin && win.cv >= apart ||
				win.n > minToldEpisodes && st.EpisodeIntervals > minToldEpisodes && st.EpisodeIntervalCV >= randomCV && win.cv >= apart ||
				appAtSender && win.n >= minToldEpisodes && win.cv >= steadyCV)
		// A flight the receiver's window held below the bandwidth-delay
		// product (known, at least 1.2 times the window, or above it with
		// the flight held there and no standing queue: windowHeld) never filled
		// the bottleneck's queue: the link drains a window in less than
		// a round trip, and the RTT's median stayed within minQueueMs of
		// its minimum. Its drops were not a full queue's, whatever the RTT
		// or the window at them (both stand still under a window the
		// receiver holds).
		// So did a flight that filled the window every round trip
		// (windowFilled) with the RTT's median within minQueueMs of its
		// minimum, whatever the bottleneck estimate (a window-limited
		// flow's ACKs show its own rate): rw_90ms_12m_w40_l05, a 49 KB
		// window on a 12 Mbit/s link at 91 ms, 31 KB delivered a round
		// trip, the RTT 2.3 ms up, 9 random drops in 5 episodes, 4 of
		// them with the RTT 9 ms up at its peak (the window's burst).
		belowBDP := (held && bdp > 0 || windowFilled(st, window)) && p.Vantage == VantageSender && (!st.HasQueueDelay || st.QueueDelayMs < minQueueMs)
		// So did one a receiver-side capture finds the window held (as its
		// receive-window finding reads it, below: rxWindowFilled), with
		// the one-way delay's median within minQueueMs of its minimum:
		// where the delay's rank or the intervals read a full queue, the
		// window's own bursts put the delay near its peak at its drops
		// (rw_110ms_10m_w40_l04 at the receiver: 7 random drops under a
		// 49 KB window, 40 KB arriving a round trip, the delay 2.6 ms up,
		// 6 of 6 episodes with it near its peak; the 25 other labelled
		// receiver captures named window-limited with loss were all
		// random drops) — from minToldEpisodes or more, as belowBDP
		// (mx_80ms_5m_q30k_w29_reno at the receiver: a 30 KB queue's two
		// tail drops in one episode under a 35 KB window).
		rxHeldFlat := (rxFilled || rxFilledMax) && st.HasQueueDelay && st.QueueDelayMs < minQueueMs
		bursts, burstMean, burstBound, burstEps := laterBursts(st, rcv, lost, late)
		// Where data came late, the later loss episodes proven spurious
		// (D-SACK, Eifel, the original seen after its resend) were
		// reordering's, not drops: their intervals and count say nothing
		// of the drops' cause.
		var spuriousLater int64
		if lateData(st, late) {
			spuriousLater = min(p.LossEventsSpurious, max(eps-1, 0))
		}
		// A full queue read from the RTT's rank at the losses, and from
		// the intervals between them (the two cases below). Where the RTT
		// (at a receiver, the one-way delay) at the losses stood less
		// than minQueueMs above its minimum, a rank is read in a few
		// milliseconds of a window's own bursts and clock ticks: a full
		// queue that small needs irregularMin ranked episodes, more than
		// half of them near the peak (on the labelled captures every
		// such full queue had 6 to 80;
		// mx_420ms_27m_l02_a11p5m at its receiver, three random drops
		// at 0.2% loss under an application's bursts, 4 ms up, 3 of 3
		// near the peak).
		rise := st.RTTAtLossMs - st.RTTMinMs
		if st.DelayRanked {
			rise = st.RTTAtLossMs // already above the delay's minimum
		}
		rankNear := told && near && st.RTTAtLossRank >= rank && !irregular // as a reading the cases below rebut
		rankSays := rankNear && (rise >= minQueueMs || n >= irregularMin)
		// At a receiver-side capture, where the windows at the losses are
		// only estimated (arrivedWindows): a queue full at fullAtShare of
		// fullAtMin loss episodes or more (the one-way delay near its peak
		// before each) overflowed, though the delay stood as high at other
		// moments (a small queue the loss-limited flow kept full, its rank
		// no help: cq_20ms_4m_q8k, 41 of 42 near the peak, ranked 0.60;
		// mx_12ms_3m_q5k_l07, 52 of 52, 0.55). No data come late (jitter
		// puts the delay's peaks at whatever drops), nor a flight the
		// receiver's window held.
		fullAtEvery := p.Vantage == VantageReceiver && st.DelayRanked && n >= fullAtMin && float64(st.QueueLossEpisodes) >= fullAtShare*float64(n) &&
			!lateData(st, late) && !rxHeldFlat && !overshoot
		intervalsSay := regular && st.EpisodeIntervalCV < regularBelow(st.EpisodeIntervals) && !delayTells && !appAtSender && !appAtReceiver
		switch {
		case belowBDP && max(n, st.LossEpisodes) >= minToldEpisodes:
			ev["window_bytes"], ev["bdp_bytes"] = float64(window), float64(bdp)
			below := fmt.Sprintf("below the bandwidth-delay product (at least %s)", kb(bdp))
			if !held || bdp <= window {
				// Filled every round trip, the estimate at or below the
				// window (its own rate): the RTT says no queue stood.
				below = "every round trip"
				if st.HasQueueDelay {
					below += fmt.Sprintf(" with the RTT's median %.1f ms above its minimum", st.QueueDelayMs)
				}
			}
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s in %d loss episodes; the flight, held by the receiver's %s window %s, never filled a queue",
				lost, pct, counted, st.LossEpisodes, kb(window), below), ev)
		case rankSays && !scattered && !rxHeldFlat:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with %s near its peak (%s, above %.0f%% of other moments): a full queue",
				lost, pct, counted, st.QueueLossEpisodes, n, what, level, 100*st.RTTAtLossRank), ev)
		case fullAtEvery:
			ev["rtt_at_loss_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTAtLossRank
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with the one-way delay near its peak (%s): a queue full at every loss",
				lost, pct, counted, st.QueueLossEpisodes, n, level), ev)
			if win.ok && win.n >= irregularMin && win.cv >= 2*steadyCV && win.ceil.top >= ceilingMin*int64(max(st.MSS, 536)) {
				// The windows at the losses scattered (as scattered
				// reads them, irregularMin or more twice steadyCV
				// apart), windows of ceilingMin segments or more (a
				// smaller one moves a segment at a time): random drops
				// came beside the queue's, cutting the window short
				// where the queue would have at its size
				// (mx_40ms_3m_q12k_l19_reno at its receiver: 37 of 37
				// near the delay's peak, 21 windows 0.38 apart; 18
				// random drops, 20 tail drops). The tail drops alone
				// left theirs 0.16-0.20 apart on the labelled receivers
				// fullAtEvery names.
				add(FindRandomLoss, fmt.Sprintf("random loss beside it: the windows at the losses varied (coefficient of variation %.2f over %d), where a queue overflows at the same window each time",
					win.cv, win.n), map[string]float64{"loss_flight_cv": win.cv, "loss_flights": float64(win.n)})
			}
		case steady:
			ev["loss_flight_cv"], ev["loss_flights"] = st.lossWindows.cv, float64(st.lossWindows.n)
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d loss episodes after the first began at the same window (within %.0f%%): the window overflowed a queue at the same size each time",
				lost, pct, counted, st.lossWindows.n, 100*st.lossWindows.cv), ev)
		case bursts:
			ev["later_episode_mean"], ev["independent_bound"] = burstMean, burstBound
			which, did := "", "resent"
			if lateData(st, late) {
				which, did = " not proven spurious", "lost"
			}
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; the %d loss episodes after the first%s %s %.1f segments on average, more than the %.1f independent drops would take from the flight: bursts at a full queue",
				lost, pct, counted, burstEps, which, did, burstMean, burstBound), ev)
		case overshoot && eps-1-spuriousLater < minToldEpisodes:
			// The overshoot's burst was a full queue's (below); the few
			// losses after it are too few to tell their cause.
			also := ""
			if spuriousLater > 0 {
				ev["spurious_episodes"] = float64(spuriousLater)
				also = fmt.Sprintf(" (%d more proven spurious: reordering's)", spuriousLater)
			}
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in slow start's overshoot and %d loss episode(s) after it%s, too few to tell their cause", lost, pct, counted, eps-1-spuriousLater, also), ev)
		case intervalsSay && !scattered && !rxHeldFlat:
			// Regular intervals are a window's that grew to the same
			// overflow each time; a sender the application held (as the
			// application finding names it, at a sender-side capture: at
			// a receiver the gaps stand for its waits, and a queue's
			// tail drops stall arrivals too) grew no window to a queue's
			// size, and drops at its own paced bursts come as regularly
			// by chance (ap_90ms_10m_a3m_l04, ap_110ms_9m_a2500k_l04: 7
			// random drops each, 3 intervals at 0.18, waits 26% and 31%).
			ev["interval_cv"], ev["intervals"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals)
			add(FindCongestionLoss, fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; loss episodes came at regular intervals (%d of them, coefficient of variation %.2f): the window overflowed a queue at the same size each time",
				lost, pct, counted, st.EpisodeIntervals, st.EpisodeIntervalCV), ev)
		case rxHeldFlat && (rankNear || intervalsSay) && max(n, st.LossEpisodes) >= minToldEpisodes:
			ev["window_bytes"], ev["per_rtt_bytes"], ev["queue_delay_ms"] = float64(window), perRTT, st.QueueDelayMs
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s in %d loss episodes; the flight, held by the receiver's %s window (about %s arriving a round trip), with the one-way delay's median %.1f ms above its minimum, never filled a queue: the window's own bursts put the delay near its peak at the drops",
				lost, pct, counted, st.LossEpisodes, kb(window), kb(int64(perRTT)), st.QueueDelayMs), ev)
		case scattered && (rankNear || intervalsSay):
			ev["interval_cv"], ev["intervals"], ev["loss_flight_cv"], ev["loss_flights"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals), win.cv, float64(win.n)
			intervals := fmt.Sprintf(" as their intervals did (%.2f)", st.EpisodeIntervalCV)
			switch {
			case st.EpisodeIntervalCV < regularCV:
				intervals = fmt.Sprintf(", though at regular intervals (%.2f, over %d)", st.EpisodeIntervalCV, st.EpisodeIntervals)
			case st.EpisodeIntervalCV < randomCV:
				intervals = fmt.Sprintf(", at intervals neither regular nor irregular (%.2f)", st.EpisodeIntervalCV)
			}
			peak := ""
			if rankNear {
				ev["rtt_at_loss_rank"] = st.RTTAtLossRank
				by := "the window's growth"
				if appAtSender {
					by = "the application's bursts"
				}
				peak = fmt.Sprintf("; %d of %d began with %s near its peak, where %s put it", st.QueueLossEpisodes, n, what, by)
			}
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; loss episodes began at windows that varied (coefficient of variation %.2f over %d)%s%s: not a queue overflowing at the same size each time",
				lost, pct, counted, win.cv, win.n, intervals, peak), ev)
		case overshoot && irregular && !unsteady && st.EpisodeIntervals < irregularMin && p.Vantage == VantageSender && !bbr &&
			st.lossWindows.ok && st.lossWindows.n >= minToldEpisodes && st.lossWindows.cv < steadyCV:
			// After an overshoot, a few later episodes at irregular
			// intervals, but at windows within steadyCV of each other
			// (not steady enough to beat chance: steadyBelow): the two
			// weak signs disagree, and neither tells (cq_180ms_5m_q40k:
			// 42 tail drops, 34 in the overshoot, 3 intervals at 0.72,
			// 3 windows within 7%).
			ev["interval_cv"], ev["intervals"], ev["loss_flight_cv"], ev["loss_flights"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals), st.lossWindows.cv, float64(st.lossWindows.n)
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in slow start's overshoot and %d loss episodes after it not proven spurious, at irregular intervals (coefficient of variation %.2f) but at windows within %.0f%% of each other: too few to tell their cause",
				lost, pct, counted, eps-1-spuriousLater, st.EpisodeIntervalCV, 100*st.lossWindows.cv), ev)
		case regular && st.EpisodeIntervalCV >= regularCV && st.EpisodeIntervalCV < randomCV && unsteady:
			// Intervals between the two bounds, which after an overshoot
			// do not tell (below), with the windows at the losses
			// unsteady too: the windows tell, and the sentence says so
			// (mx_40ms_10m_q20k_l05 after an overshoot: 11 random drops
			// beside a 20 KB queue's, intervals at 0.50, windows at 0.17
			// on 9; rl_180ms_5m_l05_nosack: windows at 0.67 on 3).
			ev["interval_cv"], ev["intervals"], ev["loss_flight_cv"], ev["loss_flights"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals), win.cv, float64(win.n)
			after := ""
			if overshoot {
				after = "after slow start's overshoot, "
			}
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; %sloss episodes began at windows that varied (coefficient of variation %.2f over %d) as their intervals did (%.2f): not a queue overflowing at the same size each time",
				lost, pct, counted, after, win.cv, win.n, st.EpisodeIntervalCV), ev)
		case overshoot && regular && st.EpisodeIntervalCV >= randomCV && p.Vantage == VantageReceiver && st.EpisodeIntervals < irregularMin:
			// At a receiver-side capture the intervals are between the
			// holes that arrive, which the sender's recoveries scatter
			// too, and no window at the losses is seen to weigh them:
			// after an overshoot, fewer than irregularMin as irregular as
			// random drops' came as often from the queue's tail drops
			// alone (ten labelled runs, 0.70–1.30 over 3 to 5) as with
			// random drops beside them (five): their cause is not told.
			ev["interval_cv"], ev["intervals"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals)
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in slow start's overshoot and %d loss episodes after it not proven spurious, at irregular intervals (coefficient of variation %.2f) too few to tell their cause at a receiver",
				lost, pct, counted, eps-1-spuriousLater, st.EpisodeIntervalCV), ev)
		case regular && st.EpisodeIntervalCV >= regularCV && !(overshoot && st.EpisodeIntervalCV < randomCV):
			// After an overshoot the later tail drops of a queue the
			// overshoot left full vary more (randomCV): between the two
			// bounds the intervals do not tell.
			ev["interval_cv"], ev["intervals"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals)
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; loss episodes came at irregular intervals (%d of them, coefficient of variation %.2f, about 1 for independent drops): not a full queue",
				lost, pct, counted, st.EpisodeIntervals, st.EpisodeIntervalCV), ev)
		case told && overshoot && regular && st.EpisodeIntervalCV < randomCV && st.HasQueueDelay && st.QueueDelayMs < minQueueMs:
			// After an overshoot, later episodes at intervals between the
			// two bounds do not tell (above), and neither does where they
			// came in a delay that rose less than minQueueMs: ranks in a
			// few milliseconds of clock ticks and jitter (the labelled
			// tail-drop runs at a receiver: 0.31 and 0.63; random drops
			// rank the same).
			ev["interval_cv"], ev["intervals"], ev["queue_delay_ms"] = st.EpisodeIntervalCV, float64(st.EpisodeIntervals), st.QueueDelayMs
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in slow start's overshoot and %d loss episodes after it, at intervals neither regular nor irregular (coefficient of variation %.2f), with %s a median %.1f ms above its minimum (too little for a queue to show): their cause is not told",
				lost, pct, counted, eps-1, st.EpisodeIntervalCV, what, st.QueueDelayMs), ev)
		case told && n < minToldEpisodes && st.LossEpisodes < minToldEpisodes:
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in %d loss episode(s): not enough to tell the cause", lost, pct, counted, st.LossEpisodes), ev)
		case rankNear && !rankSays:
			// Near the peak and above most other moments, but in a delay
			// that rose less than minQueueMs, at fewer than irregularMin
			// episodes (rankSays): random drops at a window's bursts rank
			// so too.
			ev["rtt_at_loss_rise_ms"], ev["rtt_at_loss_rank"] = rise, st.RTTAtLossRank
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with %s near its peak, but only %.1f ms above its minimum: too little, on fewer than %d episodes, to tell a full queue from the window's own bursts",
				lost, pct, counted, st.QueueLossEpisodes, n, what, rise, irregularMin), ev)
		case told && overshoot && n < irregularMin:
			// After an overshoot (which names the queue) the later
			// episodes' place in the RTT, on fewer than irregularMin of
			// them, does not tell random drops: on the labelled sets of
			// 2026-12-07 (320 runs) it said random loss beside a queue's
			// tail drops alone twice (mx_406ms_2m_q8k_a0p5m_nots_reno and
			// mx_212ms_2m_q8k_reno at their senders: 3 of 4 below the
			// peak) and with random drops beside them once
			// (mx_548ms_2m_q33k_l18).
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%)%s in slow start's overshoot and %d loss episodes after it; %d of the %d ranked by %s began near its peak: too few to tell their cause",
				lost, pct, counted, eps-1, st.QueueLossEpisodes, n, what), ev)
		case told && near:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			if appAtSender && !bbr && st.RTTAtLossRank >= queueRank {
				// Above queueRank but not bbrQueueRank: the application's
				// bursts raise the RTT at whatever drops them
				// (ap_180ms_6m_a1200k_l04: 6 random drops in 3 episodes,
				// ranked 0.71; ap_100ms_10m_a2m_l04 0.72; the labelled
				// application-held senders with tail drops ranked 0.85).
				add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with %s near its peak (above %.0f%% of other moments), where the application's own bursts put it: not a full queue",
					lost, pct, counted, st.QueueLossEpisodes, n, what, 100*st.RTTAtLossRank), ev)
				break
			}
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with %s near its peak, but no higher than at other moments (above %.0f%% of them on average): not a full queue",
				lost, pct, counted, st.QueueLossEpisodes, n, what, 100*st.RTTAtLossRank), ev)
		case told:
			ev["rtt_at_loss_ms"], ev["rtt_min_ms"], ev["rtt_at_loss_rank"] = st.RTTAtLossMs, st.RTTMinMs, st.RTTAtLossRank
			add(FindRandomLoss, fmt.Sprintf("random loss: %d segments lost (%.1f%%)%s; %d of %d loss episodes began with %s below its peak (%s): not a full queue",
				lost, pct, counted, n-st.QueueLossEpisodes, n, what, level), ev)
		default:
			add(FindLoss, fmt.Sprintf("loss: %d segments lost (%.1f%%: %d after the capture point, %d before it)%s", lost, pct, p.LostDownstream, max(p.LostUpstream, lost-p.LostDownstream), counted), ev)
		}
		// Random drops beside a queue's overflows: read as random loss
		// (the windows at the losses vary), but minToldEpisodes of those
		// windows or more came at the largest of them (within ceilingNear
		// and two segments) and as many far below it — the queue overflowing
		// each time the window grew back to its size (the path's product and
		// the queue), the random drops cutting it short in between. No
		// ceiling of the receiver's window, the application's or BBR's, no
		// data come late, and no overshoot (whose burst names the queue
		// already), nor a queue full at every loss (fullAtEvery, which
		// names it too). On the labelled sender captures, random drops alone
		// left at most one window at their largest; mx_40ms_3m_q12k_l19_reno
		// (20 tail drops at a 12 KB queue, 18 random ones): 8 windows at
		// 11-12 segments, 8 at 4-7.
		c, mss := win.ceil, int64(max(st.MSS, 536))
		if len(fs) > 0 && fs[len(fs)-1].Kind == FindRandomLoss && !fullAtEvery && !overshoot && seesWindows && !bbr && !appAtSender && !held && !belowBDP && !lateData(st, late) &&
			c.at >= minToldEpisodes && c.below >= minToldEpisodes && c.top >= ceilingMin*mss && !(rcv.MaxRwnd > 0 && c.top >= rcv.MaxRwnd-2*mss) {
			add(FindCongestionLoss, fmt.Sprintf("congestion loss beside it: %d loss episodes began at the largest window, %s (within %.0f%%), %d far below it: a queue overflowing each time the window grew back to it",
				c.at, kb(c.top), 100*(1-ceilingNear), c.below), map[string]float64{"ceiling_bytes": float64(c.top), "ceiling_episodes": float64(c.at), "below_episodes": float64(c.below)})
		}
		// A queue of a few packets drops the back of the sender's bursts
		// at whatever window or RTT, which the readings above take for
		// independent drops (burstDrops): where the segments resent had
		// gone out behind another far more often than segments did, the
		// queue is the cause, instead of random loss told from the
		// losses' windows, intervals or RTT (the bursts', not
		// independent drops': on three held-out labelled sets the random
		// loss so replaced was false at 5 senders, true beside the queue
		// at 2) or of a cause not told.
		// Where they had not, the segments resent may still have come
		// where the sender sent densest (denseDrops): a train spread by a
		// slower link before the capture, or paced, fills a queue of a
		// few packets as well.
		b, ok := burstDrops(st)
		dense, runs, empty := false, false, false
		if !ok {
			b, ok = runDrops(st, rcv)
			runs = ok
		}
		if !ok {
			b, ok = emptyPathDrops(st, rcv)
			empty = ok
		}
		if !ok && 20*late < st.DataPackets {
			// Not where one segment in 20 or more came late: a jittered
			// path reorders the densest trains, whose segments fast
			// retransmit resends unneeded (gt_j10_loss1, 23% late: 15
			// random drops, 43 resent, 23 of them in the shortest
			// stretches, p 4e-05; gt_j5_loss1_20m, 22% late, the same).
			// The queues it names on the held-out sets had 0%, 0.6% and
			// 4.1% late; gt_j2_loss1 (random drops) has 4.96%, just under
			// the bar, where the test does not hold.
			b, ok = denseDrops(st, rcv)
			dense = ok
		}
		if overshoot {
			// The overshoot's burst names the queue already; the later
			// losses' random reading is replaced only where segments
			// sent into an empty path were spared.
			b, ok = emptyPathDrops(st, rcv)
			empty, dense, runs = ok, false, false
		}
		if ok && !slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindCongestionLoss }) {
			ev := map[string]float64{"resent_followers": float64(b.k), "resent": float64(b.n), "follower_share": b.share, "followers_all_share": b.base, "binomial_p": b.p}
			f := Finding{Kind: FindCongestionLoss, Evidence: ev,
				Text: fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d of the %d segments resent had gone out back to back behind another (%s), where %s of all its segments did (binomial p %.0e): a queue too small for the sender's bursts dropped their back, whatever the window",
					lost, pct, counted, b.k, b.n, percent(b.share), percent(b.base), b.p)}
			if runs {
				f.Evidence = map[string]float64{"missing_after_missing": float64(b.k), "missing": float64(b.n), "after_share": b.share, "loss_rate": b.base, "binomial_p": b.p}
				f.Text = fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d of the %d packets missing from the sender's IPv4 IDs went missing right after another (%s), where drops independent at its loss rate would take %s (binomial p %.0e): a queue dropped the back of its bursts",
					lost, pct, counted, b.k, b.n, percent(b.share), percent(b.base), b.p)
			}
			if empty {
				f.Evidence = map[string]float64{"empty_path_resent": float64(b.k), "empty_path_sent": float64(b.n), "empty_path_share": b.share, "resent_share": b.base, "binomial_p": b.p}
				f.Text = fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; of the %d segments sent with the path near empty (one segment out before them at most) %d were resent (%s), where %s of all its segments were (binomial p %.0e): drops that spare a flight too small to fill a queue are a full queue's",
					lost, pct, counted, b.n, b.k, percent(b.share), percent(b.base), b.p)
			}
			if dense {
				f.Evidence = map[string]float64{"resent_dense": float64(b.k), "resent": float64(b.n), "dense_share": b.share, "dense_all_share": b.base, "binomial_p": b.p}
				f.Text = fmt.Sprintf("congestion loss: %d segments lost (%.1f%%)%s; %d of the %d segments resent had gone out where the sender sent densest (%s of them in the shortest stretches of %d segments, which held %s of all its segments; binomial p %.0e): the queue overflowed there, whatever the window",
					lost, pct, counted, b.k, b.n, percent(b.share), denseSends+1, percent(b.base), b.p)
			}
			if i := len(fs) - 1; i >= 0 && (fs[i].Kind == FindLoss || fs[i].Kind == FindRandomLoss) {
				fs[i] = f
			} else {
				fs = append(fs, f)
			}
		}
		if overshoot {
			mean := float64(later) / float64(max(eps-1, 1))
			ev := map[string]float64{"first_episode_resent": float64(first), "later_episode_mean": mean}
			beyond, resent := "", "resent"
			if first < overshootMin {
				ev["independent_bound"] = expect
				beyond = fmt.Sprintf(", more than the %.0f independent drops would take from the flight", expect)
			}
			if first < st.FirstEpisodeResent {
				resent = fmt.Sprintf("proven lost (of %d resent)", st.FirstEpisodeResent)
			}
			laterWhat := "" // resent; without SACK at a sender, proven lost (above)
			if noSACKSender(st, rcv) {
				laterWhat = " proven lost"
			}
			which := "the loss episode that ended it"
			if !slowStartUntilLoss(st) {
				which = "its first loss episode, the window still growing after the RTT's rise read as slow start's end"
			}
			add(FindOvershoot, fmt.Sprintf("slow start overshot the path: %d segments %s in %s%s (later episodes: %.1f%s on average): the queue overflowed as slow start ended, whatever the later losses were",
				first, resent, which, beyond, mean, laterWhat), ev)
		}
	} else if !p.HasData && st.RetransPackets > 0 {
		if pct := 100 * float64(st.RetransPackets) / float64(st.DataPackets); pct >= 1 {
			add(FindLoss, fmt.Sprintf("loss: %.1f%% of data packets retransmitted", pct), map[string]float64{"retrans_pct": pct})
		}
	}
	spuriousRTO := p.HasData && spurious >= 3 && 2*spurious >= p.Retransmitted && 2*p.RTORetransmissions > p.Retransmitted
	if spuriousRTO {
		k := p.LossEventsSpurious
		add(FindSpuriousTimeouts, fmt.Sprintf("spurious timeouts: %d of %d retransmissions proven unneeded, %d sent on timers (a delay spike or a peer that stalls), cwnd reduced %d times", spurious, p.Retransmitted, p.RTORetransmissions, k),
			map[string]float64{"spurious": float64(spurious), "rto": float64(p.RTORetransmissions), "cwnd_reductions": float64(k), "retransmitted": float64(p.Retransmitted)})
	}
	// At a receiver-side capture the sender's IPv4 IDs show the path's
	// reordering of its data even where the sequence numbers do not: a
	// segment overtaken by a pure ACK or a window update the sender sent
	// after it arrives in sequence (mx_490ms_1m_j7_w33_a500k_reno_nosack:
	// an application-held sender's data overtaken by its own ACKs, 6 of
	// 455 data segments behind a later ID, 3 of them late by sequence).
	// On the 232 labelled receiver captures, 1% of the data segments or
	// more (minReorderShare) came behind a later ID on 54 of the 56 the
	// link reordered 1% of the data frames or more on, and on none of the
	// others (the most: 0.9%, mx_330ms_7m_j1_b05_reno, 1 ms of jitter).
	idLate := int64(0)
	if p.Vantage == VantageReceiver && st.HasIPIDMissing {
		idLate = st.ipidLateData
	}
	idSays := reorderedShare(st, idLate)
	seqSays := reorderedShare(st, late) // (lateData's bar is below it)
	// Data seen arriving late is reordering whatever the timers did; the
	// spurious resends are reordering's evidence only when the timers did
	// not send them.
	switch {
	case p.HasData && (seqSays || idSays || !spuriousRTO && spurious >= 3 && 5*spurious >= p.Retransmitted && (late > 0 || p.Vantage != VantageReceiver && p.Vantage != VantageMiddle)):
		// Where late data shows (a receiver- or mid-path capture), spurious
		// resends with none late are not reordering's: go-back-N resending
		// what had arrived, without SACK, or lost ACKs.
		ev := map[string]float64{"late": float64(late), "spurious": float64(spurious), "cwnd_reductions": float64(p.LossEventsSpurious)}
		var said []string
		if late > 0 {
			said = append(said, fmt.Sprintf("%d segments came late (%.1f%%)", late, 100*float64(late)/float64(st.DataPackets)))
		}
		if idLate > 0 {
			ev["late_by_ipid"] = float64(idLate)
		}
		if idSays && !seqSays {
			said = append(said, fmt.Sprintf("%d data segments arrived behind packets the sender sent after them (%.1f%%, by their IPv4 IDs)", idLate, 100*float64(idLate)/float64(st.DataPackets)))
		}
		if spurious > 0 {
			said = append(said, fmt.Sprintf("%d spurious retransmissions, cwnd reduced %d times", spurious, p.LossEventsSpurious))
		}
		add(FindReordering, "reordering: "+strings.Join(said, ", "), ev)
	}
	if p.Vantage == VantageSender && rcv.HasIPIDMissing && rcv.IPIDMissing >= 3 && float64(rcv.IPIDMissing) >= minACKLoss*float64(rcv.Packets+rcv.IPIDMissing) {
		pct := 100 * float64(rcv.IPIDMissing) / float64(rcv.Packets+rcv.IPIDMissing)
		add(FindACKPathLoss, fmt.Sprintf("ACK path loss: %d of the receiver's packets (%.1f%%) never reached the capture (gaps in their IPv4 IDs)", rcv.IPIDMissing, pct),
			map[string]float64{"acks_lost": float64(rcv.IPIDMissing), "acks_lost_pct": pct})
	}
	addAppAtSender := func() {
		ev := map[string]float64{"share": appShare, "max_in_flight_bytes": float64(st.MaxBytesInFlight), "idle_waits": float64(st.AppIdleWaits)}
		if !byShare && st.AppIdleWaits < minIdleWaits {
			ev["unanswered_acks"], ev["acks"] = st.unanswered, float64(st.answerACKs)
			add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): it let %s of %d ACKs that made room pass with no new data (a sender with data waiting answers each); it waited %s of the transfer", percent(st.unanswered), st.answerACKs, percent(appShare)), ev)
			return
		}
		if !byShare {
			// Told by its waits with nothing outstanding: with loss the
			// application's bursts drain at a window the loss keeps
			// small, so the waits are a small share of the transfer
			// (ap_100ms_10m_a2500k_l05: 9%, 4 such waits).
			add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): %d times it had nothing outstanding and sent nothing new for more than a round trip; it waited %s of the transfer", st.AppIdleWaits, percent(appShare)), ev)
			return
		}
		add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): it had room to send and waited %s of the transfer; at most %s in flight", percent(appShare), kb(st.MaxBytesInFlight)), ev)
	}
	addAppAtReceiver := func() {
		sh := float64(st.arrivalIdleNs) / float64(st.arrivalNs)
		add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): %d times everything it had sent had arrived and it sent nothing more for over a round trip (%s of the transfer)", st.arrivalIdles, percent(sh)),
			map[string]float64{"idle_waits": float64(st.arrivalIdles), "share": sh})
	}
	if p.NearbyPeer {
		// A nearby peer's ACKs say nothing of the path beyond it, but
		// the sender's own waits with room to send still show: an
		// application slower than the proxy takes.
		if appAtSender {
			addAppAtSender()
		}
		return fs
	}
	mss, rtt := segmentAndRTT(st)
	lossy := len(fs) > 0
	rate := dataPhaseRate(st)
	limited := false
	switch {
	case held:
		text := fmt.Sprintf("receiver-window limited: %s window", kb(window))
		ev := map[string]float64{"window_bytes": float64(window), "share": st.share(FindReceiveWindow)}
		if bdp > 0 {
			// The ACKs of a window-limited flow show at most the link's
			// rate (a pacing sender spaces them wider), so the product is a
			// lower bound.
			text += fmt.Sprintf(" vs at least %s bandwidth-delay product (%s × %.0f ms)", kb(bdp), words.BitRate(bottleneck), rtt)
			ev["bdp_bytes"] = float64(bdp)
		}
		add(FindReceiveWindow, text, ev)
		limited = true
	case windowFilled(st, window):
		// The flight reached the window and what was delivered per round
		// trip (at the median RTT) filled most of it, though the
		// bottleneck estimate put the product at or below the window:
		// a window-limited flow's ACKs show its own rate
		// (rw_60ms_16m_w32_l05: 5.2 Mbit/s on a 16 Mbit/s link, a 39 KB
		// product for a 40 KB window, 74% of it delivered a round trip
		// between 11 random drops), and jitter bunches ACKs
		// (mx_60ms_10m_j3_w48: 8.1 Mbit/s on 10, 57 KB for 59 KB, 90%).
		// On the 417 labelled sender captures, none whose window was
		// not limiting had its flight reach it. A misread window
		// (DirStats.WindowMisread) held nothing: gt_v6_any_loss's
		// largest, 63 KB, is its SYN's, unscaled.
		add(FindReceiveWindow, fmt.Sprintf("receiver-window limited: about %s delivered per round trip (%.0f ms median) for a %s window", kb(int64(rate/8*st.RTTMedianMs/1e3)), st.RTTMedianMs, kb(window)),
			map[string]float64{"window_bytes": float64(window), "per_rtt_bytes": rate / 8 * st.RTTMedianMs / 1e3})
		limited = true
	case p.Vantage == VantageSender && window > 0 && st.MaxBytesInFlight >= window-2*mss && st.WindowFull >= minWindowFull && !st.WindowMisread && !queueInWindow(st, window):
		// The flight filled the largest window again and again, though
		// loss recovery kept what was delivered a round trip below most
		// of it (windowFilled): each time the window grew back it capped
		// it (mx_70ms_12m_j4_l05_w40: a 50 KB window filled 27 times in
		// 6 s between 12 random drops and 4 ms of jitter, 56% of it
		// delivered a round trip).
		add(FindReceiveWindow, fmt.Sprintf("receiver-window limited: the flight filled the %s window %d times, between loss recoveries", kb(window), st.WindowFull),
			map[string]float64{"window_bytes": float64(window), "window_full": float64(st.WindowFull)})
		limited = true
	case rxFilled:
		add(FindReceiveWindow, fmt.Sprintf("receiver-window limited: about %s arrived per round trip (%.0f ms) for a %s window", kb(int64(perRTT)), st.HandshakeRTTMs, kb(window)),
			map[string]float64{"window_bytes": float64(window), "per_rtt_bytes": perRTT})
		limited = true
	case rxFilledMax:
		// The flight reached the window, as windowHeld asks at a sender:
		// what arrived within one round trip is what the sender had out,
		// and the window caps it (the bottleneck caps it at the
		// bandwidth-delay product, so a window above that is never
		// reached). Loss recovery's smaller windows and its waits lower
		// the mean (above) but not the most.
		add(FindReceiveWindow, fmt.Sprintf("receiver-window limited: up to %s arrived within a round trip (%.0f ms), the %s window's worth", kb(st.maxPerRTT), st.HandshakeRTTMs, kb(window)),
			map[string]float64{"window_bytes": float64(window), "max_per_rtt_bytes": float64(st.maxPerRTT)})
		limited = true
	case p.Vantage == VantageReceiver && st.share(FindApplication) >= rxAppShare && !lossy:
		sh := st.share(FindApplication)
		add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): nothing arrived %s of the transfer, with the %s window far from full (about %s a round trip)", percent(sh), kb(window), kb(int64(perRTT))),
			map[string]float64{"share": sh, "window_bytes": float64(window), "per_rtt_bytes": perRTT})
		limited = true
	case appAtSender:
		addAppAtSender()
		limited = true
	case appAtReceiver:
		addAppAtReceiver()
		limited = true
	case p.Vantage != VantageReceiver && !lossy && window > 0 && st.MaxBytesInFlight > 0 && st.MaxBytesInFlight < window/2 &&
		(bdp == 0 || st.MaxBytesInFlight < bdp/2) && !standing:
		add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): at most %s in flight, window %s", kb(st.MaxBytesInFlight), kb(window)),
			map[string]float64{"max_in_flight_bytes": float64(st.MaxBytesInFlight), "window_bytes": float64(window)})
		limited = true
	}
	if appAtSender && byShare && slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindReceiveWindow }) {
		// Held by the window while it had data, and waiting with the
		// window open the rest: an application that writes in bursts,
		// each filling the window (mx_220ms_1m_w20_a500k: 38 KB writes
		// at 500 kbit/s into a 23 KB window, 25% of the transfer
		// waiting, every flight drained first; senderHeld). On the
		// labelled sender captures no other receiver-window-limited
		// sender waited 3% of its transfer.
		addAppAtSender()
	}
	if appAtReceiver && !lossy && slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindReceiveWindow }) {
		// The same at a receiver-side capture: the window's worth
		// arrived each round trip, and between the bursts the sender
		// waited with everything arrived (mx_220ms_1m_w20_a500k: 10
		// waits, 29% of the transfer). A window alone leaves such
		// waits too, its ACKs waited for, but short (3-10% on the
		// labelled receiver captures; minArrivalIdleShare), and loss
		// recovery's after a repair: not where anything was lost.
		addAppAtReceiver()
	}
	// Nothing lost, the receive window never full, a path that carries
	// far more: the sender had no more to send. Not where a queue stood
	// (standing): the link was busy, and an estimate far above what it
	// carried is the ACKs' bunching (mx_394ms_44m: 408 Mbit/s on a 44
	// Mbit/s link).
	farBelow := !lossy && p.Vantage == VantageSender && bottleneck > 0 && st.HasThroughput && st.ThroughputBps < appRateShare*bottleneck &&
		window > 0 && st.MaxBytesInFlight < window-2*mss && !standing
	switch {
	case !limited && !lossy && bottleneck > 0 && st.HasThroughput && st.ThroughputBps >= 0.5*bottleneck:
		add(FindBottleneck, fmt.Sprintf("network limited: bottleneck about %s", words.BitRate(bottleneck)), map[string]float64{"bottleneck_bps": bottleneck})
	case !limited && farBelow:
		// However smoothly the application gave its data (no wait long
		// enough to count above).
		add(FindApplication, fmt.Sprintf("sender limited (application or send buffer): %s on a path whose bottleneck is about %s, nothing lost, the %s window never full",
			words.BitRate(st.ThroughputBps), words.BitRate(bottleneck), kb(window)),
			map[string]float64{"throughput_bps": st.ThroughputBps, "bottleneck_bps": bottleneck, "window_bytes": float64(window)})
	}
	if farBelow && slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindApplication }) {
		// The sender found limited by what it had to send, far below
		// the path with nothing lost: the time no window held it (slow
		// start again after its waits included) was the application's,
		// not the path's; the shares say what the finding says.
		st.LimitShares = reassignShare(st.LimitShares, FindBottleneck, FindApplication)
	}
	if p.Vantage == VantageReceiver && slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindReceiveWindow }) {
		// A receiver-side capture does not see the sender's flight, so no
		// time is measured as window-held there: its gaps (counted as the
		// application's) and its arrivals (the bottleneck's) are what a
		// sender held by the window does, a window's worth each round trip
		// and a wait for the ACKs; the shares say what the finding says,
		// a closed window (receiver_stall) keeping its own. Where the
		// sender's waits with everything arrived named the application
		// beside the window (addAppAtReceiver), those waits are the
		// application's: the rest of the gaps are the window's waits for
		// its ACKs.
		st.LimitShares = reassignShare(reassignShare(st.LimitShares, FindApplication, FindReceiveWindow), FindBottleneck, FindReceiveWindow)
		if slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindApplication }) && st.arrivalNs > 0 {
			st.LimitShares = moveShare(st.LimitShares, FindReceiveWindow, FindApplication, float64(st.arrivalIdleNs)/float64(st.arrivalNs))
		}
	}
	if st.CongestionControl == "bbr" && p.Vantage == VantageSender && !slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindApplication }) {
		// BBR's pacing (byShare): the shares say what the findings say.
		st.LimitShares = reassignShare(st.LimitShares, FindApplication, FindBottleneck)
	}
	lossFound := slices.ContainsFunc(fs, func(f Finding) bool {
		switch f.Kind {
		case FindRandomLoss, FindCongestionLoss, FindLoss, FindOvershoot:
			return true
		}
		return false
	})
	if p.Vantage == VantageReceiver && lossFound && !slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == FindApplication }) {
		// At a receiver-side capture the application's share is the gaps
		// in what arrives; with loss they are not told (above: a
		// timeout's wait, a window cut to a short flight a round trip
		// leave the same gaps), so the shares do not tell them either:
		// they are counted with the congestion window and the path's
		// (bottleneck), as the findings count them.
		st.LimitShares = reassignShare(st.LimitShares, FindApplication, FindBottleneck)
	}
	if !limited && standing {
		if p.Vantage == VantageReceiver {
			add(FindStandingQueue, fmt.Sprintf("standing queue: the one-way delay's median %.0f ms above its minimum, on a %.0f ms round trip (a queue that never drained)", st.QueueDelayMs, base),
				map[string]float64{"queue_delay_ms": st.QueueDelayMs, "rtt_ms": base})
		} else {
			add(FindStandingQueue, fmt.Sprintf("standing queue: median RTT %.0f ms outside loss, %.0f ms above its %.0f ms minimum (a queue that never drained, %s in flight at most)",
				base+st.QueueDelayMs, st.QueueDelayMs, base, kb(st.MaxBytesInFlight)),
				map[string]float64{"queue_delay_ms": st.QueueDelayMs, "rtt_min_ms": base})
		}
	}
	return fs
}

// standingQueue tells whether the direction's queueing delay (the
// median RTT outside loss above its minimum; at a receiver-side capture
// the one-way delay's median above its minimum) stood at the base round
// trip or more (half of it at a receiver, where the median counts the
// ramp-up: a queue that stood half the round trip), and minQueueMs at
// least; base is that round trip.
func standingQueue(st *DirStats) (standing bool, base float64) {
	base, queueShare := st.RTTMinMs, 1.0
	if st.Path.Vantage == VantageReceiver {
		// The ack_rtt here is the receiver's ACK delay.
		base, queueShare = st.HandshakeRTTMs, 0.5
	}
	// A receiver may hold the ACK of a single full-sized segment until
	// its delayed-ACK timer fires (RFC 1122 4.2.3.2: up to 500 ms; Linux
	// 40–200 ms) and must ACK every second one (RFC 5681 4.2): with fewer
	// than two segments in flight on average (what the data phase carried
	// per median RTT), each ACK may have waited for that timer, and the
	// RTT's rise above its minimum is the wait, not a queue.
	mss, _ := segmentAndRTT(st)
	ackHeld := st.Path.Vantage != VantageReceiver && dataPhaseRate(st)/8*(base+st.QueueDelayMs)/1e3 < 2*float64(mss)
	q := st.queueMs()
	return !ackHeld && st.HasQueueDelay && base > 0 && q >= queueShare*base && q >= minQueueMs, base
}

// percent writes a share as a whole percentage, but never one that
// says all or none of what it is not: a share short of 1 that rounds to
// 100% is "over 99%" (nothing arrived "100% of the transfer" in which
// 145 data segments arrived, suricata-verify__syn_retransmit_with_ts),
// one above 0 that rounds to 0% "under 1%".
func percent(share float64) string {
	switch p := fmt.Sprintf("%.0f", 100*share); {
	case p == "100" && share < 1:
		return "over 99%"
	case p == "0" && share > 0:
		return "under 1%"
	default:
		return p + "%"
	}
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
		switch f.Kind {
		case FindApplication:
			return "the sender was sender limited", true
		case FindReceiveWindow:
			return "the sender was receiver-window limited", true
		}
	}
	return "", false
}

// queueMs is the delay's rise above its least that a queue, not jitter,
// makes (QueueDelayMs less jitterMs): what tells that a queue stood. That
// none stood is told from QueueDelayMs itself, jitter and all.
func (st *DirStats) queueMs() float64 { return st.QueueDelayMs - st.jitterMs }
