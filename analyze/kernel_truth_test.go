package analyze

import (
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// kernelEvent is one line of a kernel record (captures/kernel/README.md).
type kernelEvent struct {
	Event    string   `json:"event"`
	Time     float64  `json:"time"`
	Src      string   `json:"src"`
	Sport    uint16   `json:"sport"`
	Dst      string   `json:"dst"`
	Dport    uint16   `json:"dport"`
	SndCwnd  int64    `json:"snd_cwnd"`
	Ssthresh *int64   `json:"ssthresh"`
	SndWnd   int64    `json:"snd_wnd"`
	SndNxt   uint32   `json:"snd_nxt"`
	State    string   `json:"state"`
	SrttUs   *float64 `json:"srtt_us"`
}

// readKernel reads a kernel record, keeping the events of the socket
// sending from src to dst.
func readKernel(t *testing.T, path string, src, dst netip.AddrPort) []kernelEvent {
	t.Helper()
	return golden.ReadJSONLines(t, path, func(e kernelEvent) bool {
		return e.Src == src.Addr().String() && e.Sport == src.Port() && e.Dst == dst.Addr().String() && e.Dport == dst.Port()
	})
}

// kernelScore is how the cwnd graph of a sender-side capture agrees with
// the sender kernel's record, as the sender-state issue measures it.
type kernelScore struct {
	bbrView            bool // the graph drew BBR's view (its note)
	probes, within     int  // kernel probes on the line, and those within 10% of the allowed window
	ssProbes, ssWithin int  // the kernel's episodes with an ssthresh, and those the graph gives: its ssthresh within 10%, or its undone mark where the kernel undid it
	ssUndone           int  // of ssProbes, those the kernel undid
	recovery, loss     int  // the kernel's entries into recovery and loss
	fast, timeout      int  // the graph's fast-retransmit and timeout marks
	// ... those while the kernel recorded the socket (at or before its
	// record's last event): a record that ends before the capture (the
	// lab stops the trace with the client; where the server sends, it
	// may go on sending) says nothing of the episodes after it.
	fastRec, timeoutRec int
	undone              int // the graph's undone marks
	// The congestion-state bands against the kernel's state at each
	// probe on the line: probes in recovery or loss (repair) and those
	// in the band of the same state; probes open or in disorder and
	// those in no repair band; probes of all four states and those in
	// the same one (no band: open).
	repair, repairSame, calm, calmSame, states, statesSame int
	// Probes where the receive window was the kernel's limit (snd_wnd
	// below snd_cwnd × MSS) and those in the held-by-rwnd band.
	rwndHeld, rwndBand int
	// The graph's tail-loss probes, and those the kernel made as one: a
	// retransmission within 5 ms, its state open or disorder.
	tlps, tlpsKernel int
	stats            DirStats
}

func (k kernelScore) repairShare() float64 { return float64(k.repairSame) / float64(max(1, k.repair)) }
func (k kernelScore) calmShare() float64   { return float64(k.calmSame) / float64(max(1, k.calm)) }
func (k kernelScore) stateShare() float64  { return float64(k.statesSame) / float64(max(1, k.states)) }

// inBand reports whether time ns lies in one of the bands of s (Spans:
// each even point to the next).
func inBand(s *Series, ns int64) bool {
	if s == nil {
		return false
	}
	i := sort.Search(len(s.Points), func(i int) bool { return s.Points[i].Time > ns })
	return i%2 == 1 && i < len(s.Points) // after a start, before its end
}

// bandState is the congestion state the graph's bands give at ns, as
// the kernel names it.
func bandState(g *Graph, ns int64) string {
	for name, state := range map[string]string{SeriesRecovery: "recovery", SeriesLossState: "loss", SeriesDisorder: "disorder"} {
		if inBand(g.lookup(name), ns) {
			return state
		}
	}
	return "open"
}

func (k kernelScore) share() float64   { return float64(k.within) / float64(max(1, k.probes)) }
func (k kernelScore) ssShare() float64 { return float64(k.ssWithin) / float64(max(1, k.ssProbes)) }

// scoreAgainstKernel draws the cwnd graph of the capture's data
// connection's sending direction and scores it at every kernel probe of
// its sending socket between the line's first and last point, skipping
// zero-window moments: the line's value (a step: the last point at or
// before the probe) against min(snd_cwnd × MSS, snd_wnd).
func scoreAgainstKernel(t *testing.T, capture, kernel string) kernelScore {
	t.Helper()
	l, err := Load(capturetest.Opener(t, capture), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	c, d := l.Conn, l.Dir
	src, dst := c.Client, c.Server
	if d == reassembly.S2C {
		src, dst = dst, src
	}
	events := readKernel(t, kernel, src, dst)
	if len(events) == 0 {
		t.Fatalf("no kernel events of the socket %v → %v", src, dst)
	}
	mss := int64(1460)
	if c.Dir[d].Timestamps {
		mss = 1448
	}
	spec, _ := lookupGraph(GraphCwnd)
	// As the cwnd command draws it: with the direction's statistics,
	// whose congestion_control names the view (SeriesOptions.Stats).
	g := spec.Draw(l.Records, SeriesOptions{Conn: c, Dir: d, Stats: &l.Stats[d]}, GraphParams{})
	line, ss := g.lookup(SeriesCwnd), g.lookup(SeriesSsthresh)

	if line == nil || len(line.Points) == 0 {
		t.Fatal("no cwnd-estimate line")
	}
	at := func(s *Series, ns int64) (float64, bool) {
		if s == nil {
			return 0, false
		}
		i := sort.Search(len(s.Points), func(i int) bool { return s.Points[i].Time > ns })
		if i == 0 {
			return 0, false
		}
		return s.Points[i-1].V[0], true
	}
	k := kernelScore{stats: l.Stats[d], bbrView: slices.ContainsFunc(g.Notes, func(w Warning) bool { return w.Kind == NoteBBRCap })}
	first, last := line.Points[0].Time, line.Points[len(line.Points)-1].Time
	entered := int64(-1) // an episode's entry, until a probe gives its ssthresh
	// The last episode whose ssthresh a probe gave: its entry and that
	// ssthresh, until the first probe after its repair judges it.
	setAt, set := int64(-1), int64(0)
	repairEnded := false // the kernel left recovery or loss since the last probe
	// The last probe's snd_cwnd; at the last entry; at the entry of the
	// episode setAt stands for.
	var lastCwnd, cwndAtEntry, cwndBefore int64
	undoneMarks := g.lookup(SeriesUndoneLoss)
	judgeSsthresh := func(at, set int64, undone bool) {
		if undone {
			k.ssUndone++
			if t, ok := nearestTime(undoneMarks, at); ok && abs64(t-at) <= undoNear {
				k.ssWithin++
			} else if os.Getenv("TCPVIZ_KERNEL_DEBUG") != "" {
				fmt.Printf("undo missed: the episode entered %.3f s after the line's start, kernel %d segments then undone, the graph's nearest undone mark %v\n", float64(at-first)/1e9, set, t)
			}
			return
		}
		if sv, ok := nearest(ss, at); ok {
			want := float64(set * mss)
			if math.Abs(sv-want) <= 0.1*want {
				k.ssWithin++
			} else if os.Getenv("TCPVIZ_KERNEL_DEBUG") != "" {
				fmt.Printf("ssthresh missed: the episode entered %.3f s after the line's start, kernel %d segments, the graph %.1f\n", float64(at-first)/1e9, set, sv/float64(mss))
			}
		}
	}
	state := "open" // the kernel's congestion state
	rwndBand := g.lookup(SeriesRwndHeld)
	for _, e := range events {
		ns := int64(math.Round(e.Time * 1e9))
		switch e.Event {
		case "cong_state":
			repairEnded = repairEnded || (state == "recovery" || state == "loss") && e.State != "recovery" && e.State != "loss"
			state = e.State
			switch e.State {
			case "recovery", "loss":
				if e.State == "recovery" {
					k.recovery++
				} else {
					k.loss++
				}
				entered, cwndAtEntry = ns, lastCwnd
				if setAt >= 0 { // entered again before the repair ended: the last one's ssthresh stood
					k.ssProbes++
					judgeSsthresh(setAt, set, false)
					setAt = -1
				}
			}
			continue
		case "probe":
		default:
			continue
		}
		if entered >= 0 && e.Ssthresh != nil && *e.Ssthresh < 1<<30 {
			// The ssthresh the episode set, judged when its repair ends
			// (repairEnded).
			setAt, set, cwndBefore = entered, *e.Ssthresh, cwndAtEntry
			entered = -1
		}
		if setAt >= 0 && repairEnded && state != "recovery" && state != "loss" {
			// The first probe after the repair: an ssthresh above the one
			// set (or none) with the window back at least where it was
			// before the episode is Linux's undo (tcp_undo_cwnd_reduction
			// restores both: kx_reno_jitter6_l1's recoveries in slow
			// start, ssthresh 6 and 19, then none), whose mark the graph
			// must draw instead of an ssthresh; else the one set, against
			// the graph's mark nearest the episode's entry. The probe
			// records tcp_current_ssthresh, which outside CWR and
			// recovery is at least 3/4 of cwnd: a value at that floor
			// proves no restore, so it is not read as one (an undo that
			// restored exactly that floor goes unseen; kx_cubic_nosack_l1: cwnd 19 after a
			// timeout's slow start and CUBIC's step, 13 = 3/4 of it, the
			// ssthresh set 11; kn_vsat_cubic_rto: cwnd 5, 3, set 2).
			k.ssProbes++
			restored := e.Ssthresh == nil || *e.Ssthresh > set && *e.Ssthresh > e.SndCwnd>>1+e.SndCwnd>>2
			judgeSsthresh(setAt, set, restored && e.SndCwnd >= cwndBefore)
			setAt = -1
		}
		repairEnded, lastCwnd = false, e.SndCwnd
		if ns < first || ns > last || e.SndWnd == 0 {
			continue
		}
		allowed := float64(min(e.SndCwnd*mss, e.SndWnd))
		v, _ := at(line, ns)
		ours := bandState(g, ns)
		k.states++
		if ours == state {
			k.statesSame++
		}
		switch repair := func(s string) bool { return s == "recovery" || s == "loss" }; {
		case repair(state):
			k.repair++
			if ours == state {
				k.repairSame++
			}
		case state == "open" || state == "disorder":
			k.calm++
			if !repair(ours) {
				k.calmSame++
			}
		}
		if e.SndWnd < e.SndCwnd*mss {
			k.rwndHeld++
			if inBand(rwndBand, ns) {
				k.rwndBand++
			}
		}
		k.probes++
		if math.Abs(v-allowed) <= 0.1*allowed {
			k.within++
		} else if os.Getenv("TCPVIZ_KERNEL_DEBUG") != "" {
			fmt.Printf("cwnd missed %.4f s after the line's start (%s): kernel cwnd %d segments, window %.1f, allowed %.1f; the line %.1f\n",
				float64(ns-first)/1e9, state, e.SndCwnd, float64(e.SndWnd)/float64(mss), allowed/float64(mss), v/float64(mss))
		}
	}
	if setAt >= 0 { // the record ends in or before the first probe after the repair
		k.ssProbes++
		judgeSsthresh(setAt, set, false)
	}
	if s := g.lookup(SeriesTLP); s != nil {
		for _, p := range s.Points {
			k.tlps++
			state := "open"
			for _, e := range events {
				ns := int64(math.Round(e.Time * 1e9))
				if e.Event == "cong_state" && ns <= p.Time {
					state = e.State
				}
				if e.Event == "retransmit" && abs64(ns-p.Time) <= 5e6 && (state == "open" || state == "disorder") {
					k.tlpsKernel++
					break
				}
			}
		}
	}
	end := int64(math.MinInt64) // the record's last event
	for _, e := range events {
		end = max(end, int64(math.Round(e.Time*1e9)))
	}
	// A mark counts up to a millisecond after it: the capture stamps a
	// packet some microseconds after the kernel's event for it, and a
	// record may end at the retransmission itself (ke_44ms_2m_q6k_reno:
	// the last fast retransmit stamped 15 µs after the record's last
	// event, its own retransmit, the recovery entered 4 ms before).
	const markLag = 1e6
	recorded := func(s *Series) (n int) {
		for _, p := range s.Points {
			if p.Time <= end+markLag {
				n++
			}
		}
		return n
	}
	if s := g.lookup(SeriesFastLoss); s != nil {
		k.fast, k.fastRec = len(s.Points), recorded(s)
	}
	if s := g.lookup(SeriesRTOLoss); s != nil {
		k.timeout, k.timeoutRec = len(s.Points), recorded(s)
	}
	if s := g.lookup(SeriesUndoneLoss); s != nil {
		k.undone = len(s.Points)
	}
	return k
}

// undoNear: an undone mark of the graph this near in time to an episode
// the kernel undid (its entry) stands for it.
const undoNear = 50e6

// nearestTime is the time of s's point nearest in time to ns.
func nearestTime(s *Series, ns int64) (int64, bool) {
	if s == nil || len(s.Points) == 0 {
		return 0, false
	}
	best := s.Points[0].Time
	for _, p := range s.Points[1:] {
		if abs64(p.Time-ns) < abs64(best-ns) {
			best = p.Time
		}
	}
	return best, true
}

// nearest is the value of s's point nearest in time to ns.
func nearest(s *Series, ns int64) (float64, bool) {
	if s == nil || len(s.Points) == 0 {
		return 0, false
	}
	best := s.Points[0]
	for _, p := range s.Points[1:] {
		if abs64(p.Time-ns) < abs64(best.Time-ns) {
			best = p
		}
	}
	return best.V[0], true
}

func abs(x int) int { return int(abs64(int64(x))) }

// kernelFloor is, per scenario of ../shared/captures/kernel, the least
// share of kernel probes at which the cwnd line must be within 10% of the
// window the kernel allowed, of the kernel's episodes whose ssthresh the
// graph gives within 10%, and how many episodes it may miscount: what the
// estimate reaches today (the sender-state issue's table), a ratchet that
// the work on the sender's state raises towards 90%.
var kernelFloor = map[string]struct {
	cwnd, ssthresh float64
	episodesOff    int     // at most this many episodes miscounted, by kind
	repairBand     float64 // the recovery-or-loss band's floor where it is below 95%
	stateBand      float64 // the four states' floor where it is below 97%
}{
	"kn_geo_reno_loss":  {0.99, 0.99, 0, 0, 0},
	"kn_geo_cubic_loss": {0.995, 0.99, 0, 0, 0},
	"kn_bloat_cubic":    {0.995, 0.99, 0, 0, 0},
	"kn_reverse_cubic":  {0.995, 0.99, 0, 0, 0},
	"kn_vsat_cubic_rto": {0.99, 0.99, 0, 0, 0}, // PRR's window held through the NewReno stalls, and at ACKs no send followed; its second timeout (27.3 s, in recovery) Linux did not undo: the probe's 3 after it is 3/4 of cwnd 5 (tcp_current_ssthresh), read as an undo and missed from 2026-12-05 to 12-06
	"kn_bloat_reno":     {0.995, 0.99, 0, 0, 0},
	"kn_rwnd_limited":   {0.99, 0, 0, 0, 0},
	"kn_pep_cubic_loss": {0.98, 0, 0, 0, 0},    // a leg the sender seldom fills: Linux's window where it did not (openWindow: slow start's growth, idle restarts, slow start again below ssthresh after them), was 87%, then 93.9%
	"kn_small_reno":     {0.98, 0.99, 0, 0, 0}, // bundled: DELAY=50ms RATE=2 LOSS=0.01 QUEUE=20000 DUR=6 CC=reno
	"kn_small_cubic":    {0.98, 0.99, 0, 0, 0}, // bundled: DELAY=40ms, else the same, CC=cubic
	"kn_bbr_loss":       {0.90, 0, 0, 0, 0},    // BBR: its cwnd is its model's cap (81.9% before its drain, its cut to the target and rate samples over a round trip at each ACK); no ssthresh drawn (BBR has none)
	// Bundled in testdata/kernel-heldout (its README gives the settings):
	// recorded while this estimate was made (kh_, its tuning set) and
	// after it (kq_, held out: the four below 90% are the bar's misses).
	"kh_cubic_jitter":      {0.995, 0.99, 0, 0, 0}, // cwnd grows at SACKs once Linux's degree of reordering is above 3 (tcp_may_raise_cwnd), was 99.7%
	"kh_cubic_nosack_loss": {0.99, 0.99, 0, 0, 0},
	"kh_cubic_nosack_q":    {0.975, 0.99, 0, 0, 0},
	"kh_cubic_q30k":        {0.99, 0.99, 0, 0, 0},
	"kh_reno_1m_3pct":      {0.99, 0.99, 0, 0, 0},
	"kh_reno_geo_q":        {0.99, 0.99, 0, 0, 0},
	"kh_reno_nosack_1":     {0.99, 0.99, 0, 0, 0},
	"kh_reno_nosack_q":     {0.99, 0.99, 0, 0, 0},
	"kh_reno_rto":          {0.95, 0.99, 0, 0, 0},
	"kq_cubic_20m_loss":    {0.995, 0.99, 0, 0, 0},
	"kq_cubic_bigq":        {0.995, 0.99, 0, 0, 0},
	"kq_cubic_nosack_geo":  {0.99, 0.99, 0, 0, 0},
	"kq_cubic_rto_heavy":   {0.985, 0.99, 0, 0, 0},
	"kq_reno_2m_loss2":     {0.995, 0.99, 0, 0, 0}, // after a recovery Reno restarts at ssthresh whatever PRR did (no HyStart: atSsthresh), was 98.5%; looked at once: its re-entered recovery gave the ssthresh rule at a re-entry (its algorithm's reduction of the last ssthresh, was 92%); PRR's window where the receiver's window was full in recovery (ackWithoutSend), was 94%
	"kq_reno_nosack_loss2": {0.985, 0.99, 0, 0, 0}, // the window after a recovery measured less the duplicate ACKs of the next disorder (limited transmit sends above the window), was 90%; its timeout in recovery: the loss state's window, slow start to ssthresh at go-back-N's cumulative ACKs (lossState), was 85%
	"kq_reno_nots":         {0.99, 0.99, 0, 0, 0},
	"kq_reno_reverse_ba":   {0.99, 0.99, 0, 0, 0}, // the kernel's record ends 1.2 s before the sender's last resends (the lab stops it with the client): its last fast retransmit, after it, is not counted
	// Recorded after the rules of 2026-12-03's third session were written
	// (kw_, held out from them: 2 of 6 met the bar before them, 3 after).
	"kw_reno_nosack_2pct":   {0.98, 0.99, 0, 0.94, 0}, // the loss state's window and its RFC 6582 hold (lossState), was 85%
	"kw_cubic_nosack_geo2":  {0.99, 0.99, 0, 0, 0},
	"kw_cubic_nosack_q15k":  {0.99, 0.99, 0, 0, 0},
	"kw_reno_sack_q40k_l05": {0.99, 0.99, 0, 0, 0},
	"kw_cubic_sack_l2":      {0.99, 0.99, 0, 0, 0},    // one recovery was drawn as a timeout until RACK's loss at the end of recovery re-entered it (lostAbove); ssthresh at re-entries the reduction of the last, was 92%; CUBIC's open window after a recovery in slow start starts at ssthresh (atSsthresh), was 97.3%
	"kw_reno_nosack_vsat":   {0.97, 0.99, 0, 0.94, 0}, // PRR's window at ACKs no send followed, was 87%
	// Recorded on 2026-12-03 before the rules of that day's fourth
	// session (kv_, held out from them: all six met the bar before them).
	"kv_geo_reno_nosack": {0.985, 0.99, 0, 0, 0},
	"kv_cubic_20m_q30k":  {0.995, 0.99, 0, 0, 0},
	"kv_reno_3pct_40ms":  {0.98, 0.97, 0, 0, 0}, // the application's hold at its end: its ssthresh measured there is no measurement (settle), was 92% (held out); Reno's growth at ACKs the flight has not shown yet drawn (openWindow.unseen), cwnd was 96.3%
	// Jitter without SACK: 167 entries into disorder (a duplicate ACK,
	// then a new one), each a probe off at its ends, where the kernel's
	// probe gives the state before the ACK it fires for: 95.5% of states.
	"kv_cubic_nosack_jitter": {0.99, 0.99, 0, 0, 0.955},
	"kv_vsat_reno_rto":       {0.99, 0.99, 0, 0, 0},
	"kv_cubic_ackloss":       {0.99, 0.99, 0, 0, 0},
	// Recorded on 2026-12-03 during its fifth session (ku_ after the
	// open window's first rules and used for HyStart and PRR's window in
	// recovery; kt_ after HyStart, held out from PRR's): app-paced
	// senders (iperf3 -b), a proxy's near leg (its sender seldom fills
	// the window: 72%, the bar's miss).
	"ku_cubic_app2m":  {0.994, 0.99, 0, 0, 0}, // a recovery's ssthresh measured after an idle restart is none (lossEpisodes.awaitIdle), was 87.9%; slow start below ssthresh after idle restarts (openWindow), was 90.2%; ssthresh: CUBIC's growth while window-limited for a round after slow start (openWindow.avoid), was 88% of 8 (cwnd 99.4%)
	"ku_reno_app_geo": {0.99, 0.99, 0, 0, 0},
	"ku_pep_reno":     {0.70, 0, 0, 0, 0},
	// Recorded on 2026-12-04 (kx_, twelve runs held out from that day's
	// rules; the three below bundled for the rules they brought).
	"kx_reno_nosack_q":   {0.99, 0.99, 0, 0, 0}, // a recovery's resend of the head after a timeout's silence is the timer's (lossEpisodes.data's silent), was 96.0% and 8+0 episodes for 8+1
	"kx_cubic_nosack_l1": {0.99, 0.99, 0, 0, 0}, // a timeout's hold left after three duplicate ACKs enters recovery at once (lossEpisodes.holdLost), was 85.9% and 13+4 episodes for 15+2; a partial undo waits for the vote with the steps before it, was 96.0%; its timeout at 5.4 s (in recovery) Linux did not undo: the probe's 13 after it is 3/4 of cwnd 19 (tcp_current_ssthresh), read as an undo and missed from 2026-12-05 to 12-06
	"kx_reno_rwnd":       {0.98, 0.99, 0, 0, 0}, // an episode that ended with nothing outstanding is measured over the sender's round trip (settle's drained), was 60% of 5 (2 segments for the kernel's 41); cwnd 94.9% -> 91.4%, then 94.8% (no β from a drained end that shows no reduction), then 99.0% (the open window reduced where the receiver's window held the sender: priorsAtLoss)
	"kt_cubic_nosack_l1": {0.97, 0.92, 0, 0, 0}, // looked at once: the flight after its last recovery, the transfer ending, measured the application's hold, not ssthresh (settle), was 86%
	"kt_reno_sack_geo_q": {0.99, 0.99, 0, 0, 0},
	// Recorded on 2026-12-04 for the line after the first recovery,
	// drawn under the algorithm the first vote named where the
	// connection's votes name the other (cwndVotes).
	"ky_reno_30ms_j3":  {0.99, 0.99, 0, 0, 0.96},  // its first reduction measured as CUBIC's (flight 52 at the loss for the kernel's cwnd 72, 34 after), then 13 Reno's: was 94.7% and 86% of 14
	"ky_cubic_40ms_j4": {0.995, 0.83, 0, 0, 0.93}, // its first reduction measured as Reno's, then 10 CUBIC's: was 98.4%; the state bands (both) 96% and 93.9% (jitter: disorder entered and left at each reordering, a probe off at its ends)
	// Recorded on 2026-12-04 (kheld-1207, held out from the rules before
	// them), bundled for the rules they brought.
	"kx_cubic_nosack_200ms_l1": {0.99, 0.99, 0, 0, 0},    // PRR's window above ssthresh at the end of recovery falls to it (tcp_end_cwnd_reduction: endReduction), was 80.8% and 82% of 11
	"kx_cubic_vsat_l05":        {0.99, 0.99, 0, 0, 0},    // HyStart's rounds begin below 16 segments too (hystart_update), so its delay rise is seen where Linux's was, at 89 segments: was 96.8% and 80% of 5
	"kx_reno_jitter6_l1":       {0.96, 0.99, 0, 0, 0.95}, // with SACK a partial ACK that proves the resent data arrived ends the recovery, undone (tcp_try_undo_partial), was held open to the next loss: was 95.6%, 77% of 13, episodes 13+0 / 11+0; the recovery entered and undone with no resend is counted (lossEpisodes.silentRec), was 12+0; its two recoveries in slow start Linux undid (ssthresh 6 and 19, then none), judged by the graph's undone marks since, not by the ssthresh they set: was 85%
	// Recorded on 2026-12-05 (kheld-1210, held out until scored once),
	// bundled for the rule it brought.
	"k10_cubic_app2m_l07": {0.975, 0.99, 0, 0, 0}, // an episode's ssthresh a held first burst lowered is restored where the flight reaches it within four round trips (openWindow.heldSs): was 92.9% and 89% of 9; CUBIC's open window after a recovery in slow start starts at ssthresh (atSsthresh), was 96.0%
}

// TestSenderStateAgainstKernel scores the cwnd graph of every kernel
// scenario's sender-side capture against the sender kernel's own record
// and holds each to its floor (kernelFloor): the agreement may grow,
// never fall. The log gives the table of the sender-state issue.
//
// The two small runs bundled in testdata/kernel are scored on a fresh
// clone too; the nine of ../shared/captures/kernel where it is.
func TestSenderStateAgainstKernel(t *testing.T) {
	bundled, _ := filepath.Glob(filepath.Join("..", "testdata", "kernel", "*.kernel.jsonl.gz"))
	heldOut, _ := filepath.Glob(filepath.Join("..", "testdata", "kernel-heldout", "*.kernel.jsonl.gz"))
	if len(bundled) != 2 || len(heldOut) != 43 {
		t.Fatalf("%d kernel records in testdata/kernel, %d in testdata/kernel-heldout, want 2 and 43", len(bundled), len(heldOut))
	}
	bundled = append(bundled, heldOut...)
	kernels := bundled
	if golden.CorpusPresent() {
		dir := filepath.Join(golden.SharedCaptures(), "kernel")
		shared, _ := filepath.Glob(filepath.Join(dir, "*.kernel.jsonl.gz"))
		if len(shared) < len(kernelFloor)-len(bundled) {
			t.Fatalf("%d kernel records in %s, want %d", len(shared), dir, len(kernelFloor)-len(bundled))
		}
		kernels = append(kernels, shared...)
	} else {
		t.Logf("the shared corpus %s is not beside this checkout: only the bundled runs are scored", golden.SharedCaptures())
	}
	for _, kernel := range kernels {
		dir := filepath.Dir(kernel)
		name := filepath.Base(kernel[:len(kernel)-len(".kernel.jsonl.gz")])
		t.Run(name, func(t *testing.T) {
			capture := filepath.Join(dir, name+".tx.pcap")
			if strings.Contains(name, "reverse") { // the server sends: its capture is rx
				capture = filepath.Join(dir, name+".rx.pcap")
			}
			if _, err := os.Stat(capture); err != nil {
				capture += ".gz" // bundled ones are compressed
			}
			k := scoreAgainstKernel(t, capture, kernel)
			t.Logf("%s: cwnd within 10%% at %.1f%% of %d probes; ssthresh within 10%% at %.0f%% of %d episodes; episodes kernel %d recovery + %d loss, graph %d fast + %d timeout; congestion control %s (%s)",
				name, 100*k.share(), k.probes, 100*k.ssShare(), k.ssProbes, k.recovery, k.loss, k.fastRec, k.timeoutRec, k.stats.CongestionControl, k.stats.CongestionControlReason)
			t.Logf("%s: %d tail-loss probes drawn, %d the kernel's; %d episodes Linux undid", name, k.tlps, k.tlpsKernel, k.ssUndone)
			t.Logf("%s: state bands: the kernel's recovery or loss at %d probes, the same band at %.0f%%; open or disorder at %d, no repair band at %.0f%%; the same of four states at %.0f%%; receive-window limited at %d probes, in its band at %.0f%%",
				name, k.repair, 100*k.repairShare(), k.calm, 100*k.calmShare(), 100*k.stateShare(), k.rwndHeld, 100*float64(k.rwndBand)/float64(max(1, k.rwndHeld)))
			floor, ok := kernelFloor[name]
			if !ok {
				t.Fatalf("no floor for %s: add it to kernelFloor", name)
			}
			if k.probes < 50 {
				t.Errorf("only %d kernel probes on the line", k.probes)
			}
			if k.share() < floor.cwnd {
				t.Errorf("cwnd within 10%% at %.1f%% of probes, below the floor %.0f%%", 100*k.share(), 100*floor.cwnd)
			}
			if k.ssShare() < floor.ssthresh {
				t.Errorf("ssthresh within 10%% at %.1f%%, below the floor %.0f%%", 100*k.ssShare(), 100*floor.ssthresh)
			}
			// The congestion control named from the capture: the
			// scenario's (record-kernel.sh's CC=), or unknown where
			// nothing tells (no loss on the leg).
			st := k.stats
			want := map[string][]string{
				"kn_geo_reno_loss": {"reno"}, "kn_bloat_reno": {"reno"}, "kn_small_reno": {"reno"}, "kn_small_cubic": {"cubic"},
				"kn_geo_cubic_loss": {"cubic"}, "kn_bloat_cubic": {"cubic"}, "kn_reverse_cubic": {"cubic"},
				"kn_vsat_cubic_rto": {"cubic"}, // without SACK, 3% loss, windows of a few segments (β 0.62: Linux's integers)
				"kn_bbr_loss":       {"bbr"},
				"kn_pep_cubic_loss": {"unknown"}, "kn_rwnd_limited": {"unknown"},
				"ku_pep_reno": {"unknown"}, // no loss on the proxy's near leg: nothing tells
			}[name]
			for _, cc := range []string{"reno", "cubic", "bbr"} {
				if want == nil && strings.Contains(name, cc) {
					want = []string{cc} // the held-out runs: their names say it
				}
			}
			if !slices.Contains(want, st.CongestionControl) {
				t.Errorf("congestion control %q (%s), want %q", st.CongestionControl, st.CongestionControlReason, want)
			}
			if k.bbrView != (st.CongestionControl == "bbr") {
				t.Errorf("the graph drew BBR's view %v, the summary names %q: one decision (ccFacts) should give both", k.bbrView, st.CongestionControl)
			}
			// The state bands follow the kernel's congestion state
			// (open, disorder, recovery, loss) at its probes, and the
			// held-by-rwnd band where the receive window, not cwnd,
			// was its limit.
			band := 0.95
			if floor.repairBand > 0 {
				band = floor.repairBand
			}
			if k.repair > 0 && k.repairShare() < band {
				t.Errorf("recovery or loss band at %.1f%% of the kernel's %d probes in them, want %.0f%%", 100*k.repairShare(), k.repair, 100*band)
			}
			if k.calmShare() < 0.99 {
				t.Errorf("no repair band at %.1f%% of the kernel's %d probes open or in disorder, want 99%%", 100*k.calmShare(), k.calm)
			}
			stateBand := 0.97
			if floor.stateBand > 0 {
				stateBand = floor.stateBand
			}
			if k.stateShare() < stateBand {
				t.Errorf("the band of the kernel's state at %.1f%% of %d probes, want %.0f%%", 100*k.stateShare(), k.states, 100*stateBand)
			}
			if k.rwndHeld >= 100 && float64(k.rwndBand) < 0.9*float64(k.rwndHeld) {
				t.Errorf("held-by-rwnd band at %d of the %d probes the receive window limited, want 90%%", k.rwndBand, k.rwndHeld)
			}
			if k.tlpsKernel != k.tlps {
				t.Errorf("%d tail-loss probes drawn, %d of them the kernel's (a retransmission while open)", k.tlps, k.tlpsKernel)
			}
			if off := abs(k.recovery-k.fastRec) + abs(k.loss-k.timeoutRec); off > floor.episodesOff {
				t.Errorf("%d episodes miscounted (kernel %d recovery + %d loss, graph %d fast + %d timeout), at most %d", off, k.recovery, k.loss, k.fastRec, k.timeoutRec, floor.episodesOff)
			}
		})
	}
}

// kernelRxFloor is, per kernel scenario, the least share of kernel probes
// at which the cwnd line drawn from the receiver-side capture (the data
// that arrived over each round trip) is within 10% of the window the
// sender's kernel allowed, compared at the same instant: the line runs
// one one-way delay behind, which costs most where the window moves fast
// on a long path (GEO) and without SACK.
var kernelRxFloor = map[string]float64{
	"kn_geo_reno_loss": 0.53, "kn_geo_cubic_loss": 0.75, "kn_bloat_cubic": 0.88,
	"kn_bloat_reno": 0.91, "kn_vsat_cubic_rto": 0.22, "kn_rwnd_limited": 0.90,
}

// TestReceiverSideCwndAgainstKernel scores the cwnd graph of receiver-side
// captures as TestSenderStateAgainstKernel does the sender's, each held to
// its floor.
func TestReceiverSideCwndAgainstKernel(t *testing.T) {
	golden.NeedCorpus(t)
	dir := filepath.Join(golden.SharedCaptures(), "kernel")
	for name, floor := range kernelRxFloor {
		t.Run(name, func(t *testing.T) {
			k := scoreAgainstKernel(t, filepath.Join(dir, name+".rx.pcap"), filepath.Join(dir, name+".kernel.jsonl.gz"))
			t.Logf("%s at the receiver: cwnd within 10%% at %.1f%% of %d probes", name, 100*k.share(), k.probes)
			if k.share() < floor {
				t.Errorf("within 10%% at %.1f%% of probes, below the floor %.0f%%", 100*k.share(), 100*floor)
			}
		})
	}
}

// heldOutAlgorithm is the congestion control a held-out kernel run ran:
// CC= in its NAME.settings.txt (the recorders write the scenario's
// settings there; scenario.sh's default is cubic), else reno, cubic or
// bbr in its name, else "" (not judged).
func heldOutAlgorithm(dir, name string) string {
	if _, err := os.Stat(filepath.Join(dir, name+".settings.txt")); err == nil {
		if cc := heldOutSetting(dir, name, "CC"); cc != "" {
			return cc
		}
		return "cubic"
	}
	cc := ""
	for _, c := range []string{"reno", "cubic", "bbr"} {
		if strings.Contains(name, c) {
			cc = c
		}
	}
	return cc
}

// heldOutSetting is KEY's value in a held-out run's NAME.settings.txt
// ("" where it or the file is not).
func heldOutSetting(dir, name, key string) string {
	raw, err := os.ReadFile(filepath.Join(dir, name+".settings.txt"))
	if err != nil {
		return ""
	}
	for _, kv := range strings.Fields(string(raw)) {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

// TestSenderStateHeldOut scores the kernel-truth runs of the folder
// TCPVIZ_KERNEL_HELDOUT (recorded as ../shared/lab/record-kernel.sh does;
// skipped without it) against the sender-state issue's bar rather than
// today's floors: for Reno and CUBIC, the cwnd line within 10% of the
// kernel's allowed window at 90% of its probes, ssthresh within 10% at
// 90% of its episodes, episodes equal by kind; the algorithm named as the
// run ran (heldOutAlgorithm; a name with "reverse", or REVERSE=1 in its
// settings, has the sender's capture at rx; unknown where the kernel had
// no loss episode).
func TestSenderStateHeldOut(t *testing.T) {
	dir := os.Getenv("TCPVIZ_KERNEL_HELDOUT")
	if dir == "" {
		t.Skip("TCPVIZ_KERNEL_HELDOUT names no folder of held-out kernel runs")
	}
	kernels, _ := filepath.Glob(filepath.Join(dir, "*.kernel.jsonl.gz"))
	if len(kernels) == 0 {
		t.Fatalf("no kernel records in %s", dir)
	}
	for _, kernel := range kernels {
		name := filepath.Base(kernel[:len(kernel)-len(".kernel.jsonl.gz")])
		t.Run(name, func(t *testing.T) {
			side := ".tx.pcap"
			if strings.Contains(name, "reverse") || heldOutSetting(dir, name, "REVERSE") == "1" {
				side = ".rx.pcap" // the server sends: its capture is rx
			}
			capture := filepath.Join(dir, name+side)
			if _, err := os.Stat(capture); err != nil {
				capture += ".gz" // as testdata/kernel-heldout keeps them
			}
			k := scoreAgainstKernel(t, capture, kernel)
			t.Logf("%s: cwnd %.1f%% of %d probes; ssthresh %.0f%% of %d; episodes kernel %d+%d, graph %d+%d; %s (%s); states %.0f%%",
				name, 100*k.share(), k.probes, 100*k.ssShare(), k.ssProbes, k.recovery, k.loss, k.fastRec, k.timeoutRec,
				k.stats.CongestionControl, k.stats.CongestionControlReason, 100*k.stateShare())
			cc := heldOutAlgorithm(dir, name)
			bbr := cc == "bbr"
			if k.recovery+k.loss == 0 && !(bbr && k.stats.ProbeRTTDips > 0) {
				// No loss at the sender: nothing tells, but BBR's ProbeRTT
				// where the flight showed one (and never for Reno or CUBIC).
				cc = "unknown"
			}
			if cc != "" && k.stats.CongestionControl != cc {
				t.Errorf("congestion control %q, want %q", k.stats.CongestionControl, cc)
			}
			if k.bbrView != (k.stats.CongestionControl == "bbr") {
				t.Errorf("the graph drew BBR's view %v, the summary names %q: one decision (ccFacts) should give both", k.bbrView, k.stats.CongestionControl)
			}
			if bbr {
				return // BBR paces: cwnd is a cap, not the bar's line
			}
			if k.share() < 0.9 {
				t.Errorf("cwnd within 10%% at %.1f%% of probes, want 90%%", 100*k.share())
			}
			if k.ssProbes > 0 && k.ssShare() < 0.9 {
				t.Errorf("ssthresh within 10%% at %.1f%% of episodes, want 90%%", 100*k.ssShare())
			}
			if k.recovery != k.fastRec || k.loss != k.timeoutRec {
				t.Errorf("episodes: kernel %d recovery + %d loss, graph %d fast + %d timeout", k.recovery, k.loss, k.fastRec, k.timeoutRec)
			}
		})
	}
}
