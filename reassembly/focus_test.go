package reassembly

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"tcpviz/internal/golden"
)

// scanFocus scans capture whole, then once for each of (up to) limit of
// its connections with a Focus made by mutate from what the whole scan
// found (FocusOf), half of them pipelined, and reports every difference
// in the focused connection's segments and final Conn. ok is false when
// the capture is not one a Focus applies to (a connection retired while
// open came back).
func scanFocus(t testing.TB, capture []byte, limit int, mutate func(*Focus)) (diffs []string, checked int, ok bool) {
	t.Helper()
	open := func() *Scanner {
		r, err := NewReader(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		return NewScanner(r)
	}
	sc := open()
	final := map[int]*Conn{}
	sc.Tracker().OnRetire = func(c *Conn) { final[c.Stream] = c }
	segs := map[int][]Segment{}
	for sc.Scan() {
		segs[sc.Segment().Stream] = append(segs[sc.Segment().Stream], *sc.Segment())
	}
	if sc.Tracker().Continued() > 0 || sc.Tracker().Evicted() > 0 {
		return nil, 0, false
	}
	n := len(final)
	step := max(1, n/limit)
	for s := 0; s < n; s += step {
		c := final[s]
		if c == nil {
			diffs = append(diffs, fmt.Sprintf("stream %d: never retired", s))
			continue
		}
		f := FocusOf(c)
		if mutate != nil {
			mutate(&f)
		}
		fs := open()
		fs.Focus(f)
		if checked%2 == 1 {
			fs.Pipeline()
		}
		var got []*Conn
		fs.Tracker().OnRetire = func(c *Conn) { got = append(got, c) }
		var gotSegs []Segment
		for fs.Scan() {
			gotSegs = append(gotSegs, *fs.Segment())
		}
		fs.Close()
		checked++
		switch {
		case len(got) != 1:
			diffs = append(diffs, fmt.Sprintf("stream %d: %d connections read, want 1", s, len(got)))
		case !reflect.DeepEqual(*got[0], *c):
			diffs = append(diffs, fmt.Sprintf("stream %d: connection\n got %+v\nwant %+v", s, *got[0], *c))
		case !reflect.DeepEqual(gotSegs, segs[s]):
			diffs = append(diffs, fmt.Sprintf("stream %d: %d segments differ from the %d of the whole scan", s, len(gotSegs), len(segs[s])))
		}
	}
	return diffs, checked, true
}

// TestFocusMatchesWholeScan: a connection read alone (Scanner.Focus) is
// what the whole scan makes of it, for connections of every capture here
// and the shared corpus.
func TestFocusMatchesWholeScan(t *testing.T) {
	limit := 12
	if raceEnabled {
		limit = 3
	}
	checked := 0
	for _, name := range golden.Captures() {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewReader(bytes.NewReader(data)); err != nil {
			continue // not a capture
		}
		diffs, n, ok := scanFocus(t, data, limit, nil)
		if !ok {
			t.Logf("%s: a connection came back after its retirement: no focus", filepath.Base(name))
		}
		checked += n
		for _, d := range diffs {
			t.Errorf("%s: %s", filepath.Base(name), d)
		}
	}
	t.Logf("%d connections checked", checked)
	// The bundled captures alone (a fresh clone) hold fewer.
	if least := golden.AtLeast(100, 45); checked < least {
		t.Errorf("only %d connections checked, at least %d must be", checked, least)
	}
}

// TestFocusPortReuse: connections that share a 4-tuple, one after the
// other (a new SYN over an open connection, over a closed one, a SYN
// retransmitted), with other connections between, read alone.
func TestFocusPortReuse(t *testing.T) {
	other := "10.0.0.7:33000"
	var pkts []pkt
	at := func(p pkt, t0 int) pkt { p.t = ms(t0); return p }
	// Stream 0 on the 4-tuple, open (no FIN), taken over by stream 2's SYN.
	pkts = append(pkts, handshake(0, 1000, 5000)...)
	pkts = append(pkts,
		pkt{t: ms(25), src: other, dst: srv, seq: 77, flags: SYN, ipid: 7},
		pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK | PSH, payload: 100, ipid: 3},
		pkt{t: ms(31), src: srv, dst: other, seq: 88, ack: 78, flags: SYN | ACK, ipid: 8})
	pkts = append(pkts, handshake(ms(40), 9000, 6000)...)
	pkts = append(pkts,
		pkt{t: ms(70), src: cli, dst: srv, seq: 9001, ack: 6001, flags: ACK | PSH, payload: 200, ipid: 4},
		pkt{t: ms(71), src: other, dst: srv, seq: 78, ack: 89, flags: ACK, ipid: 9},
		pkt{t: ms(80), src: cli, dst: srv, seq: 9201, ack: 6001, flags: FIN | ACK, ipid: 5},
		pkt{t: ms(90), src: srv, dst: cli, seq: 6001, ack: 9202, flags: FIN | ACK, ipid: 101})
	// After the close: a lone SYN, retransmitted, then a new ISN.
	pkts = append(pkts,
		pkt{t: ms(100), src: cli, dst: srv, seq: 20000, flags: SYN, ipid: 10},
		at(pkt{src: other, dst: srv, seq: 78, ack: 89, flags: ACK, payload: 10, ipid: 11}, 101),
		pkt{t: ms(1100), src: cli, dst: srv, seq: 20000, flags: SYN, ipid: 12},
		pkt{t: ms(1200), src: cli, dst: srv, seq: 30000, flags: SYN, ipid: 13},
		pkt{t: ms(1210), src: srv, dst: cli, seq: 40000, ack: 30001, flags: SYN | ACK, ipid: 102},
		pkt{t: ms(1220), src: cli, dst: srv, seq: 30001, ack: 40001, flags: ACK, payload: 50, ipid: 14})
	diffs, n, ok := scanFocus(t, pcapOf(t, pkts), 100, nil)
	if !ok {
		t.Fatal("no focus")
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if n != 5 {
		t.Errorf("%d connections checked, want 5", n)
	}
	// The test can fail: a focus that forgets the port reuse, or starts a
	// packet late, is seen.
	for name, mutate := range map[string]func(*Focus){
		"ReusedPorts": func(f *Focus) { f.ReusedPorts = !f.ReusedPorts },
		"FirstFrame":  func(f *Focus) { f.FirstFrame++ },
		"LastFrame":   func(f *Focus) { f.LastFrame-- },
	} {
		if diffs, _, _ := scanFocus(t, pcapOf(t, pkts), 100, mutate); len(diffs) == 0 {
			t.Errorf("a focus with %s changed: no difference seen", name)
		}
	}
}
