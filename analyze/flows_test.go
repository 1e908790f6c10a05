package analyze

import (
	"bytes"
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
	"tcpviz/internal/udpbuild"
	"tcpviz/reassembly"
)

// runFlows returns every flow of a capture, in the order Run hands them
// over.
func runFlows(t *testing.T, r *reassembly.Reader) ([]*FlowResult, *RunResult) {
	t.Helper()
	var flows []*FlowResult
	res, err := Run(r, RunOptions{Keep: -1, OnFlow: func(f *FlowResult) { flows = append(flows, f) }})
	if err != nil {
		t.Fatal(err)
	}
	return flows, res
}

// TestIperf3UDPCaptures: on the bundled iperf3 UDP run, the receiver's
// capture gives iperf3's own loss count and a jitter close to its report
// (113/12948 lost, 3.435 ms); the sender's capture loses nothing.
func TestIperf3UDPCaptures(t *testing.T) {
	dir := filepath.Join(golden.SharedCaptures(), "udp")
	for _, tc := range []struct {
		side             string
		lost, total      int64
		jitterMs, within float64
	}{
		{"rx", 113, 12948, 3.435, 0.25},
		{"tx", 0, 12948, 0, 0},
	} {
		t.Run(tc.side, func(t *testing.T) {
			path := filepath.Join(dir, "udp_jitter_50ms."+tc.side+".pcap")
			if _, err := os.Stat(path); err != nil {
				t.Skip(err)
			}
			flows, res := runFlows(t, capturetest.Reader(t, path))
			var app *FlowResult
			for _, f := range flows {
				if f.App != nil {
					if app != nil {
						t.Fatalf("two iperf3 flows: %d and %d", app.Flow, f.Flow)
					}
					app = f
				}
			}
			if app == nil {
				t.Fatalf("no iperf3 flow among %d flows", len(flows))
			}
			busiest, err := pickUDP(func() (*reassembly.Reader, error) { return capturetest.Reader(t, path), nil }, -1, nil)
			if app.Proto != reassembly.ProtoUDP || app.Flow != 0 || busiest != 0 || err != nil {
				t.Errorf("iperf3 flow is %s %d (busiest UDP %d, %v), want udp 0", reassembly.ProtoName(app.Proto), app.Flow, busiest, err)
			}
			a := app.App
			t.Logf("%s: %d/%d lost, %d out of order, jitter %.3f ms, %d received", tc.side, a.Lost, a.Packets, a.OutOfOrder, a.JitterMs, a.Received)
			if a.Lost != tc.lost {
				t.Errorf("lost %d, want %d", a.Lost, tc.lost)
			}
			if tc.side == "rx" && a.Packets != tc.total {
				t.Errorf("total %d, want %d", a.Packets, tc.total)
			}
			if tc.within > 0 && math.Abs(a.JitterMs-tc.jitterMs) > tc.within*tc.jitterMs {
				t.Errorf("jitter %.3f ms, want within %.0f%% of %.3f ms", a.JitterMs, tc.within*100, tc.jitterMs)
			}
			if a.FromDst || a.Counters64 {
				t.Errorf("from dst %v, 64-bit counters %v; want the client's 32-bit datagrams", a.FromDst, a.Counters64)
			}
			// TCP rows: iperf3's control connection, as streams sees it.
			tcp := 0
			for _, f := range flows {
				if f.Proto == reassembly.ProtoTCP {
					tcp++
				}
			}
			if tcp != res.Streams || tcp == 0 {
				t.Errorf("%d TCP flows, want the %d streams", tcp, res.Streams)
			}
		})
	}
}

// TestIperf3Rules: iperf3's counting on a synthetic receiver capture —
// a gap is a loss until the late datagram arrives, which is then out of
// order and no longer lost; jitter follows RFC 3550's running mean; a
// flow of other datagrams is not taken for iperf3.
func TestIperf3Rules(t *testing.T) {
	cli := netip.MustParseAddrPort("10.0.0.1:40000")
	srv := netip.MustParseAddrPort("10.0.0.2:5201")
	other := netip.MustParseAddrPort("10.0.0.3:53")
	var frames []udpbuild.Frame
	add := func(at time.Duration, d udpbuild.Datagram) {
		frames = append(frames, udpbuild.Frame{T: at, Data: d.Packet()})
	}
	add(0, udpbuild.Datagram{Src: cli, Dst: srv, Payload: []byte("9876")}) // connect message
	add(time.Millisecond, udpbuild.Datagram{Src: srv, Dst: cli, Payload: []byte("6789")})
	// Datagrams 1..20 sent every ms from sender time 1000 s; 5 and 6 are
	// lost, 9 arrives after 11; transit 10 ms, but 2 ms more for odd
	// sequence numbers.
	order := []uint32{1, 2, 3, 4, 7, 8, 10, 11, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	var wantJitter float64
	var prev time.Duration
	for i, seq := range order {
		sent := 1000*time.Second + time.Duration(seq)*time.Millisecond
		transit := 10 * time.Millisecond
		if seq%2 == 1 {
			transit += 2 * time.Millisecond
		}
		arrival := 10*time.Millisecond + time.Duration(seq)*time.Millisecond + transit
		if i > 0 {
			d := math.Abs(float64(transit - prev))
			wantJitter += (d - wantJitter) / 16
		}
		prev = transit
		add(arrival, udpbuild.Datagram{Src: cli, Dst: srv, Payload: udpbuild.Iperf3(sent, seq, 1200)})
		// DNS-like traffic on another flow: not iperf3.
		add(arrival+time.Microsecond, udpbuild.Datagram{Src: cli, Dst: other, Payload: []byte{1, 2, 3, 4, 5, 6, 0x99, 0x99, 0x99, 0x99, 1, 1, 7}})
	}
	// The arrival times above are relative to the first packet; the
	// expected jitter is in ms.
	wantJitter /= 1e6
	r, err := reassembly.NewReader(bytes.NewReader(udpbuild.Pcap(frames)))
	if err != nil {
		t.Fatal(err)
	}
	flows, _ := runFlows(t, r)
	if len(flows) != 2 {
		t.Fatalf("%d flows, want 2", len(flows))
	}
	if flows[1].App != nil {
		t.Errorf("flow 1 taken for %s", flows[1].App.Name)
	}
	a := flows[0].App
	if a == nil {
		t.Fatal("flow 0 not recognised as iperf3")
	}
	if a.Lost != 2 || a.OutOfOrder != 1 || a.Packets != 20 || a.Received != 18 {
		t.Errorf("lost %d, out of order %d, total %d, received %d; want 2, 1, 20, 18", a.Lost, a.OutOfOrder, a.Packets, a.Received)
	}
	if math.Abs(a.JitterMs-wantJitter) > 1e-9 {
		t.Errorf("jitter %.9f ms, want %.9f", a.JitterMs, wantJitter)
	}
	if f := flows[0]; f.Packets != [2]int64{19, 1} || f.Bytes != [2]int64{4 + 18*1200, 4} {
		t.Errorf("packets %v, bytes %v", f.Packets, f.Bytes)
	}
}

// TestOrderedStreamRetiredTwiceWhileWaiting: a stream retired while open,
// continued and retired again while its first part still waited for the
// streams before it keeps both parts, first part first (the second
// replaced the first: a summary row lost).
func TestOrderedStreamRetiredTwiceWhileWaiting(t *testing.T) {
	var got []string
	o := &ordered[string]{pending: map[int]string{}, sink: func(s string) { got = append(got, s) }}
	o.add(2, "2a")
	o.add(2, "2b")
	o.add(1, "1")
	o.add(0, "0")
	o.add(3, "3")
	o.add(5, "5a")
	o.add(5, "5b")
	o.flush()
	if want := "[0 1 2a 2b 3 5a 5b]"; fmt.Sprint(got) != want {
		t.Errorf("sunk %v, want %s", got, want)
	}
}

// TestOrderedAgainBounded: the later parts of a stream retired again and
// again while its first part waits count towards maxPendingConns: past
// it, what waits is let go in order, not held for ever.
func TestOrderedAgainBounded(t *testing.T) {
	var got []int
	o := &ordered[int]{pending: map[int]int{}, sink: func(v int) { got = append(got, v) }}
	o.add(1, -1) // waits for stream 0
	for i := range maxPendingConns {
		o.add(1, i)
	}
	if len(got) != maxPendingConns+1 || got[0] != -1 || got[len(got)-1] != maxPendingConns-1 {
		t.Fatalf("sunk %d values (first %v), want all %d parts of stream 1 in order once more than %d wait", len(got), got[:min(len(got), 3)], maxPendingConns+1, maxPendingConns)
	}
	if o.nAgain != 0 || len(o.again) != 0 || len(o.pending) != 0 {
		t.Errorf("after the flush %d parts (%d streams) and %d firsts still wait", o.nAgain, len(o.again), len(o.pending))
	}
	o.add(0, 7) // late: past it, at once
	o.add(2, 8)
	if want := []int{7, 8}; !slices.Equal(got[len(got)-2:], want) {
		t.Errorf("after the flush: %v, want %v", got[len(got)-2:], want)
	}
}

// TestFlowsContinuedStream: a connection retired while open among a crowd
// and continued (reassembly.Tracker.Continued) is listed in two parts, as
// the other tables list it, its packets all counted: its second part was
// left out (no OnNew for a continued connection).
func TestFlowsContinuedStream(t *testing.T) {
	r, err := reassembly.NewReader(gencap.ContinuedInCrowd())
	if err != nil {
		t.Fatal(err)
	}
	var parts int
	var packets int64
	var order []int
	_, err = Run(r, RunOptions{Keep: -1, OnFlow: func(f *FlowResult) {
		order = append(order, f.Flow)
		if f.Flow == 0 {
			parts++
			packets += f.Packets[0] + f.Packets[1]
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if parts != 2 || packets != 6 {
		t.Errorf("the continued connection: %d parts, %d packets; want 2 parts, 6 packets", parts, packets)
	}
	if len(order) != 60002 {
		t.Errorf("%d flows listed, want 60,002", len(order))
	}
}
