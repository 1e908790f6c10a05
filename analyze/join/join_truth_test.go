package join

import (
	"encoding/json"
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"

	"strconv"
	"strings"
	"testing"
	"time"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// The ground truth of a join: every scenario of the truth corpora is one
// transfer captured before the emulated link (tx) and after it (rx), with
// the link's log of every frame it dropped or reordered. Between the two
// captures there is nothing else that drops or reorders (a gateway that
// only forwards), so what the join finds between them is what the log
// says, exactly.

// scenario is one recorded transfer: its captures and what was set.
type scenario struct {
	name, dir string
	tx, rx    string
	truth     string
	settings  map[string]string
}

// settingRE reads "KEY=value" settings out of a README table row or a
// label file.
var settingRE = regexp.MustCompile(`\b([A-Z_0-9]+)=(\S+)`)

// scenarios lists the scenarios of every truth corpus present: the
// bundled ones (testdata/truth-extra, testdata/labelled) always, the
// shared corpus's when ../shared is there.
func scenarios(t *testing.T) []scenario {
	var out []scenario
	dirs := []string{
		filepath.Join(golden.Testdata(), "truth-extra"),
		filepath.Join(golden.Testdata(), "labelled"),
		filepath.Join(golden.SharedCaptures(), "truth"),
		filepath.Join(golden.SharedCaptures(), "kernel"),
	}
	if !golden.CorpusPresent() {
		t.Log("../shared/captures absent: only the bundled truth scenarios are joined")
	}
	for _, d := range dirs {
		readme, _ := os.ReadFile(filepath.Join(d, "README.md"))
		rows := map[string]string{}
		for _, line := range strings.Split(string(readme), "\n") {
			f := strings.Split(line, "|")
			if len(f) > 3 {
				rows[strings.TrimSpace(f[1])] = f[2]
			}
		}
		truths, _ := filepath.Glob(filepath.Join(d, "*.truth.jsonl.gz"))
		for _, tr := range truths {
			name := strings.TrimSuffix(filepath.Base(tr), ".truth.jsonl.gz")
			sc := scenario{name: name, dir: d, truth: tr, settings: map[string]string{}}
			for _, ext := range []string{".pcap", ".pcap.gz"} {
				if _, err := os.Stat(filepath.Join(d, name+".tx"+ext)); err == nil {
					sc.tx, sc.rx = filepath.Join(d, name+".tx"+ext), filepath.Join(d, name+".rx"+ext)
				}
			}
			if _, err := os.Stat(sc.rx); sc.tx == "" || err != nil {
				continue
			}
			if lb, err := os.ReadFile(filepath.Join(d, name+".label.json")); err == nil {
				var l struct{ Settings map[string]string }
				if err := json.Unmarshal(lb, &l); err != nil {
					t.Fatal(err)
				}
				sc.settings = l.Settings
			} else {
				for _, m := range settingRE.FindAllStringSubmatch(rows[name], -1) {
					sc.settings[m[1]] = m[2]
				}
			}
			out = append(out, sc)
		}
	}
	if len(out) == 0 {
		t.Fatal("no truth scenario found, not even the bundled ones")
	}
	return out
}

// event is one line of a truth log.
type event struct {
	Dir   string `json:"dir"`
	Event string `json:"event"`
	Sport uint16 `json:"sport"`
	Dport uint16 `json:"dport"`
	Len   int    `json:"len"`
	Seq   uint32 `json:"seq"`
	IPID  uint16 `json:"ip_id"`
}

func readEvents(t *testing.T, path string) []event {
	return golden.ReadJSONLines(t, path, func(event) bool { return true })
}

func readCapture(t testing.TB, path string) *Capture {
	c, err := Read(filepath.Base(path), capturetest.Reader(t, path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// duration parses a setting such as "270ms" (0 when absent).
func duration(t *testing.T, s string) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("setting %q: %v", s, err)
	}
	return d
}

// busiest is the hop's connection that carried the most payload.
func busiest(h *Hop) *ConnHop {
	var b *ConnHop
	for _, ch := range h.Conns {
		if b == nil || ch.Up.Bytes[0]+ch.Up.Bytes[1] > b.Up.Bytes[0]+b.Up.Bytes[1] {
			b = ch
		}
	}
	return b
}

func TestJoinAgainstTruth(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-28s %-4s %12s %12s %12s %12s %10s %9s %9s\n", "scenario", "dir", "lost truth", "lost join", "reord truth", "reord join", "owd-min", "delay", "offset")
	checked := 0
	for _, sc := range scenarios(t) {
		if sc.settings["PEP"] == "1" {
			checkSplit(t, sc)
			continue
		}
		tx, rx := readCapture(t, sc.tx), readCapture(t, sc.rx)
		res, err := Join([]*Capture{rx, tx}) // the wrong way round: Join orders them
		if err != nil {
			t.Errorf("%s: %v", sc.name, err)
			continue
		}
		if res.Captures[0] != tx {
			t.Errorf("%s: the receiver's capture was put first", sc.name)
			continue
		}
		h := res.Hops[0]
		if !h.ClockOK {
			t.Errorf("%s: no clock estimate", sc.name)
			continue
		}
		// One host's clock: the offset is 0 but for the path's asymmetry.
		if off := math.Abs(h.Clock.Offset); off > h.Clock.Err+1e6 {
			t.Errorf("%s: clock offset %.3f ms (error %.3f ms) on captures from one clock", sc.name, h.Clock.Offset/1e6, h.Clock.Err/1e6)
		}
		ch := busiest(h)
		events := readEvents(t, sc.truth)
		// The link's a side is the client's.
		linkDir := [2]string{"a->b", "b->a"}
		// With jitter the fastest packet lies between the delay less the
		// jitter and the delay.
		jitter := duration(t, sc.settings["JITTER"])
		delay := duration(t, sc.settings["DELAY"]) - jitter
		rate, _ := strconv.ParseFloat(sc.settings["RATE"], 64) // Mbit/s
		for d := range 2 {
			dh := &ch.Dir[d]
			if !dh.Forward == (d == 0) {
				t.Errorf("%s %s: the direction runs the wrong way", sc.name, linkDir[d])
			}
			lost, _, reord, unordered := fromLog(events, ch, d, linkDir[d])
			if unordered > 0 {
				t.Logf("%s %s: %d reordered frames are copies of others (left out)", sc.name, linkDir[d], unordered)
			}
			// The fixed delay: the link's, plus each frame's time on the
			// wire at its rate.
			minOWD := math.Inf(1)
			for _, p := range dh.Pairs {
				ser := 0.0
				if rate > 0 {
					ser = float64(p.Size) * 8 / rate * 1e3 // ns
				}
				minOWD = math.Min(minOWD, float64(p.OWD)-ser)
			}
			fmt.Fprintf(&table, "%-28s %-4s %12d %12d %12d %12d %10.2f %9.2f %9.3f\n", sc.name, linkDir[d], lost, dh.LostData, reord, dh.Reordered, minOWD/1e6, float64(delay)/1e6, h.Clock.Offset/1e6)
			tol := max(2, lost/50)
			if dh.LostData < lost-tol || dh.LostData > lost+tol {
				t.Errorf("%s %s: %d data segments lost between the captures, the link dropped %d", sc.name, linkDir[d], dh.LostData, lost)
			}
			if tol := max(2, reord/50); dh.Reordered < reord-tol || dh.Reordered > reord+tol {
				t.Errorf("%s %s: %d packets reordered between the captures, the link reordered %d", sc.name, linkDir[d], dh.Reordered, reord)
			}
			if delay > 0 && (minOWD < float64(delay)-2e6 || minOWD > float64(delay+jitter)+2e6) {
				t.Errorf("%s %s: minimum one-way delay less serialisation %.3f ms, the link's delay is %v (jitter %v)", sc.name, linkDir[d], minOWD/1e6, delay+jitter, jitter)
			}
			if dh.Extra != 0 {
				t.Errorf("%s %s: %d packets seen leaving the hop were not seen entering it (both captures are whole)", sc.name, linkDir[d], dh.Extra)
			}
			if dh.OWD.Min < 0 || dh.Queue.Min < 0 {
				t.Errorf("%s %s: a negative delay", sc.name, linkDir[d])
			}
		}
		checked++
	}
	t.Logf("\n%s", table.String())
	if checked == 0 {
		t.Fatal("no scenario checked")
	}
}

// has reports whether ports sport, dport are the connection's (either way).
func (ch *ConnHop) has(sport, dport uint16) bool {
	c, s := ch.Up.Client.Port(), ch.Up.Server.Port()
	return sport == c && dport == s || sport == s && dport == c
}

// TestJoinTruncatedOptions: one capture with a snap length that cut the
// TCP options off (no timestamps, no SACK blocks), the other whole,
// still match packet for packet: the counts are those of the whole pair.
func TestJoinTruncatedOptions(t *testing.T) {
	eachLabelledPair(t, func(sc scenario, tx, rx *Capture, whole *Result) {
		cut := clone(rx)
		for _, c := range cut.Conns {
			for d := range c.Pkts {
				for i := range c.Pkts[d] {
					c.Pkts[d][i].TSVal, c.Pkts[d][i].SACK = 0, 0
				}
			}
		}
		res, err := Join([]*Capture{tx, cut})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		a, b := busiest(whole.Hops[0]), busiest(res.Hops[0])
		for d := range 2 {
			x, y := a.Dir[d], b.Dir[d]
			if x.Matched != y.Matched || x.LostData != y.LostData || x.LostAcks != y.LostAcks || x.Reordered != y.Reordered {
				t.Errorf("%s dir %d: options cut: matched %d lost %d+%d reordered %d; whole: %d, %d+%d, %d",
					sc.name, d, y.Matched, y.LostData, y.LostAcks, y.Reordered, x.Matched, x.LostData, x.LostAcks, x.Reordered)
			}
		}
	})
}

// window keeps the packets of c sent from lo to hi (a capture started
// late or stopped early).
func window(c *Capture, lo, hi int64) *Capture {
	out := clone(c)
	out.First, out.Last = hi, lo
	for _, cc := range out.Conns {
		for d := range cc.Pkts {
			var keep []packet
			for _, p := range cc.Pkts[d] {
				if p.Time >= lo && p.Time <= hi {
					keep = append(keep, p)
					out.First, out.Last = min(out.First, p.Time), max(out.Last, p.Time)
				}
			}
			cc.Pkts[d] = keep
		}
	}
	return out
}

// TestJoinPartialOverlap: the receiver's capture started late and the
// sender's stopped early; the join works on the overlap, and what it
// calls lost there is what the whole pair lost there.
func TestJoinPartialOverlap(t *testing.T) {
	eachLabelledPair(t, func(sc scenario, tx, rx *Capture, whole *Result) {
		span := tx.Last - tx.First
		lo, hi := tx.First+span*3/10, tx.First+span*7/10
		res, err := Join([]*Capture{window(tx, tx.First, hi), window(rx, lo, rx.Last)})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		a, b := busiest(whole.Hops[0]).Dir[0], busiest(res.Hops[0]).Dir[0]
		slowest := a.OWD.Max
		var inner, outer int64
		for _, lp := range a.Lost {
			lt := lp.Time
			if lt >= lo && lt <= hi-slowest {
				inner++
			}
			if lt >= lo-slowest && lt <= hi {
				outer++
			}
		}
		if b.LostData < inner || b.LostData > outer || b.Extra != 0 || b.Matched == 0 {
			t.Errorf("%s: on the overlap %d lost (%d matched, %d unmatched downstream); the whole pair lost %d to %d there", sc.name, b.LostData, b.Matched, b.Extra, inner, outer)
		}
	})
}

// TestOWDGraph: the owd graph of every bundled truth pair's data
// direction draws each packet seen at both captures once, delays never
// negative and the queueing part never above the delay, and a loss mark
// for each segment the link dropped, at the time it entered the link.
func TestOWDGraph(t *testing.T) {
	n := 0
	for _, sc := range scenarios(t) {
		if sc.settings["PEP"] == "1" || !strings.HasPrefix(sc.dir, golden.Testdata()) {
			continue
		}
		res, err := Join([]*Capture{readCapture(t, sc.tx), readCapture(t, sc.rx)})
		if err != nil {
			t.Fatal(err)
		}
		ch, d, ok := res.Pick(-1, -1)
		if !ok {
			t.Fatalf("%s: no connection picked", sc.name)
		}
		g, err := Graph(GraphOWD, res.Hops[0], ch, d)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if g2, _ := Graph("", res.Hops[0], ch, d); g2.Kind != GraphOWD {
			t.Errorf("%s: the graph that fits is %s, want owd", sc.name, g2.Kind)
		}
		if _, err := Graph(GraphProxy, res.Hops[0], ch, d); err == nil || !strings.Contains(err.Error(), "is not split by a proxy") {
			t.Errorf("%s: a proxy graph of an unsplit connection: %v", sc.name, err)
		}
		dh := &ch.Dir[d]
		count := map[string]int{}
		for _, s := range g.Series {
			count[s.Name] = len(s.Points)
			for i, p := range s.Points {
				if p.V[0] < 0 {
					t.Errorf("%s %s: a negative delay %.3f ms", sc.name, s.Name, p.V[0])
				}
				if s.Name == SeriesQueue && p.V[0] > g.Series[0].Points[i].V[0] {
					t.Errorf("%s: queueing delay %.3f ms above the delay %.3f ms", sc.name, p.V[0], g.Series[0].Points[i].V[0])
				}
				if p.Frame <= 0 || p.Time < g.TimeOrigin {
					t.Errorf("%s %s: a point without its frame or before the connection (%+v)", sc.name, s.Name, p)
				}
			}
		}
		if count[SeriesOWD] != int(dh.Matched) || count[SeriesQueue] != int(dh.Matched) || count[SeriesLostBetween] != int(dh.LostData) {
			t.Errorf("%s: drew %v for %d packets matched and %d lost", sc.name, count, dh.Matched, dh.LostData)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no bundled scenario")
	}
}

// fromLog counts what a link's log says it did to direction d (its
// "a->b" or "b->a", dir) of connection ch: data segments and pure ACKs
// dropped, frames reordered, and reordered frames the capture cannot
// tell from another (a RST storm without IP IDs or timestamps: they have
// no order of their own), left out of reord.
func fromLog(events []event, ch *ConnHop, d int, dir string) (lost, lostAcks, reord, unordered int64) {
	upPkts := ch.Up.Pkts[d]
	if !ch.Dir[d].Forward {
		upPkts = ch.Down.Pkts[reassembly.Direction(d)^dirFlip(ch.Flip)]
	}
	copies := map[ident]int{}
	for i := range upPkts {
		copies[identOf(&upPkts[i])]++
	}
	type frameKey struct {
		seq  uint32
		ipid uint16
		len  int
	}
	alike := map[frameKey]bool{}
	for i := range upPkts {
		if p := &upPkts[i]; copies[identOf(p)] > 1 && !p.Dup {
			alike[frameKey{p.Seq, p.IPID, int(p.Len)}] = true
		}
	}
	for _, e := range events {
		if e.Dir != dir || !ch.has(e.Sport, e.Dport) {
			continue
		}
		switch {
		case (e.Event == "loss" || e.Event == "queue") && e.Len > 0:
			lost++
		case e.Event == "loss" || e.Event == "queue":
			lostAcks++
		case e.Event == "reorder" && alike[frameKey{e.Seq, e.IPID, e.Len}]:
			unordered++
		case e.Event == "reorder":
			reord++
		}
	}
	return lost, lostAcks, reord, unordered
}

// checkSplit joins a scenario whose proxy splits every connection between
// the captures: each connection is paired with the proxy's own (the data
// connection with the data connection), and the proxy never delivers
// more than it accepted (one host's clock: no slack), nor accepts more
// than the sender sent.
func checkSplit(t *testing.T, sc scenario) {
	tx, rx := readCapture(t, sc.tx), readCapture(t, sc.rx)
	res, err := Join([]*Capture{rx, tx})
	if err != nil {
		t.Errorf("%s: %v", sc.name, err)
		return
	}
	if res.Captures[0] != tx {
		t.Errorf("%s: the receiver's capture was put first", sc.name)
	}
	h := res.Hops[0]
	if len(h.Conns) != len(tx.Conns) {
		t.Errorf("%s: %d of the %d connections paired", sc.name, len(h.Conns), len(tx.Conns))
	}
	biggest := func(cs []*Conn) *Conn {
		var b *Conn
		for _, c := range cs {
			if b == nil || c.Bytes[0]+c.Bytes[1] > b.Bytes[0]+b.Bytes[1] {
				b = c
			}
		}
		return b
	}
	ch := busiest(h)
	if !ch.Split || ch.Up != biggest(tx.Conns) || ch.Down != biggest(rx.Conns) {
		t.Errorf("%s: the data connection is not joined to the proxy's (split %v, streams %d and %d)", sc.name, ch.Split, ch.Up.Stream, ch.Down.Stream)
		return
	}
	d := 0
	if ch.Up.Bytes[1] > ch.Up.Bytes[0] {
		d = 1
	}
	buf := proxyBuffer(h, ch, reassembly.Direction(d))
	if len(buf) == 0 {
		t.Errorf("%s: no proxy buffer", sc.name)
		return
	}
	for _, b := range buf {
		if b.Delivered > b.Accepted {
			t.Errorf("%s: at %d the proxy had delivered %d bytes of the %d it accepted", sc.name, b.Time, b.Delivered, b.Accepted)
			break
		}
	}
	if g, _ := Graph("", h, ch, reassembly.Direction(d)); g.Kind != GraphProxy || len(g.Series) != 3 {
		t.Errorf("%s: the graph that fits a split connection: %s with %d series, want proxy with 3", sc.name, g.Kind, len(g.Series))
	}
	if _, err := Graph(GraphOWD, h, ch, reassembly.Direction(d)); err == nil || !strings.Contains(err.Error(), "a proxy splits stream") {
		t.Errorf("%s: an owd graph of a split connection: %v", sc.name, err)
	}
	last := buf[len(buf)-1]
	if last.Accepted > ch.Up.Bytes[d] || last.Delivered > ch.Down.Bytes[d] || ch.Dir[d].ProxyBufferMax <= 0 {
		t.Errorf("%s: accepted %d of %d sent, delivered %d of %d sent on, held at most %d", sc.name,
			last.Accepted, ch.Up.Bytes[d], last.Delivered, ch.Down.Bytes[d], ch.Dir[d].ProxyBufferMax)
	}
	t.Logf("%s: split; the proxy accepted %d bytes, delivered %d, held at most %d", sc.name, last.Accepted, last.Delivered, ch.Dir[d].ProxyBufferMax)
}

// TestJoinThroughNAT: a NAT between the captures rewrote the client's
// address and port (every connection's): the connections are found again
// by their initial sequence numbers, and every count is the one without
// the NAT.
func TestJoinThroughNAT(t *testing.T) {
	eachLabelledPair(t, func(sc scenario, tx, rx *Capture, plain *Result) {
		natted := clone(rx)
		for i, c := range natted.Conns {
			c.Client = netip.AddrPortFrom(netip.MustParseAddr("198.51.100.7"), uint16(40000+i))
		}
		res, err := Join([]*Capture{natted, tx})
		if err != nil {
			t.Fatalf("%s through a NAT: %v", sc.name, err)
		}
		if len(res.Hops[0].Conns) != len(plain.Hops[0].Conns) {
			t.Errorf("%s through a NAT: %d connections joined, %d without it", sc.name, len(res.Hops[0].Conns), len(plain.Hops[0].Conns))
			return
		}
		for i, ch := range res.Hops[0].Conns {
			for d := range 2 {
				a, b := plain.Hops[0].Conns[i].Dir[d], ch.Dir[d]
				if a.Matched != b.Matched || a.LostData != b.LostData || a.Reordered != b.Reordered {
					t.Errorf("%s through a NAT, stream %d dir %d: %d matched, %d lost, %d reordered; without it %d, %d, %d",
						sc.name, ch.Up.Stream, d, b.Matched, b.LostData, b.Reordered, a.Matched, a.LostData, a.Reordered)
				}
			}
		}
	})
}

// eachLabelledPair hands f each pair of the bundled labelled corpus
// (testdata/labelled) that no proxy splits, with their join: what the
// tests that change one capture compare with.
func eachLabelledPair(t *testing.T, f func(sc scenario, tx, rx *Capture, whole *Result)) {
	n := 0
	for _, sc := range scenarios(t) {
		if sc.settings["PEP"] == "1" || sc.dir != filepath.Join(golden.Testdata(), "labelled") {
			continue
		}
		tx, rx := readCapture(t, sc.tx), readCapture(t, sc.rx)
		whole, err := Join([]*Capture{tx, rx})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		f(sc, tx, rx, whole)
		n++
	}
	if n == 0 {
		t.Fatal("no labelled scenario")
	}
}
