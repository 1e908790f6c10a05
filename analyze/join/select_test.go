package join

import (
	"net/netip"
	"testing"

	"tcpviz/reassembly"
)

// selectConn is a connection of stream from client to the one server,
// with a packet each way.
func selectConn(stream int, client string) *Conn {
	return &Conn{Stream: stream, Client: netip.MustParseAddrPort(client), Server: netip.MustParseAddrPort("10.0.0.9:5201"),
		Pkts: [2][]packet{{{}}, {{}}}}
}

// TestSelectFollowsTheChain: a connection NATed between captures is kept
// on every hop when the filter matches it at any capture, the last one
// included; one it matches nowhere goes from every hop.
func TestSelectFollowsTheChain(t *testing.T) {
	// Two connections through three captures, the NAT changing the
	// client between each.
	a := []*Conn{selectConn(0, "10.0.0.1:40000"), selectConn(0, "172.16.0.1:50000"), selectConn(0, "192.168.0.1:61000")}
	b := []*Conn{selectConn(1, "10.0.0.1:40001"), selectConn(1, "172.16.0.1:50001"), selectConn(1, "192.168.0.1:61001")}
	newResult := func() *Result {
		return &Result{Hops: []*Hop{
			{Conns: []*ConnHop{{Up: a[0], Down: a[1]}, {Up: b[0], Down: b[1]}}},
			{Conns: []*ConnHop{{Up: b[1], Down: b[2]}, {Up: a[1], Down: a[2]}}},
		}}
	}
	for _, c := range []struct {
		expr string
		want int // the stream kept on both hops, -1 none
	}{{"port 61000", 0}, {"port 40001", 1}, {"host 172.16.0.1 and port 50000", 0}, {"port 1", -1}} {
		f, err := reassembly.ParseFilter(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		r := newResult()
		any := r.Select(nil, f)
		if any != (c.want >= 0) {
			t.Errorf("%q: Select = %v", c.expr, any)
		}
		for i, h := range r.Hops {
			if c.want < 0 && len(h.Conns) != 0 || c.want >= 0 && (len(h.Conns) != 1 || h.Conns[0].Up.Stream != c.want) {
				t.Errorf("%q: hop %d keeps %d connections, want stream %d", c.expr, i, len(h.Conns), c.want)
			}
		}
	}
}

// TestSelectAtOneCapture: a filter given a capture (CAPTURE#N) matches
// the connections of that capture alone, and keeps each one's chain: the
// same stream number elsewhere is another connection.
func TestSelectAtOneCapture(t *testing.T) {
	// The second capture numbers the two connections the other way.
	a := []*Conn{selectConn(0, "10.0.0.1:40000"), selectConn(1, "172.16.0.1:50000"), selectConn(0, "192.168.0.1:61000")}
	b := []*Conn{selectConn(1, "10.0.0.1:40001"), selectConn(0, "172.16.0.1:50001"), selectConn(1, "192.168.0.1:61001")}
	caps := []*Capture{{Conns: []*Conn{a[0], b[0]}}, {Conns: []*Conn{b[1], a[1]}}, {Conns: []*Conn{a[2], b[2]}}}
	stream := func(n int) reassembly.Filter {
		return reassembly.StreamFilter{Set: map[int]bool{n: true}, Proto: "tcp"}
	}
	for _, c := range []struct {
		at, stream int
		want       *Conn // the chain kept, by its first connection; nil none
	}{{0, 0, a[0]}, {1, 0, b[0]}, {2, 0, a[0]}, {1, 1, a[0]}, {1, 7, nil}} {
		r := &Result{Captures: caps, Hops: []*Hop{
			{Up: caps[0], Down: caps[1], Conns: []*ConnHop{{Up: a[0], Down: a[1]}, {Up: b[0], Down: b[1]}}},
			{Up: caps[1], Down: caps[2], Conns: []*ConnHop{{Up: b[1], Down: b[2]}, {Up: a[1], Down: a[2]}}},
		}}
		if any := r.Select(caps[c.at], stream(c.stream)); any != (c.want != nil) {
			t.Errorf("capture %d stream %d: Select = %v", c.at, c.stream, any)
		}
		if c.want == nil {
			continue
		}
		for i, h := range r.Hops {
			if len(h.Conns) != 1 || i == 0 && h.Conns[0].Up != c.want || i == 1 && h.Conns[0].Up.Client.Port() != c.want.Client.Port()+10000 {
				t.Errorf("capture %d stream %d: hop %d keeps %d connections, not the chain of %s", c.at, c.stream, i, len(h.Conns), c.want.Client)
			}
		}
	}
	// One capture alone: its connections f matches.
	one := &Result{Captures: []*Capture{{Conns: []*Conn{selectConn(0, "10.0.0.1:1"), selectConn(1, "10.0.0.1:2")}}}}
	if !one.Select(one.Captures[0], stream(1)) || len(one.Captures[0].Conns) != 1 || one.Captures[0].Conns[0].Stream != 1 {
		t.Errorf("one capture: kept %d connections, want stream 1", len(one.Captures[0].Conns))
	}
}
