package join

import (
	"net/netip"
	"testing"

	"tcpviz/reassembly"
)

// TestSelectFollowsTheChain: a connection NATed between captures is kept
// on every hop when the filter matches it at any capture, the last one
// included; one it matches nowhere goes from every hop.
func TestSelectFollowsTheChain(t *testing.T) {
	conn := func(stream int, client string) *Conn {
		return &Conn{Stream: stream, Client: netip.MustParseAddrPort(client), Server: netip.MustParseAddrPort("10.0.0.9:5201"),
			Pkts: [2][]packet{{{}}, {{}}}}
	}
	// Two connections through three captures, the NAT changing the
	// client between each.
	a := []*Conn{conn(0, "10.0.0.1:40000"), conn(0, "172.16.0.1:50000"), conn(0, "192.168.0.1:61000")}
	b := []*Conn{conn(1, "10.0.0.1:40001"), conn(1, "172.16.0.1:50001"), conn(1, "192.168.0.1:61001")}
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
		any := r.Select(f)
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
