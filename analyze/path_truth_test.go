package analyze

import (
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// The ground-truth test (issue 9): every scenario is one transfer captured
// before the emulated link (tx, the client's side) and after it (rx), with
// the link's log of every frame it dropped or reordered. The expected
// numbers are computed here from that log and the capture on the sender's
// side of the link, never from the analyser's own reading.

// truthEvent is one line of NAME.truth.jsonl.gz.
type truthEvent struct {
	Dir       string    `json:"dir"`
	Event     string    `json:"event"`
	Time      time.Time `json:"time"`
	Src       string    `json:"src"`
	Dst       string    `json:"dst"`
	Sport     uint16    `json:"sport"`
	Dport     uint16    `json:"dport"`
	Seq       uint32    `json:"seq"`
	Len       int       `json:"len"`
	IPID      uint16    `json:"ip_id"`
	Forwarded int64     `json:"forwarded"`
	Dropped   int64     `json:"dropped"`
	Reordered int64     `json:"reordered"`
}

func readTruth(t *testing.T, path string) []truthEvent {
	t.Helper()
	return golden.ReadJSONLines(t, path, func(truthEvent) bool { return true })
}

// truthSeg is one data segment of a capture.
type truthSeg struct {
	seq    uint32 // raw
	abs    uint64
	length int
	ipid   uint16
	time   int64
}

// capturedConn is one connection of a capture: its path statistics and
// its data segments per direction.
type capturedConn struct {
	client, server netip.AddrPort
	bytes          [2]int64
	stats          [2]PathStats
	sack           bool // both SYNs offered SACK
	segs           [2][]truthSeg
}

// runPath feeds a capture through Path, retiring connections as the
// scanner does, and returns its connections in stream order.
func runPath(t testing.TB, path string) []*capturedConn {
	t.Helper()
	sc := reassembly.NewScanner(capturetest.Reader(t, path))
	p := newPathAnalyzer()
	var conns []*capturedConn
	// By stream: the Conn of a first SYN may not be the one that follows
	// (reassembly.Tracker.OnRetire).
	byConn := map[int]*capturedConn{}
	sc.Tracker().OnRetire = func(c *reassembly.Conn) {
		cc := byConn[c.Stream]
		if cc == nil {
			return
		}
		cc.stats = p.stats(c)
		cc.sack = c.Dir[0].SACKPermitted && c.Dir[1].SACKPermitted
		p.forget(c)
		delete(byConn, c.Stream)
	}
	for sc.Scan() {
		c, s := sc.Conn(), sc.Segment()
		cc := byConn[c.Stream]
		if cc == nil {
			cc = &capturedConn{client: c.Client, server: c.Server}
			byConn[c.Stream] = cc
			conns = append(conns, cc)
		}
		p.add(c, s)
		if s.PayloadLen > 0 && !s.Duplicate {
			cc.bytes[s.Dir] += int64(s.PayloadLen)
			cc.segs[s.Dir] = append(cc.segs[s.Dir], truthSeg{s.Seq, s.SeqAbs, s.PayloadLen, s.IPID, s.Time})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return conns
}

// truthDirs are the ground-truth corpora: the shared one, and the
// scenarios recorded for this repository.
func truthDirs() []string {
	_, file, _, _ := runtime.Caller(0)
	return []string{
		filepath.Join(golden.SharedCaptures(), "truth"),
		filepath.Join(filepath.Dir(file), "..", "testdata", "truth-extra"),
	}
}

func truthScenarios(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, d := range truthDirs() {
		m, _ := filepath.Glob(filepath.Join(d, "*.truth.jsonl.gz"))
		for _, f := range m {
			out[strings.TrimSuffix(filepath.Base(f), ".truth.jsonl.gz")] = d
		}
	}
	if len(out) == 0 {
		t.Skip("no ground-truth captures (../shared/captures/truth absent)")
	}
	return out
}

func tolerance(x int64) int64 {
	return max(2, int64(math.Ceil(0.05*float64(x))))
}

// truthExpect is what the truth says about one direction of the data
// connection.
type truthExpect struct {
	dropsObservable   int64 // drops whose segment the sender sent again (before the link)
	dropsDistinct     int64 // distinct dropped segments with later data above them (after the link)
	reorders          int64 // the link's reorders of this direction
	resends           int64 // segments resending bytes already sent, at the sender's side
	spuriousBefore    int64 // resends whose previous copy the link did not drop
	arrivedTwice      int64 // segments that reached the receiver a second time
	drops             int64
	dsackPktsReceiver int64 // filled from tcptrace where available
}

func computeTruth(events []truthEvent, before, after []truthSeg, snd, rcv netip.AddrPort) truthExpect {
	var ex truthExpect
	type drop struct {
		seq  uint32
		ipid uint16
		time int64
	}
	var drops []drop
	for _, e := range events {
		if e.Len <= 0 || e.Sport != snd.Port() || e.Dport != rcv.Port() {
			continue
		}
		if a, err := netip.ParseAddr(e.Src); err != nil || a.Unmap() != snd.Addr().Unmap() {
			continue
		}
		switch e.Event {
		case "loss", "queue":
			drops = append(drops, drop{e.Seq, e.IPID, e.Time.UnixNano()})
			ex.drops++
		case "reorder":
			ex.reorders++
		}
	}
	// Each drop is one transmission seen before the link: the last one of
	// that sequence number (and IPv4 ID; IPv6 has none) sent before the
	// drop. The captures and the link share the machine's clock.
	droppedTx := map[int]bool{}
	for _, dr := range drops {
		best := -1
		for i, s := range before {
			if s.seq != dr.seq || (dr.ipid != 0 && s.ipid != dr.ipid) {
				continue
			}
			if best < 0 || s.time <= dr.time {
				best = i
			}
		}
		if best >= 0 {
			droppedTx[best] = true
		}
	}
	// Before the link: every transmission.
	var high uint64
	perStart := map[uint64]int64{}
	for i, s := range before {
		perStart[s.abs]++
		if droppedTx[i] {
			perStart[s.abs]--
		}
		if s.abs < high {
			ex.resends++
			// The previous copy of this segment's first byte.
			for j := i - 1; j >= 0; j-- {
				p := before[j]
				if p.abs <= s.abs && s.abs < p.abs+uint64(p.length) {
					if !droppedTx[j] {
						ex.spuriousBefore++
					}
					break
				}
			}
		}
		high = max(high, s.abs+uint64(s.length))
	}
	distinct := map[uint32]bool{}
	for i := range droppedTx {
		s := before[i]
		for _, n := range before[i+1:] {
			if n.abs <= s.abs && s.abs < n.abs+uint64(n.length) {
				ex.dropsObservable++
				break
			}
		}
		if distinct[s.seq] {
			continue
		}
		for _, a := range after {
			if a.time > s.time && int32(a.seq-s.seq) > 0 {
				distinct[s.seq] = true
				break
			}
		}
	}
	ex.dropsDistinct = int64(len(distinct))
	for _, n := range perStart {
		if n > 1 {
			ex.arrivedTwice += n - 1
		}
	}
	return ex
}

// expectVantage is the right vantage for direction d of a capture taken
// on the client's side of the link (tx) or the server's (rx).
func expectVantage(side string, d reassembly.Direction) Vantage {
	if (side == "tx") == (d == reassembly.C2S) {
		return VantageSender
	}
	return VantageReceiver
}

type truthRow struct {
	scenario, side, dir, column string
	truth, got, tol             int64
	op                          string // "=", "<="
}

func TestPathTruth(t *testing.T) {
	scen := truthScenarios(t)
	names := make([]string, 0, len(scen))
	for n := range scen {
		names = append(names, n)
	}
	sort.Strings(names)
	var rows []truthRow
	for _, name := range names {
		dir := scen[name]
		t.Run(name, func(t *testing.T) {
			events := readTruth(t, filepath.Join(dir, name+".truth.jsonl.gz"))
			caps := map[string][]*capturedConn{}
			for _, side := range []string{"tx", "rx"} {
				f := filepath.Join(dir, name+"."+side+".pcap")
				if _, err := os.Stat(f); err != nil {
					f += "ng"
				}
				caps[side] = runPath(t, f)
				for _, cc := range caps[side] {
					for d := range 2 {
						if got, want := cc.stats[d].Vantage, expectVantage(side, reassembly.Direction(d)); got != want {
							t.Errorf("%s %s %s→%s %s: vantage %s, want %s", name, side, cc.client, cc.server, reassembly.Direction(d), got, want)
						}
					}
				}
			}
			for _, tx := range caps["tx"] {
				var rx *capturedConn
				for _, c := range caps["rx"] {
					if c.client == tx.client && c.server == tx.server {
						rx = c
					}
				}
				if rx == nil {
					continue
				}
				for d := range 2 {
					dd := reassembly.Direction(d)
					if tx.bytes[d] < 100e3 {
						continue
					}
					bSide, aSide, b, a := "tx", "rx", tx, rx
					snd, rcv := tx.client, tx.server
					if dd == reassembly.S2C {
						bSide, aSide, b, a = "rx", "tx", rx, tx
						snd, rcv = rcv, snd
					}
					ex := computeTruth(events, b.segs[d], a.segs[d], snd, rcv)
					bs, as := b.stats[d], a.stats[d]
					add := func(side, col string, truth, got int64, op string, tol int64) {
						rows = append(rows, truthRow{name, side, dd.String(), col, truth, got, tol, op})
					}
					jitter := strings.Contains(name, "jitter")
					sack := b.sack
					// Before the link.
					if sack {
						add(bSide, "lost_downstream", ex.dropsObservable, bs.LostDownstream, "=", tolerance(ex.dropsObservable))
					} else {
						// Without SACK the truth lies in [low, high].
						add(bSide, "lost_downstream>=", ex.dropsObservable, bs.LostDownstreamLow, "<=", tolerance(ex.dropsObservable))
						add(bSide, "lost_downstream<=", bs.LostDownstream, ex.dropsObservable, "<=", tolerance(ex.dropsObservable))
					}
					add(bSide, "lost_upstream", 2, bs.LostUpstream, "<=", 0)
					add(bSide, "reordered", 2, bs.Reordered, "<=", 0)
					add(bSide, "retransmitted", ex.resends, bs.Retransmitted, "=", tolerance(ex.resends))
					add(bSide, "rto+fast", ex.resends, bs.RTORetransmissions+bs.FastRetransmissions, "=", tolerance(ex.resends))
					if sack {
						add(bSide, "spurious", ex.spuriousBefore, bs.SpuriousRetransmitted, "=", tolerance(ex.spuriousBefore))
					}
					// After the link.
					add(aSide, "lost_upstream", ex.dropsDistinct, as.LostUpstream, "=", tolerance(ex.dropsDistinct))
					add(aSide, "reordered", ex.reorders, as.Reordered, "=", tolerance(ex.reorders))
					add(aSide, "spurious", ex.arrivedTwice, as.SpuriousRetransmitted, "=", tolerance(ex.arrivedTwice))
					add(aSide, "lost_downstream", 2, as.LostDownstream, "<=", 0)
					// The receiver's D-SACKs, counted at both ends.
					add(aSide, "dsack_blocks(tx=rx)", bs.DSACKBlocks, as.DSACKBlocks, "=", tolerance(bs.DSACKBlocks))
					if jitter {
						add(bSide, "spurious(35 D-SACKs)", 35, bs.SpuriousRetransmitted, "=", 2)
						add(aSide, "spurious(35 D-SACKs)", 35, as.SpuriousRetransmitted, "=", 2)
						for _, x := range []struct {
							side string
							st   PathStats
						}{{bSide, bs}, {aSide, as}} {
							add(x.side, "lost_downstream", 2, x.st.LostDownstream, "<=", 0)
							add(x.side, "lost_upstream", 2, x.st.LostUpstream, "<=", 0)
						}
					}
					t.Logf("%s %s: before %+v", name, dd, bs)
					t.Logf("%s %s: after  %+v", name, dd, as)
				}
			}
		})
	}
	// One table of every check, then the failures.
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-22s %-3s %-4s %-22s %8s %8s\n", "scenario", "cap", "dir", "column", "truth", "tcpviz")
	for _, r := range rows {
		ok := r.pass()
		mark := ""
		if !ok {
			mark = "  FAIL"
		}
		fmt.Fprintf(&sb, "%-22s %-3s %-4s %-22s %8d %8d%s\n", r.scenario, r.side, r.dir, r.column, r.truth, r.got, mark)
		if !ok {
			t.Errorf("%s %s %s %s: got %d, truth %d (%s, tolerance %d)", r.scenario, r.side, r.dir, r.column, r.got, r.truth, r.op, r.tol)
		}
	}
	t.Log("\n" + sb.String())
}

func (r truthRow) pass() bool {
	if r.op == "<=" {
		return r.got <= r.truth+r.tol
	}
	d := r.got - r.truth
	return d >= -r.tol && d <= r.tol
}

// TestPathVantageLab: the lab captures are all taken on the client's
// interface, in front of the long link (../shared/lab/README.md), with or
// without a split-connection proxy at the gateway: the client's data is
// seen at its sender, the server's at its receiver. Behind the proxy the
// client's peer answers within a millisecond.
func TestPathVantageLab(t *testing.T) {
	dir := filepath.Join(golden.SharedCaptures(), "lab")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pcap*"))
	if len(files) == 0 {
		t.Skip("no lab captures (../shared/captures/lab absent)")
	}
	for _, f := range files {
		name := filepath.Base(f)
		pep := strings.Contains(name, "_pep")
		for _, cc := range runPath(t, f) {
			for d := range 2 {
				st := cc.stats[d]
				if want := expectVantage("tx", reassembly.Direction(d)); st.Vantage != want {
					t.Errorf("%s %s→%s %s: vantage %s, want %s (to sender %d ns, to receiver %d ns)",
						name, cc.client, cc.server, reassembly.Direction(d), st.Vantage, want, st.RTTToSender, st.RTTToReceiver)
				}
				if d == 0 && cc.bytes[d] > 100e3 && st.NearbyPeer != pep {
					t.Errorf("%s %s→%s: nearby peer %v, want %v (to receiver %d ns)", name, cc.client, cc.server, st.NearbyPeer, pep, st.RTTToReceiver)
				}
			}
		}
	}
}

// TestPathTcptrace holds the path columns against tcptrace's long report
// (analyze/testdata/tcptrace_path.tsv, written by
// scripts/tcptrace-path-golden.sh) where tcptrace is right: at a
// sender-side capture its "rexmt data pkts" are the retransmissions; at a
// receiver-side one they are only the segments that arrived twice (it does
// not count hole-fillers), which are the spurious ones there; its "dsack
// pkts sent" (one block per packet from Linux) are the D-SACK blocks.
func TestPathTcptrace(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	here := filepath.Dir(file)
	data, err := os.ReadFile(filepath.Join(here, "testdata", "tcptrace_path.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		a, b, dir             string
		rexmt, dsack, dataPkt int64
	}
	byCapture := map[string][]row{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) != 7 {
			continue
		}
		var r row
		r.a, r.b, r.dir = endpoint(f[1]), endpoint(f[2]), f[3]
		fmt.Sscan(f[4], &r.rexmt)
		fmt.Sscan(f[5], &r.dsack)
		fmt.Sscan(f[6], &r.dataPkt)
		byCapture[f[0]] = append(byCapture[f[0]], r)
	}
	checked := 0
	for capture, rows := range byCapture {
		path := filepath.Join(golden.SharedCaptures(), capture)
		if strings.HasPrefix(capture, "truth-extra/") {
			path = filepath.Join(here, "..", "testdata", capture)
		}
		if _, err := os.Stat(path); err != nil {
			continue // ../shared absent
		}
		conns := runPath(t, path)
		for _, r := range rows {
			for _, cc := range conns {
				var d reassembly.Direction
				switch {
				case cc.client.String() == r.a && cc.server.String() == r.b:
					d = reassembly.C2S
				case cc.client.String() == r.b && cc.server.String() == r.a:
					d = reassembly.S2C
				default:
					continue
				}
				if r.dir == "b2a" {
					d = d.Reverse()
				}
				st := cc.stats[d]
				if !st.HasData {
					continue
				}
				tol := tolerance(r.rexmt)
				check := func(what string, got, want, tol int64) {
					checked++
					if got < want-tol || got > want+tol {
						t.Errorf("%s %s→%s %s: %s %d, tcptrace %d", capture, r.a, r.b, r.dir, what, got, want)
					}
				}
				switch st.Vantage {
				case VantageSender:
					check("retransmitted", st.Retransmitted, r.rexmt, tol)
					check("rto+fast", st.RTORetransmissions+st.FastRetransmissions, r.rexmt, tol)
				case VantageReceiver:
					check("spurious (arrived twice)", st.SpuriousRetransmitted, r.rexmt, tol)
				}
				check("dsack_blocks", st.DSACKBlocks, r.dsack, tolerance(r.dsack))
			}
		}
	}
	if checked == 0 {
		t.Skip("no captures to check against tcptrace (../shared absent)")
	}
	t.Logf("%d values checked against tcptrace", checked)
}
