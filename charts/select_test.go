package charts

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestFilterWords: what --filter says of a connection it does not match,
// of a joined connection not found, and of a run it kept nothing of.
func TestFilterWords(t *testing.T) {
	port80, err := reassembly.ParseFilter("port 80")
	if err != nil {
		t.Fatal(err)
	}
	f, none := Filter{Expr: port80, Raw: "port 80"}, Filter{}
	l := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 4}}
	if err := f.Excludes("x.pcap#4", l); fmt.Sprint(err) != `x.pcap#4: stream 4 is not among the connections --filter "port 80" matches` {
		t.Errorf("Excludes: %v", err)
	}
	if err := none.Excludes("x.pcap#4", l); err != nil {
		t.Errorf("no filter excludes: %v", err)
	}
	res := &join.Result{Hops: []*join.Hop{{Up: &join.Capture{Name: "a.pcap"}, Down: &join.Capture{Name: "b.pcap"}}}}
	for _, c := range []struct {
		f      Filter
		stream int
		want   string
	}{
		{f, 3, `-s 3: no such connection among those --filter "port 80" matches in both a.pcap>b.pcap`},
		{f, -1, `--filter "port 80" matches no connection seen in both a.pcap>b.pcap`},
		{none, 3, "-s 3: no such connection in both a.pcap>b.pcap"},
	} {
		if err := c.f.NoPick(c.stream, res); fmt.Sprint(err) != c.want {
			t.Errorf("NoPick(%d): %v, want %s", c.stream, err, c.want)
		}
	}
	var matched atomic.Int64
	if err := f.SelectsNothing(&matched, []string{"1", "3-5", "1"}); fmt.Sprint(err) != `--filter "port 80" with -s 1,3-5 selects no connection or flow` {
		t.Errorf("SelectsNothing: %v", err)
	}
	if matched.Add(1); f.SelectsNothing(&matched, nil) != nil || none.SelectsNothing(nil, nil) != nil || none.Flow() != nil {
		t.Error("a selection that kept something, or none asked, says nothing")
	}
}

// TestNamedFlow: CAPTURE#N keeps TCP stream N, CAPTURE#udpN UDP flow N,
// noted by Seen before the filter after it; each says when its flow is
// not in the capture.
func TestNamedFlow(t *testing.T) {
	tcp, udp := Named{Name: "x.pcap", Path: "x.pcap", Stream: 2, HasStream: true}, Named{Name: "x.pcap#udp1", Path: "x.pcap", UDP: true, UDPFlow: 1}
	var seen atomic.Bool
	f := Seen(tcp.StreamFilter(), &seen, reassembly.StreamFilter{Set: map[int]bool{7: true}})
	if f.Match(&reassembly.FlowView{Proto: "tcp", Stream: 2}) || !seen.Load() {
		t.Errorf("Seen: stream 2 seen %v, then dropped by the filter after", seen.Load())
	}
	if udp.StreamFilter().Match(&reassembly.FlowView{Proto: "tcp", Stream: 1}) || !udp.StreamFilter().Match(&reassembly.FlowView{Proto: "udp", Stream: 1}) || (Named{Name: "x"}).StreamFilter() != nil {
		t.Error("StreamFilter: CAPTURE#udp1 is UDP flow 1 alone; a whole capture has none")
	}
	if got := fmt.Sprint(tcp.Absent(), "; ", udp.Absent(), "; ", Named{Name: "-"}.Display()); got != "x.pcap: no stream 2; x.pcap#udp1: no UDP flow 1; standard input" {
		t.Errorf("Absent: %s", got)
	}
	for cmd, want := range map[string]string{"seq": "<nil>", "sweep": "<nil>", "flows": "<nil>",
		"summary": "summary: x.pcap#udp1: CAPTURE#udp names a UDP flow for the graph commands, compare, sweep, flows and io; summary reads TCP connections: name the capture alone"} {
		if got := fmt.Sprint(InputRefused(cmd, udp)); got != want {
			t.Errorf("InputRefused(%s): %s, want %s", cmd, got, want)
		}
	}
	joined := Named{Name: "a.pcap+b.pcap", Path: "a.pcap", Joined: []string{"b.pcap"}}
	if err := InputRefused("seq", joined); fmt.Sprint(err) != "seq: a.pcap+b.pcap: joined captures (A+B) are for report and compare; join and ladder take the captures as separate arguments" || InputRefused("report", joined) != nil {
		t.Errorf("InputRefused(seq, A+B): %v", err)
	}
	busiest := udp
	busiest.UDPFlow = -1
	if err := InputRefused("io", busiest); fmt.Sprint(err) != "io: x.pcap#udp1: name the UDP flow by its number, CAPTURE#udpN (flows lists them)" {
		t.Errorf("InputRefused(io, CAPTURE#udp): %v", err)
	}
}

// TestLadderOfOne: the ladder of one capture names it in each error: a
// --filter that selects nothing, a stream not there (among those the
// filter keeps), a window without a packet.
func TestLadderOfOne(t *testing.T) {
	// A capture read afresh for each case: Select keeps its connections
	// in place.
	one := func() *join.Result {
		f, err := os.Open(filepath.Join(golden.Testdata(), "geo_short.pcap"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		c, err := join.Read("geo_short.pcap", mustReader(t, f))
		if err != nil {
			t.Fatal(err)
		}
		return &join.Result{Captures: []*join.Capture{c}}
	}
	port1, err := reassembly.ParseFilter("port 1")
	if err != nil {
		t.Fatal(err)
	}
	tcp, err := reassembly.ParseFilter("tcp")
	if err != nil {
		t.Fatal(err)
	}
	far := join.LadderOptions{Packets: 10, Time: analyze.Range{HasMin: true, Min: 1e15}}
	for _, c := range []struct {
		f      Filter
		stream int
		o      join.LadderOptions
		want   string
	}{
		{Filter{}, -1, join.LadderOptions{Packets: 10}, "<nil>"},
		{Filter{Expr: port1, Raw: "port 1"}, -1, join.LadderOptions{Packets: 10}, `g.pcap: --filter "port 1" selects no connection`},
		{Filter{}, 999, join.LadderOptions{Packets: 10}, "g.pcap: -s 999: no such connection"},
		{Filter{Expr: tcp, Raw: "tcp"}, 999, join.LadderOptions{Packets: 10}, `g.pcap: -s 999: no such connection among those --filter "tcp" matches`},
		{Filter{}, -1, far, "g.pcap: stream 1: nothing to draw in the window asked for"},
	} {
		g, err := c.f.Ladder(one(), "g.pcap", c.stream, c.o)
		if fmt.Sprint(err) != c.want || err == nil && (g == nil || len(g.Series) == 0) {
			t.Errorf("%q -s %d: %v, want %s", c.f.Raw, c.stream, err, c.want)
		}
	}
}
